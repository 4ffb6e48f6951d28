#include "tests/fuzz/seed_bytes.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "formats/io/byte_writer.h"

namespace marrow::fuzz::seeds {
namespace {

using formats::ByteWriter;

void magic(ByteWriter& w, std::string_view m, int version) {
  for (char c : m) w.u8(static_cast<std::uint8_t>(c));
  w.u8(0);
  w.i32(version);
}

// Fields written least-significant bit first, as the IMVU reader takes them (§4.4).
class Bits {
 public:
  void put(std::uint64_t value, int bits) {
    for (int i = 0; i < bits; ++i, ++n_) {
      if (n_ % 8 == 0) bytes_.push_back(0);
      if ((value >> i) & 1) bytes_.back() |= static_cast<std::uint8_t>(1u << (n_ % 8));
    }
  }
  void flushTo(ByteWriter& w) {
    for (auto b : bytes_) w.u8(b);
    bytes_.clear();
    n_ = 0;
  }

 private:
  std::vector<std::uint8_t> bytes_;
  int n_ = 0;
};

}  // namespace

std::vector<std::byte> quantisedCaf1200() {
  ByteWriter w;
  magic(w, "CAF", 1200);
  w.f32(1.0f);  // duration
  w.i32(2);     // tracks
  w.i32(1);     // flags: bit 0, quantised
  for (int bone = 0; bone < 2; ++bone) {
    w.i32(bone);
    w.i32(3);
    for (float v : {-1.0f, -2.0f, 0.0f}) w.f32(v);                     // min
    for (float v : {2.0f / 2047, 4.0f / 2047, 1.0f / 1023}) w.f32(v);  // scale
    for (int k = 0; k < 3; ++k) {
      w.u16(static_cast<std::uint16_t>(k * 32767));  // time = t / 65535 × duration
      w.u32(k == 2 ? 0xFFE007FFu : 0x00100400u * (k + 1));
      // (s0, s1, s2) = (4633, 9267, 13901): (0.1, 0.2, 0.3, 0.9274), §4.3's test vector.
      for (std::uint16_t s : {4633, 9267, 13901}) w.u16(s);
    }
  }
  return w.take();
}

std::vector<std::byte> bitPackedCaf(int version) {
  ByteWriter w;
  magic(w, "CAF", version);
  if (version >= 919) w.i32(1);  // compressionFlag
  w.f32(2.0f);
  w.i32(3);
  if (version >= 1300) w.i32(0);  // flags
  struct TrackSpec {
    int bone;
    bool dynamic, highRange, translation;
  };
  for (const TrackSpec& t : {TrackSpec{0, true, false, true}, TrackSpec{1, false, true, true},
                             TrackSpec{2, false, false, false}}) {
    w.u8(static_cast<std::uint8_t>(t.bone & 0xFF));
    w.u8(static_cast<std::uint8_t>(((t.bone >> 8) & 0x1F) | (t.dynamic << 5) | (t.highRange << 6) |
                                   (t.translation << 7)));
    const int keys = 3;
    w.u16(keys);
    for (int k = 0; k < keys; ++k) {
      Bits b;
      if (t.translation && (k == 0 || t.dynamic)) {
        for (int axis = 0; axis < 3; ++axis) {
          if (t.highRange) {
            b.put(1000u * (axis + 1) + k, 25);
            b.put(axis == 1, 1);
          } else {
            b.put(100u + 50u * axis + k, 9);
            b.put(axis == 2, 1);
          }
        }
        b.put(0, 2);
        b.flushTo(w);
      }
      b.put(k % 4, 2);  // the dropped component
      for (int c = 0; c < 3; ++c) {
        b.put(c == 1, 1);               // sign
        b.put(300u * (c + 1) + k, 11);  // magnitude / 2047
      }
      b.put(static_cast<std::uint64_t>(k * 30), 10);  // steps of 1/30 s
      b.flushTo(w);
    }
  }
  return w.take();
}

std::vector<std::byte> extTable() {
  ByteWriter w;
  w.u32(43);  // unknown, §7
  w.u32(3);   // columns
  w.u32(2);   // rows
  const std::pair<const char*, std::uint32_t> columns[] = {
      {"_Name", 1}, {"_Count", 3}, {"_Rate", 4}};
  for (const auto& [name, type] : columns) {
    w.fixedString(name, 64);
    w.u32(type);
  }
  for (std::uint32_t row = 0; row < 2; ++row) {
    w.u32(7 - row);
    const std::string text = row ? "second" : "first";
    w.u16(static_cast<std::uint16_t>(text.size()));
    for (char c : text) w.u8(static_cast<std::uint8_t>(c));
    w.i32(static_cast<std::int32_t>(100 * row));
    w.f32(0.25f * row);
  }
  for (char c : std::string_view("\x05THEND")) w.u8(static_cast<std::uint8_t>(c));
  return w.take();
}

namespace {

constexpr std::uint32_t fourCC(const char (&s)[5]) {
  return std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
         std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24;
}

struct DdsSpec {
  std::uint32_t width = 8, height = 8, mips = 1;
  std::uint32_t pfFlags = 0x4, fourCC = 0, bits = 0;
  std::uint32_t masks[4] = {0, 0, 0, 0};
  std::uint32_t caps2 = 0;
  bool dx10 = false;
  std::uint32_t dxgi = 0, dimension = 3, misc = 0, arraySize = 1;
  std::uint32_t blockBytes = 0;  // DXT: 8 or 16; 0: uncompressed
  std::uint32_t faces = 1;
};

std::vector<std::byte> dds(const DdsSpec& s) {
  ByteWriter w;
  w.u32(fourCC("DDS "));
  w.u32(124);
  w.u32(0x1 | 0x2 | 0x4 | 0x1000 | (s.mips > 1 ? 0x20000 : 0));
  w.u32(s.height);
  w.u32(s.width);
  w.u32(0);  // pitch or linear size
  w.u32(0);  // depth
  w.u32(s.mips);
  w.zeros(44);
  w.u32(32);
  w.u32(s.pfFlags);
  w.u32(s.fourCC);
  w.u32(s.bits);
  for (auto m : s.masks) w.u32(m);
  w.u32(0x1000 | (s.mips > 1 ? 0x400008 : 0));
  w.u32(s.caps2);
  w.zeros(12);
  if (s.dx10) {
    w.u32(s.dxgi);
    w.u32(s.dimension);
    w.u32(s.misc);
    w.u32(s.arraySize);
    w.u32(0);
  }
  std::uint32_t seed = 12345;
  for (std::uint32_t face = 0; face < s.faces; ++face)
    for (std::uint32_t i = 0; i < s.mips; ++i) {
      const std::uint32_t mw = std::max(s.width >> i, 1u), mh = std::max(s.height >> i, 1u);
      const std::uint64_t n = s.blockBytes
                                  ? std::uint64_t{(mw + 3) / 4} * ((mh + 3) / 4) * s.blockBytes
                                  : std::uint64_t{mw} * mh * (s.bits / 8);
      for (std::uint64_t k = 0; k < n; ++k) {
        seed = seed * 1103515245u + 12345u;
        w.u8(static_cast<std::uint8_t>(seed >> 16));
      }
    }
  return w.take();
}

}  // namespace

std::vector<std::pair<std::string, std::vector<std::byte>>> ddsImages() {
  std::vector<std::pair<std::string, std::vector<std::byte>>> out;
  auto add = [&](std::string name, DdsSpec s) { out.emplace_back(std::move(name), dds(s)); };
  DdsSpec s;
  s.mips = 4;
  s.fourCC = fourCC("DXT1"), s.blockBytes = 8;
  add("dxt1_mips.dds", s);
  s.fourCC = fourCC("DXT3"), s.blockBytes = 16;
  add("dxt3_mips.dds", s);
  s.fourCC = fourCC("DXT5");
  s.width = 12, s.height = 4, s.mips = 3;
  add("dxt5_12x4.dds", s);

  DdsSpec u;
  u.width = 4, u.height = 4, u.mips = 3, u.pfFlags = 0x41, u.bits = 32;
  u.masks[0] = 0x00FF0000, u.masks[1] = 0x0000FF00, u.masks[2] = 0x000000FF,
  u.masks[3] = 0xFF000000;
  add("argb8888.dds", u);
  u.pfFlags = 0x40, u.bits = 24, u.masks[3] = 0;
  add("rgb888.dds", u);
  u.bits = 16, u.masks[0] = 0xF800, u.masks[1] = 0x07E0, u.masks[2] = 0x001F;
  add("rgb565.dds", u);
  u.pfFlags = 0x41, u.masks[0] = 0x7C00, u.masks[1] = 0x03E0, u.masks[2] = 0x001F,
  u.masks[3] = 0x8000;
  add("argb1555.dds", u);
  DdsSpec l;
  l.width = 3, l.height = 5, l.pfFlags = 0x20000, l.bits = 8, l.masks[0] = 0xFF;
  add("luminance8.dds", l);
  l.pfFlags = 0x2, l.masks[0] = 0, l.masks[3] = 0xFF;
  add("alpha8.dds", l);

  DdsSpec x;
  x.fourCC = fourCC("DX10"), x.dx10 = true, x.dxgi = 72, x.blockBytes = 8, x.mips = 2;
  add("dx10_bc1_srgb.dds", x);
  x.dxgi = 28, x.blockBytes = 0, x.bits = 32;
  add("dx10_rgba8.dds", x);
  x.arraySize = 2, x.dxgi = 87;
  add("dx10_bgra8_array.dds", x);

  DdsSpec cube;
  cube.width = 4, cube.height = 4, cube.fourCC = fourCC("DXT1"), cube.blockBytes = 8;
  cube.caps2 = 0x200 | 0xFC00, cube.faces = 6;
  add("cube_dxt1.dds", cube);
  return out;
}

namespace {

struct TgaSpec {
  std::uint8_t type = 2, depth = 24, descriptor = 0;
  std::uint16_t width = 4, height = 3;
  std::uint8_t mapDepth = 0;
  std::uint16_t mapFirst = 0, mapLength = 0;
  std::string id;
  bool footer = false;
};

std::vector<std::byte> tga(const TgaSpec& s) {
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(s.id.size()));
  w.u8(s.mapLength ? 1 : 0);
  w.u8(s.type);
  w.u16(s.mapFirst);
  w.u16(s.mapLength);
  w.u8(s.mapDepth);
  w.u16(0);  // x origin
  w.u16(0);  // y origin
  w.u16(s.width);
  w.u16(s.height);
  w.u8(s.depth);
  w.u8(s.descriptor);
  for (char c : s.id) w.u8(static_cast<std::uint8_t>(c));
  std::uint32_t seed = 777;
  const auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return static_cast<std::uint8_t>(seed >> 16);
  };
  for (std::uint32_t i = 0; i < std::uint32_t{s.mapLength} * ((s.mapDepth + 7) / 8); ++i)
    w.u8(next());
  const std::uint32_t pixels = std::uint32_t{s.width} * s.height;
  const std::uint32_t bytesPerPixel = (s.depth + 7) / 8;
  const auto pixel = [&] {
    for (std::uint32_t b = 0; b < bytesPerPixel; ++b)
      w.u8(s.mapLength && b == 0 ? static_cast<std::uint8_t>(s.mapFirst + next() % s.mapLength)
                                 : next());
  };
  if (s.type >= 9) {
    // Alternating run and raw packets of 3 pixels, crossing row ends (allowed by 2.0).
    for (std::uint32_t done = 0, k = 0; done < pixels; ++k) {
      const std::uint32_t n = std::min<std::uint32_t>(3, pixels - done);
      if (k % 2 == 0) {
        w.u8(static_cast<std::uint8_t>(0x80 | (n - 1)));
        pixel();
      } else {
        w.u8(static_cast<std::uint8_t>(n - 1));
        for (std::uint32_t i = 0; i < n; ++i) pixel();
      }
      done += n;
    }
  } else {
    for (std::uint32_t i = 0; i < pixels; ++i) pixel();
  }
  if (s.footer) {
    w.u32(0);
    w.u32(0);
    for (char c : std::string_view("TRUEVISION-XFILE.")) w.u8(static_cast<std::uint8_t>(c));
    w.u8(0);
  }
  return w.take();
}

}  // namespace

std::vector<std::pair<std::string, std::vector<std::byte>>> tgaImages() {
  std::vector<std::pair<std::string, std::vector<std::byte>>> out;
  auto add = [&](std::string name, TgaSpec s) { out.emplace_back(std::move(name), tga(s)); };
  for (std::uint8_t depth : {15, 16, 24, 32}) {
    TgaSpec s;
    s.depth = depth;
    s.descriptor = depth == 32 ? 8 : depth == 16 ? 1 : 0;
    add("true" + std::to_string(depth) + ".tga", s);
    s.type = 10;
    s.descriptor |= 0x20;  // top-left origin
    add("rle_true" + std::to_string(depth) + ".tga", s);
  }
  TgaSpec grey;
  grey.type = 3, grey.depth = 8, grey.id = "grey", grey.footer = true;
  add("grey8_footer.tga", grey);
  grey.type = 11, grey.depth = 16, grey.descriptor = 0x18;  // grey + alpha, top-right origin
  add("rle_grey16.tga", grey);
  for (std::uint8_t mapDepth : {15, 16, 24, 32}) {
    TgaSpec m;
    m.type = 1, m.depth = 8, m.mapDepth = mapDepth, m.mapFirst = 2, m.mapLength = 6;
    add("mapped" + std::to_string(mapDepth) + ".tga", m);
    m.type = 9;
    add("rle_mapped" + std::to_string(mapDepth) + ".tga", m);
  }
  return out;
}

}  // namespace marrow::fuzz::seeds
