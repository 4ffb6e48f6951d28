#include "formats/image/png_writer.h"

#include <zlib.h>

#include <array>
#include <string_view>

namespace marrow::formats {
namespace {

void putU32(std::vector<std::byte>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::byte>(v >> shift));
}

// PNG spec §5.3: length, type, data, CRC-32 of type and data.
void chunk(std::vector<std::byte>& out, std::string_view type, std::span<const std::byte> data) {
  putU32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t typeAt = out.size();
  for (char c : type) out.push_back(static_cast<std::byte>(c));
  out.insert(out.end(), data.begin(), data.end());
  const auto* crcStart = reinterpret_cast<const Bytef*>(out.data() + typeAt);
  const uLong crc = crc32(0L, crcStart, static_cast<uInt>(out.size() - typeAt));
  putU32(out, static_cast<std::uint32_t>(crc));
}

}  // namespace

std::vector<std::byte> encodePng(std::span<const std::uint8_t> rgba, std::uint32_t width,
                                 std::uint32_t height) {
  const std::size_t row = std::size_t{width} * 4;
  if (width == 0 || height == 0 || rgba.size() != row * height) return {};
  // Each scanline is preceded by its filter type (§7.3); 0 = None.
  std::vector<std::uint8_t> raw;
  raw.reserve((row + 1) * height);
  for (std::uint32_t y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), rgba.begin() + static_cast<std::ptrdiff_t>(y * row),
               rgba.begin() + static_cast<std::ptrdiff_t>((y + 1) * row));
  }
  uLongf packedSize = compressBound(static_cast<uLong>(raw.size()));
  std::vector<std::byte> packed(packedSize);
  if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packedSize, raw.data(),
                static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION) != Z_OK)
    return {};
  packed.resize(packedSize);

  std::vector<std::byte> out;
  for (unsigned char c : std::array<unsigned char, 8>{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})
    out.push_back(static_cast<std::byte>(c));
  std::vector<std::byte> header;
  putU32(header, width);
  putU32(header, height);
  // bit depth 8, colour type 6 (RGBA), compression 0, filter 0, interlace 0 (§11.2.2)
  for (std::uint8_t b : {8, 6, 0, 0, 0}) header.push_back(static_cast<std::byte>(b));
  chunk(out, "IHDR", header);
  chunk(out, "IDAT", packed);
  chunk(out, "IEND", {});
  return out;
}

}  // namespace marrow::formats
