// Dragon Nest (Eyedentity "Eternity Engine") client files as models: MSH meshes, SKN skins,
// ANI animations and DNT/EXT tables (../shared/specs/dragonnest.md). The record layers
// (msh.h, skn.h, ani.h, table.h) read and write the files field for field; this header turns
// them into the neutral model.
//
// How Dragon Nest maps onto the model (every reader keeps to this):
// - Coordinates stay as stored: Direct3D's left-handed, Y-up space (§1); Scene::basis says so
//   and the renderer flips the winding. Stored triangles already have (b−a)×(c−a) along the
//   vertex normal (§1), which is what the model's "counter-clockwise" means numerically, so the
//   indices pass through; strips become lists (§3.3).
// - D3DX row-vector matrices become glm's column-vector matrices float for float (§1); local
//   = S·R·T (row vectors) is the model's T·R·S.
// - A mesh's bones carry only inverse bind matrices (§3.2); the hierarchy and rest pose come
//   from an ANI (its first animation's base pose). Without an ANI the bones are roots at the
//   bind pose. Vertex bone indices go through the submesh palette to bones by name (§12.1);
//   a palette name that no bone has becomes a root bone at the origin that never moves (§6).
// - Dummies (§3.5) become Scene::attachments; collision primitives (§3.4) become bodies (a box
//   as a six-faced manifold, triangles as a manifold of triangles).
// - Clips play at 60 frames per second (§6) and last `length` frames; an empty key list holds
//   the animation's base value, scale steps, frames are clamped to [0, length − 1].
// - Names match case-insensitively (§1): tracks and bones take the spelling of the skeleton.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "formats/dragonnest/ani.h"
#include "formats/dragonnest/msh.h"
#include "formats/dragonnest/skn.h"
#include "formats/dragonnest/table.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::dragonnest {

inline constexpr float kFramesPerSecond = 60.0f;  // §6: s_fDefaultFps

// Y-up, left-handed (§1), actors facing +Z ("Facing"). Units are 3ds Max units; a warrior is 100
// tall (§1), so one unit is taken to be a centimetre [INFERRED].
Basis dragonNestBasis();

enum class FileKind { Unknown, Mesh, Skin, Animation, AnimationList, Table, LegacyTable };
// By magic first, then by extension (.msh .skn .ani .dnt .ext).
FileKind detectKind(std::span<const std::byte> data, std::string_view fileName);
bool isModelKind(FileKind kind);  // mesh, skin, animation or animation list

// One file as a model. A skin brings its mesh (ctx.resolve, by bare name) and textures
// (fetchNamedFile); what is missing becomes a diagnostic. An animation (or a list of them,
// §5.3, whose files come through ctx.resolve) gives clips and no skeleton. A table gives a
// scene whose only content is Scene::tables. Never throws.
Result<Scene> readFile(std::span<const std::byte> data, const ReadContext& ctx);

struct Input {
  std::span<const std::byte> bytes;
  ReadContext ctx;
};
// Meshes, skins and animations as one model: the animations give the meshes' skeleton its
// hierarchy, and their clips play on it. Names come decoded to UTF-8 (decodeLegacyNames), or as
// stored for a caller that adds files and decodes once at the end.
enum class Names { Decoded, AsStored };
Result<Scene> readModel(std::span<const Input> inputs, Names names = Names::Decoded);

// Every name of the scene (bones, materials, textures, clips, a table's text) as UTF-8: from the
// code page ctx.codepage names when it explains them all, else the one detected over the names
// (formats/model/names.h); the Log is told which.
void decodeLegacyNames(Scene& scene, const ReadContext& ctx);

// The conversion itself, for callers that hold records (tests, writers' round trips).
struct MeshSource {
  Msh msh;
  const Skn* skin = nullptr;  // may be null: no materials
  std::string file;
  const ReadContext* ctx = nullptr;  // where textures are fetched; null: none
};
struct AniSource {
  Ani ani;
  std::string file;
};
Scene toScene(std::span<const MeshSource> meshes, std::span<const AniSource> animations);

}  // namespace marrow::formats::dragonnest
