// glTF 2.0 read natively (.gltf with its .bin and images, .glb), into the neutral model. assimp
// stays the reference the tests compare it with (tests/reference/gltf_reader_test.cpp), and reads
// what this reader leaves to it: glTF 1.0 and Draco-compressed meshes.
//
// What the result looks like (the same shape as assimp's import, formats/assimp/assimp_reader.h,
// so that a file reads alike either way):
// - Skeleton, when a mesh is skinned or an animation moves nodes. With skinned meshes it is the
//   skins' skeleton: their joints, the nodes an animation moves, and the nodes between such a node
//   and an ancestor that is one; the nodes above them (a DCC's armature object) are no bones but
//   their transform is in the root bones' rest pose and keys, and mesh nodes and empties are never
//   bones (a DCC's export comes back with the bones it was given). Without skins (rigid parts moved
//   by node animation) every node of the scene is a bone, as in assimp's import. Bones are in
//   depth-first pre-order (children in the file's order), named after the node (an unnamed one by
//   its place, "nodes[3]"); a name two bones share gets a "#n" suffix (the first keeps it). The
//   rest pose is the node's translation, rotation and scale, or its matrix decomposed (a warning
//   when shear makes that inexact). The scene is `scene`, else the first; a file with none shows
//   every node no other node holds.
// - Meshes: one per primitive, in node order (an unnamed mesh is "meshes[2]"). A mesh of several
//   primitives names them "name-0", "name-1"…; one placed by several nodes becomes "name#1", "name#2"… A skinned mesh keeps its own
//   coordinates, with Mesh::inverseBind from the skin (the node holding it plays no part, §3.7.3.3);
//   without a skin it is baked into model space at rest and, with a skeleton, rigidly attached to
//   its node's bone or the nearest bone above it (parentBone). A mirroring placement reverses the winding. Triangle strips and fans
//   become lists; points and lines are left out (warning). Missing normals stay missing (the
//   viewer computes them). Texture coordinates need no flip: glTF's v = 0 is the top row, as the
//   model's. Morph targets become absolute shapes, named by extras.targetNames.
// - Materials: the metallic-roughness base colour as diffuse (alpha is opacity unless OPAQUE), its
//   texture as the "diffuse" map, normal, occlusion, emissive and metallic-roughness maps, the
//   rest as properties; KHR_materials_pbrSpecularGlossiness's diffuse as diffuse. Textures: one per
//   image, from a buffer view or data: URI (embedded) or beside the file (ctx.resolve).
// - Clips: one per animation; node channels become bone tracks and weight channels morph tracks.
//   STEP is kept; CUBICSPLINE keeps its keys' values, interpolated linearly (warning).
// - Basis: Y-up, right-handed, metres, facing +Z (§3.4). Scene::format: "glTF 2.0".
// - Every index, count, offset and stride is checked against the document and the buffers before
//   use; everything allocated is within ctx.limits (maxAllocation of the file and its buffers).
#pragma once

#include <cstddef>
#include <span>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats {

Result<Scene> readGltf(std::span<const std::byte> data, const ReadContext& ctx);

// Whether the file is one that readGltf hands to assimp: glTF 1.0 (JSON or binary), or a file
// whose meshes use KHR_draco_mesh_compression.
bool gltfNeedsAssimp(std::span<const std::byte> data);

}  // namespace marrow::formats
