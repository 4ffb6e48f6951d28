// Rigging a model onto another skeleton (a game's: `convert --skeleton skeletons.brf::skel_human`):
// its meshes bound to that skeleton's bones by name, its clips retargeted onto it
// (render/anim/retarget.h). No Qt.
#pragma once

#include <string>
#include <vector>

#include "formats/io/result.h"
#include "formats/model/scene.h"
#include "render/anim/bone_names.h"
#include "render/anim/retarget.h"

namespace marrow::app {

struct RigReport {
  std::size_t exact = 0, mapped = 0, loose = 0, family = 0;  // model bones that found a partner, by how
  // The skeleton families paired (render/anim/bone_families.h), when the two are of two.
  std::string sourceFamily, targetFamily;
  // Model bones without a partner: their vertices follow the nearest ancestor that has one (the
  // target's root when none has).
  std::vector<std::string> unmatched;
  std::vector<anim::RetargetReport> clips;
};

// The model on `target`'s skeleton, in `target`'s basis: each model bone finds a target bone
// through `map`, then by its joint when the two skeletons are of two families (3ds Max Biped onto
// Warband's skel_human), then by its exact name, then loosely (bone_names.h). The meshes are posed so
// that the matched bones take the target's rest pose (the two rest poses corrected: the mesh
// made for a T-pose fits an A-pose skeleton) and bound to the target at its rest pose; each
// influence moves to its bone's partner. The clips are retargeted; morph-weight tracks stay.
// Fails when either has no skeleton or no bone matches.
formats::Result<formats::Scene> rigOnto(const formats::Scene& model, const formats::Scene& target,
                                        const anim::BoneNameMap& map, RigReport& report);

}  // namespace marrow::app
