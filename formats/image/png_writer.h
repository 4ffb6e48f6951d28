// The project's one PNG encoder (8-bit RGBA, no interlace, filter 0 on every row), deflating
// through libdeflate: for images a glTF file must carry as PNG (decoded DDS and TGA textures),
// rendered frames, and the uncompressed images assimp hands over (MDL and HMP skins).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace marrow::formats {

// Small: files that are kept (exports, frames), deflated at libdeflate's level 9, smaller than
// zlib's best and faster. Fast: images a reader makes while a model opens, at level 1 (about
// ten times as fast as zlib's default level on a 1272 × 1114 skin, a fifth larger).
enum class PngEffort { Small, Fast };

// `rgba` holds width × height × 4 bytes, top row first. Empty when the sizes disagree, the image
// is empty or too big (over 1 GiB of pixels), or memory runs out.
std::vector<std::byte> encodePng(std::span<const std::uint8_t> rgba, std::uint32_t width,
                                 std::uint32_t height, PngEffort effort = PngEffort::Small);

// The same from rows another layout holds: row(y, out) writes row y's width × 4 RGBA bytes to
// `out`, so that nothing is copied twice.
std::vector<std::byte> encodePngRows(std::uint32_t width, std::uint32_t height,
                                     const std::function<void(std::uint32_t, std::uint8_t*)>& row,
                                     PngEffort effort = PngEffort::Small);

}  // namespace marrow::formats
