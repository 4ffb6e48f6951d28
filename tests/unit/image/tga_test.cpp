// TGA: files built here byte by byte as the Truevision TGA 2.0 specification lays them out (the
// 18-byte header, image ID, colour map, pixels in the order the origin bits give, run-length
// packets), with the expected RGBA worked out from the spec's pixel layouts, not by the decoder.
#include "formats/image/tga.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace marrow::formats {
namespace {

using Bytes = std::vector<std::byte>;

struct Px {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Px&) const = default;
};

void put8(Bytes& b, unsigned v) {
  b.push_back(std::byte(v & 0xFF));
}
void put16(Bytes& b, unsigned v) {
  put8(b, v);
  put8(b, v >> 8);
}

// A TGA file: header fields by the spec's names, then the ID, the map and the pixel bytes.
struct Tga {
  unsigned mapType = 0, imageType = 2;
  unsigned firstEntry = 0, mapLength = 0, entrySize = 0;
  unsigned width = 1, height = 1, depth = 24, descriptor = 0;
  Bytes id, map, data;
  bool footer = false;

  Bytes bytes() const {
    Bytes b;
    put8(b, static_cast<unsigned>(id.size()));
    put8(b, mapType);
    put8(b, imageType);
    put16(b, firstEntry);
    put16(b, mapLength);
    put8(b, entrySize);
    put16(b, 0);  // X-origin
    put16(b, 0);  // Y-origin
    put16(b, width);
    put16(b, height);
    put8(b, depth);
    put8(b, descriptor);
    b.insert(b.end(), id.begin(), id.end());
    b.insert(b.end(), map.begin(), map.end());
    b.insert(b.end(), data.begin(), data.end());
    if (footer) {
      for (int i = 0; i < 8; ++i) put8(b, 0);  // extension and developer area offsets
      for (char c : std::string("TRUEVISION-XFILE.")) put8(b, static_cast<unsigned char>(c));
      put8(b, 0);
    }
    return b;
  }
};

// 8 bits to the 5 a 16-bit pixel keeps, and the 8 bits that 5 stand for (v / 31, rounded).
unsigned five(std::uint8_t v) {
  return v >> 3;
}
std::uint8_t from5(unsigned v) {
  return static_cast<std::uint8_t>(std::lround(v * 255.0 / 31.0));
}

// Pixel encodings (spec, field 7 / 8): 16-bit A RRRRR GGGGG BBBBB little-endian; 24-bit B G R;
// 32-bit B G R A.
void encode(Bytes& b, const Px& p, unsigned bits) {
  switch (bits) {
    case 15:
    case 16:
      put16(b, (p.a >= 128 ? 0x8000u : 0u) | five(p.r) << 10 | five(p.g) << 5 | five(p.b));
      break;
    case 24: put8(b, p.b), put8(b, p.g), put8(b, p.r); break;
    case 32: put8(b, p.b), put8(b, p.g), put8(b, p.r), put8(b, p.a); break;
    default: FAIL() << bits;
  }
}

// What a pixel reads as after its trip through `bits` bits, with or without alpha.
Px expected(const Px& p, unsigned bits, bool alpha) {
  switch (bits) {
    case 15:
    case 16:
      return {from5(five(p.r)), from5(five(p.g)), from5(five(p.b)),
              std::uint8_t(alpha && p.a < 128 ? 0 : 255)};
    case 24: return {p.r, p.g, p.b, 255};
    default: return {p.r, p.g, p.b, alpha ? p.a : std::uint8_t(255)};
  }
}

// `shown` (top row first, left to right) in the order a file with `descriptor` stores it.
template <class T>
std::vector<T> storedOrder(const std::vector<T>& shown, unsigned w, unsigned h,
                           unsigned descriptor) {
  std::vector<T> out;
  for (unsigned row = 0; row < h; ++row)
    for (unsigned col = 0; col < w; ++col) {
      const unsigned y = (descriptor & 0x20) ? row : h - 1 - row;
      const unsigned x = (descriptor & 0x10) ? w - 1 - col : col;
      out.push_back(shown[y * w + x]);
    }
  return out;
}

// Run-length packets over the whole pixel stream (crossing rows): runs of 2+ equal pixels as
// run packets, everything else as raw packets, at most 128 pixels a packet (spec, field 6).
template <class T, class Put>
Bytes runLength(const std::vector<T>& px, Put put) {
  Bytes b;
  std::size_t i = 0;
  while (i < px.size()) {
    std::size_t run = 1;
    while (i + run < px.size() && run < 128 && px[i + run] == px[i]) ++run;
    if (run >= 2) {
      put8(b, 0x80 | (run - 1));
      put(b, px[i]);
      i += run;
      continue;
    }
    std::size_t raw = 1;
    while (i + raw < px.size() && raw < 128 &&
           !(i + raw + 1 < px.size() && px[i + raw + 1] == px[i + raw]))
      ++raw;
    put8(b, raw - 1);
    for (std::size_t k = 0; k < raw; ++k) put(b, px[i + k]);
    i += raw;
  }
  return b;
}

std::vector<Px> rgbaOf(const TgaImage& img) {
  std::vector<Px> out;
  for (std::size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    out.push_back({img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]});
  return out;
}

// 4 × 3, every pixel different, alpha both sides of 128; two equal pixels cross rows 0-1.
const std::vector<Px> kShown = {
    {255, 0, 0, 255},     {0, 255, 0, 200},  {0, 0, 255, 100},   {40, 80, 120, 0},
    {40, 80, 120, 0},     {200, 16, 8, 255}, {8, 200, 16, 30},   {16, 8, 200, 255},
    {255, 255, 255, 255}, {0, 0, 0, 0},      {128, 64, 32, 160}, {99, 33, 66, 127},
};
constexpr unsigned kW = 4, kH = 3;

constexpr unsigned kOrigins[] = {0x00, 0x10, 0x20, 0x30};  // bottom-left, -right, top-left, -right

Result<TgaImage> decode(const Tga& t, const Limits& limits = {}) {
  return decodeTga(t.bytes(), "test.tga", limits);
}

// ---- invalid input first ----

TEST(Tga, RejectsEveryPrefixOfAValidFile) {
  Tga raw;
  raw.width = kW, raw.height = kH, raw.depth = 24, raw.descriptor = 0x20;
  raw.id = {std::byte{'i'}, std::byte{'d'}};
  raw.mapType = 1, raw.mapLength = 2, raw.entrySize = 24;  // unused by a true-colour image
  raw.map = Bytes(6, std::byte{7});
  for (const Px& p : kShown) encode(raw.data, p, 24);
  Tga rle;
  rle.imageType = 9, rle.width = kW, rle.height = kH, rle.depth = 8;
  rle.mapType = 1, rle.mapLength = 12, rle.entrySize = 32;
  for (const Px& p : kShown) encode(rle.map, p, 32);
  std::vector<unsigned> indices;
  for (unsigned i = 0; i < kW * kH; ++i) indices.push_back(i);
  rle.data = runLength(storedOrder(indices, kW, kH, 0), [](Bytes& b, unsigned v) { put8(b, v); });
  for (const Tga& t : {raw, rle}) {
    const Bytes whole = t.bytes();
    ASSERT_TRUE(decodeTga(whole, "test.tga")) << decodeTga(whole, "test.tga").error().describe();
    for (std::size_t n = 0; n < whole.size(); ++n) {
      const auto r = decodeTga(std::span(whole).first(n), "cut.tga");
      ASSERT_FALSE(r) << "a prefix of " << n << " bytes decoded";
      EXPECT_EQ(r.error().file, "cut.tga");
      EXPECT_LE(r.error().offset, n) << r.error().describe();
    }
  }
}

TEST(Tga, TruncatedPixelsNameTheImageDataAndItsOffset) {
  Tga t;
  t.width = 2, t.height = 2, t.depth = 32;
  t.id = Bytes(3, std::byte{0});
  t.data = Bytes(15, std::byte{1});  // 16 needed
  const auto r = decode(t);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "Image Data");
  EXPECT_EQ(r.error().offset, 21u);
  EXPECT_NE(r.error().message.find("needs 16 bytes"), std::string::npos) << r.error().message;
}

TEST(Tga, RunLengthPacketPastTheEndNamesItsOffset) {
  Tga t;
  t.imageType = 10, t.width = 129, t.height = 1, t.depth = 24;
  // Two raw packets of one pixel, then a run whose pixel is cut short after 2 of its 3 bytes.
  for (int i = 0; i < 2; ++i) put8(t.data, 0), encode(t.data, {1, 2, 3, 255}, 24);
  put8(t.data, 0x80 | 126);
  put8(t.data, 9);
  put8(t.data, 9);
  const auto r = decode(t);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, 18u + 8u + 1u) << r.error().describe();
  EXPECT_NE(r.error().field.find("run-length packet"), std::string::npos) << r.error().describe();
}

TEST(Tga, HostileSizesAreErrorsNotAllocations) {
  Tga huge;
  huge.width = 65535, huge.height = 65535, huge.depth = 32;
  huge.data = Bytes(64, std::byte{0});
  auto r = decode(huge);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "Image Data");

  huge.imageType = 10;  // run-length: still more packets than bytes
  r = decode(huge);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("at least"), std::string::npos) << r.error().message;

  // 1000 × 1000 grey in 7813 full runs: 15626 bytes that would become 4 MB of RGBA, past
  // the default Limits (64 bytes per input byte + 1 MiB); allowed when the limits allow it.
  Tga dense;
  dense.imageType = 11, dense.width = 1000, dense.height = 1000, dense.depth = 8;
  for (int i = 0; i < 7813; ++i) put8(dense.data, 0xFF), put8(dense.data, 42);
  r = decode(dense);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "Image Width");
  EXPECT_NE(r.error().message.find("over the limit"), std::string::npos) << r.error().message;
  Limits generous;
  generous.allocationFactor = 1024;
  r = decode(dense, generous);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->rgba.size(), 4'000'000u);
  EXPECT_EQ(r->rgba[4 * 999'999], 42);
}

TEST(Tga, RejectsHeadersItCannotRead) {
  struct Case {
    const char* what;
    Tga t;
    const char* field;
    std::uint64_t offset;
  };
  auto with = [](auto change) {
    Tga t;
    t.data = Bytes(4 * 4, std::byte{0});
    change(t);
    return t;
  };
  const Case cases[] = {
      {"no image data", with([](Tga& t) { t.imageType = 0; }), "Image Type", 2},
      {"Huffman", with([](Tga& t) { t.imageType = 32; }), "Image Type", 2},
      {"unknown type", with([](Tga& t) { t.imageType = 7; }), "Image Type", 2},
      {"reserved map type", with([](Tga& t) { t.mapType = 2; }), "Color Map Type", 1},
      {"mapped, no map", with([](Tga& t) { t.imageType = 1, t.depth = 8; }), "Color Map Type", 1},
      {"mapped, 24-bit indices",
       with([](Tga& t) { t.imageType = 1, t.mapType = 1, t.mapLength = 1, t.entrySize = 24; }),
       "Pixel Depth", 16},
      {"mapped, 8-bit entries", with([](Tga& t) {
         t.imageType = 1, t.depth = 8, t.mapType = 1, t.mapLength = 1, t.entrySize = 8;
       }),
       "Color Map Entry Size", 7},
      {"mapped, empty map",
       with([](Tga& t) { t.imageType = 9, t.depth = 8, t.mapType = 1, t.entrySize = 24; }),
       "Color Map Length", 5},
      {"grey of 24 bits", with([](Tga& t) { t.imageType = 3; }), "Pixel Depth", 16},
      {"true colour of 8 bits", with([](Tga& t) { t.depth = 8; }), "Pixel Depth", 16},
      {"no width", with([](Tga& t) { t.width = 0; }), "Image Width", 12},
      {"no height", with([](Tga& t) { t.height = 0; }), "Image Height", 14},
      {"interleaved", with([](Tga& t) { t.descriptor = 0x40; }), "Image Descriptor", 17},
      {"colour map cut short", with([](Tga& t) {
         t.mapType = 1, t.mapLength = 100, t.entrySize = 32;
         t.data.clear();
       }),
       "Color Map Data", 18},
  };
  for (const Case& c : cases) {
    const auto r = decode(c.t);
    ASSERT_FALSE(r) << c.what;
    EXPECT_EQ(r.error().field, c.field) << c.what << ": " << r.error().describe();
    EXPECT_EQ(r.error().offset, c.offset) << c.what << ": " << r.error().describe();
    if (c.offset < 18) {
      EXPECT_FALSE(isTga(c.t.bytes(), "x.tga")) << c.what;
    }
  }
}

TEST(Tga, ColourIndexOutsideTheMapIsOpaqueBlackWithAWarning) {
  Tga t;
  t.imageType = 1, t.depth = 8, t.width = 3, t.descriptor = 0x20;
  t.mapType = 1, t.firstEntry = 10, t.mapLength = 1, t.entrySize = 24;
  encode(t.map, {1, 2, 3, 255}, 24);
  t.data = {std::byte{10}, std::byte{9}, std::byte{11}};
  const auto r = decode(t);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(rgbaOf(*r), (std::vector<Px>{{1, 2, 3, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}}));
  ASSERT_EQ(r->diagnostics.items.size(), 1u);
  EXPECT_EQ(r->diagnostics.items[0].offset, 18u + 3u + 1u);
  EXPECT_NE(r->diagnostics.items[0].message.find("2 pixels"), std::string::npos);
}

TEST(Tga, RunPastTheLastPixelIsCutWithAWarning) {
  Tga t;
  t.imageType = 11, t.width = 2, t.height = 2, t.depth = 8;
  t.data = {std::byte{0x80 | 9}, std::byte{77}};  // 10 pixels for an image of 4
  const auto r = decode(t);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(rgbaOf(*r), std::vector<Px>(4, Px{77, 77, 77, 255}));
  EXPECT_EQ(r->diagnostics.count(Severity::Warning), 1u);
}

// ---- detection ----

TEST(Tga, IsTgaNeedsTheSuffixOrTheFooterAndAPlausibleHeader) {
  Tga t;
  t.data = Bytes(3, std::byte{0});
  EXPECT_TRUE(isTga(t.bytes(), "skin.tga"));
  EXPECT_TRUE(isTga(t.bytes(), "Textures/SKIN.TGA"));
  EXPECT_FALSE(isTga(t.bytes(), "skin.png"));
  EXPECT_FALSE(isTga(t.bytes(), ""));
  t.footer = true;
  EXPECT_TRUE(isTga(t.bytes(), "*0")) << "the 2.0 footer marks a TGA without a name";
  t.imageType = 4;
  EXPECT_FALSE(isTga(t.bytes(), "skin.tga"));
  const Bytes png = {std::byte{0x89}, std::byte{'P'}, std::byte{'N'}, std::byte{'G'},
                     std::byte{13},   std::byte{10},  std::byte{26},  std::byte{10}};
  Bytes padded = png;
  padded.resize(64);
  EXPECT_FALSE(isTga(padded, "mislabelled.tga"));
  EXPECT_FALSE(isTga(Bytes(17, std::byte{0}), "short.tga"));
}

// ---- pixels ----

struct Layout {
  unsigned depth, alphaBits;
};

TEST(Tga, TrueColourOfEveryDepthAndOrigin) {
  for (bool rle : {false, true})
    for (Layout l :
         {Layout{15, 0}, Layout{16, 0}, Layout{16, 1}, Layout{24, 0}, Layout{32, 8}, Layout{32, 0}})
      for (unsigned origin : kOrigins) {
        Tga t;
        t.imageType = rle ? 10 : 2;
        t.width = kW, t.height = kH, t.depth = l.depth, t.descriptor = origin | l.alphaBits;
        const auto stored = storedOrder(kShown, kW, kH, origin);
        const unsigned bits = l.depth;
        auto put = [bits](Bytes& b, const Px& p) { encode(b, p, bits); };
        if (rle)
          t.data = runLength(stored, put);
        else
          for (const Px& p : stored) put(t.data, p);
        const auto r = decode(t);
        const std::string what = "type " + std::to_string(t.imageType) + ", " +
                                 std::to_string(l.depth) + " bits, " + std::to_string(l.alphaBits) +
                                 " alpha bits, descriptor " + std::to_string(t.descriptor);
        ASSERT_TRUE(r) << what << ": " << r.error().describe();
        EXPECT_EQ(r->width, kW);
        EXPECT_EQ(r->height, kH);
        // 16-bit alpha only with an attribute bit; 32-bit alpha always (see tga.h).
        const bool alpha = l.depth == 32 || (l.depth == 16 && l.alphaBits == 1);
        std::vector<Px> want;
        for (const Px& p : kShown) want.push_back(expected(p, l.depth, alpha));
        EXPECT_EQ(rgbaOf(*r), want) << what;
        EXPECT_TRUE(r->diagnostics.empty()) << what;
      }
}

TEST(Tga, FiveBitChannelsScaleToTheNearestEightBitValue) {
  Tga t;
  t.width = 32, t.depth = 15;
  for (unsigned v = 0; v < 32; ++v) put16(t.data, v << 10 | (31 - v) << 5 | v);
  const auto r = decode(t);
  ASSERT_TRUE(r) << r.error().describe();
  for (unsigned v = 0; v < 32; ++v) {
    EXPECT_EQ(r->rgba[4 * v], from5(v)) << v;
    EXPECT_EQ(r->rgba[4 * v + 1], from5(31 - v)) << v;
  }
}

TEST(Tga, GreyOfEightAndSixteenBits) {
  for (bool rle : {false, true})
    for (unsigned depth : {8u, 16u})
      for (unsigned origin : kOrigins) {
        Tga t;
        t.imageType = rle ? 11 : 3;
        t.width = kW, t.height = kH, t.depth = depth, t.descriptor = origin | (depth == 16 ? 8 : 0);
        // Grey = the red channel; 16-bit grey is a grey byte then an alpha byte.
        auto put = [depth](Bytes& b, const Px& p) {
          put8(b, p.r);
          if (depth == 16) put8(b, p.a);
        };
        const auto stored = storedOrder(kShown, kW, kH, origin);
        if (rle)
          t.data = runLength(stored, put);
        else
          for (const Px& p : stored) put(t.data, p);
        const auto r = decode(t);
        ASSERT_TRUE(r) << r.error().describe();
        std::vector<Px> want;
        for (const Px& p : kShown)
          want.push_back({p.r, p.r, p.r, depth == 16 ? p.a : std::uint8_t(255)});
        EXPECT_EQ(rgbaOf(*r), want) << "type " << t.imageType << ", " << depth << " bits";
      }
}

TEST(Tga, ColourMappedWithEveryEntrySizeAndAFirstEntryIndex) {
  // The map holds entries 5 .. 5 + 12 - 1 of a larger palette; pixel values index that palette.
  constexpr unsigned kFirst = 5;
  for (bool rle : {false, true})
    for (unsigned indexBits : {8u, 16u})
      for (Layout l : {Layout{15, 0}, Layout{16, 0}, Layout{16, 1}, Layout{24, 0}, Layout{32, 8}})
        for (unsigned origin : {0x00u, 0x30u}) {
          Tga t;
          t.imageType = rle ? 9 : 1;
          t.width = kW, t.height = kH, t.depth = indexBits, t.descriptor = origin | l.alphaBits;
          t.mapType = 1, t.firstEntry = kFirst, t.mapLength = 12, t.entrySize = l.depth;
          for (const Px& p : kShown) encode(t.map, p, l.depth);  // entry 5 + i is kShown[i]
          std::vector<unsigned> index;
          for (unsigned i = 0; i < kW * kH; ++i) index.push_back(kFirst + i);
          // Pixels 3 and 4 share a colour: let them share an index too, so a run crosses rows.
          index[4] = index[3];
          auto put = [indexBits](Bytes& b, unsigned v) {
            if (indexBits == 8)
              put8(b, v);
            else
              put16(b, v);
          };
          const auto stored = storedOrder(index, kW, kH, origin);
          if (rle)
            t.data = runLength(stored, put);
          else
            for (unsigned v : stored) put(t.data, v);
          const auto r = decode(t);
          const std::string what = std::to_string(indexBits) + "-bit indices, " +
                                   std::to_string(l.depth) + "-bit entries, alpha bits " +
                                   std::to_string(l.alphaBits) + ", rle " + std::to_string(rle);
          ASSERT_TRUE(r) << what << ": " << r.error().describe();
          const bool alpha = l.depth == 32 || (l.depth == 16 && l.alphaBits == 1);
          std::vector<Px> want;
          for (const Px& p : kShown) want.push_back(expected(p, l.depth, alpha));
          EXPECT_EQ(rgbaOf(*r), want) << what;
        }
}

TEST(Tga, RunLengthPacketsCrossRowsInStoredOrder) {
  // 3 × 2, bottom-left origin: a run of 4 covers the bottom row and the first pixel of the top
  // row, then a raw packet of 2 finishes the top row.
  Tga t;
  t.imageType = 10, t.width = 3, t.height = 2, t.depth = 24;
  put8(t.data, 0x80 | 3);
  encode(t.data, {10, 20, 30, 255}, 24);
  put8(t.data, 1);
  encode(t.data, {1, 2, 3, 255}, 24);
  encode(t.data, {4, 5, 6, 255}, 24);
  const auto r = decode(t);
  ASSERT_TRUE(r) << r.error().describe();
  const Px a{10, 20, 30, 255}, b{1, 2, 3, 255}, c{4, 5, 6, 255};
  EXPECT_EQ(rgbaOf(*r), (std::vector<Px>{a, b, c, a, a, a}));
}

TEST(Tga, ImageIdAndUnusedColourMapAreSkipped) {
  Tga t;
  t.width = 2, t.depth = 24, t.descriptor = 0x20;
  t.id = Bytes(255, std::byte{0xAB});
  t.mapType = 1, t.mapLength = 3, t.entrySize = 16;  // carried by a true-colour image, unused
  t.map = Bytes(6, std::byte{0xCD});
  encode(t.data, {1, 2, 3, 255}, 24);
  encode(t.data, {4, 5, 6, 255}, 24);
  t.footer = true;
  const auto r = decode(t);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(rgbaOf(*r), (std::vector<Px>{{1, 2, 3, 255}, {4, 5, 6, 255}}));
  EXPECT_TRUE(r->diagnostics.empty());
}

// ---- alpha (the choices tga.h explains) ----

TEST(Tga, SixteenBitTopBitIsAlphaOnlyWithAnAttributeBit) {
  Tga t;
  t.width = 2, t.depth = 16;
  put16(t.data, 0x7C00);  // red, bit 15 clear
  put16(t.data, 0x801F);  // blue, bit 15 set
  EXPECT_EQ(rgbaOf(*decode(t)), (std::vector<Px>{{255, 0, 0, 255}, {0, 0, 255, 255}}));
  t.descriptor = 1;
  EXPECT_EQ(rgbaOf(*decode(t)), (std::vector<Px>{{255, 0, 0, 0}, {0, 0, 255, 255}}));
}

TEST(Tga, ThirtyTwoBitAlphaIsReadWhenTheDescriptorGivesNoAlphaBits) {
  Tga t;
  t.width = 2, t.depth = 32, t.descriptor = 0;
  encode(t.data, {1, 2, 3, 128}, 32);
  encode(t.data, {4, 5, 6, 0}, 32);
  const auto r = decode(t);
  ASSERT_TRUE(r);
  EXPECT_EQ(rgbaOf(*r), (std::vector<Px>{{1, 2, 3, 128}, {4, 5, 6, 0}}));
  EXPECT_TRUE(r->diagnostics.empty());
}

TEST(Tga, AllZeroAlphaUnderNoAlphaBitsIsPaddingAndReadsOpaque) {
  Tga t;
  t.width = 2, t.depth = 32, t.descriptor = 0;
  encode(t.data, {1, 2, 3, 0}, 32);
  encode(t.data, {4, 5, 6, 0}, 32);
  auto r = decode(t);
  ASSERT_TRUE(r);
  EXPECT_EQ(rgbaOf(*r), (std::vector<Px>{{1, 2, 3, 255}, {4, 5, 6, 255}}));
  EXPECT_EQ(r->diagnostics.count(Severity::Info), 1u);
  // With 8 alpha bits declared, a fully transparent image is what the file says.
  t.descriptor = 8;
  r = decode(t);
  ASSERT_TRUE(r);
  EXPECT_EQ(rgbaOf(*r), (std::vector<Px>{{1, 2, 3, 0}, {4, 5, 6, 0}}));
  EXPECT_TRUE(r->diagnostics.empty());
}

}  // namespace
}  // namespace marrow::formats
