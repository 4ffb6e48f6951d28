// cal3d: the eight file formats (binary .csf .caf .cmf .crf, XML .xsf .xaf .xmf .xrf) and .cfg
// model files, as ../shared/specs/cal3d.md describes them.
//
// A cal3d model is several files that only make sense together: meshes and animations refer to
// bones by index into one skeleton, submeshes to materials by index into the model's material
// list. So cal3d files are read as a group (readModel), never one by one.
//
// How cal3d maps onto the neutral model (every reader and writer keeps to this):
// - Scene::basis is Z-up, right-handed; unitMeters is the .cfg `scale=` (1 without a .cfg).
// - Quaternions are conjugated on load and back on save (cal3d rotates by the conjugate, §10.1),
//   so that the model holds ordinary rotations.
// - Skeleton: one Bone per file bone with the local rest translation / rotation; bones are
//   reordered (stably) only when a parent does not precede its child. inverseBind holds
//   Translate(translationBoneSpace) · Rotate(conj rotationBoneSpace) per bone (§10.3).
// - Mesh: one Mesh per submesh, named after the file ("cally_chest"), or "<file>#<i>" when the
//   file has several submeshes. positions, normals, colours (1300 trunk layout), uv sets (map i
//   ↔ set i; v = 0 is the top row, as in the model), influences as stored (not renormalised),
//   LevelOfDetail (collapseId, faceCollapseCount, lodCount), springs and physical weights,
//   morph targets (absolute blend vertices, sparse: MorphTarget::vertices). The official binary
//   loader's winding rule (§5) is applied by the binary reader, except to IMVU files (911–999),
//   whose loader never flips; XML is taken as it is.
// - Material: colours as bytes / 255, shininess, one MaterialMap per map (kind "diffuse" for
//   map 0 unless its type string says otherwise, uvSet = map index, label = the type string when
//   the version stores one); the map's file is fetched through the material file's resolver
//   into Texture::data (Texture::name = the file name as stored, path = where it was found).
// - Clip: one per animation file, named after it; tracks name their bone (skeleton needed) and
//   keep the file's bone id in Track::sourceIndex; wrapsToFirstKey when the first track's last
//   key comes before the duration, as cal3d decides whether a cycle loops back to the first key
//   (§11).
// - Morph animation (.xpf / .cpf): one clip per file, named after it, of MorphTracks naming the
//   meshes and targets they drive (parts.h resolveMorphAnimation says how the file's names and
//   numbers find them).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::cal3d {

enum class FileKind { Unknown, Skeleton, Animation, Mesh, Material, Config, MorphAnimation };

// By content first ("CSF\0"…, or the XML magic / root element), then by extension.
FileKind detectKind(std::span<const std::byte> head, std::string_view fileName);
const char* kindName(FileKind kind);

// One file of a model, with the context it is read in (its name for messages, a resolver beside
// it for texture maps).
struct Input {
  std::span<const std::byte> bytes;
  ReadContext ctx;
  // A material file a .cfg names but that was not found: it still takes its place in the
  // material list (an untextured default), so that the threads after it keep theirs.
  bool missing = false;
  // A mesh file's place among its .cfg's mesh= lines, missing files counted (the fork's morph
  // animations number mesh files so); -1: its place among the mesh files given.
  int meshSlot = -1;
};

// Reads cal3d files as one model, whatever order they come in: the skeleton (at most one), then
// the materials in the order given (submesh material thread i is the i-th material), the meshes
// and the animations. Without a skeleton, influences are dropped and tracks cannot be bound
// (diagnostics say so); a model of only a skeleton, only meshes or only animations is fine.
Result<Scene> readModel(std::span<const Input> inputs, float scale = 1.0f);

// A .cfg model file: its skeleton=, mesh=, material=, animation=, morphanim= files are fetched through
// ctx.resolve, relative to `path=` when given and found there, else relative to the .cfg.
// `extra` files (an animation opened beside the .cfg, say) join the model.
Result<Scene> readConfig(std::span<const std::byte> data, const ReadContext& ctx,
                         std::span<const Input> extra = {});

}  // namespace marrow::formats::cal3d
