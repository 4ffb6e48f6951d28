#include "formats/image/png_writer.h"

#include <libdeflate.h>

#include <cstring>
#include <memory>
#include <new>

#include "formats/io/big_buffer.h"

namespace marrow::formats {
namespace {

constexpr std::size_t kMostPixelBytes = std::size_t{1} << 30;

void putU32(std::byte* out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>(v >> (24 - 8 * i));
}

// PNG spec §5.3: length, type, data, CRC-32 of type and data; the data is already in place
// after the 8 bytes of length and type. Returns the size of the whole chunk.
std::size_t sealChunk(std::byte* at, const char (&type)[5], std::size_t size) {
  putU32(at, static_cast<std::uint32_t>(size));
  std::memcpy(at + 4, type, 4);
  putU32(at + 8 + size, libdeflate_crc32(0, at + 4, 4 + size));
  return 12 + size;
}

struct CompressorDeleter {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

}  // namespace

std::vector<std::byte> encodePngRows(std::uint32_t width, std::uint32_t height,
                                     const std::function<void(std::uint32_t, std::uint8_t*)>& row,
                                     PngEffort effort) {
  const std::size_t rowBytes = std::size_t{width} * 4;
  if (width == 0 || height == 0 || rowBytes > kMostPixelBytes / height) return {};
  // Each scanline is preceded by its filter type (§7.3); 0 = None.
  const std::size_t rawSize = (rowBytes + 1) * height;
  std::unique_ptr<std::uint8_t[]> raw(new (std::nothrow) std::uint8_t[rawSize]);
  if (!raw) return {};
  adviseHugePages(raw.get(), rawSize);
  populate(raw.get(), rawSize);
  for (std::uint32_t y = 0; y < height; ++y) {
    std::uint8_t* line = raw.get() + y * (rowBytes + 1);
    line[0] = 0;
    row(y, line + 1);
  }

  const std::unique_ptr<libdeflate_compressor, CompressorDeleter> compressor(
      libdeflate_alloc_compressor(effort == PngEffort::Fast ? 1 : 9));
  if (!compressor) return {};
  const std::size_t bound = libdeflate_zlib_compress_bound(compressor.get(), rawSize);
  constexpr std::size_t kSignature = 8, kHeader = 12 + 13, kEnd = 12;
  std::unique_ptr<std::byte[]> out(new (std::nothrow) std::byte[kSignature + kHeader + 12 + bound + kEnd]);
  if (!out) return {};
  std::byte* at = out.get();
  constexpr unsigned char kPngSignature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::memcpy(at, kPngSignature, kSignature);
  at += kSignature;
  // IHDR (§11.2.2): width, height, bit depth 8, colour type 6 (RGBA), compression 0, filter 0,
  // interlace 0.
  putU32(at + 8, width);
  putU32(at + 12, height);
  constexpr unsigned char kFormat[] = {8, 6, 0, 0, 0};
  std::memcpy(at + 16, kFormat, sizeof kFormat);
  at += sealChunk(at, "IHDR", 13);
  const std::size_t packed =
      libdeflate_zlib_compress(compressor.get(), raw.get(), rawSize, at + 8, bound);
  if (packed == 0) return {};
  at += sealChunk(at, "IDAT", packed);
  at += sealChunk(at, "IEND", 0);
  return std::vector<std::byte>(out.get(), at);
}

std::vector<std::byte> encodePng(std::span<const std::uint8_t> rgba, std::uint32_t width,
                                 std::uint32_t height, PngEffort effort) {
  const std::size_t rowBytes = std::size_t{width} * 4;
  if (rgba.size() != rowBytes * height) return {};
  return encodePngRows(
      width, height,
      [&](std::uint32_t y, std::uint8_t* out) { std::memcpy(out, rgba.data() + y * rowBytes, rowBytes); },
      effort);
}

}  // namespace marrow::formats
