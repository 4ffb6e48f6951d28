// Anything assimp imports, into the neutral model. Also the first reference we compare against.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

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
//
// What the result looks like (tests/reference/assimp_pose_test.cpp relies on it):
// - Post-processing: validate, triangulate, sort by primitive type (assimpVertexSteps); then, on
//   the model, smooth normals where the file has none, as assimp's GenSmoothNormals step makes
//   them (formats/model/normals.h: weldedSmoothNormals, linear where the step sorts), and
//   identical vertices joined except in glTF (joinsIdenticalVertices). Meshes of points or
//   lines are dropped (warning); bone weights are not limited (render/anim packs the 8 heaviest); nothing is pre-transformed
//   or converted to left-handed. assimp's stand-in meshes for skeleton-only files are not made.
// - Texture coordinates are flipped from assimp's v = 0 bottom to the model's v = 0 top.
// - Skeleton (when any mesh has bones or any animation moves nodes): bone i is the i-th aiNode in
//   depth-first pre-order, named after it; an empty or repeated name gets a "#n" suffix (the
//   first node keeps a repeated name, as aiBone and aiNodeAnim mean that one). The rest pose is
//   mTransformation decomposed into T·R·S (a warning when shear makes that inexact).
// - Meshes, in this order: depth-first over the nodes, each node's meshes in order, then meshes
//   no node references.
//   · With a skeleton, a mesh with bones is emitted once, in its own coordinates, with
//     Mesh::inverseBind = aiBone offsets for the bones it uses and the inverse rest model matrix
//     for the others; that is assimp's convention v' = Σ w · (G_bone · offset) · v, in which the
//     node holding the mesh plays no part.
//   · With a skeleton, a mesh without bones is rigidly attached to its node (parentBone) and
//     stored in model space at rest, baked with the skeleton's own rest matrices; it carries no
//     inverseBind of its own, so the skeleton's (derived from the same rest matrices) undoes the
//     baking exactly: palette = M_node(t) · rest⁻¹.
//   · Without a skeleton, every instance is baked into model space.
//   A mesh placed by several nodes becomes one mesh per placement, named "name#1", "name#2"…
//   A placement that mirrors reverses the winding so that front faces stay in front.
// - Clips: one per aiAnimation that moves nodes, times in seconds (ticks / ticks per second, 25
//   when the file gives none), keys that do not advance time dropped (warning), quaternions
//   normalised, linear interpolation; behaviour outside the keys is ignored (info). frameRate is
//   ticks per second when that is 10…240, else estimated from the key spacing, else 30. Vertex
//   and morph animations are skipped (warning); morph targets themselves are kept.
// - Basis: Basis{} (assimp converts into Y-up right-handed) except for FBX, whose importer keeps
//   the file's axes and units: there the UpAxis/FrontAxis/CoordAxis and UnitScaleFactor metadata
//   give the basis.
// - Scene::format is "assimp: " + the importer that ran ("assimp: glTF2").
Result<Scene> readWithAssimp(std::span<const std::byte> data, const ReadContext& ctx);

// The post-processing steps (aiPostProcessSteps) the reader asks of assimp that change vertices
// or meshes: triangulate, sort by primitive type. The reference tests import with the same steps
// (and add aiProcess_GenSmoothNormals to compare the normals the reader makes itself).
unsigned assimpVertexSteps();

// Whether the reader joins identical vertices (formats/model/join.h) after converting the file,
// by its name and first bytes: every format but glTF, whose indexed primitives make it pointless
// (a glTF primitive without indices, which is rare, keeps a vertex per corner). The reader does
// it rather than assimp's JoinIdenticalVertices step, which sorts positions to compare them and
// took 5.3 of the 6.7 ms of importing WusonSMD.smd (and seconds on a skinned mesh of 500,000
// vertices); vertices are numbered as that step numbers them, by first occurrence, and joined
// when equal bit for bit but for normals and tangents, which may differ by that step's 1e-5
// (the step also joins positions, uvs and colours a few float steps apart).
bool joinsIdenticalVertices(std::span<const std::byte> head, std::string_view name);

}  // namespace marrow::formats
