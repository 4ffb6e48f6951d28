#include "formats/image/dds.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <new>
#include <tuple>

#include "formats/io/byte_reader.h"

namespace marrow::formats {

namespace {

constexpr std::uint32_t fourCC(char a, char b, char c, char d) {
  return std::uint32_t(std::uint8_t(a)) | std::uint32_t(std::uint8_t(b)) << 8 |
         std::uint32_t(std::uint8_t(c)) << 16 | std::uint32_t(std::uint8_t(d)) << 24;
}

constexpr std::uint32_t kMagic = fourCC('D', 'D', 'S', ' ');
constexpr std::uint32_t kHeaderSize = 124;
constexpr std::uint32_t kPixelFormatSize = 32;

// DDS_HEADER.dwCaps2 and DDS_PIXELFORMAT.dwFlags bits.
constexpr std::uint32_t kCaps2Cubemap = 0x200;
constexpr std::uint32_t kCaps2Volume = 0x200000;
constexpr std::uint32_t kPfAlphaPixels = 0x1;
constexpr std::uint32_t kPfAlpha = 0x2;
constexpr std::uint32_t kPfFourCC = 0x4;
constexpr std::uint32_t kPfRgb = 0x40;
constexpr std::uint32_t kPfYuv = 0x200;
constexpr std::uint32_t kPfLuminance = 0x20000;
constexpr std::uint32_t kPfBumpDuDv = 0x80000;

// Offsets of header fields from the start of the file (after the 4-byte magic).
constexpr std::uint64_t kAtHeight = 12, kAtWidth = 16, kAtDepth = 24, kAtMipCount = 28;
constexpr std::uint64_t kAtPfSize = 76, kAtPfFlags = 80, kAtFourCC = 84, kAtBitCount = 88;
constexpr std::uint64_t kAtRedMask = 92, kAtDxgiFormat = 128, kAtDimension = 132,
                        kAtArraySize = 140;

// DXGI_FORMAT values (dxgiformat.h) and D3D10_RESOURCE_DIMENSION values the DX10 header may give.
enum : std::uint32_t {
  kDxgiR8G8B8A8Typeless = 27,
  kDxgiR8G8B8A8Unorm = 28,
  kDxgiR8G8B8A8UnormSrgb = 29,
  kDxgiBc1Typeless = 70,
  kDxgiBc1Unorm = 71,
  kDxgiBc1UnormSrgb = 72,
  kDxgiBc2Typeless = 73,
  kDxgiBc2Unorm = 74,
  kDxgiBc2UnormSrgb = 75,
  kDxgiBc3Typeless = 76,
  kDxgiBc3Unorm = 77,
  kDxgiBc3UnormSrgb = 78,
  kDxgiB8G8R8A8Unorm = 87,
  kDxgiB8G8R8X8Unorm = 88,
  kDxgiB8G8R8A8Typeless = 90,
  kDxgiB8G8R8A8UnormSrgb = 91,
  kDxgiB8G8R8X8Typeless = 92,
  kDxgiB8G8R8X8UnormSrgb = 93,
};
constexpr std::uint32_t kDimension1D = 2, kDimension2D = 3, kDimension3D = 4;
constexpr std::uint32_t kMiscTextureCube = 0x4;

constexpr DdsPixelMasks kRgba8{32, 0x000000FF, 0x0000FF00, 0x00FF0000, 0xFF000000, false};
constexpr DdsPixelMasks kBgra8{32, 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000, false};
constexpr DdsPixelMasks kBgrx8{32, 0x00FF0000, 0x0000FF00, 0x000000FF, 0, false};

std::string fourCCText(std::uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((v >> (8 * i)) & 0xFF);
    if (c < 0x20 || c > 0x7E) return "D3DFMT " + std::to_string(v);
    s += c;
  }
  return "'" + s + "'";
}

std::string sizeText(std::uint32_t w, std::uint32_t h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// The DX10 header's format: the formats S3TC and 8-bit RGBA textures come in.
void applyDxgiFormat(const ByteReader& r, std::uint32_t dxgi, DdsImage& img) {
  img.srgb = dxgi == kDxgiBc1UnormSrgb || dxgi == kDxgiBc2UnormSrgb || dxgi == kDxgiBc3UnormSrgb ||
             dxgi == kDxgiR8G8B8A8UnormSrgb || dxgi == kDxgiB8G8R8A8UnormSrgb ||
             dxgi == kDxgiB8G8R8X8UnormSrgb;
  switch (dxgi) {
    case kDxgiBc1Typeless:
    case kDxgiBc1Unorm:
    case kDxgiBc1UnormSrgb: img.format = DdsFormat::Dxt1; return;
    case kDxgiBc2Typeless:
    case kDxgiBc2Unorm:
    case kDxgiBc2UnormSrgb: img.format = DdsFormat::Dxt3; return;
    case kDxgiBc3Typeless:
    case kDxgiBc3Unorm:
    case kDxgiBc3UnormSrgb: img.format = DdsFormat::Dxt5; return;
    case kDxgiR8G8B8A8Typeless:
    case kDxgiR8G8B8A8Unorm:
    case kDxgiR8G8B8A8UnormSrgb:
      img.format = DdsFormat::Uncompressed;
      img.masks = kRgba8;
      return;
    case kDxgiB8G8R8A8Unorm:
    case kDxgiB8G8R8A8Typeless:
    case kDxgiB8G8R8A8UnormSrgb:
      img.format = DdsFormat::Uncompressed;
      img.masks = kBgra8;
      return;
    case kDxgiB8G8R8X8Unorm:
    case kDxgiB8G8R8X8Typeless:
    case kDxgiB8G8R8X8UnormSrgb:
      img.format = DdsFormat::Uncompressed;
      img.masks = kBgrx8;
      return;
    default:
      r.failAt(kAtDxgiFormat, "DDS_HEADER_DXT10.dxgiFormat",
               "DXGI format " + std::to_string(dxgi) +
                   " is not supported (only BC1, BC2, BC3 and R8G8B8A8 / B8G8R8A8 / B8G8R8X8)");
  }
}

// DDS_PIXELFORMAT without a FourCC: bit masks over 8, 16, 24 or 32-bit pixels.
void applyMasks(const ByteReader& r, std::uint32_t pfFlags, std::uint32_t bitCount,
                const std::array<std::uint32_t, 4>& mask, DdsImage& img) {
  if (bitCount != 8 && bitCount != 16 && bitCount != 24 && bitCount != 32)
    r.failAt(kAtBitCount, "DDS_PIXELFORMAT.dwRGBBitCount",
             "is " + std::to_string(bitCount) +
                 "; uncompressed pixels of 8, 16, 24 or 32 bits "
                 "are supported");
  static constexpr const char* kMaskNames[4] = {
      "DDS_PIXELFORMAT.dwRBitMask", "DDS_PIXELFORMAT.dwGBitMask", "DDS_PIXELFORMAT.dwBBitMask",
      "DDS_PIXELFORMAT.dwABitMask"};
  const bool hasAlpha = (pfFlags & (kPfAlphaPixels | kPfAlpha)) != 0;
  img.format = DdsFormat::Uncompressed;
  img.masks.bitsPerPixel = bitCount;
  img.masks.alpha = hasAlpha ? mask[3] : 0;
  if (pfFlags & kPfRgb) {
    img.masks.red = mask[0], img.masks.green = mask[1], img.masks.blue = mask[2];
  } else if (pfFlags & kPfLuminance) {
    img.masks.red = mask[0];
    img.masks.luminance = true;
  }
  // Only the masks the flags put to use are checked (a luminance file's G and B are unused).
  const std::uint32_t used[4] = {img.masks.red, img.masks.green, img.masks.blue, img.masks.alpha};
  for (int c = 0; c < 4; ++c)
    if (bitCount < 32 && (used[c] >> bitCount) != 0)
      r.failAt(kAtRedMask + 4 * c, kMaskNames[c],
               "has bits beyond the pixel's " + std::to_string(bitCount) + " bits");
  // DDPF_ALPHA alone: an alpha-only image, colour 0 as Direct3D samples A8.
  if ((img.masks.red | img.masks.green | img.masks.blue | img.masks.alpha) == 0)
    r.failAt(kAtRedMask, "DDS_PIXELFORMAT", "uncompressed, but every channel mask is 0");
}

DdsImage parse(std::span<const std::byte> bytes, const std::string& file) {
  ByteReader r(bytes, file);
  if (r.u32("magic") != kMagic) r.failAt(0, "magic", "is not \"DDS \": not a DDS file");
  const std::uint32_t headerSize = r.u32("DDS_HEADER.dwSize");
  if (headerSize != kHeaderSize)
    r.failAt(4, "DDS_HEADER.dwSize", "is " + std::to_string(headerSize) + ", not 124");
  r.u32("DDS_HEADER.dwFlags");  // what it says is set is read from the fields themselves
  const std::uint32_t height = r.u32("DDS_HEADER.dwHeight");
  const std::uint32_t width = r.u32("DDS_HEADER.dwWidth");
  r.u32("DDS_HEADER.dwPitchOrLinearSize");  // unreliable in practice; sizes follow the format
  const std::uint32_t depthField = r.u32("DDS_HEADER.dwDepth");
  const std::uint32_t mipCount = r.u32("DDS_HEADER.dwMipMapCount");
  r.skip(44, "DDS_HEADER.dwReserved1");
  const std::uint32_t pfSize = r.u32("DDS_PIXELFORMAT.dwSize");
  const std::uint32_t pfFlags = r.u32("DDS_PIXELFORMAT.dwFlags");
  const std::uint32_t code = r.u32("DDS_PIXELFORMAT.dwFourCC");
  const std::uint32_t bitCount = r.u32("DDS_PIXELFORMAT.dwRGBBitCount");
  std::array<std::uint32_t, 4> masks{};
  for (auto& m : masks) m = r.u32("DDS_PIXELFORMAT bit mask");
  r.u32("DDS_HEADER.dwCaps");
  const std::uint32_t caps2 = r.u32("DDS_HEADER.dwCaps2");
  r.skip(12, "DDS_HEADER.dwCaps3..dwReserved2");

  for (auto [value, at, field] : {std::tuple{width, kAtWidth, "DDS_HEADER.dwWidth"},
                                  std::tuple{height, kAtHeight, "DDS_HEADER.dwHeight"}})
    if (value == 0 || value > kMaxDdsDimension)
      r.failAt(
          at, field,
          "is " + std::to_string(value) + "; it must be 1 to " + std::to_string(kMaxDdsDimension));

  DdsImage img;
  img.width = width;
  img.height = height;
  if (pfSize != kPixelFormatSize)
    img.diagnostics.warn(file, "DDS_PIXELFORMAT.dwSize", kAtPfSize,
                         "is " + std::to_string(pfSize) + ", not 32; read as if it were");
  bool cube = (caps2 & kCaps2Cubemap) != 0;
  bool volume = (caps2 & kCaps2Volume) != 0;
  std::uint32_t arraySize = 1;
  if (pfFlags & kPfFourCC) {
    switch (code) {
      case fourCC('D', 'X', 'T', '1'): img.format = DdsFormat::Dxt1; break;
      case fourCC('D', 'X', 'T', '3'): img.format = DdsFormat::Dxt3; break;
      case fourCC('D', 'X', 'T', '5'): img.format = DdsFormat::Dxt5; break;
      case fourCC('D', 'X', '1', '0'): {
        const std::uint32_t dxgi = r.u32("DDS_HEADER_DXT10.dxgiFormat");
        const std::uint32_t dimension = r.u32("DDS_HEADER_DXT10.resourceDimension");
        const std::uint32_t misc = r.u32("DDS_HEADER_DXT10.miscFlag");
        arraySize = r.u32("DDS_HEADER_DXT10.arraySize");
        r.u32("DDS_HEADER_DXT10.miscFlags2");
        applyDxgiFormat(r, dxgi, img);
        if (dimension != kDimension1D && dimension != kDimension2D && dimension != kDimension3D)
          r.failAt(kAtDimension, "DDS_HEADER_DXT10.resourceDimension",
                   "is " + std::to_string(dimension) + ", not a 1D, 2D or 3D texture");
        volume = dimension == kDimension3D;
        cube = (misc & kMiscTextureCube) != 0;
        if (arraySize == 0)
          r.failAt(kAtArraySize, "DDS_HEADER_DXT10.arraySize", "is 0: the file holds no image");
        break;
      }
      case fourCC('D', 'X', 'T', '2'):
      case fourCC('D', 'X', 'T', '4'):
        r.failAt(kAtFourCC, "DDS_PIXELFORMAT.dwFourCC",
                 "is " + fourCCText(code) + " (premultiplied alpha), which is not supported");
      default:
        r.failAt(
            kAtFourCC, "DDS_PIXELFORMAT.dwFourCC",
            "is " + fourCCText(code) + ", which is not supported (only DXT1, DXT3, DXT5 and DX10)");
    }
  } else if (pfFlags & (kPfYuv | kPfBumpDuDv)) {
    r.failAt(kAtPfFlags, "DDS_PIXELFORMAT.dwFlags", "YUV and bump-map pixels are not supported");
  } else if (pfFlags & (kPfRgb | kPfLuminance | kPfAlpha)) {
    applyMasks(r, pfFlags, bitCount, masks, img);
  } else {
    r.failAt(kAtPfFlags, "DDS_PIXELFORMAT.dwFlags",
             "names neither a FourCC nor RGB, luminance or alpha masks");
  }

  std::uint32_t depth = 1;
  if (volume) {
    depth = std::max<std::uint32_t>(depthField, 1);
    if (depth > kMaxDdsDimension)
      r.failAt(
          kAtDepth, "DDS_HEADER.dwDepth",
          "is " + std::to_string(depth) + "; it must be 1 to " + std::to_string(kMaxDdsDimension));
    if (depth > 1)
      img.diagnostics.info(file, "DDS_HEADER.dwDepth", kAtDepth,
                           "a volume texture of " + std::to_string(depth) +
                               " slices: only the first slice of each level is read");
  }
  if (cube)
    img.diagnostics.info(file, "DDS_HEADER.dwCaps2", 112,
                         "a cube map: only its first face is read");
  if (arraySize > 1)
    img.diagnostics.info(
        file, "DDS_HEADER_DXT10.arraySize", kAtArraySize,
        "an array of " + std::to_string(arraySize) + " textures: only the first is read");

  // dwMipMapCount is read whether or not DDSD_MIPMAPCOUNT is set: writers often set the count
  // alone, and 0 and 1 both mean one level. A full chain ends at 1×1.
  std::uint32_t levels = std::max(mipCount, 1u);
  const std::uint32_t fullChain = std::bit_width(std::max(width, height));
  if (levels > fullChain) {
    img.diagnostics.warn(file, "DDS_HEADER.dwMipMapCount", kAtMipCount,
                         "is " + std::to_string(levels) + " but a " + sizeText(width, height) +
                             " image has " + std::to_string(fullChain) +
                             " levels at most; the rest are ignored");
    levels = fullChain;
  }

  const std::uint32_t bpp = img.masks.bitsPerPixel;
  std::uint64_t at = r.offset();
  for (std::uint32_t i = 0; i < levels; ++i) {
    const std::uint32_t w = std::max(width >> i, 1u), h = std::max(height >> i, 1u);
    const std::uint32_t slices = std::max(depth >> i, 1u);
    const std::uint64_t size = ddsLevelSize(img.format, bpp, w, h);
    const std::uint64_t total = size * slices;  // <= 2^30 × 2^14: no overflow
    const std::uint64_t left = bytes.size() - at;
    const std::string field = "mip level " + std::to_string(i);
    if (total > left) {
      const std::string need = "needs " + std::to_string(total) + " bytes (" + sizeText(w, h) +
                               " " + ddsFormatName(img.format) + ") but only " +
                               std::to_string(left) + " are left";
      if (i == 0) r.failAt(at, field, need);
      img.diagnostics.warn(file, field, at,
                           need + ": the file is cut short; " + std::to_string(i) + " of " +
                               std::to_string(levels) + " levels kept");
      break;
    }
    DdsLevel level;
    level.width = w;
    level.height = h;
    const auto* p = bytes.data() + at;
    level.data.assign(p, p + size);
    img.levels.push_back(std::move(level));
    at += total;
  }
  if (at < bytes.size() && !cube && arraySize == 1 && img.levels.size() == levels)
    img.diagnostics.info(
        file, "end of file", at,
        std::to_string(bytes.size() - at) + " bytes after the last mip level are ignored");
  return img;
}

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
};

Rgba expand565(std::uint16_t c) {
  const unsigned r5 = c >> 11, g6 = (c >> 5) & 63, b5 = c & 31;
  // Bit replication, so that 0 and the maximum map to 0 and 255 exactly.
  return {std::uint8_t(r5 << 3 | r5 >> 2), std::uint8_t(g6 << 2 | g6 >> 4),
          std::uint8_t(b5 << 3 | b5 >> 2), 255};
}

std::uint8_t mix(unsigned a, unsigned wa, unsigned b, unsigned wb) {
  const unsigned d = wa + wb;
  return std::uint8_t((a * wa + b * wb + d / 2) / d);  // rounded to nearest
}

std::uint64_t little(const std::byte* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t(std::to_integer<std::uint8_t>(p[i])) << (8 * i);
  return v;
}

// A DXT1 colour block: 16 pixels row by row into `out`. Only DXT1 itself has the 3-colour +
// transparent mode (color0 <= color1); DXT3/5 colour blocks always use four colours
// (EXT_texture_compression_s3tc, "COMPRESSED_RGBA_S3TC_DXT3_EXT").
void decodeColorBlock(const std::byte* block, bool dxt1, Rgba out[16]) {
  const auto c0 = static_cast<std::uint16_t>(little(block, 2));
  const auto c1 = static_cast<std::uint16_t>(little(block + 2, 2));
  Rgba palette[4] = {expand565(c0), expand565(c1), {}, {}};
  const Rgba& p0 = palette[0];
  const Rgba& p1 = palette[1];
  if (c0 > c1 || !dxt1) {
    palette[2] = {mix(p0.r, 2, p1.r, 1), mix(p0.g, 2, p1.g, 1), mix(p0.b, 2, p1.b, 1), 255};
    palette[3] = {mix(p0.r, 1, p1.r, 2), mix(p0.g, 1, p1.g, 2), mix(p0.b, 1, p1.b, 2), 255};
  } else {
    palette[2] = {mix(p0.r, 1, p1.r, 1), mix(p0.g, 1, p1.g, 1), mix(p0.b, 1, p1.b, 1), 255};
    palette[3] = {0, 0, 0, 0};  // transparent black
  }
  const auto indices = static_cast<std::uint32_t>(little(block + 4, 4));
  for (int k = 0; k < 16; ++k) out[k] = palette[(indices >> (2 * k)) & 3];
}

// DXT5 alpha: two endpoints, then 16 3-bit indices (48 bits, little-endian).
void decodeAlphaBlock(const std::byte* block, Rgba out[16]) {
  const unsigned a0 = std::to_integer<unsigned>(block[0]);
  const unsigned a1 = std::to_integer<unsigned>(block[1]);
  std::uint8_t alpha[8] = {std::uint8_t(a0), std::uint8_t(a1)};
  if (a0 > a1) {
    for (unsigned i = 2; i < 8; ++i) alpha[i] = mix(a0, 8 - i, a1, i - 1);
  } else {
    for (unsigned i = 2; i < 6; ++i) alpha[i] = mix(a0, 6 - i, a1, i - 1);
    alpha[6] = 0;
    alpha[7] = 255;
  }
  const std::uint64_t indices = little(block + 2, 6);
  for (int k = 0; k < 16; ++k) out[k].a = alpha[(indices >> (3 * k)) & 7];
}

void decodeBlocks(const DdsImage& img, const DdsLevel& level, std::vector<std::uint8_t>& out) {
  const std::size_t blockBytes = img.format == DdsFormat::Dxt1 ? 8 : 16;
  const std::uint32_t bw = (level.width + 3) / 4, bh = (level.height + 3) / 4;
  const std::byte* block = level.data.data();
  Rgba px[16];
  for (std::uint32_t by = 0; by < bh; ++by)
    for (std::uint32_t bx = 0; bx < bw; ++bx, block += blockBytes) {
      switch (img.format) {
        case DdsFormat::Dxt1: decodeColorBlock(block, true, px); break;
        case DdsFormat::Dxt3: {
          decodeColorBlock(block + 8, false, px);
          const std::uint64_t alpha = little(block, 8);  // 4 bits a pixel, row by row
          for (int k = 0; k < 16; ++k) px[k].a = std::uint8_t(((alpha >> (4 * k)) & 15) * 17);
          break;
        }
        default:
          decodeColorBlock(block + 8, false, px);
          decodeAlphaBlock(block, px);
          break;
      }
      // Blocks over the right or bottom edge of a size that is not a multiple of 4 are cut.
      for (std::uint32_t y = 0; y < 4 && by * 4 + y < level.height; ++y)
        for (std::uint32_t x = 0; x < 4 && bx * 4 + x < level.width; ++x) {
          const Rgba& c = px[4 * y + x];
          std::uint8_t* o = &out[(std::size_t(by * 4 + y) * level.width + bx * 4 + x) * 4];
          o[0] = c.r, o[1] = c.g, o[2] = c.b, o[3] = c.a;
        }
    }
}

// A channel of `pixel` under `mask`, scaled to 0..255; `missing` when the mask is empty.
std::uint8_t channel(std::uint32_t pixel, std::uint32_t mask, std::uint8_t missing) {
  if (mask == 0) return missing;
  const int shift = std::countr_zero(mask);
  const std::uint64_t max = mask >> shift;
  const std::uint64_t v = (pixel & mask) >> shift;
  return std::uint8_t((v * 255 + max / 2) / max);
}

void decodePixels(const DdsImage& img, const DdsLevel& level, std::vector<std::uint8_t>& out) {
  const DdsPixelMasks& m = img.masks;
  const int bytesPerPixel = static_cast<int>(m.bitsPerPixel / 8);
  const std::byte* p = level.data.data();
  for (std::size_t i = 0, n = std::size_t(level.width) * level.height; i < n; ++i) {
    const auto pixel = static_cast<std::uint32_t>(little(p + i * bytesPerPixel, bytesPerPixel));
    std::uint8_t* o = &out[i * 4];
    if (m.luminance) {
      o[0] = o[1] = o[2] = channel(pixel, m.red, 0);
    } else {
      o[0] = channel(pixel, m.red, 0);
      o[1] = channel(pixel, m.green, 0);
      o[2] = channel(pixel, m.blue, 0);
    }
    o[3] = channel(pixel, m.alpha, 255);
  }
}

}  // namespace

const char* ddsFormatName(DdsFormat format) {
  switch (format) {
    case DdsFormat::Dxt1: return "DXT1";
    case DdsFormat::Dxt3: return "DXT3";
    case DdsFormat::Dxt5: return "DXT5";
    case DdsFormat::Uncompressed: return "uncompressed";
  }
  return "?";
}

bool isBlockCompressed(DdsFormat format) {
  return format != DdsFormat::Uncompressed;
}

bool isDds(std::span<const std::byte> bytes) {
  return bytes.size() >= 4 && little(bytes.data(), 4) == kMagic;
}

std::uint64_t ddsLevelSize(DdsFormat format, std::uint32_t bitsPerPixel, std::uint32_t width,
                           std::uint32_t height) {
  if (isBlockCompressed(format)) {
    const std::uint64_t blocks = std::uint64_t((width + 3ull) / 4) * ((height + 3ull) / 4);
    return blocks * (format == DdsFormat::Dxt1 ? 8 : 16);
  }
  return (std::uint64_t(width) * bitsPerPixel + 7) / 8 * height;
}

Result<DdsImage> readDds(std::span<const std::byte> bytes, const std::string& file) {
  try {
    return parse(bytes, file);
  } catch (const FormatException& e) {
    return e.error();
  } catch (const std::bad_alloc&) {
    return FormatError{file, "mip levels", kNoOffset, "out of memory"};
  }
}

Result<std::vector<std::uint8_t>> decodeDdsLevel(const DdsImage& image, std::size_t index) {
  auto fail = [&](std::string message) {
    return FormatError{"", "mip level " + std::to_string(index), kNoOffset, std::move(message)};
  };
  if (index >= image.levels.size())
    return fail("does not exist (the image has " + std::to_string(image.levels.size()) + ")");
  const DdsLevel& level = image.levels[index];
  const std::uint32_t bpp = image.masks.bitsPerPixel;
  if (!isBlockCompressed(image.format) && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
    return fail("has " + std::to_string(bpp) + " bits per pixel, not 8, 16, 24 or 32");
  if (level.width == 0 || level.height == 0 || level.width > kMaxDdsDimension ||
      level.height > kMaxDdsDimension ||
      level.data.size() != ddsLevelSize(image.format, bpp, level.width, level.height))
    return fail("holds " + std::to_string(level.data.size()) + " bytes, not what " +
                sizeText(level.width, level.height) + " " + ddsFormatName(image.format) + " needs");
  try {
    std::vector<std::uint8_t> out(std::size_t(level.width) * level.height * 4);
    if (isBlockCompressed(image.format))
      decodeBlocks(image, level, out);
    else
      decodePixels(image, level, out);
    return out;
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  }
}

}  // namespace marrow::formats
