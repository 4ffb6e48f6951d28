// Binding clips to skeletons, sampling them, and the pose that results. No Qt, no GL.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::anim {

using formats::Clip;
using formats::Skeleton;

struct Transform {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};

  glm::mat4 matrix() const;  // T * R * S
};

// A clip's tracks resolved against one skeleton, by bone name.
struct Binding {
  std::vector<int> boneOfTrack;                // per track: skeleton bone index, -1 when unmatched
  std::vector<std::string> tracksWithoutBone;  // bones the clip animates that the skeleton lacks
  std::vector<std::string> bonesWithoutTrack;  // skeleton bones the clip leaves at rest
  // The clip was made for another skeleton (Clip::skeleton names one, not this): nothing binds.
  // (Retargeting it, render/anim/retarget.h, makes it the skeleton's.)
  bool otherSkeleton = false;
  std::size_t matched() const;
};

Binding bind(const Clip& clip, const Skeleton& skeleton);

enum class PlayMode { Loop, Once, PingPong };
const char* playModeName(PlayMode mode);

// Maps a playhead time (seconds since start, any sign) to a time inside [0, duration].
// Loop wraps, so a looping clip reaches its first key again at `duration`; Once clamps;
// PingPong runs forwards then backwards.
float clipTime(float playhead, float duration, PlayMode mode);

struct Pose {
  std::vector<Transform> local;  // relative to the parent bone
  std::vector<glm::mat4> model;  // bone → model space
};

// Remembers the last key used per channel so that playing forwards costs O(1) per channel;
// a seek anywhere else falls back to a binary search. It also keeps a copy of the keys of the
// channels keyed at the clip's common times, laid out for playing four at a time (pose.cpp),
// made by the first sample() given the cache. One cache per (clip, binding, pose): reset() it, or
// take a new one, when the clip changes. (A cache given another clip or binding notices that by
// the clip's address and its tracks' vectors, the binding's bones and the common times, and lays
// out again; a clip whose keys are edited in place is not noticed, except a channel emptied.)
class SamplingCache {
 public:
  struct Table;

  SamplingCache();
  ~SamplingCache();
  SamplingCache(SamplingCache&&) noexcept;
  SamplingCache& operator=(SamplingCache&&) noexcept;

  std::uint32_t& cursor(std::size_t track, int channel);
  std::unique_ptr<Table>& table() { return table_; }
  bool holdsTable() const;  // a table in use for the clip last sampled (for tests)
  void reset();

 private:
  std::vector<std::uint32_t> cursors_;
  std::unique_ptr<Table> table_;
};

Pose restPose(const Skeleton& skeleton);
// pose.local set to the rest pose in place, keeping the vectors' memory (a player does this every
// frame); pose.model sized to the skeleton, its matrices left for computeModel.
void resetToRest(const Skeleton& skeleton, Pose& pose);

// Samples `clip` at clip time `t` into pose.local (pose must hold one entry per bone); bones
// without a track keep their rest transform. Before the first key and after the last, hold —
// except when `looping` a clip that wrapsToFirstKey: then the last key runs on to the first key
// at the clip's duration. Between keys: lerp for translation and scale, shortest-path slerp for
// rotation; step channels hold the earlier key.
void sample(const Clip& clip, const Binding& binding, const Skeleton& skeleton, float t,
            Pose& pose, SamplingCache* cache = nullptr, bool looping = false);

// pose.local → pose.model, parents before children.
void computeModel(const Skeleton& skeleton, Pose& pose);

// out[i] = a[i] * b[i] for i < n: the floats of glm's product (the skinning palette's work).
void multiplyEach(const glm::mat4* a, const glm::mat4* b, glm::mat4* out, std::size_t n);

// Convenience: rest pose, then the clip (if any) at `t`, then model matrices.
Pose evaluate(const Skeleton& skeleton, const Clip* clip, float t, bool looping = false);

}  // namespace marrow::anim
