// Any model → BRF records (§4–§10): what `convert -o X.brf` and File › Export write when the
// model was not read from BRF files (those are written as their records, descriptor.cpp).
#pragma once

#include <string>

#include "formats/brf/document.h"
#include "formats/io/diagnostics.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::brf {

// The records of a model, in BRF's basis (§11: Z up, metres, characters facing +Y):
// - a mesh per mesh: positions shared by vertices that agree on place and rigging; rigged to at
//   most 4 bones a position (the strongest kept and renormalised, OpenBRF's rule, said); a mesh
//   attached to a bone rigged wholly to it; morph targets as vertex-animation frames (§7.3) at
//   the frame their weight peaks in a clip, else at 0, 10, 20 …; normals made when the model
//   has none; tangents (Warband) when it has them; a progressive mesh (cal3d's level of detail)
//   also as NAME.lod1 … NAME.lod3, the game's levels;
// - a material per material (shader `simple_shader`, the diffuse, normal and specular maps by
//   their DDS names) and a texture record per texture (`NAME.dds`); meshes without a material
//   get one named after `stem`;
// - the skeleton in the model's bind pose (BRF's bind pose is its skeleton's rest pose), named
//   as the model names it, else `skel_STEM`;
// - an animation per clip of the skeleton: keys at integer frames of kFramesPerSecond (the
//   clip's own keys when they lie on frames, else one key per frame), every bone's rotation and
//   the root's translation (§9); what §9 cannot hold (other bones' translation, scale) is said
//   with how far it moves;
// - a body per collision body.
// `version`: 0 (M&B 1.011) or 1 (Warband). What BRF cannot hold is said in `d`.
Result<Document> fromScene(const Scene& scene, int version, const std::string& stem, Diagnostics& d);

}  // namespace marrow::formats::brf
