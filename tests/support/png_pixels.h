// Reading back the PNGs the project writes (8-bit RGBA, filter 0 on every row) with zlib, not
// with the writer's libdeflate: signature, chunk CRCs, IHDR, the IDAT stream inflated, rows.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace marrow::testing {

inline std::uint32_t pngBe32(std::span<const std::byte> b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = v << 8 | std::to_integer<std::uint32_t>(b[at + i]);
  return v;
}

// The RGBA rows of the PNG at `at`, top row first; empty when it is not such a PNG or any chunk's
// CRC is wrong. Sets w and h from IHDR.
inline std::vector<std::uint8_t> pngPixels(std::span<const std::byte> png, std::size_t at,
                                           std::uint32_t& w, std::uint32_t& h) {
  static const std::uint8_t kSig[8] = {0x89, 'P', 'N', 'G', 13, 10, 26, 10};
  if (at + 8 > png.size()) return {};
  for (int i = 0; i < 8; ++i)
    if (std::to_integer<std::uint8_t>(png[at + i]) != kSig[i]) return {};
  std::vector<std::uint8_t> idat;
  bool header = false, end = false;
  for (std::size_t p = at + 8; p + 12 <= png.size();) {
    const std::uint32_t n = pngBe32(png, p);
    if (n > png.size() - p - 12) return {};
    const auto* typeAndData = reinterpret_cast<const Bytef*>(png.data() + p + 4);
    if (crc32(0L, typeAndData, 4 + n) != pngBe32(png, p + 8 + n)) return {};
    const std::string type(reinterpret_cast<const char*>(typeAndData), 4);
    if (type == "IHDR") {
      if (n != 13) return {};
      w = pngBe32(png, p + 8), h = pngBe32(png, p + 12);
      // 8 bits per channel, colour type 6 (RGBA), deflate, filter method 0, no interlace
      for (int i = 0; i < 5; ++i)
        if (std::to_integer<int>(png[p + 16 + i]) != (i == 0 ? 8 : i == 1 ? 6 : 0)) return {};
      header = true;
    } else if (type == "IDAT") {
      idat.insert(idat.end(), typeAndData + 4, typeAndData + 4 + n);
    } else if (type == "IEND") {
      end = true;
      break;
    }
    p += 12 + n;
  }
  if (!header || !end) return {};
  std::vector<std::uint8_t> raw(std::size_t(h) * (1 + 4 * std::size_t(w)));
  uLongf rawSize = raw.size();
  if (uncompress(raw.data(), &rawSize, idat.data(), idat.size()) != Z_OK || rawSize != raw.size())
    return {};
  std::vector<std::uint8_t> rgba;
  rgba.reserve(std::size_t(h) * w * 4);
  for (std::uint32_t y = 0; y < h; ++y) {
    const std::uint8_t* row = &raw[y * (1 + 4 * std::size_t(w))];
    if (row[0] != 0) return {};
    rgba.insert(rgba.end(), row + 1, row + 1 + 4 * std::size_t(w));
  }
  return rgba;
}

}  // namespace marrow::testing
