// A private, lossless binary snapshot of a Scene: how `marrow-cli import-child` hands the model
// it read back to the viewer (app/document.h), so that assimp runs in a child process and a crash
// there costs an error message, not the viewer. Not a file format: nothing else writes or reads
// it, and a version change needs no migration (both ends are the same build).
//
// Layout, little-endian: the 8 bytes "MRWSCENE", u32 version (kSnapshotVersion), u8 kind
// (0: a scene, 1: an error), then the payload: the members of Scene, and of each struct in it,
// in the order scene.h declares them. Floats are their bits, quaternions x y z w, matrices
// column by column; integers and enumerations are i32 (int), u32 (uint32), u64 (offsets) or one
// byte (bool, enumerations, a table column's type, a table cell's alternative 0 int, 1 float,
// 2 text); a vector is a u32 count and its elements, a string a u32 length and its bytes,
// texture data a u64 length and its bytes. An error is its file, field, u64 offset and message.
// The whole snapshot must be consumed: trailing bytes are an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats {

// 2: clip spans and groups, actions; 3: Scene::partial
inline constexpr std::uint32_t kSnapshotVersion = 3;

// True when `head` starts with the snapshot magic.
bool isSnapshot(std::span<const std::byte> head);

// Everything the scene holds, including the image bytes of its textures and its diagnostics.
std::vector<std::byte> writeSnapshot(const Scene& scene);

// A failed read: readSnapshot gives the error back as it was (file, field, offset, message).
std::vector<std::byte> writeSnapshotError(const FormatError& error);

// The scene a snapshot holds, validated (formats/model/validate.h) like every reader's. Each
// count is checked against the bytes left before anything is allocated for it, so that no
// snapshot makes the reader allocate more than a small multiple (under 32) of its size; errors
// name ctx.name, the field ("mesh 2: normals count") and the byte offset in the snapshot. An
// error snapshot returns the error it carries.
Result<Scene> readSnapshot(std::span<const std::byte> data, const ReadContext& ctx);

}  // namespace marrow::formats
