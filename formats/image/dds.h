// DirectDraw Surface (.dds) images as Mount&Blade materials use them: DXT1/3/5 (BC1-3) blocks
// kept as stored, so that a renderer can hand them to the GPU unchanged, and uncompressed pixels
// described by bit masks; both decode to RGBA8. Plain data, no Qt, no GL; safe for untrusted input.
//
// Layout (Microsoft's "DDS file layout" / DDS_HEADER / DDS_PIXELFORMAT / DDS_HEADER_DXT10 pages):
// "DDS ", a 124-byte header, an optional 20-byte DX10 header, then mip level 0 first, each level
// stored top row first (4×4 blocks, a row of blocks at a time, for the compressed formats).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/io/result.h"
#include "formats/io/diagnostics.h"

namespace marrow::formats {

enum class DdsFormat : std::uint8_t {
  Dxt1,          // BC1: 8 bytes per 4×4 block, 1-bit alpha when color0 <= color1
  Dxt3,          // BC2: 16 bytes, explicit 4-bit alpha then a DXT1 colour block
  Dxt5,          // BC3: 16 bytes, interpolated 8-bit alpha then a DXT1 colour block
  Uncompressed,  // pixels of DdsPixelMasks::bitsPerPixel, channels by mask
};

const char* ddsFormatName(DdsFormat format);
bool isBlockCompressed(DdsFormat format);

// How an uncompressed pixel's bits become channels (DDS_PIXELFORMAT). A channel whose mask is 0
// reads 0 (alpha: 255); a mask of n bits is scaled from 0..2^n-1 to 0..255, rounding.
struct DdsPixelMasks {
  std::uint32_t bitsPerPixel = 32;  // 8, 16, 24 or 32; pixels are little-endian
  std::uint32_t red = 0, green = 0, blue = 0, alpha = 0;
  bool luminance = false;  // `red` is a luminance, copied to red, green and blue
};

struct DdsLevel {
  std::uint32_t width = 0, height = 0;
  std::vector<std::byte> data;  // exactly ddsLevelSize(...) bytes, as the file stores them
};

struct DdsImage {
  std::uint32_t width = 0, height = 0;  // of level 0
  DdsFormat format = DdsFormat::Dxt1;
  DdsPixelMasks masks;           // Uncompressed only
  bool srgb = false;             // a DX10 header named an *_SRGB format (the bytes are the same)
  std::vector<DdsLevel> levels;  // level 0 first; only levels the file holds completely
  Diagnostics diagnostics;       // first face / slice taken, levels dropped, bytes ignored
};

inline constexpr std::uint32_t kMaxDdsDimension = 16384;

// Whether the bytes start with the magic "DDS ".
bool isDds(std::span<const std::byte> bytes);

// Bytes of one level of width × height (both >= 1): whole 4×4 blocks for DXT, packed rows of
// (width × bitsPerPixel + 7) / 8 bytes otherwise (the DDS pitch rule, no row padding).
std::uint64_t ddsLevelSize(DdsFormat format, std::uint32_t bitsPerPixel, std::uint32_t width,
                           std::uint32_t height);

// Parses the headers and copies out every complete mip level. Errors name `file`, the header
// field and its offset; a mip chain cut short keeps the complete levels and says so.
Result<DdsImage> readDds(std::span<const std::byte> bytes, const std::string& file);

// One level as RGBA8, width × height × 4 bytes, top row first as stored. Fails only for a level
// that does not exist or whose data does not have its size (an image not made by readDds).
Result<std::vector<std::uint8_t>> decodeDdsLevel(const DdsImage& image, std::size_t level = 0);

}  // namespace marrow::formats
