// Retargeting: a clip made for one skeleton, re-expressed for another whose bone names match
// (through a BoneMatcher). No Qt, no GL.
//
// A track's keys are local transforms in its own skeleton's conventions. When the source
// skeleton (its rest pose) is known, each bone keeps the motion it makes relative to its rest
// pose, measured in the world, whatever the two skeletons' bone axes are: with rest world
// rotations S (source) and T (target), and C the source's axes in the target's (Scene::basis;
// a rotation, or a reflection between left- and right-handed data),
//
//   target world(t)  = C · source world(t) · S⁻¹ · C⁻¹ · T          (per matched bone)
//   target local(t)  = A · source local(t) · B,   A = T_parent⁻¹ · C · S_parent,  B = S⁻¹ · C⁻¹ · T
//
// which is exact when the bones' parents match each other (or stay at rest); at the source's
// rest pose it gives the target's rest pose. Translations are deltas from the source rest,
// carried into the target parent's axes by A and scaled by the skeletons' size ratio (the summed
// rest lengths of the matched bones whose parents match each other too, target over source; with
// none, the spans of the whole skeletons):
//   t' = t_rest(target) + ratio · A · (t − t_rest(source))
// so bone lengths stay the target's and root motion keeps its proportion. Scale keys are
// ratios to the source rest scale applied to the target's. Without a source skeleton the keys
// are copied as they are (the bones are assumed to share rest orientations).
#pragma once

#include <string>
#include <vector>

#include "formats/model/scene.h"
#include "render/anim/bone_names.h"

namespace marrow::anim {

struct RetargetOptions {
  // The skeleton the clip's keys were made on; null copies the keys.
  const formats::Skeleton* source = nullptr;
  // The source's native axes expressed in the target's (orthonormal; det −1 flips handedness).
  glm::mat3 sourceToTarget{1.0f};
  // Target size / source size; 0 measures it (sizeRatio below).
  float sizeRatio = 0.0f;
};

struct TrackMatch {
  std::string track;  // the name the clip gave
  std::string bone;   // the target bone it plays on
  MatchKind how = MatchKind::Exact;
};

struct RetargetReport {
  std::string clip;
  std::vector<TrackMatch> matched;             // the tracks that play, in the clip's order
  std::vector<std::string> tracksWithoutBone;  // tracks no target bone matched
  std::vector<std::string> bonesWithoutTrack;  // target bones the clip leaves at rest
  bool restCorrected = false;          // the keys were re-expressed from a known source rest pose
  float sizeRatio = 1.0f;              // the ratio translations were scaled by
  std::size_t morphTracksDropped = 0;  // blend-shape weights name the source's meshes: left out
  // retargetClips: the clip was not retargeted (made for another skeleton than its file's, or
  // animating no bone).
  bool leftOut = false;
  std::size_t looseMatches() const;
};

// The span of a skeleton's joints at rest (the largest distance between two of `bones`, all
// bones when empty), in its own units.
float restSpan(const formats::Skeleton& skeleton, const std::vector<int>& bones = {});

// `clip` for `target`: matched tracks renamed after their bones (keys re-expressed when
// options.source is set), unmatched tracks kept under their names (so that anim::bind still
// reports them) unless such a name is a bone another track took, morph tracks dropped, and
// Clip::skeleton cleared: the clip now belongs to the target.
formats::Clip retarget(const formats::Clip& clip, const formats::Skeleton& target,
                       const BoneMatcher& matcher, const RetargetOptions& options,
                       RetargetReport* report = nullptr);

// The source's native axes in the target's native axes (rotation or reflection; units and
// facing left out: the size ratio carries units).
glm::mat3 axesBetween(const formats::Basis& source, const formats::Basis& target);

// Every skeletal clip of `source` (a model of its own: its skeleton, its clips) retargeted onto
// `target`'s skeleton, names matched through `map`, then exactly, then loosely. A clip made for
// another skeleton than the source's (Clip::skeleton names another) or animating no bone is
// left out and reported with no matched tracks. One report per clip of `source` when `reports`.
std::vector<formats::Clip> retargetClips(const formats::Scene& source, const formats::Scene& target,
                                         const BoneNameMap* map,
                                         std::vector<RetargetReport>* reports = nullptr);

}  // namespace marrow::anim
