// DDS: files built here, byte by byte, for every format; expected pixels come from the S3TC
// formulas (EXT_texture_compression_s3tc, Microsoft's BC1-BC3 pages) on values chosen so that
// the interpolants are exact, and from the DDS_PIXELFORMAT mask rules.
#include "formats/image/dds.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace marrow::formats {
namespace {

using Bytes = std::vector<std::byte>;

void put32(Bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(std::byte((v >> (8 * i)) & 0xFF));
}
void put16(Bytes& b, std::uint16_t v) {
  b.push_back(std::byte(v & 0xFF));
  b.push_back(std::byte(v >> 8));
}

constexpr std::uint32_t cc(const char (&s)[5]) {
  return std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
         std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24;
}

// A DDS file as the Microsoft pages lay it out: magic, DDS_HEADER, optional DDS_HEADER_DXT10,
// then `payload` (the levels, as the test wrote them).
struct Dds {
  std::uint32_t headerSize = 124;
  std::uint32_t flags = 0x1007;  // CAPS | HEIGHT | WIDTH | PIXELFORMAT
  std::uint32_t width = 4, height = 4, depth = 0, mipCount = 0;
  std::uint32_t pfFlags = 0x4, fourCC = cc("DXT1"), bitCount = 0;
  std::array<std::uint32_t, 4> masks{};
  std::uint32_t caps = 0x1000, caps2 = 0;
  struct Dx10 {
    std::uint32_t dxgi = 71, dimension = 3, misc = 0, arraySize = 1;
  };
  std::optional<Dx10> dx10;
  Bytes payload;

  Dds& mips(std::uint32_t n) {
    mipCount = n;
    flags |= 0x20000;
    return *this;
  }
  Bytes bytes() const {
    Bytes b;
    put32(b, cc("DDS "));
    put32(b, headerSize);
    put32(b, flags);
    put32(b, height);
    put32(b, width);
    put32(b, 0);  // pitch
    put32(b, depth);
    put32(b, mipCount);
    for (int i = 0; i < 11; ++i) put32(b, 0);
    put32(b, 32);
    put32(b, pfFlags);
    put32(b, dx10 ? cc("DX10") : fourCC);
    put32(b, bitCount);
    for (std::uint32_t m : masks) put32(b, m);
    put32(b, caps);
    put32(b, caps2);
    for (int i = 0; i < 3; ++i) put32(b, 0);
    if (dx10) {
      put32(b, dx10->dxgi);
      put32(b, dx10->dimension);
      put32(b, dx10->misc);
      put32(b, dx10->arraySize);
      put32(b, 0);
    }
    b.insert(b.end(), payload.begin(), payload.end());
    return b;
  }
};

Dds compressed(const char (&code)[5], std::uint32_t w, std::uint32_t h) {
  Dds d;
  d.fourCC = cc(code);
  d.width = w;
  d.height = h;
  return d;
}

Dds masked(std::uint32_t pfFlags, std::uint32_t bits, std::array<std::uint32_t, 4> masks,
           std::uint32_t w, std::uint32_t h) {
  Dds d;
  d.pfFlags = pfFlags;
  d.fourCC = 0;
  d.bitCount = bits;
  d.masks = masks;
  d.width = w;
  d.height = h;
  return d;
}

constexpr std::uint32_t kRgb = 0x40, kAlphaPixels = 0x1, kAlphaOnly = 0x2, kLuminance = 0x20000;

// Blocks: two RGB565 endpoints and 16 2-bit indices, pixel k = 4·row + column at bits 2k.
Bytes dxt1Block(std::uint16_t c0, std::uint16_t c1, std::uint32_t indices) {
  Bytes b;
  put16(b, c0);
  put16(b, c1);
  put32(b, indices);
  return b;
}
std::uint32_t indicesOf(std::array<int, 16> codes, int bits) {
  std::uint32_t v = 0;
  for (int k = 0; k < 16; ++k) v |= std::uint32_t(codes[k]) << (bits * k);
  return v;
}
Bytes dxt3Block(std::uint64_t alpha, std::uint16_t c0, std::uint16_t c1, std::uint32_t idx) {
  Bytes b;
  for (int i = 0; i < 8; ++i) b.push_back(std::byte((alpha >> (8 * i)) & 0xFF));
  const Bytes c = dxt1Block(c0, c1, idx);
  b.insert(b.end(), c.begin(), c.end());
  return b;
}
Bytes dxt5Block(std::uint8_t a0, std::uint8_t a1, std::array<int, 16> alphaCodes, std::uint16_t c0,
                std::uint16_t c1, std::uint32_t idx) {
  Bytes b{std::byte(a0), std::byte(a1)};
  std::uint64_t bits = 0;
  for (int k = 0; k < 16; ++k) bits |= std::uint64_t(alphaCodes[k]) << (3 * k);
  for (int i = 0; i < 6; ++i) b.push_back(std::byte((bits >> (8 * i)) & 0xFF));
  const Bytes c = dxt1Block(c0, c1, idx);
  b.insert(b.end(), c.begin(), c.end());
  return b;
}
void append(Bytes& to, const Bytes& more) {
  to.insert(to.end(), more.begin(), more.end());
}

using Px = std::array<int, 4>;
Px at(const std::vector<std::uint8_t>& rgba, std::uint32_t width, std::uint32_t x,
      std::uint32_t y) {
  const std::size_t i = (std::size_t(y) * width + x) * 4;
  return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
}

DdsImage read(const Bytes& b) {
  auto r = readDds(b, "t.dds");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? std::move(r).value() : DdsImage{};
}
std::vector<std::uint8_t> decode(const DdsImage& img, std::size_t level = 0) {
  auto r = decodeDdsLevel(img, level);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? std::move(r).value() : std::vector<std::uint8_t>{};
}
FormatError failure(const Bytes& b) {
  auto r = readDds(b, "t.dds");
  EXPECT_FALSE(r.ok());
  return r.ok() ? FormatError{} : r.error();
}

constexpr std::uint16_t kRed = 0xF800, kBlue = 0x001F;
const Px kRedPx{255, 0, 0, 255}, kBluePx{0, 0, 255, 255};
// 2/3 red + 1/3 blue and 1/3 red + 2/3 blue: 255·2/3 = 170 and 255/3 = 85 exactly.
const Px kRedThird{170, 0, 85, 255}, kBlueThird{85, 0, 170, 255};
constexpr std::array<int, 16> kCycle{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};

// A valid file of each kind, for the every-prefix and every-byte tests.
std::vector<Bytes> validFiles() {
  std::vector<Bytes> files;
  Dds a = compressed("DXT1", 8, 8);
  a.mips(4);
  for (int i = 0; i < 4 + 3; ++i) append(a.payload, dxt1Block(kRed, kBlue, 0x1B1B1B1B));
  files.push_back(a.bytes());
  Dds b = compressed("DXT5", 5, 3);
  append(b.payload, dxt5Block(70, 0, {}, kRed, kBlue, 0));
  append(b.payload, dxt5Block(0, 100, {}, kBlue, kRed, 0));
  files.push_back(b.bytes());
  Dds c = masked(kRgb, 24, {0xFF0000, 0xFF00, 0xFF, 0}, 3, 2);
  c.mips(2);
  c.payload.assign(3 * 2 * 3 + 1 * 3, std::byte{0x5A});
  files.push_back(c.bytes());
  Dds d = compressed("DXT3", 4, 4);
  d.dx10 = Dds::Dx10{};
  d.dx10->dxgi = 74;
  append(d.payload, dxt3Block(0x0123456789ABCDEFull, kBlue, kRed, 0xE4E4E4E4));
  files.push_back(d.bytes());
  return files;
}

// ---- Invalid input. ----

TEST(Dds, RejectsAFileWithoutTheMagic) {
  Bytes b = compressed("DXT1", 4, 4).bytes();
  b[3] = std::byte{'X'};
  const FormatError e = failure(b);
  EXPECT_EQ(e.field, "magic");
  EXPECT_EQ(e.offset, 0u);
  EXPECT_EQ(e.file, "t.dds");
}

TEST(Dds, RejectsAHeaderSizeOtherThan124) {
  Dds d = compressed("DXT1", 4, 4);
  d.headerSize = 120;
  append(d.payload, dxt1Block(kRed, kBlue, 0));
  const FormatError e = failure(d.bytes());
  EXPECT_EQ(e.field, "DDS_HEADER.dwSize");
  EXPECT_EQ(e.offset, 4u);
}

TEST(Dds, RejectsZeroAndOversizedDimensions) {
  for (auto [w, h, field, offset] : {std::tuple{0u, 4u, "DDS_HEADER.dwWidth", 16u},
                                     std::tuple{4u, 0u, "DDS_HEADER.dwHeight", 12u},
                                     std::tuple{16385u, 4u, "DDS_HEADER.dwWidth", 16u},
                                     std::tuple{4u, 0xFFFFFFFFu, "DDS_HEADER.dwHeight", 12u}}) {
    Dds d = compressed("DXT1", w, h);
    append(d.payload, dxt1Block(kRed, kBlue, 0));
    const FormatError e = failure(d.bytes());
    EXPECT_EQ(e.field, field) << w << "x" << h;
    EXPECT_EQ(e.offset, offset);
  }
}

TEST(Dds, RejectsHugeDimensionsTheBytesDoNotHoldBeforeAllocating) {
  // 16384² RGBA8 would be 1 GiB; the file holds one block. The error comes from the size check.
  Dds d = masked(kRgb | kAlphaPixels, 32, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, 16384, 16384);
  d.mips(15);
  d.payload.assign(64, std::byte{0});
  const FormatError e = failure(d.bytes());
  EXPECT_EQ(e.field, "mip level 0");
  EXPECT_EQ(e.offset, 128u);
  EXPECT_NE(e.message.find("1073741824"), std::string::npos) << e.message;
}

TEST(Dds, RejectsUnsupportedFourCCsNamingThem) {
  Dds d = compressed("ATI2", 4, 4);
  append(d.payload, dxt3Block(0, 0, 0, 0));
  FormatError e = failure(d.bytes());
  EXPECT_EQ(e.field, "DDS_PIXELFORMAT.dwFourCC");
  EXPECT_EQ(e.offset, 84u);
  EXPECT_NE(e.message.find("'ATI2'"), std::string::npos) << e.message;
  d.fourCC = 113;  // D3DFMT_A16B16G16R16F
  e = failure(d.bytes());
  EXPECT_NE(e.message.find("D3DFMT 113"), std::string::npos) << e.message;
  d.fourCC = cc("DXT2");
  e = failure(d.bytes());
  EXPECT_NE(e.message.find("premultiplied"), std::string::npos) << e.message;
}

TEST(Dds, RejectsDx10FormatsOtherThanBc1To3AndEightBitRgba) {
  Dds d = compressed("DXT1", 4, 4);
  d.dx10 = Dds::Dx10{};
  d.dx10->dxgi = 98;  // BC7_UNORM
  append(d.payload, dxt3Block(0, 0, 0, 0));
  const FormatError e = failure(d.bytes());
  EXPECT_EQ(e.field, "DDS_HEADER_DXT10.dxgiFormat");
  EXPECT_EQ(e.offset, 128u);
  EXPECT_NE(e.message.find("98"), std::string::npos);
}

TEST(Dds, RejectsADx10ArrayOfNoTexturesAndUnknownDimensions) {
  Dds d = compressed("DXT1", 4, 4);
  d.dx10 = Dds::Dx10{};
  d.dx10->arraySize = 0;
  append(d.payload, dxt1Block(0, 0, 0));
  EXPECT_EQ(failure(d.bytes()).field, "DDS_HEADER_DXT10.arraySize");
  d.dx10->arraySize = 1;
  d.dx10->dimension = 1;  // a buffer
  EXPECT_EQ(failure(d.bytes()).field, "DDS_HEADER_DXT10.resourceDimension");
}

TEST(Dds, RejectsPixelSizesOtherThan8To32BitsAndMasksBeyondThem) {
  Dds d = masked(kRgb, 12, {0xF00, 0xF0, 0xF, 0}, 1, 1);
  d.payload.assign(4, std::byte{0});
  EXPECT_EQ(failure(d.bytes()).field, "DDS_PIXELFORMAT.dwRGBBitCount");
  d.bitCount = 16;
  d.masks = {0xF800, 0x7E0, 0x1F0000, 0};
  const FormatError e = failure(d.bytes());
  EXPECT_EQ(e.field, "DDS_PIXELFORMAT.dwBBitMask");
  EXPECT_EQ(e.offset, 100u);
  d.masks = {0, 0, 0, 0};
  EXPECT_EQ(failure(d.bytes()).field, "DDS_PIXELFORMAT");
}

TEST(Dds, RejectsPixelFormatsWithoutALayout) {
  Dds d = masked(0, 32, {0xFF, 0xFF00, 0xFF0000, 0}, 1, 1);
  d.payload.assign(4, std::byte{0});
  EXPECT_EQ(failure(d.bytes()).field, "DDS_PIXELFORMAT.dwFlags");
  d.pfFlags = 0x200;  // YUV
  EXPECT_EQ(failure(d.bytes()).field, "DDS_PIXELFORMAT.dwFlags");
}

TEST(Dds, EveryPrefixIsAnErrorOrAShorterChainNeverACrash) {
  for (const Bytes& full : validFiles()) {
    const std::size_t levels = read(full).levels.size();
    for (std::size_t n = 0; n < full.size(); ++n) {
      const Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
      auto r = readDds(prefix, "t.dds");
      if (!r.ok()) {
        EXPECT_EQ(r.error().file, "t.dds");
        EXPECT_FALSE(r.error().field.empty()) << n;
        continue;
      }
      EXPECT_LT(r->levels.size(), levels) << "prefix " << n;
      EXPECT_FALSE(r->diagnostics.empty()) << "a shortened chain is reported; prefix " << n;
      for (std::size_t l = 0; l < r->levels.size(); ++l) EXPECT_TRUE(decodeDdsLevel(*r, l).ok());
    }
  }
}

TEST(Dds, EveryChangedHeaderByteGivesAnErrorOrADecodableImage) {
  for (const Bytes& full : validFiles())
    for (std::size_t i = 0; i < std::min<std::size_t>(full.size(), 148); ++i)
      for (std::uint8_t v : {0x00, 0x01, 0x7F, 0xFF}) {
        Bytes b = full;
        b[i] = std::byte{v};
        auto r = readDds(b, "t.dds");
        if (!r.ok()) continue;
        ASSERT_FALSE(r->levels.empty());
        for (std::size_t l = 0; l < r->levels.size(); ++l)
          EXPECT_TRUE(decodeDdsLevel(*r, l).ok()) << "byte " << i << " = " << int(v);
      }
}

TEST(Dds, DecodingRejectsALevelThatDoesNotExistOrHasTheWrongSize) {
  Dds d = compressed("DXT1", 4, 4);
  append(d.payload, dxt1Block(kRed, kBlue, 0));
  DdsImage img = read(d.bytes());
  EXPECT_FALSE(decodeDdsLevel(img, 1).ok());
  img.levels[0].data.pop_back();
  EXPECT_FALSE(decodeDdsLevel(img, 0).ok());
  img.levels[0].width = 0;
  EXPECT_FALSE(decodeDdsLevel(img, 0).ok());
}

// ---- DXT1. ----

TEST(Dds, Dxt1FourColourModeGivesTheEndpointsAndTheirThirds) {
  Dds d = compressed("DXT1", 4, 4);
  append(d.payload, dxt1Block(kRed, kBlue, indicesOf(kCycle, 2)));  // red > blue: 4 colours
  const DdsImage img = read(d.bytes());
  EXPECT_EQ(img.format, DdsFormat::Dxt1);
  ASSERT_EQ(img.levels.size(), 1u);
  EXPECT_EQ(img.levels[0].data, d.payload);  // kept as stored, for the GPU
  const auto px = decode(img);
  ASSERT_EQ(px.size(), 64u);
  for (std::uint32_t y = 0; y < 4; ++y) {
    EXPECT_EQ(at(px, 4, 0, y), kRedPx);
    EXPECT_EQ(at(px, 4, 1, y), kBluePx);
    EXPECT_EQ(at(px, 4, 2, y), kRedThird);
    EXPECT_EQ(at(px, 4, 3, y), kBlueThird);
  }
}

TEST(Dds, Dxt1ThreeColourModeGivesTheHalfwayColourAndTransparentBlack) {
  // color0 = (0,0,16/31) <= color1 = (16/31,0,0): both expand to 132 (16<<3 | 16>>2), the
  // midpoint is 66 exactly.
  Dds d = compressed("DXT1", 4, 4);
  append(d.payload, dxt1Block(0x0010, 0x8000, indicesOf(kCycle, 2)));
  const auto px = decode(read(d.bytes()));
  EXPECT_EQ(at(px, 4, 0, 0), (Px{0, 0, 132, 255}));
  EXPECT_EQ(at(px, 4, 1, 0), (Px{132, 0, 0, 255}));
  EXPECT_EQ(at(px, 4, 2, 0), (Px{66, 0, 66, 255}));
  EXPECT_EQ(at(px, 4, 3, 0), (Px{0, 0, 0, 0}));
}

TEST(Dds, Dxt1EqualEndpointsUseTheThreeColourMode) {
  Dds d = compressed("DXT1", 4, 4);
  append(d.payload, dxt1Block(kRed, kRed, indicesOf(kCycle, 2)));
  const auto px = decode(read(d.bytes()));
  EXPECT_EQ(at(px, 4, 2, 0), kRedPx);
  EXPECT_EQ(at(px, 4, 3, 0), (Px{0, 0, 0, 0}));
}

TEST(Dds, Dxt1Expands565ByReplicatingTheHighBits) {
  // r = 1/31 → 8 | 0 = 8; g = 33/63 → 132 | 2 = 134; b = 30/31 → 240 | 7 = 247.
  Dds d = compressed("DXT1", 4, 4);
  append(d.payload, dxt1Block(std::uint16_t(1 << 11 | 33 << 5 | 30), 0, 0));
  EXPECT_EQ(at(decode(read(d.bytes())), 4, 0, 0), (Px{8, 134, 247, 255}));
}

TEST(Dds, BlocksGoLeftToRightThenDownAndTheTopRowComesFirst) {
  Dds d = compressed("DXT1", 8, 8);
  for (std::uint16_t c : {kRed, kBlue, std::uint16_t(0x07E0), std::uint16_t(0xFFFF)})
    append(d.payload, dxt1Block(c, 0, 0));
  const auto px = decode(read(d.bytes()));
  EXPECT_EQ(at(px, 8, 0, 0), kRedPx);
  EXPECT_EQ(at(px, 8, 7, 3), kBluePx);
  EXPECT_EQ(at(px, 8, 0, 4), (Px{0, 255, 0, 255}));
  EXPECT_EQ(at(px, 8, 7, 7), (Px{255, 255, 255, 255}));
}

TEST(Dds, IndicesGoRowByRowInsideABlock) {
  std::array<int, 16> codes{};
  codes[4 * 2 + 1] = 1;  // the pixel at column 1, row 2
  Dds d = compressed("DXT1", 4, 4);
  append(d.payload, dxt1Block(kRed, kBlue, indicesOf(codes, 2)));
  const auto px = decode(read(d.bytes()));
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t x = 0; x < 4; ++x)
      EXPECT_EQ(at(px, 4, x, y), x == 1 && y == 2 ? kBluePx : kRedPx) << x << "," << y;
}

TEST(Dds, SizesThatAreNotMultiplesOfFourCutTheEdgeBlocks) {
  Dds d = compressed("DXT1", 5, 3);  // 2 × 1 blocks
  append(d.payload, dxt1Block(kRed, kBlue, 0));
  append(d.payload, dxt1Block(kRed, kBlue, indicesOf(kCycle, 2)));
  const DdsImage img = read(d.bytes());
  ASSERT_EQ(img.levels[0].data.size(), 16u);
  const auto px = decode(img);
  ASSERT_EQ(px.size(), 5u * 3 * 4);
  EXPECT_EQ(at(px, 5, 3, 2), kRedPx);
  EXPECT_EQ(at(px, 5, 4, 0), kRedPx);  // column 0 of the second block: code 0
  EXPECT_EQ(ddsLevelSize(DdsFormat::Dxt1, 0, 5, 3), 16u);
  EXPECT_EQ(ddsLevelSize(DdsFormat::Dxt5, 0, 1, 1), 16u);
}

// ---- DXT3 and DXT5. ----

TEST(Dds, Dxt3HasExplicitFourBitAlphaAndAlwaysFourColours) {
  std::uint64_t alpha = 0;
  for (int k = 0; k < 16; ++k) alpha |= std::uint64_t(k) << (4 * k);
  Dds d = compressed("DXT3", 4, 4);
  // color0 = blue < color1 = red: DXT1 would be in its 3-colour mode; DXT3 is not.
  append(d.payload, dxt3Block(alpha, kBlue, kRed, indicesOf(kCycle, 2)));
  const DdsImage img = read(d.bytes());
  EXPECT_EQ(img.format, DdsFormat::Dxt3);
  const auto px = decode(img);
  for (std::uint32_t k = 0; k < 16; ++k) EXPECT_EQ(at(px, 4, k % 4, k / 4)[3], int(k * 17)) << k;
  // Codes 2 and 3 are 2/3 blue + 1/3 red and 1/3 blue + 2/3 red, never transparent.
  EXPECT_EQ(at(px, 4, 2, 0), (Px{85, 0, 170, 2 * 17}));
  EXPECT_EQ(at(px, 4, 3, 1), (Px{170, 0, 85, 7 * 17}));
}

TEST(Dds, Dxt5EightAlphaModeInterpolatesSevenths) {
  // a0 = 70 > a1 = 0: codes 2..7 are 70·6/7 … 70/7 = 60, 50, 40, 30, 20, 10 exactly.
  std::array<int, 16> codes{};
  for (int k = 0; k < 16; ++k) codes[k] = k % 8;
  Dds d = compressed("DXT5", 4, 4);
  append(d.payload, dxt5Block(70, 0, codes, kRed, kBlue, 0));
  const DdsImage img = read(d.bytes());
  EXPECT_EQ(img.format, DdsFormat::Dxt5);
  const auto px = decode(img);
  const int expected[8] = {70, 0, 60, 50, 40, 30, 20, 10};
  for (std::uint32_t k = 0; k < 16; ++k)
    EXPECT_EQ(at(px, 4, k % 4, k / 4)[3], expected[k % 8]) << k;
  EXPECT_EQ(at(px, 4, 0, 0)[0], 255);
}

TEST(Dds, Dxt5SixAlphaModeInterpolatesFifthsAndHasZeroAnd255) {
  // a0 = 0 <= a1 = 100: codes 2..5 are 100·1/5 … 100·4/5, code 6 is 0 and code 7 is 255.
  std::array<int, 16> codes{};
  for (int k = 0; k < 16; ++k) codes[k] = 7 - k % 8;
  Dds d = compressed("DXT5", 4, 4);
  append(d.payload, dxt5Block(0, 100, codes, kBlue, kRed, indicesOf(kCycle, 2)));
  const auto px = decode(read(d.bytes()));
  const int expected[8] = {0, 100, 20, 40, 60, 80, 0, 255};
  for (std::uint32_t k = 0; k < 16; ++k)
    EXPECT_EQ(at(px, 4, k % 4, k / 4)[3], expected[7 - k % 8]) << k;
  // Four colours although color0 < color1.
  EXPECT_EQ(at(px, 4, 3, 0)[0], 170);
}

// ---- Uncompressed. ----

Px onePixel(Dds d, std::initializer_list<int> bytes) {
  for (int v : bytes) d.payload.push_back(std::byte(v));
  const auto px = decode(read(d.bytes()));
  return px.size() == 4 ? Px{px[0], px[1], px[2], px[3]} : Px{-1, -1, -1, -1};
}

TEST(Dds, ThirtyTwoBitMasksPickTheirBytes) {
  // A8R8G8B8: bytes B, G, R, A in the file.
  EXPECT_EQ(onePixel(masked(kRgb | kAlphaPixels, 32, {0xFF0000, 0xFF00, 0xFF, 0xFF000000}, 1, 1),
                     {0x10, 0x20, 0x30, 0x40}),
            (Px{0x30, 0x20, 0x10, 0x40}));
  // A8B8G8R8: R, G, B, A.
  EXPECT_EQ(onePixel(masked(kRgb | kAlphaPixels, 32, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, 1, 1),
                     {0x10, 0x20, 0x30, 0x40}),
            (Px{0x10, 0x20, 0x30, 0x40}));
  // X8R8G8B8: no alpha flag, so the top byte is not alpha even with a mask there.
  EXPECT_EQ(onePixel(masked(kRgb, 32, {0xFF0000, 0xFF00, 0xFF, 0xFF000000}, 1, 1),
                     {0x10, 0x20, 0x30, 0x40}),
            (Px{0x30, 0x20, 0x10, 255}));
}

TEST(Dds, TwentyFourBitRowsArePackedWithoutPadding) {
  Dds d = masked(kRgb, 24, {0xFF0000, 0xFF00, 0xFF, 0}, 5, 3);
  for (int i = 0; i < 15; ++i) {
    d.payload.push_back(std::byte(i));        // B
    d.payload.push_back(std::byte(100 + i));  // G
    d.payload.push_back(std::byte(200));      // R
  }
  const auto px = decode(read(d.bytes()));
  EXPECT_EQ(at(px, 5, 0, 1), (Px{200, 105, 5, 255}));
  EXPECT_EQ(at(px, 5, 4, 2), (Px{200, 114, 14, 255}));
}

TEST(Dds, SixteenBitMasksScaleToTheFullRange) {
  auto scaled = [](int v, int max) { return (v * 255 + max / 2) / max; };
  const Dds rgb565 = masked(kRgb, 16, {0xF800, 0x07E0, 0x001F, 0}, 1, 1);
  EXPECT_EQ(onePixel(rgb565, {0x00, 0xF8}), kRedPx);
  // r = 16/31, g = 33/63, b = 1/31.
  const std::uint16_t v = 16 << 11 | 33 << 5 | 1;
  EXPECT_EQ(onePixel(rgb565, {v & 0xFF, v >> 8}),
            (Px{scaled(16, 31), scaled(33, 63), scaled(1, 31), 255}));
  const Dds argb4444 = masked(kRgb | kAlphaPixels, 16, {0x0F00, 0x00F0, 0x000F, 0xF000}, 1, 1);
  EXPECT_EQ(onePixel(argb4444, {0xA5, 0x30}), (Px{0, 170, 85, 51}));
  const Dds argb1555 = masked(kRgb | kAlphaPixels, 16, {0x7C00, 0x03E0, 0x001F, 0x8000}, 1, 1);
  EXPECT_EQ(onePixel(argb1555, {0x1F, 0x80}), (Px{0, 0, 255, 255}));
  EXPECT_EQ(onePixel(argb1555, {0x00, 0x7C}), (Px{255, 0, 0, 0}));
}

TEST(Dds, LuminanceGoesToEveryColourChannelAndAlphaOnlyIsBlack) {
  EXPECT_EQ(onePixel(masked(kLuminance, 8, {0xFF, 0, 0, 0}, 1, 1), {0x42}),
            (Px{0x42, 0x42, 0x42, 255}));
  EXPECT_EQ(
      onePixel(masked(kLuminance | kAlphaPixels, 16, {0x00FF, 0, 0, 0xFF00}, 1, 1), {0x42, 0x99}),
      (Px{0x42, 0x42, 0x42, 0x99}));
  EXPECT_EQ(onePixel(masked(kAlphaOnly, 8, {0, 0, 0, 0xFF}, 1, 1), {0x77}), (Px{0, 0, 0, 0x77}));
  // Masks the flags do not use are not looked at.
  EXPECT_EQ(onePixel(masked(kLuminance, 8, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, 1, 1), {0x42}),
            (Px{0x42, 0x42, 0x42, 255}));
}

// ---- Mip chains. ----

TEST(Dds, MipLevelsHalveDownToOnePixel) {
  Dds d = compressed("DXT1", 8, 4);
  d.mips(4);
  for (std::uint16_t c : {kRed, kRed, kBlue, std::uint16_t(0x07E0), std::uint16_t(0xFFFF)})
    append(d.payload, dxt1Block(c, 0, 0));
  const DdsImage img = read(d.bytes());
  ASSERT_EQ(img.levels.size(), 4u);
  const std::uint32_t sizes[4][2] = {{8, 4}, {4, 2}, {2, 1}, {1, 1}};
  for (std::size_t l = 0; l < 4; ++l) {
    EXPECT_EQ(img.levels[l].width, sizes[l][0]);
    EXPECT_EQ(img.levels[l].height, sizes[l][1]);
    EXPECT_EQ(img.levels[l].data.size(), l == 0 ? 16u : 8u);  // 2 blocks, then 1
  }
  EXPECT_EQ(at(decode(img, 1), 4, 3, 1), kBluePx);
  EXPECT_EQ(at(decode(img, 3), 1, 0, 0), (Px{255, 255, 255, 255}));
  EXPECT_TRUE(img.diagnostics.empty());
}

TEST(Dds, UncompressedMipLevelsFollowEachOther) {
  Dds d = masked(kRgb | kAlphaPixels, 32, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, 4, 2);
  d.mips(3);
  for (int i = 0; i < 8 + 2 + 1; ++i) put32(d.payload, 0xFF000000u | std::uint32_t(i));
  const DdsImage img = read(d.bytes());
  ASSERT_EQ(img.levels.size(), 3u);
  EXPECT_EQ(at(decode(img, 1), 2, 1, 0), (Px{9, 0, 0, 255}));
  EXPECT_EQ(at(decode(img, 2), 1, 0, 0), (Px{10, 0, 0, 255}));
}

TEST(Dds, AMipCountBeyondTheFullChainIsCutAndReported) {
  Dds d = compressed("DXT1", 4, 4);
  d.mips(10);
  for (int i = 0; i < 3; ++i) append(d.payload, dxt1Block(kRed, 0, 0));
  const DdsImage img = read(d.bytes());
  EXPECT_EQ(img.levels.size(), 3u);
  ASSERT_EQ(img.diagnostics.items.size(), 1u);
  EXPECT_EQ(img.diagnostics.items[0].field, "DDS_HEADER.dwMipMapCount");
  EXPECT_EQ(img.diagnostics.items[0].offset, 28u);
}

TEST(Dds, AChainCutShortKeepsTheCompleteLevelsAndSaysSo) {
  Dds d = compressed("DXT5", 16, 16);
  d.mips(5);
  for (int i = 0; i < 16 + 4 + 1; ++i) append(d.payload, dxt5Block(255, 0, {}, kRed, 0, 0));
  d.payload.resize(d.payload.size() + 5);  // level 3 begun, not finished
  const DdsImage img = read(d.bytes());
  EXPECT_EQ(img.levels.size(), 3u);
  ASSERT_EQ(img.diagnostics.items.size(), 1u);
  const Diagnostic& note = img.diagnostics.items[0];
  EXPECT_EQ(note.field, "mip level 3");
  EXPECT_EQ(note.offset, 128u + 16 * 21);
  EXPECT_EQ(note.severity, Severity::Warning);
}

TEST(Dds, WithoutAMipCountThereIsOneLevel) {
  Dds d = compressed("DXT1", 8, 8);
  for (int i = 0; i < 4; ++i) append(d.payload, dxt1Block(kRed, 0, 0));
  EXPECT_EQ(read(d.bytes()).levels.size(), 1u);
}

TEST(Dds, BytesAfterTheLastLevelAreReported) {
  Dds d = compressed("DXT1", 4, 4);
  append(d.payload, dxt1Block(kRed, 0, 0));
  d.payload.resize(d.payload.size() + 3);
  const DdsImage img = read(d.bytes());
  ASSERT_EQ(img.diagnostics.items.size(), 1u);
  EXPECT_EQ(img.diagnostics.items[0].severity, Severity::Info);
  EXPECT_EQ(img.diagnostics.items[0].offset, 136u);
}

// ---- Cube maps, volumes, the DX10 header. ----

TEST(Dds, ACubeMapGivesItsFirstFaceAndSaysSo) {
  Dds d = compressed("DXT1", 4, 4);
  d.caps2 = 0x200 | 0xFC00;  // CUBEMAP, all six faces
  for (int f = 0; f < 6; ++f) append(d.payload, dxt1Block(f == 0 ? kRed : kBlue, 0, 0));
  const DdsImage img = read(d.bytes());
  ASSERT_EQ(img.levels.size(), 1u);
  EXPECT_EQ(at(decode(img), 4, 0, 0), kRedPx);
  ASSERT_EQ(img.diagnostics.items.size(), 1u);
  EXPECT_NE(img.diagnostics.items[0].message.find("first face"), std::string::npos);
}

TEST(Dds, AVolumeGivesTheFirstSliceOfEachLevel) {
  Dds d = masked(kRgb | kAlphaPixels, 32, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, 2, 2);
  d.caps2 = 0x200000;
  d.depth = 2;
  d.mips(2);
  for (int i = 0; i < 4 * 2 + 1; ++i) put32(d.payload, 0xFF000000u | std::uint32_t(i));
  const DdsImage img = read(d.bytes());
  ASSERT_EQ(img.levels.size(), 2u);
  EXPECT_EQ(at(decode(img, 0), 2, 1, 1), (Px{3, 0, 0, 255}));
  EXPECT_EQ(at(decode(img, 1), 1, 0, 0), (Px{8, 0, 0, 255}));  // after both slices of level 0
  EXPECT_EQ(img.diagnostics.items.size(), 1u);
}

TEST(Dds, TheDx10HeaderNamesBlockFormatsAndSrgb) {
  Dds d = compressed("DXT1", 4, 4);
  d.dx10 = Dds::Dx10{};
  d.dx10->dxgi = 78;  // BC3_UNORM_SRGB
  std::array<int, 16> codes{};
  codes.fill(1);
  append(d.payload, dxt5Block(0, 99, codes, kRed, kBlue, 0));
  const DdsImage img = read(d.bytes());
  EXPECT_EQ(img.format, DdsFormat::Dxt5);
  EXPECT_TRUE(img.srgb);
  EXPECT_EQ(img.levels[0].data, d.payload);  // read from offset 148
  EXPECT_EQ(at(decode(img), 4, 0, 0), (Px{255, 0, 0, 99}));
  d.dx10->dxgi = 71;  // BC1_UNORM
  d.payload = dxt1Block(kRed, kBlue, 0);
  const DdsImage bc1 = read(d.bytes());
  EXPECT_EQ(bc1.format, DdsFormat::Dxt1);
  EXPECT_FALSE(bc1.srgb);
}

TEST(Dds, TheDx10HeaderNamesEightBitRgbaAndBgra) {
  Dds d = compressed("DXT1", 1, 1);
  d.dx10 = Dds::Dx10{};
  d.dx10->dxgi = 28;  // R8G8B8A8_UNORM
  d.payload = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
  EXPECT_EQ(at(decode(read(d.bytes())), 1, 0, 0), (Px{1, 2, 3, 4}));
  d.dx10->dxgi = 87;  // B8G8R8A8_UNORM
  EXPECT_EQ(at(decode(read(d.bytes())), 1, 0, 0), (Px{3, 2, 1, 4}));
  d.dx10->dxgi = 88;  // B8G8R8X8_UNORM
  EXPECT_EQ(at(decode(read(d.bytes())), 1, 0, 0), (Px{3, 2, 1, 255}));
}

TEST(Dds, ADx10ArrayOrCubeGivesItsFirstImageAndSaysSo) {
  Dds d = compressed("DXT1", 4, 4);
  d.dx10 = Dds::Dx10{};
  d.dx10->arraySize = 3;
  d.dx10->misc = 0x4;  // TEXTURECUBE
  for (int i = 0; i < 18; ++i) append(d.payload, dxt1Block(i == 0 ? kRed : kBlue, 0, 0));
  const DdsImage img = read(d.bytes());
  EXPECT_EQ(at(decode(img), 4, 0, 0), kRedPx);
  EXPECT_EQ(img.diagnostics.items.size(), 2u);
}

TEST(Dds, RecognisesTheMagic) {
  EXPECT_TRUE(isDds(compressed("DXT1", 4, 4).bytes()));
  const Bytes png{std::byte{0x89}, std::byte{'P'}, std::byte{'N'}, std::byte{'G'}};
  EXPECT_FALSE(isDds(png));
  EXPECT_FALSE(isDds({}));
}

}  // namespace
}  // namespace marrow::formats
