// Truevision TGA (.tga) images, as cal3d and assimp-imported models use them for textures:
// colour-mapped, true-colour and grey images (types 1, 2, 3) and their run-length forms
// (9, 10, 11), decoded to RGBA8. Plain data, no Qt; safe for untrusted input.
//
// Layout (Truevision TGA File Format Specification 2.0): an 18-byte header, the image ID, the
// colour map, then the pixels, by default bottom row first and left to right (Image Descriptor
// bits 5 and 4 say otherwise). A 2.0 file may end with a 26-byte footer whose last 18 bytes are
// "TRUEVISION-XFILE.\0"; 1.0 files have none, and nothing at the start marks a TGA.
//
// Alpha, by what the spec says and what real files need (the Image Descriptor's bits 3-0 give
// the "attribute bits per pixel"):
// - 16-bit pixels and colour-map entries: bit 15 is alpha only when the descriptor gives 1 or
//   more attribute bits; otherwise the image is opaque (many 16-bit files leave bit 15 at 0).
//   15-bit ones have no alpha.
// - 32-bit pixels and entries, and 16-bit grey (grey + alpha bytes): the last byte is alpha even
//   when the descriptor gives 0 attribute bits. The spec says 0 means "no alpha", but writers
//   that store real alpha under 0 are common enough that GIMP (its bug 540969), ImageMagick, Qt
//   and stb_image all read the byte; so does this decoder.
// - Except: when the descriptor gives 0 attribute bits and every decoded alpha is 0, the byte
//   was padding (a fully transparent texture is never what such a writer meant) and the image
//   is read as opaque, with a diagnostic.
// The extension area's Attributes Type is not consulted: few writers fill it in, and the
// readers above ignore it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/limits.h"
#include "formats/io/result.h"
#include "formats/io/diagnostics.h"

namespace marrow::formats {

struct TgaImage {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width × height × 4 bytes, top row first, left to right
  Diagnostics diagnostics;         // alpha read as opaque, colour indices outside the map, …
};

// Whether `name` ends in .tga, in any case.
bool hasTgaSuffix(std::string_view name);

// Whether the bytes are a TGA worth decoding: the header is plausible (a known image type, a
// pixel depth and colour map that fit it, a non-empty size) and either `name` ends in .tga (any
// case) or the bytes end with the 2.0 footer's signature.
bool isTga(std::span<const std::byte> bytes, std::string_view name);

// The image as RGBA8. Errors name `file`, the header field (by the spec's name) or the packet,
// and its offset. Every size is checked against the bytes before anything is allocated, and the
// RGBA output against limits.maxAllocation(bytes.size()).
Result<TgaImage> decodeTga(std::span<const std::byte> bytes, const std::string& file,
                           const Limits& limits = {});

}  // namespace marrow::formats
