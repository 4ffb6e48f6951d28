// formats/image/png_writer.h: what it writes is a PNG that zlib and the PNG spec read back to the
// same pixels (tests/support/png_pixels.h checks every chunk's CRC and inflates with zlib), at
// both efforts, for odd sizes and rows given by a callback; wrong sizes give nothing.
#include "formats/image/png_writer.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "tests/support/png_pixels.h"

namespace marrow::formats {
namespace {

using testing::pngPixels;

std::vector<std::uint8_t> noise(std::size_t n, unsigned seed, bool smooth) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = smooth ? static_cast<std::uint8_t>((i / 4) % 7 * 30 + (i % 4) * 5)
                  : static_cast<std::uint8_t>(rng());
  return v;
}

TEST(PngWriter, ZlibReadsBackTheSamePixelsAtEitherEffort) {
  for (const PngEffort effort : {PngEffort::Small, PngEffort::Fast})
    for (const auto& [w, h] : {std::pair{1u, 1u}, {3u, 5u}, {257u, 129u}, {1272u, 31u}})
      for (const bool smooth : {true, false}) {
        const auto rgba = noise(std::size_t{w} * h * 4, w * 31 + h, smooth);
        const auto png = encodePng(rgba, w, h, effort);
        std::uint32_t rw = 0, rh = 0;
        EXPECT_EQ(pngPixels(png, 0, rw, rh), rgba) << w << "x" << h << " smooth " << smooth;
        EXPECT_EQ(rw, w);
        EXPECT_EQ(rh, h);
        if (smooth && w * h > 1000) {  // compressible input is compressed
          EXPECT_LT(png.size(), rgba.size() / 4) << w << "x" << h;
        }
      }
}

TEST(PngWriter, RowsFromACallbackAreTheRowsWritten) {
  // A BGRA layout turned into RGBA row by row, as the assimp reader's texels are.
  const std::uint32_t w = 33, h = 17;
  const auto bgra = noise(std::size_t{w} * h * 4, 5, false);
  std::vector<std::uint8_t> rgba(bgra.size());
  for (std::size_t i = 0; i < bgra.size(); i += 4)
    rgba[i] = bgra[i + 2], rgba[i + 1] = bgra[i + 1], rgba[i + 2] = bgra[i], rgba[i + 3] = bgra[i + 3];
  const auto png = encodePngRows(
      w, h,
      [&](std::uint32_t y, std::uint8_t* out) {
        for (std::uint32_t x = 0; x < w; ++x) {
          const std::uint8_t* p = &bgra[(std::size_t{y} * w + x) * 4];
          out[4 * x] = p[2], out[4 * x + 1] = p[1], out[4 * x + 2] = p[0], out[4 * x + 3] = p[3];
        }
      },
      PngEffort::Fast);
  std::uint32_t rw = 0, rh = 0;
  EXPECT_EQ(pngPixels(png, 0, rw, rh), rgba);
}

TEST(PngWriter, WrongOrEmptySizesGiveNothing) {
  const std::vector<std::uint8_t> four(4, 7);
  EXPECT_TRUE(encodePng(four, 2, 1).empty());  // 8 bytes needed
  EXPECT_TRUE(encodePng({}, 0, 0).empty());
  EXPECT_TRUE(encodePng(four, 1, 0).empty());
  // Sizes whose pixels would pass 1 GiB are refused before anything is allocated.
  const auto never = [](std::uint32_t, std::uint8_t*) { ADD_FAILURE() << "no row is asked for"; };
  EXPECT_TRUE(encodePngRows(0xffffffffu, 0xffffffffu, never).empty());
  EXPECT_TRUE(encodePngRows(65536, 4097, never).empty());
}

}  // namespace
}  // namespace marrow::formats
