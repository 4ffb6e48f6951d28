// A minimal PNG encoder (8-bit RGBA, no interlace, filter 0 on every row) with zlib, for images
// a glTF file must carry as PNG (decoded DDS textures) and rendered frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace marrow::formats {

// `rgba` holds width × height × 4 bytes, top row first. Empty on a zlib failure.
std::vector<std::byte> encodePng(std::span<const std::uint8_t> rgba, std::uint32_t width,
                                 std::uint32_t height);

}  // namespace marrow::formats
