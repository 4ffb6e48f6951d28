#include "formats/image/tga.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <optional>

#include "formats/io/byte_reader.h"

namespace marrow::formats {

namespace {

constexpr std::size_t kHeaderSize = 18;
// The last 18 bytes of a TGA 2.0 file (spec, "TGA File Footer", field 30 and the two after it).
constexpr char kSignature[18] = {'T', 'R', 'U', 'E', 'V', 'I', 'S', 'I', 'O',
                                 'N', '-', 'X', 'F', 'I', 'L', 'E', '.', '\0'};

// Header fields by offset (spec fields 1 to 5.6).
constexpr std::uint64_t kAtMapType = 1, kAtImageType = 2, kAtMapLength = 5, kAtEntrySize = 7,
                        kAtWidth = 12, kAtHeight = 14, kAtDepth = 16, kAtDescriptor = 17;

enum class Kind { Mapped, TrueColour, Grey };

struct Header {
  std::uint8_t idLength = 0, mapType = 0, imageType = 0;
  std::uint16_t firstEntry = 0, mapLength = 0;
  std::uint8_t entrySize = 0;
  std::uint16_t width = 0, height = 0;
  std::uint8_t depth = 0, descriptor = 0;

  Kind kind() const {
    const int base = imageType & 7;  // 9, 10, 11 are 1, 2, 3 run-length encoded
    return base == 1 ? Kind::Mapped : base == 2 ? Kind::TrueColour : Kind::Grey;
  }
  bool rle() const { return imageType >= 9; }
  unsigned alphaBits() const { return descriptor & 0x0F; }
  bool topToBottom() const { return (descriptor & 0x20) != 0; }
  bool rightToLeft() const { return (descriptor & 0x10) != 0; }
  unsigned pixelBytes() const { return (depth + 7u) / 8u; }
  unsigned entryBytes() const { return (entrySize + 7u) / 8u; }
};

std::uint16_t little16(const std::byte* p) {
  return static_cast<std::uint16_t>(std::to_integer<unsigned>(p[0]) |
                                    std::to_integer<unsigned>(p[1]) << 8);
}

Header headerOf(std::span<const std::byte> b) {  // b holds at least kHeaderSize bytes
  auto u8 = [&](std::size_t at) { return std::to_integer<std::uint8_t>(b[at]); };
  Header h;
  h.idLength = u8(0);
  h.mapType = u8(1);
  h.imageType = u8(2);
  h.firstEntry = little16(&b[3]);
  h.mapLength = little16(&b[5]);
  h.entrySize = u8(7);
  h.width = little16(&b[12]);
  h.height = little16(&b[14]);
  h.depth = u8(16);
  h.descriptor = u8(17);
  return h;
}

struct Problem {
  std::uint64_t at;
  const char* field;
  std::string message;
};

// What makes a header one this decoder cannot read, if anything.
std::optional<Problem> check(const Header& h) {
  auto is = [](unsigned v) { return "is " + std::to_string(v); };
  if (h.mapType > 1)
    return Problem{kAtMapType, "Color Map Type",
                   is(h.mapType) + "; only 0 (no colour map) and 1 (a colour map) are defined"};
  switch (h.imageType) {
    case 1:
    case 2:
    case 3:
    case 9:
    case 10:
    case 11: break;
    case 0: return Problem{kAtImageType, "Image Type", "is 0: the file holds no image data"};
    case 32:
    case 33:
      return Problem{kAtImageType, "Image Type",
                     is(h.imageType) + " (Huffman/delta compressed), which is not supported"};
    default:
      return Problem{kAtImageType, "Image Type",
                     is(h.imageType) + ", not a TGA image type (1-3 or 9-11)"};
  }
  const unsigned d = h.depth;
  switch (h.kind()) {
    case Kind::Mapped:
      if (h.mapType != 1)
        return Problem{kAtMapType, "Color Map Type",
                       "is 0 but image type " + std::to_string(h.imageType) +
                           " is colour-mapped: the colour map is missing"};
      if (d != 8 && d != 16)
        return Problem{kAtDepth, "Pixel Depth",
                       is(d) + "; colour indices of 8 or 16 bits are supported"};
      if (h.entrySize != 15 && h.entrySize != 16 && h.entrySize != 24 && h.entrySize != 32)
        return Problem{kAtEntrySize, "Color Map Entry Size",
                       is(h.entrySize) + "; entries of 15, 16, 24 or 32 bits are supported"};
      if (h.mapLength == 0)
        return Problem{kAtMapLength, "Color Map Length", "is 0: the colour map is empty"};
      break;
    case Kind::TrueColour:
      if (d != 15 && d != 16 && d != 24 && d != 32)
        return Problem{kAtDepth, "Pixel Depth",
                       is(d) + "; true-colour pixels of 15, 16, 24 or 32 bits are supported"};
      break;
    case Kind::Grey:
      if (d != 8 && d != 16)
        return Problem{kAtDepth, "Pixel Depth",
                       is(d) + "; grey pixels of 8 bits (16 with alpha) are supported"};
      break;
  }
  if (h.width == 0) return Problem{kAtWidth, "Image Width", "is 0: the image is empty"};
  if (h.height == 0) return Problem{kAtHeight, "Image Height", "is 0: the image is empty"};
  // Bits 7-6 were TGA 1.0's interleaving; 2.0 says they must be 0.
  if (h.descriptor & 0xC0)
    return Problem{kAtDescriptor, "Image Descriptor",
                   "bits 7-6 are " + std::to_string(h.descriptor >> 6) +
                       ": interleaved rows (TGA 1.0) are not supported"};
  return std::nullopt;
}

bool hasFooter(std::span<const std::byte> b) {
  return b.size() >= kHeaderSize + sizeof(kSignature) &&
         std::memcmp(b.data() + b.size() - sizeof(kSignature), kSignature, sizeof(kSignature)) == 0;
}

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
};

// v / 31 to the nearest of 0..255 (bit replication, v << 3 | v >> 2, is 1 off for 3, 7, 24, 28).
std::uint8_t expand5(unsigned v) {
  return std::uint8_t((v * 255 + 15) / 31);
}

// A 15/16-bit value: A RRRRR GGGGG BBBBB, little-endian (spec, field 7.1 / 8).
Rgba from16(std::uint16_t v, bool alpha) {
  return {expand5((v >> 10) & 31), expand5((v >> 5) & 31), expand5(v & 31),
          std::uint8_t(alpha && !(v & 0x8000) ? 0 : 255)};
}

// A 15-32-bit colour (map entry or true-colour pixel) of `bits`, stored B, G, R[, A].
Rgba colour(const std::byte* p, unsigned bits, bool alpha16) {
  auto at = [&](int i) { return std::to_integer<std::uint8_t>(p[i]); };
  switch (bits) {
    case 15: return from16(little16(p), false);
    case 16: return from16(little16(p), alpha16);
    case 24: return {at(2), at(1), at(0), 255};
    default: return {at(2), at(1), at(0), at(3)};
  }
}

// Stored pixels → RGBA, with the origin applied: stored pixel i is on row i / width counted
// from the bottom (or the top) and column i % width counted from the left (or the right).
class Decoder {
 public:
  Decoder(const Header& h, std::vector<Rgba> map, std::vector<std::uint8_t>& out)
      : h_(h), map_(std::move(map)), out_(out), width_(h.width), height_(h.height) {}

  Rgba pixel(const std::byte* p, std::uint64_t at) {
    switch (h_.kind()) {
      case Kind::TrueColour: return colour(p, h_.depth, h_.alphaBits() > 0);
      case Kind::Grey: {
        const auto g = std::to_integer<std::uint8_t>(p[0]);
        return {g, g, g, h_.depth == 16 ? std::to_integer<std::uint8_t>(p[1]) : std::uint8_t(255)};
      }
      case Kind::Mapped: break;
    }
    // The map holds entries firstEntry .. firstEntry + length - 1 of a larger palette (field 4.1).
    const unsigned index = h_.depth == 8 ? std::to_integer<unsigned>(p[0]) : little16(p);
    if (index >= h_.firstEntry && index - h_.firstEntry < map_.size())
      return map_[index - h_.firstEntry];
    if (outsideMap_++ == 0) firstOutsideAt_ = at, firstOutside_ = index;
    return {0, 0, 0, 255};
  }

  void put(Rgba c) {
    const std::uint32_t y = h_.topToBottom() ? row_ : height_ - 1 - row_;
    const std::uint32_t x = h_.rightToLeft() ? width_ - 1 - col_ : col_;
    std::uint8_t* o = &out_[(std::size_t(y) * width_ + x) * 4];
    o[0] = c.r, o[1] = c.g, o[2] = c.b, o[3] = c.a;
    if (++col_ == width_) col_ = 0, ++row_;
  }

  std::uint64_t outsideMap_ = 0, firstOutsideAt_ = 0;
  unsigned firstOutside_ = 0;

 private:
  const Header& h_;
  std::vector<Rgba> map_;
  std::vector<std::uint8_t>& out_;
  std::uint32_t width_, height_, row_ = 0, col_ = 0;
};

TgaImage decode(std::span<const std::byte> bytes, const std::string& file, const Limits& limits) {
  ByteReader r(bytes, file);
  r.require(kHeaderSize, "TGA header");
  const Header h = headerOf(bytes);
  r.skip(kHeaderSize, "TGA header");
  if (auto problem = check(h)) r.failAt(problem->at, problem->field, std::move(problem->message));

  r.skip(h.idLength, "Image ID");
  std::vector<Rgba> map;
  if (h.mapType == 1) {
    const std::uint64_t mapAt = r.offset();
    const std::uint64_t mapBytes = std::uint64_t(h.mapLength) * h.entryBytes();
    if (mapBytes > r.remaining())
      r.failAt(mapAt, "Color Map Data",
               "needs " + std::to_string(mapBytes) + " bytes (" + std::to_string(h.mapLength) +
                   " entries of " + std::to_string(h.entrySize) + " bits) but only " +
                   std::to_string(r.remaining()) + " are left");
    const auto data = r.bytes(mapBytes, "Color Map Data");
    if (h.kind() == Kind::Mapped) {  // true-colour and grey images may carry one, unused
      map.resize(h.mapLength);
      for (std::size_t i = 0; i < map.size(); ++i)
        map[i] = colour(&data[i * h.entryBytes()], h.entrySize, h.alphaBits() > 0);
    }
  }

  const std::uint64_t at = r.offset();
  const std::uint64_t pixels = std::uint64_t(h.width) * h.height;
  const unsigned bpp = h.pixelBytes();
  const std::string size = std::to_string(h.width) + "x" + std::to_string(h.height);
  // The fewest bytes the pixels can take: raw, or run-length packets of 128 pixels each.
  const std::uint64_t least = h.rle() ? (pixels + 127) / 128 * (1 + bpp) : pixels * bpp;
  if (least > r.remaining())
    r.failAt(at, "Image Data",
             "needs " + std::string(h.rle() ? "at least " : "") + std::to_string(least) +
                 " bytes (" + size + " at " + std::to_string(h.depth) + " bits" +
                 (h.rle() ? ", run-length encoded" : "") + ") but only " +
                 std::to_string(r.remaining()) + " are left");
  const std::uint64_t outBytes = pixels * 4;
  if (outBytes > limits.maxAllocation(bytes.size()))
    r.failAt(kAtWidth, "Image Width",
             size + " needs " + std::to_string(outBytes) + " bytes as RGBA, over the limit of " +
                 std::to_string(limits.maxAllocation(bytes.size())) + " for a file of " +
                 std::to_string(bytes.size()) + " bytes");

  TgaImage img;
  img.width = h.width;
  img.height = h.height;
  img.rgba.resize(static_cast<std::size_t>(outBytes));
  Decoder dec(h, std::move(map), img.rgba);
  if (!h.rle()) {
    const std::byte* p = r.bytes(pixels * bpp, "Image Data").data();
    for (std::uint64_t i = 0; i < pixels; ++i, p += bpp) dec.put(dec.pixel(p, at + i * bpp));
  } else {
    // A packet: a header byte (bit 7: run or raw; bits 6-0: count - 1), then one pixel for a
    // run, count pixels for a raw packet. Packets may cross rows (2.0 says they should not;
    // writers do).
    for (std::uint64_t done = 0; done < pixels;) {
      const std::uint64_t packetAt = r.offset();
      const auto head = r.u8("Image Data (run-length packet)");
      const std::uint64_t count = (head & 0x7Fu) + 1;
      const std::uint64_t used = std::min(count, pixels - done);
      if (used < count)  // only the last packet can
        img.diagnostics.warn(file, "Image Data (run-length packet)", packetAt,
                             "holds " + std::to_string(count) + " pixels but the image needs " +
                                 std::to_string(used) + " more: the rest are ignored");
      if (head & 0x80) {
        const std::uint64_t pixelAt = r.offset();
        const Rgba c = dec.pixel(r.bytes(bpp, "Image Data (run-length packet)").data(), pixelAt);
        for (std::uint64_t k = 0; k < used; ++k) dec.put(c);
      } else {
        const std::uint64_t rawAt = r.offset();
        const std::byte* p = r.bytes(used * bpp, "Image Data (raw packet)").data();
        for (std::uint64_t k = 0; k < used; ++k) dec.put(dec.pixel(p + k * bpp, rawAt + k * bpp));
      }
      done += used;
    }
  }

  if (dec.outsideMap_ > 0)
    img.diagnostics.warn(
        file, "Image Data", dec.firstOutsideAt_,
        std::to_string(dec.outsideMap_) + " pixels (the first of index " +
            std::to_string(dec.firstOutside_) + ") are outside the colour map's entries " +
            std::to_string(h.firstEntry) + " to " + std::to_string(h.firstEntry + h.mapLength - 1) +
            ": they are drawn opaque black");
  if (h.alphaBits() == 0) {
    bool allZero = true;
    for (std::size_t i = 3; i < img.rgba.size() && allZero; i += 4) allZero = img.rgba[i] == 0;
    if (allZero) {
      for (std::size_t i = 3; i < img.rgba.size(); i += 4) img.rgba[i] = 255;
      img.diagnostics.info(file, "Image Descriptor", kAtDescriptor,
                           "gives no alpha bits and every pixel's alpha byte is 0: read as "
                           "opaque");
    }
  }
  return img;
}

}  // namespace

bool hasTgaSuffix(std::string_view name) {
  if (name.size() < 4) return false;
  const std::string_view tail = name.substr(name.size() - 4);
  static constexpr char kSuffix[] = ".tga";
  for (std::size_t i = 0; i < 4; ++i) {
    const char c = tail[i];
    if ((c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c) != kSuffix[i]) return false;
  }
  return true;
}

bool isTga(std::span<const std::byte> bytes, std::string_view name) {
  if (bytes.size() < kHeaderSize) return false;
  if (!hasTgaSuffix(name) && !hasFooter(bytes)) return false;
  return !check(headerOf(bytes)).has_value();
}

Result<TgaImage> decodeTga(std::span<const std::byte> bytes, const std::string& file,
                           const Limits& limits) {
  try {
    return decode(bytes, file, limits);
  } catch (const FormatException& e) {
    return e.error();
  } catch (const std::bad_alloc&) {
    return FormatError{file, "Image Data", kNoOffset, "out of memory"};
  }
}

}  // namespace marrow::formats
