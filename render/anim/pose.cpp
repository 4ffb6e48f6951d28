#include "render/anim/pose.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

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

// The key interval holding t, found once per frame on one channel and used by every channel
// whose times agree there: most files key every bone at the same times (cal3d, BRF, Dragon Nest
// and glTF exporters sample whole frames), and then one search and one division serve them all.
struct SharedInterval {
  bool found = false;
  std::uint32_t k = 0;
  float t0 = 0.0f, t1 = 0.0f;  // the reference channel's times[k] and times[k + 1]
  float f = 0.0f;              // (t - t0) / (t1 - t0)
};

// Found when t lies strictly after the first key and before the last: then k is the interval
// sampleChannel's search gives, and for a channel with times[k] == t0 and times[k + 1] == t1 too
// (times strictly increasing) it is that channel's own interval, with the same fraction — so
// sampleShared below gives the very floats sampleChannel would.
inline SharedInterval sharedInterval(const std::vector<float>& times, float t, std::uint32_t* cursor) {
  SharedInterval s;
  if (times.size() < 2 || !(t > times.front()) || !(t < times.back())) return s;
  s.k = findInterval(times, t, cursor);
  s.t0 = times[s.k];
  s.t1 = times[s.k + 1];
  s.f = (t - s.t0) / (s.t1 - s.t0);
  s.found = true;
  return s;
}

// Whether a channel's times agree with the shared interval there (see sharedInterval).
template <class T>
inline bool agrees(const formats::Channel<T>& ch, const SharedInterval& s) {
  const auto& times = ch.times;
  return s.found && s.k + 1 < times.size() && times[s.k] == s.t0 && times[s.k + 1] == s.t1;
}

// Rotations between two keys at the shared fraction, gathered four at a time: where a pair of
// keys is near (the normalised-lerp branch of mix, nearly every pair of neighbouring keys) four
// are blended and normalised in one go, with the operations of mix in the same order — the same
// floats; the other pairs go through mix itself. Written in the order they were added.
class RotationBlends {
 public:
  explicit RotationBlends(float f) : f_(f) {}
  ~RotationBlends() { flush(); }

  void add(const glm::quat& a, const glm::quat& b, glm::quat& out) {
    a_[n_] = &a;
    b_[n_] = &b;
    out_[n_] = &out;
    if (++n_ == 4) flush();
  }

  void flush() {
    if (n_ == 0) return;
#if defined(__SSE2__)
    for (int i = n_; i < 4; ++i) {
      a_[i] = a_[0];
      b_[i] = b_[0];
    }
    __m128 ax = _mm_loadu_ps(&a_[0]->x), ay = _mm_loadu_ps(&a_[1]->x);
    __m128 az = _mm_loadu_ps(&a_[2]->x), aw = _mm_loadu_ps(&a_[3]->x);
    __m128 bx = _mm_loadu_ps(&b_[0]->x), by = _mm_loadu_ps(&b_[1]->x);
    __m128 bz = _mm_loadu_ps(&b_[2]->x), bw = _mm_loadu_ps(&b_[3]->x);
    _MM_TRANSPOSE4_PS(ax, ay, az, aw);
    _MM_TRANSPOSE4_PS(bx, by, bz, bw);
    // glm's dot of quaternions: (w w' + x x') + (y y' + z z').
    const auto dot = [](__m128 x0, __m128 y0, __m128 z0, __m128 w0, __m128 x1, __m128 y1,
                        __m128 z1, __m128 w1) {
      return _mm_add_ps(_mm_add_ps(_mm_mul_ps(w0, w1), _mm_mul_ps(x0, x1)),
                        _mm_add_ps(_mm_mul_ps(y0, y1), _mm_mul_ps(z0, z1)));
    };
    const __m128 cosTheta = dot(ax, ay, az, aw, bx, by, bz, bw);
    const __m128 flip = _mm_and_ps(_mm_cmplt_ps(cosTheta, _mm_setzero_ps()), _mm_set1_ps(-0.0f));
    bx = _mm_xor_ps(bx, flip);
    by = _mm_xor_ps(by, flip);
    bz = _mm_xor_ps(bz, flip);
    bw = _mm_xor_ps(bw, flip);
    const int near = _mm_movemask_ps(_mm_cmpgt_ps(_mm_xor_ps(cosTheta, flip), _mm_set1_ps(0.9995f)));
    const __m128 fa = _mm_set1_ps(1.0f - f_), fb = _mm_set1_ps(f_);
    __m128 x = _mm_add_ps(_mm_mul_ps(ax, fa), _mm_mul_ps(bx, fb));
    __m128 y = _mm_add_ps(_mm_mul_ps(ay, fa), _mm_mul_ps(by, fb));
    __m128 z = _mm_add_ps(_mm_mul_ps(az, fa), _mm_mul_ps(bz, fb));
    __m128 w = _mm_add_ps(_mm_mul_ps(aw, fa), _mm_mul_ps(bw, fb));
    // glm::normalize: 1 / sqrt(dot(q, q)) times each component; the identity where that length
    // is not above zero.
    const __m128 length = _mm_sqrt_ps(dot(x, y, z, w, x, y, z, w));
    const __m128 scale = _mm_div_ps(_mm_set1_ps(1.0f), length);
    const __m128 none = _mm_cmple_ps(length, _mm_setzero_ps());
    x = _mm_andnot_ps(none, _mm_mul_ps(x, scale));
    y = _mm_andnot_ps(none, _mm_mul_ps(y, scale));
    z = _mm_andnot_ps(none, _mm_mul_ps(z, scale));
    w = _mm_or_ps(_mm_andnot_ps(none, _mm_mul_ps(w, scale)), _mm_and_ps(none, _mm_set1_ps(1.0f)));
    _MM_TRANSPOSE4_PS(x, y, z, w);
    const __m128 rows[4] = {x, y, z, w};
    for (int i = 0; i < n_; ++i) {
      if (near & (1 << i))
        _mm_storeu_ps(&out_[i]->x, rows[i]);
      else
        *out_[i] = mix(*a_[i], *b_[i], f_);
    }
#else
    for (int i = 0; i < n_; ++i) *out_[i] = mix(*a_[i], *b_[i], f_);
#endif
    n_ = 0;
  }

 private:
  float f_;
  int n_ = 0;
  const glm::quat* a_[4];
  const glm::quat* b_[4];
  glm::quat* out_[4];
};

template <class T>
[[gnu::always_inline]] inline T sampleShared(const formats::Channel<T>& ch, const SharedInterval& s,
                                             float t, std::uint32_t* cursor, float wrapEnd) {
  if (agrees(ch, s)) {
    if (ch.interpolation == formats::Interpolation::Step) return ch.values[s.k];
    return mix(ch.values[s.k], ch.values[s.k + 1], s.f);
  }
  return sampleChannel(ch, t, cursor, wrapEnd);
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
  // The reference interval: the first bound track's rotation keys (or translation keys).
  SharedInterval shared;
  for (std::size_t i = 0; i < tracks; ++i) {
    if (binding.boneOfTrack[i] < 0) continue;
    const auto& track = clip.tracks[i];
    const bool rotation = track.rotation.size() >= 2;
    const auto& times = rotation ? track.rotation.times : track.translation.times;
    shared = sharedInterval(times, t, cursor(i, rotation ? 1 : 0));
    break;
  }
  RotationBlends blends(shared.f);
  for (std::size_t i = 0; i < tracks; ++i) {
    const int bone = binding.boneOfTrack[i];
    if (bone < 0 || static_cast<std::size_t>(bone) >= pose.local.size()) continue;
    const auto& track = clip.tracks[i];
    const auto& rest = skeleton.bones[bone];
    Transform& out = pose.local[bone];
    out.translation = track.translation.empty()
                          ? rest.translation
                          : sampleShared(track.translation, shared, t, cursor(i, 0), wrapEnd);
    const auto& rotation = track.rotation;
    if (rotation.interpolation == formats::Interpolation::Linear && agrees(rotation, shared)) {
      blends.add(rotation.values[shared.k], rotation.values[shared.k + 1], out.rotation);
    } else {
      blends.flush();  // rotations are written in track order (a bone's last track wins)
      out.rotation = rotation.empty() ? rest.rotation
                                      : sampleShared(rotation, shared, t, cursor(i, 1), wrapEnd);
    }
    out.scale = track.scale.empty() ? rest.scale
                                    : sampleShared(track.scale, shared, t, cursor(i, 2), wrapEnd);
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
