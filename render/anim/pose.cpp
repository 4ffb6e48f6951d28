#include "render/anim/pose.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>

namespace marrow::anim {

namespace {

// T * R * S written out rather than as three matrix products: this runs for every bone every
// frame. Built from whole columns, so that inlined into computeModel the matrix stays in
// registers (assembled element by element in memory and read back as columns, it stalled).
inline glm::mat4 trs(const Transform& t) {
  const glm::mat3 r = glm::mat3_cast(t.rotation);
  return glm::mat4(glm::vec4(r[0] * t.scale.x, 0.0f), glm::vec4(r[1] * t.scale.y, 0.0f),
                   glm::vec4(r[2] * t.scale.z, 0.0f), glm::vec4(t.translation, 1.0f));
}

}  // namespace

glm::mat4 Transform::matrix() const { return trs(*this); }

std::size_t Binding::matched() const {
  return static_cast<std::size_t>(
      std::count_if(boneOfTrack.begin(), boneOfTrack.end(), [](int b) { return b >= 0; }));
}

Binding bind(const Clip& clip, const Skeleton& skeleton) {
  Binding b;
  b.boneOfTrack.resize(clip.tracks.size(), -1);
  b.otherSkeleton = formats::madeForOtherSkeleton(clip, skeleton);
  std::vector<bool> animated(skeleton.bones.size(), false);
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
    const int bone = b.otherSkeleton ? -1 : skeleton.find(clip.tracks[i].bone);
    b.boneOfTrack[i] = bone;
    if (bone >= 0)
      animated[bone] = true;
    else
      b.tracksWithoutBone.push_back(clip.tracks[i].bone);
  }
  for (std::size_t i = 0; i < skeleton.bones.size(); ++i)
    if (!animated[i]) b.bonesWithoutTrack.push_back(skeleton.bones[i].name);
  return b;
}

const char* playModeName(PlayMode mode) {
  switch (mode) {
    case PlayMode::Loop: return "loop";
    case PlayMode::Once: return "once";
    case PlayMode::PingPong: return "ping-pong";
  }
  return "?";
}

float clipTime(float playhead, float duration, PlayMode mode) {
  if (!(duration > 0.0f) || !std::isfinite(playhead)) return 0.0f;
  switch (mode) {
    case PlayMode::Once: return std::clamp(playhead, 0.0f, duration);
    case PlayMode::Loop: {
      if (playhead >= 0.0f && playhead <= duration) return playhead;
      float t = std::fmod(playhead, duration);
      if (t < 0.0f) t += duration;
      return t;
    }
    case PlayMode::PingPong: {
      float t = std::fmod(std::fabs(playhead), 2.0f * duration);
      return t <= duration ? t : 2.0f * duration - t;
    }
  }
  return 0.0f;
}

std::uint32_t& SamplingCache::cursor(std::size_t track, int channel) {
  const std::size_t i = track * 3 + static_cast<std::size_t>(channel);
  if (i >= cursors_.size()) cursors_.resize(i + 1, 0);
  return cursors_[i];
}

namespace {

// Index k of the key interval [times[k], times[k+1]) holding t; times has at least two keys and
// t lies strictly inside (times.front(), times.back()).
inline std::uint32_t findInterval(const std::vector<float>& times, float t, std::uint32_t* cursor) {
  if (cursor) {
    const std::uint32_t c = *cursor;
    // Playing forwards: the same interval or the next one.
    if (c + 1 < times.size() && times[c] <= t) {
      if (t < times[c + 1]) return c;
      if (c + 2 < times.size() && t < times[c + 2]) return *cursor = c + 1;
    }
  }
  const auto it = std::upper_bound(times.begin(), times.end(), t);
  const auto k = static_cast<std::uint32_t>(it - times.begin() - 1);
  if (cursor) *cursor = k;
  return k;
}

glm::vec3 mix(const glm::vec3& a, const glm::vec3& b, float f) { return a + (b - a) * f; }

// Both keys by reference: a quaternion passed by value travels in two halves and is put back
// together through memory, which stalled every call (a third of the time of sampling a frame).
// Inlined into sample, with sampleChannel, for the same reason: a quaternion returned by value
// travels the same way.
[[gnu::always_inline]] inline glm::quat mix(const glm::quat& a, const glm::quat& bKey, float f) {
  glm::quat b = bKey;
  // Shortest path: q and -q are the same rotation; take the one on a's side.
  float cosTheta = glm::dot(a, b);
  if (cosTheta < 0.0f) {
    b = -b;
    cosTheta = -cosTheta;
  }
  if (cosTheta > 0.9995f) return glm::normalize(a * (1.0f - f) + b * f);
  const float theta = std::acos(cosTheta);
  const float sinTheta = std::sin(theta);
  // Normalised so that keys a reader left slightly off unit length still give rotations.
  return glm::normalize((a * std::sin((1.0f - f) * theta) + b * std::sin(f * theta)) *
                        (1.0f / sinTheta));
}

// wrapEnd > the last key time: between the last key and wrapEnd, run on to the first key.
template <class T>
[[gnu::always_inline]] inline T sampleChannel(const formats::Channel<T>& ch, float t,
                                              std::uint32_t* cursor, float wrapEnd) {
  const auto& times = ch.times;
  if (t > times.back() && wrapEnd > times.back() && ch.interpolation != formats::Interpolation::Step) {
    const float f = std::min((t - times.back()) / (wrapEnd - times.back()), 1.0f);
    return mix(ch.values.back(), ch.values.front(), f);
  }
  if (times.size() == 1 || t <= times.front()) return ch.values.front();
  if (t >= times.back()) return ch.values.back();
  const std::uint32_t k = findInterval(times, t, cursor);
  if (ch.interpolation == formats::Interpolation::Step) return ch.values[k];
  const float f = (t - times[k]) / (times[k + 1] - times[k]);
  return mix(ch.values[k], ch.values[k + 1], f);
}

}  // namespace

Pose restPose(const Skeleton& skeleton) {
  Pose p;
  p.local.resize(skeleton.bones.size());
  for (std::size_t i = 0; i < skeleton.bones.size(); ++i) {
    const auto& b = skeleton.bones[i];
    p.local[i] = Transform{b.translation, b.rotation, b.scale};
  }
  p.model.resize(skeleton.bones.size());
  return p;
}

void sample(const Clip& clip, const Binding& binding, const Skeleton& skeleton, float t,
            Pose& pose, SamplingCache* cache, bool looping) {
  const float wrapEnd = looping && clip.wrapsToFirstKey ? clip.duration : 0.0f;
  // A cycle's end is its start again (cal3d's mixer takes the time modulo the duration).
  if (wrapEnd > 0.0f && t >= wrapEnd) t = 0.0f;
  const std::size_t tracks = std::min(clip.tracks.size(), binding.boneOfTrack.size());
  // The cache's cursors, three per track, made room for once rather than checked per channel.
  std::uint32_t* cursors = nullptr;
  if (cache && tracks > 0) {
    cache->cursor(tracks - 1, 2);
    cursors = &cache->cursor(0, 0);
  }
  auto cursor = [&](std::size_t track, int channel) {
    return cursors ? cursors + track * 3 + static_cast<std::size_t>(channel) : nullptr;
  };
  for (std::size_t i = 0; i < tracks; ++i) {
    const int bone = binding.boneOfTrack[i];
    if (bone < 0 || static_cast<std::size_t>(bone) >= pose.local.size()) continue;
    const auto& track = clip.tracks[i];
    const auto& rest = skeleton.bones[bone];
    Transform& out = pose.local[bone];
    out.translation = track.translation.empty()
                          ? rest.translation
                          : sampleChannel(track.translation, t, cursor(i, 0), wrapEnd);
    out.rotation = track.rotation.empty() ? rest.rotation
                                          : sampleChannel(track.rotation, t, cursor(i, 1), wrapEnd);
    out.scale = track.scale.empty() ? rest.scale
                                    : sampleChannel(track.scale, t, cursor(i, 2), wrapEnd);
  }
}

void computeModel(const Skeleton& skeleton, Pose& pose) {
  const std::size_t n = std::min(skeleton.bones.size(), pose.local.size());
  pose.model.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = skeleton.bones[i].parent;
    const glm::mat4 local = trs(pose.local[i]);
    pose.model[i] = (parent >= 0 && static_cast<std::size_t>(parent) < i)
                        ? pose.model[parent] * local
                        : local;
  }
}

Pose evaluate(const Skeleton& skeleton, const Clip* clip, float t, bool looping) {
  Pose p = restPose(skeleton);
  if (clip) sample(*clip, bind(*clip, skeleton), skeleton, t, p, nullptr, looping);
  computeModel(skeleton, p);
  return p;
}

}  // namespace marrow::anim
