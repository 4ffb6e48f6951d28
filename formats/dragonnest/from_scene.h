// Any model → Dragon Nest records (specs/dragonnest.md §3–§6): what `convert -o NAME.skn`
// (NAME.skn, NAME.msh, NAME.ani), `-o NAME.msh` and `-o NAME.ani` write.
#pragma once

#include <optional>
#include <string>

#include "formats/dragonnest/ani.h"
#include "formats/dragonnest/msh.h"
#include "formats/dragonnest/skn.h"
#include "formats/io/diagnostics.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::dragonnest {

struct Records {
  Msh msh;
  Skn skn;
  std::optional<Ani> ani;  // when the model has a skeleton
};

struct RecordVersions {
  std::int32_t msh = 13, skn = 10, ani = 10;
};

// The model in Dragon Nest's space (§1: Y up, left-handed, centimetres) and limits: meshes
// split so that a submesh has at most 65,535 vertices and a palette of at most 50 bones, the 4
// strongest influences a vertex (formats/check.h fixModel, each change said); a submesh per
// mesh with its palette of bone names (§3.3), the header bones with their inverse binds (§3.2),
// collision bodies as spheres, capsules and triangles (§3.4), attachment points as dummies
// (§3.5); a SKN material per submesh (they pair by index, §4.1: Default.fx, g_DiffuseTex by its
// DDS name, g_MaterialDiffuse) naming `stem`.msh; an ANI (§5) of every bone with its parent
// (the hierarchy lives there) and an animation per clip at 60 frames per second (a clip's own
// keys when they lie on frames, else one per frame), or one frame of the rest pose when the
// model has no clip.
Result<Records> fromScene(const Scene& scene, const std::string& stem, RecordVersions versions, Diagnostics& d);

}  // namespace marrow::formats::dragonnest
