// Vertex animation from per-frame meshes: one mesh at successive times as tools write it
// (Blender's OBJ export of an animation writes a file per frame, NAME_000001.obj …; a file may
// hold the meshes NAME.1, NAME.2 …), joined into one mesh with a morph target per frame and a
// clip that plays them. That is the shape BRF vertex animation is read as (formats/brf), so
// every writer of morph targets writes them: BRF frames, glTF morph weights.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats {

// The number a name ends in and what comes before it: the last path component, its extension
// and one separator before the digits (_ . - space) left out. "dir/flag_000012.obj" → {"flag",
// 12}; nothing when the name does not end in digits.
struct NumberedName {
  std::string stem;
  std::int64_t number = 0;
};
std::optional<NumberedName> numberedName(std::string_view name);

// The frames' times in seconds: the numbers their names end in, at `framesPerSecond`, from the
// first, when every name has one and they increase; else one frame each 1/framesPerSecond in
// the order given.
std::vector<float> frameTimes(const std::vector<std::string>& names, float framesPerSecond);

// The frames per second a clip was authored at: the file's ticks per second when that is a
// plausible frame rate (10…240; 0 when the file gives none), else the typical spacing of its keys
// (`intervals`, seconds between keys, reordered; files counting in milliseconds or 4800ths of a
// second still sample at 24, 25, 30 or 60 Hz), else 30.
float frameRateOf(double ticksPerSecond, std::vector<float>& intervals);

// Vertex animation as morph weights, as BRF frames are read and the joins below make it: the
// target of frame k (from 0) is named frameTarget(k), "frame K+1"; a frame clip (frameClip: its
// name, frame rate and length, the last time) holds, per mesh, tracks (addFrameTracks) in which
// each frame's target has weight 1 at its time and 0 at its neighbours', so that playing blends
// one frame into the next.
std::string frameTarget(std::size_t k);
Clip frameClip(std::string name, const std::vector<float>& times, float framesPerSecond);
void addFrameTracks(Clip& clip, const std::string& mesh, const std::vector<float>& times);

// Models that are one model at successive times (`names` one per frame: the files they came
// from), ordered by the numbers the names end in when all have one (else as given, with a
// warning). The first frame gives everything; mesh i of every frame becomes the target
// "frame K" of the first frame's mesh i, and one clip (named after the frames' common stem)
// plays the targets in turn, each at weight 1 at its time and 0 at its neighbours'. Fails,
// naming the frame and the mesh, where a frame's meshes differ from the first frame's in number,
// vertex count or triangles.
Result<Scene> joinFrames(std::vector<Scene> frames, const std::vector<std::string>& names,
                         float framesPerSecond);

// One model's meshes named STEM<number> joined per stem, as joinFrames joins models: the first
// becomes STEM with a target per frame and its own clip. A stem of one mesh, or whose meshes
// differ in vertices or triangles, is left as it is (with a warning for the latter). Returns how
// many meshes were made.
std::size_t joinNumberedMeshes(Scene& scene, float framesPerSecond);

}  // namespace marrow::formats
