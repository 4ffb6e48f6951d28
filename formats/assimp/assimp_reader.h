// Anything assimp imports, into the neutral model. Also the first reference we compare against.
#pragma once

#include <cstddef>
#include <span>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats {

// Imports through assimp from memory; sibling files (a .gltf's .bin, textures, .mtl) are fetched
// through ctx.resolve, never opened directly. The format is chosen from ctx.name's extension.
// Meshes keep the file's coordinates (assimp's own space is right-handed, Y-up by convention);
// bones come from the aiNode hierarchy (every node, when the file has bones or animations, so
// that node animation and rigid attachment work), inverse bind matrices from aiBone offsets,
// clips from aiAnimation channels.
Result<Scene> readWithAssimp(std::span<const std::byte> data, const ReadContext& ctx);

}  // namespace marrow::formats
