#include "render/anim/pose.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <new>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// On x86-64 with GCC, the model matrices and the palette's products also have versions
// for 256-bit AVX registers (two columns to a register), chosen at run time. Same operations in
// the same order as glm's product, no fused multiply-adds: the same floats.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MARROW_AVX_PRODUCTS 1
#include <immintrin.h>
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

#if defined(__SSE2__)
// trs as four column registers: the floats of trs (glm's mat3_cast, then the scale), in fewer
// instructions. The nine products come from three multiplications (q q, q times q turned, w q);
// the rotation's diagonal, its upper and lower triangles from one register each, then each column
// picks its three entries (lane j of column j from the diagonal, and so on).
static_assert(offsetof(Transform, rotation) == offsetof(Transform, translation) + 12,
              "trsColumns reads the translation as 16 bytes: the rotation must follow it");
[[gnu::always_inline]] inline void trsColumns(const Transform& t, __m128 c[4]) {
  const __m128 q = _mm_loadu_ps(&t.rotation.x);                                     // x y z w
  const __m128 sq = _mm_mul_ps(q, q);                                               // xx yy zz
  const __m128 cross = _mm_mul_ps(q, _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 0, 2, 1)));  // xy yz zx
  const __m128 wq = _mm_mul_ps(_mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 3, 3, 3)), q);   // wx wy wz
  const __m128 two = _mm_set1_ps(2.0f);
  // 1 - 2 (yy + zz), 1 - 2 (xx + zz), 1 - 2 (xx + yy)
  const __m128 d = _mm_sub_ps(
      _mm_set1_ps(1.0f),
      _mm_mul_ps(two, _mm_add_ps(_mm_shuffle_ps(sq, sq, _MM_SHUFFLE(3, 0, 0, 1)),
                                 _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(3, 1, 2, 2)))));
  const __m128 wTurned = _mm_shuffle_ps(wq, wq, _MM_SHUFFLE(3, 1, 0, 2));  // wz wx wy
  // 2 (xy + wz), 2 (yz + wx), 2 (xz + wy): rows 0, 1, 2 of columns 1, 2, 0 — placed in those rows
  const __m128 upper = _mm_mul_ps(two, _mm_add_ps(cross, wTurned));
  const __m128 u = _mm_shuffle_ps(upper, upper, _MM_SHUFFLE(3, 1, 0, 2));
  // 2 (xy - wz), 2 (yz - wx), 2 (xz - wy): rows 0, 1, 2 of columns 1, 2, 0 — already in place
  const __m128 l = _mm_mul_ps(two, _mm_sub_ps(cross, wTurned));
  const __m128 row0 = _mm_castsi128_ps(_mm_setr_epi32(-1, 0, 0, 0));
  const __m128 row1 = _mm_castsi128_ps(_mm_setr_epi32(0, -1, 0, 0));
  const __m128 row2 = _mm_castsi128_ps(_mm_setr_epi32(0, 0, -1, 0));
  const auto pick = [&](__m128 a, __m128 b, __m128 c2) {
    return _mm_or_ps(_mm_or_ps(_mm_and_ps(a, row0), _mm_and_ps(b, row1)), _mm_and_ps(c2, row2));
  };
  const __m128 xyz = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0));
  c[0] = _mm_and_ps(_mm_mul_ps(pick(d, u, l), _mm_set1_ps(t.scale.x)), xyz);
  c[1] = _mm_and_ps(_mm_mul_ps(pick(l, d, u), _mm_set1_ps(t.scale.y)), xyz);
  c[2] = _mm_and_ps(_mm_mul_ps(pick(u, l, d), _mm_set1_ps(t.scale.z)), xyz);
  // The translation's 12 bytes read as 16 (the rotation follows them in Transform), w set to 1.
  c[3] = _mm_or_ps(_mm_and_ps(_mm_loadu_ps(&t.translation.x), xyz), _mm_setr_ps(0, 0, 0, 1));
}

// Column j of a * b, b's column j given: ((a0 b.x + a1 b.y) + a2 b.z) + a3 b.w, as glm sums it.
[[gnu::always_inline]] inline __m128 productColumn(const __m128 a[4], __m128 b) {
  __m128 r = _mm_mul_ps(a[0], _mm_shuffle_ps(b, b, _MM_SHUFFLE(0, 0, 0, 0)));
  r = _mm_add_ps(r, _mm_mul_ps(a[1], _mm_shuffle_ps(b, b, _MM_SHUFFLE(1, 1, 1, 1))));
  r = _mm_add_ps(r, _mm_mul_ps(a[2], _mm_shuffle_ps(b, b, _MM_SHUFFLE(2, 2, 2, 2))));
  return _mm_add_ps(r, _mm_mul_ps(a[3], _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 3, 3, 3))));
}

// computeModel's loop; `Product` multiplies a parent's model matrix by a local one's columns.
template <class Product>
[[gnu::always_inline]] inline void modelMatrices(const Skeleton& skeleton, Pose& pose, std::size_t n,
                                                 Product&& product) {
  for (std::size_t i = 0; i < n; ++i) {
    __m128 c[4];
    trsColumns(pose.local[i], c);
    float* out = &pose.model[i][0][0];
    const int parent = skeleton.bones[i].parent;
    if (parent >= 0 && static_cast<std::size_t>(parent) < i) {
      product(&pose.model[static_cast<std::size_t>(parent)][0][0], c, out);
    } else {
      for (int j = 0; j < 4; ++j) _mm_storeu_ps(out + 4 * j, c[j]);
    }
  }
}
#endif

#if defined(MARROW_AVX_PRODUCTS)
#pragma GCC push_options
#pragma GCC target("avx")

// Two columns of a * b at once: a's columns in both halves of a[k], b's columns j and j + 1 in
// the halves of b; each half summed as productColumn sums it.
[[gnu::always_inline]] inline __m256 productColumns(const __m256 a[4], __m256 b) {
  __m256 r = _mm256_mul_ps(a[0], _mm256_permute_ps(b, 0x00));
  r = _mm256_add_ps(r, _mm256_mul_ps(a[1], _mm256_permute_ps(b, 0x55)));
  r = _mm256_add_ps(r, _mm256_mul_ps(a[2], _mm256_permute_ps(b, 0xAA)));
  return _mm256_add_ps(r, _mm256_mul_ps(a[3], _mm256_permute_ps(b, 0xFF)));
}

[[gnu::always_inline]] inline void broadcastColumns(const float* m, __m256 a[4]) {
  for (int k = 0; k < 4; ++k) a[k] = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(m + 4 * k));
}

// The order of the parents' products: bone by bone in the skeleton's order (parent, child,
// grandchild, …) each product waits for the one before; by depth in the hierarchy the bones of
// one depth do not wait for each other, and their products overlap. Kept per thread for the last
// skeleton, and used only while every bone's parent has a smaller depth in it (checked each
// frame, so another skeleton or edited parents make a new one).
struct Levels {
  std::vector<std::uint16_t> depth;  // per bone
  std::vector<std::uint16_t> order;  // the bones by depth, in the skeleton's order within one
};

void layOutLevels(const Skeleton& skeleton, std::size_t n, Levels& levels) {
  levels.depth.resize(n);
  std::size_t deepest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = skeleton.bones[i].parent;
    const std::size_t d =
        parent >= 0 && static_cast<std::size_t>(parent) < i ? levels.depth[parent] + 1u : 0u;
    levels.depth[i] = static_cast<std::uint16_t>(d);
    deepest = std::max(deepest, d);
  }
  std::vector<std::uint32_t> start(deepest + 2, 0);
  for (std::size_t i = 0; i < n; ++i) ++start[levels.depth[i] + 1u];
  for (std::size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  levels.order.resize(n);
  for (std::size_t i = 0; i < n; ++i) levels.order[start[levels.depth[i]]++] = static_cast<std::uint16_t>(i);
}

void computeModelAvx(const Skeleton& skeleton, Pose& pose, std::size_t n) {
  static thread_local Levels levels;
  const bool levelled = n <= 0xFFFF;  // depths and bones fit the arrays' 16 bits
  bool valid = levelled && levels.depth.size() == n;
  for (std::size_t i = 0; i < n; ++i) {
    __m128 c[4];
    trsColumns(pose.local[i], c);
    float* out = &pose.model[i][0][0];
    for (int j = 0; j < 4; ++j) _mm_storeu_ps(out + 4 * j, c[j]);
    if (valid) {
      const int parent = skeleton.bones[i].parent;
      valid = parent < 0 || static_cast<std::size_t>(parent) >= i ||
              levels.depth[static_cast<std::size_t>(parent)] < levels.depth[i];
    }
  }
  const auto product = [&](std::size_t i) {
    const int parent = skeleton.bones[i].parent;
    if (parent < 0 || static_cast<std::size_t>(parent) >= i) return;
    float* out = &pose.model[i][0][0];
    __m256 a[4];
    broadcastColumns(&pose.model[static_cast<std::size_t>(parent)][0][0], a);
    const __m256 r01 = productColumns(a, _mm256_loadu_ps(out));
    const __m256 r23 = productColumns(a, _mm256_loadu_ps(out + 8));
    _mm256_storeu_ps(out, r01);
    _mm256_storeu_ps(out + 8, r23);
  };
  if (!levelled) {
    for (std::size_t i = 0; i < n; ++i) product(i);
    return;
  }
  if (!valid) layOutLevels(skeleton, n, levels);
  for (const std::uint16_t i : levels.order) product(i);
}

void multiplyEachAvx(const glm::mat4* a, const glm::mat4* b, glm::mat4* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    __m256 columns[4];
    broadcastColumns(&a[i][0][0], columns);
    const __m256 b01 = _mm256_loadu_ps(&b[i][0][0]), b23 = _mm256_loadu_ps(&b[i][2][0]);
    const __m256 r01 = productColumns(columns, b01), r23 = productColumns(columns, b23);
    _mm256_storeu_ps(&out[i][0][0], r01);
    _mm256_storeu_ps(&out[i][2][0], r23);
  }
}

#pragma GCC pop_options

// Run before main: __builtin_cpu_init first, as GCC asks of code that may run before constructors.
const bool kAvx = (__builtin_cpu_init(), __builtin_cpu_supports("avx"));
#endif

}  // namespace

glm::mat4 Transform::matrix() const { return trs(*this); }

void multiplyEach(const glm::mat4* a, const glm::mat4* b, glm::mat4* out, std::size_t n) {
#if defined(MARROW_AVX_PRODUCTS)
  if (kAvx) return multiplyEachAvx(a, b, out, n);
#endif
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}

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

// The slerp's trigonometry on the ranges it needs, as polynomials: each step one IEEE operation
// (pose.cpp is compiled without contracting multiply-adds), so that the scalar code and the four
// lanes below give the same floats. The coefficients are least-squares fits of the relative error
// on Chebyshev nodes (made for this file); measured against double precision: acos within 1.3e-7
// of its value on [0, 0.9995], sin within 1.3e-7 on [0, π/2].
//   asin x = x + x z A(z),  z = x², |x| ≤ 1/2
//   sin x  = x + x z S(z),  z = x², |x| ≤ π/2
constexpr float kAsinPoly[5] = {0.16666752f, 0.074953534f, 0.045462497f, 0.024220528f, 0.042095009f};
constexpr float kSinPoly[5] = {-0.16666667f, 0.0083333310f, -0.00019840874f, 2.7525637e-06f,
                               -2.3892735e-08f};
constexpr float kHalfPi = 1.57079633f;

[[gnu::always_inline]] inline float slerpPoly(const float (&c)[5], float z) {
  float r = c[4];
  for (int k = 3; k >= 0; --k) r = r * z + c[k];
  return r;
}

// acos c for 0 ≤ c < 1: π/2 − asin c up to 1/2, 2 asin √((1 − c) / 2) above.
[[gnu::always_inline]] inline float slerpAcos(float c) {
  if (c > 0.5f) {
    const float z = (1.0f - c) * 0.5f;
    const float x = std::sqrt(z);
    return 2.0f * (x + (x * z) * slerpPoly(kAsinPoly, z));
  }
  const float z = c * c;
  return kHalfPi - (c + (c * z) * slerpPoly(kAsinPoly, z));
}

[[gnu::always_inline]] inline float slerpSin(float x) {
  const float z = x * x;
  return x + (x * z) * slerpPoly(kSinPoly, z);
}

// Both keys by reference: a quaternion passed by value travels in two halves and is put back
// together through memory, which stalled every call (a third of the time of sampling a frame).
// Inlined into sample, with sampleChannel, for the same reason: a quaternion returned by value
// travels the same way.
//
// Keys further apart take the slerp, a sin((1 - f) θ) + b sin(f θ), normalised: the division by
// sin θ that makes it unit for unit keys is left to the normalisation, which also turns keys a
// reader left slightly off unit length into rotations. θ = acos(cos θ) and the sines come from the
// polynomials above rather than the C library, so that four lanes at a time (mix4) give the
// very floats of this scalar code.
[[gnu::always_inline]] inline glm::quat mix(const glm::quat& a, const glm::quat& bKey, float f) {
  glm::quat b = bKey;
  // Shortest path: q and -q are the same rotation; take the one on a's side.
  float cosTheta = glm::dot(a, b);
  if (cosTheta < 0.0f) {
    b = -b;
    cosTheta = -cosTheta;
  }
  if (cosTheta > 0.9995f) return glm::normalize(a * (1.0f - f) + b * f);
  const float theta = slerpAcos(cosTheta);
  return glm::normalize(a * slerpSin((1.0f - f) * theta) + b * slerpSin(f * theta));
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

#if defined(__SSE2__)
// glm's dot of quaternions: (w w' + x x') + (y y' + z z').
[[gnu::always_inline]] inline __m128 quatDot4(__m128 x0, __m128 y0, __m128 z0, __m128 w0, __m128 x1,
                                              __m128 y1, __m128 z1, __m128 w1) {
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(w0, w1), _mm_mul_ps(x0, x1)),
                    _mm_add_ps(_mm_mul_ps(y0, y1), _mm_mul_ps(z0, z1)));
}

// glm::normalize(a * wa + b * wb) of four lanes into q: 1 / sqrt(dot(q, q)) times each
// component; the identity where that length is not above zero.
[[gnu::always_inline]] inline void blendNormalized4(__m128 ax, __m128 ay, __m128 az, __m128 aw,
                                                    __m128 bx, __m128 by, __m128 bz, __m128 bw,
                                                    __m128 wa, __m128 wb, __m128 q[4]) {
  const __m128 x = _mm_add_ps(_mm_mul_ps(ax, wa), _mm_mul_ps(bx, wb));
  const __m128 y = _mm_add_ps(_mm_mul_ps(ay, wa), _mm_mul_ps(by, wb));
  const __m128 z = _mm_add_ps(_mm_mul_ps(az, wa), _mm_mul_ps(bz, wb));
  const __m128 w = _mm_add_ps(_mm_mul_ps(aw, wa), _mm_mul_ps(bw, wb));
  const __m128 length = _mm_sqrt_ps(quatDot4(x, y, z, w, x, y, z, w));
  const __m128 scale = _mm_div_ps(_mm_set1_ps(1.0f), length);
  const __m128 none = _mm_cmple_ps(length, _mm_setzero_ps());
  q[0] = _mm_andnot_ps(none, _mm_mul_ps(x, scale));
  q[1] = _mm_andnot_ps(none, _mm_mul_ps(y, scale));
  q[2] = _mm_andnot_ps(none, _mm_mul_ps(z, scale));
  q[3] = _mm_or_ps(_mm_andnot_ps(none, _mm_mul_ps(w, scale)), _mm_and_ps(none, _mm_set1_ps(1.0f)));
}

[[gnu::always_inline]] inline __m128 slerpPoly4(const float (&c)[5], __m128 z) {
  __m128 r = _mm_set1_ps(c[4]);
  for (int k = 3; k >= 0; --k) r = _mm_add_ps(_mm_mul_ps(r, z), _mm_set1_ps(c[k]));
  return r;
}

// slerpAcos of four lanes: both branches, each lane taking its own.
[[gnu::always_inline]] inline __m128 slerpAcos4(__m128 c) {
  const __m128 zHigh = _mm_mul_ps(_mm_sub_ps(_mm_set1_ps(1.0f), c), _mm_set1_ps(0.5f));
  const __m128 x = _mm_sqrt_ps(zHigh);
  const __m128 high = _mm_mul_ps(
      _mm_set1_ps(2.0f), _mm_add_ps(x, _mm_mul_ps(_mm_mul_ps(x, zHigh), slerpPoly4(kAsinPoly, zHigh))));
  const __m128 zLow = _mm_mul_ps(c, c);
  const __m128 low = _mm_sub_ps(
      _mm_set1_ps(kHalfPi), _mm_add_ps(c, _mm_mul_ps(_mm_mul_ps(c, zLow), slerpPoly4(kAsinPoly, zLow))));
  const __m128 isHigh = _mm_cmpgt_ps(c, _mm_set1_ps(0.5f));
  return _mm_or_ps(_mm_and_ps(isHigh, high), _mm_andnot_ps(isHigh, low));
}

[[gnu::always_inline]] inline __m128 slerpSin4(__m128 x) {
  const __m128 z = _mm_mul_ps(x, x);
  return _mm_add_ps(x, _mm_mul_ps(_mm_mul_ps(x, z), slerpPoly4(kSinPoly, z)));
}

// Lane l of `near` where bit l of the mask is set, else of `far`.
[[gnu::always_inline]] inline __m128 selectLanes(int mask, __m128 near, __m128 far) {
  const __m128 pick = _mm_castsi128_ps(_mm_setr_epi32(mask & 1 ? -1 : 0, mask & 2 ? -1 : 0,
                                                      mask & 4 ? -1 : 0, mask & 8 ? -1 : 0));
  return _mm_or_ps(_mm_and_ps(pick, near), _mm_andnot_ps(pick, far));
}

// mix for four pairs of keys at once, each component in a register of its own (x x x x,
// y y y y, ...): the dot, the shortest-path flip, the normalised lerp, and where a lane of `used`
// has keys too far apart for it (cos ≤ 0.9995), the slerp of all four, each lane taking its
// branch's result. The operations of mix in the same order, so the same floats. Writes the four
// rotations to q, one component per register.
[[gnu::always_inline]] inline void mix4(__m128 ax, __m128 ay, __m128 az, __m128 aw, __m128 bx,
                                        __m128 by, __m128 bz, __m128 bw, float f, int used,
                                        __m128 q[4]) {
  __m128 cosTheta = quatDot4(ax, ay, az, aw, bx, by, bz, bw);
  const __m128 flip = _mm_and_ps(_mm_cmplt_ps(cosTheta, _mm_setzero_ps()), _mm_set1_ps(-0.0f));
  bx = _mm_xor_ps(bx, flip);
  by = _mm_xor_ps(by, flip);
  bz = _mm_xor_ps(bz, flip);
  bw = _mm_xor_ps(bw, flip);
  cosTheta = _mm_xor_ps(cosTheta, flip);
  const int near = _mm_movemask_ps(_mm_cmpgt_ps(cosTheta, _mm_set1_ps(0.9995f)));
  blendNormalized4(ax, ay, az, aw, bx, by, bz, bw, _mm_set1_ps(1.0f - f), _mm_set1_ps(f), q);
  if ((near & used) == used) return;
  const __m128 theta = slerpAcos4(cosTheta);
  __m128 far[4];
  blendNormalized4(ax, ay, az, aw, bx, by, bz, bw, slerpSin4(_mm_mul_ps(_mm_set1_ps(1.0f - f), theta)),
                   slerpSin4(_mm_mul_ps(_mm_set1_ps(f), theta)), far);
  for (int c = 0; c < 4; ++c) q[c] = selectLanes(near, q[c], far[c]);
}
#endif

// Rotations between two keys at the shared fraction, gathered four at a time and blended in one
// go (mix4: the normalised lerp, and the slerp where a pair of keys is too far apart for it), with
// the operations of mix in the same order — the same floats. Written in the order they were added.
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
    __m128 q[4];
    mix4(ax, ay, az, aw, bx, by, bz, bw, f_, (1 << n_) - 1, q);
    _MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
    for (int i = 0; i < n_; ++i) _mm_storeu_ps(&out_[i]->x, q[i]);
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

// ---- The cache's table: the keys of the channels keyed at the clip's common times. ----

constexpr int kTranslation = 0, kRotation = 1, kScale = 2;

bool keyed(const formats::Track& track, int channel) {
  return channel == kTranslation ? !track.translation.empty()
         : channel == kRotation  ? !track.rotation.empty()
                                 : !track.scale.empty();
}

// Channels side by side, four to a block, each block one component after another
// (x x x x, y y y y, ...), key after key: keys[((k * blocks + b) * C + c) * 4 + lane]. A frame
// reads two runs of memory (keys k and k + 1) and blends four channels with each instruction.
template <int C>
struct Lanes {
  std::vector<int> bones;    // per lane; -1 pads the last block
  std::vector<float> keys;
  std::size_t blocks() const { return bones.size() / 4; }
  const float* row(std::size_t k) const { return keys.data() + k * blocks() * C * 4; }
};

}  // namespace

struct SamplingCache::Table {
  // What it was made from, checked every frame: the clip's address and its tracks' (a clip
  // rebuilt at the same address has new vectors), the binding, the reference channel's keys.
  const Clip* clip = nullptr;
  const formats::Track* tracks = nullptr;
  std::size_t trackCount = 0;
  const float* referenceTimes = nullptr;
  std::vector<int> boneOfTrack;
  std::size_t referenceTrack = 0;
  int referenceChannel = kRotation;
  std::vector<float> times;  // the common times: the reference channel's
  std::uint32_t cursor = 0;
  bool usable = false;  // false: sample() as if there were no table
  Lanes<3> translation;
  Lanes<4> rotation;
  Lanes<3> scale;
  // The other keyed channels of bound tracks (keyed at other times, stepped, a single key),
  // sampled one by one.
  struct Single {
    std::uint32_t track;
    int bone;
    int channel;
  };
  std::vector<Single> singles;
  std::vector<int> restingBones[3];  // per channel: the bones whose tracks do not key it
};

namespace {

using Table = SamplingCache::Table;

// The channel sample() takes the frame's interval from: the first bound track's rotation when it
// has two keys, else its translation.
template <class F>
void forReference(const Clip& clip, const Binding& binding, F&& found) {
  const std::size_t tracks = std::min(clip.tracks.size(), binding.boneOfTrack.size());
  for (std::size_t i = 0; i < tracks; ++i) {
    if (binding.boneOfTrack[i] < 0) continue;
    const auto& track = clip.tracks[i];
    if (track.rotation.size() >= 2)
      found(i, kRotation, track.rotation.times);
    else
      found(i, kTranslation, track.translation.times);
    return;
  }
}

bool madeFrom(const Table& table, const Clip& clip, const Binding& binding) {
  if (table.clip != &clip || table.tracks != clip.tracks.data() || table.trackCount != clip.tracks.size() ||
      table.boneOfTrack != binding.boneOfTrack)
    return false;
  bool same = false;
  forReference(clip, binding, [&](std::size_t track, int channel, const std::vector<float>& times) {
    same = track == table.referenceTrack && channel == table.referenceChannel &&
           times.data() == table.referenceTimes &&
           times.size() == table.times.size() &&
           (times.empty() || (times.front() == table.times.front() && times.back() == table.times.back()));
  });
  return same;
}

template <int C, class T>
void addLane(Lanes<C>& lanes, std::vector<const T*>& values, int bone, const T* keys) {
  lanes.bones.push_back(bone);
  values.push_back(keys);
}

// Lays the lanes' keys out block by block; padding lanes hold `pad` (blends to itself).
template <int C, class T>
void layOut(Lanes<C>& lanes, const std::vector<const T*>& values, std::size_t keyCount, const T& pad) {
  while (lanes.bones.size() % 4) lanes.bones.push_back(-1);
  const std::size_t blocks = lanes.blocks();
  lanes.keys.resize(keyCount * blocks * C * 4);
  for (std::size_t k = 0; k < keyCount; ++k) {
    float* row = lanes.keys.data() + k * blocks * C * 4;
    for (std::size_t lane = 0; lane < lanes.bones.size(); ++lane) {
      const T& v = lane < values.size() ? values[lane][k] : pad;
      for (int c = 0; c < C; ++c) row[(lane / 4 * C + static_cast<std::size_t>(c)) * 4 + lane % 4] = v[c];
    }
  }
}

// A cap on the copy: clips larger than this are sampled channel by channel.
constexpr std::size_t kMostTableFloats = std::size_t{1} << 26;  // 256 MiB

// The lanes, singles and resting bones of a table made from clip and binding; false when the
// clip does not suit a table.
bool fillTable(Table& table, const Clip& clip, const Binding& binding) {
  const auto& times = table.times;
  if (times.size() < 2) return false;
  const std::size_t tracks = std::min(clip.tracks.size(), binding.boneOfTrack.size());
  // The table writes its channels in its own order, not track by track: a bone keyed by two tracks
  // (the last track wins) is left to the track-by-track path.
  std::vector<int> bones;
  for (std::size_t i = 0; i < tracks; ++i)
    if (binding.boneOfTrack[i] >= 0) bones.push_back(binding.boneOfTrack[i]);
  std::sort(bones.begin(), bones.end());
  if (std::adjacent_find(bones.begin(), bones.end()) != bones.end()) return false;

  std::vector<const glm::vec3*> translations, scales;
  std::vector<const glm::quat*> rotations;
  const auto common = [&](const auto& ch) {
    return ch.interpolation == formats::Interpolation::Linear && ch.times == times &&
           ch.values.size() == times.size();
  };
  for (std::size_t i = 0; i < tracks; ++i) {
    const int bone = binding.boneOfTrack[i];
    if (bone < 0) continue;
    const auto& track = clip.tracks[i];
    const auto single = [&](int channel) {
      if (keyed(track, channel))
        table.singles.push_back({static_cast<std::uint32_t>(i), bone, channel});
      else
        table.restingBones[channel].push_back(bone);
    };
    if (common(track.translation))
      addLane(table.translation, translations, bone, track.translation.values.data());
    else
      single(kTranslation);
    if (common(track.rotation))
      addLane(table.rotation, rotations, bone, track.rotation.values.data());
    else
      single(kRotation);
    if (common(track.scale))
      addLane(table.scale, scales, bone, track.scale.values.data());
    else
      single(kScale);
  }
  const std::size_t lanes = (translations.size() + 3) / 4 * 12 + (rotations.size() + 3) / 4 * 16 +
                            (scales.size() + 3) / 4 * 12;
  if (lanes > kMostTableFloats / times.size()) return false;
  layOut(table.translation, translations, times.size(), glm::vec3(0.0f));
  layOut(table.rotation, rotations, times.size(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  layOut(table.scale, scales, times.size(), glm::vec3(1.0f));
  return true;
}

std::unique_ptr<Table> makeTable(const Clip& clip, const Binding& binding) {
  auto table = std::make_unique<Table>();
  table->clip = &clip;
  table->tracks = clip.tracks.data();
  table->trackCount = clip.tracks.size();
  table->boneOfTrack = binding.boneOfTrack;
  forReference(clip, binding, [&](std::size_t track, int channel, const std::vector<float>& times) {
    table->referenceTrack = track;
    table->referenceChannel = channel;
    table->referenceTimes = times.data();
    table->times = times;
  });
  try {
    table->usable = fillTable(*table, clip, binding);
  } catch (const std::bad_alloc&) {  // no room for the copy: sampled channel by channel
    table->usable = false;
    table->translation = {};
    table->rotation = {};
    table->scale = {};
  }
  return table;
}

// a + (b - a) f for the vectors of lanes, as mix does it.
void blendVectors(const Lanes<3>& lanes, std::size_t k, float f, Pose& pose,
                  glm::vec3 Transform::*member) {
  const float* a = lanes.row(k);
  const float* b = lanes.row(k + 1);
  const std::size_t poseBones = pose.local.size();
  for (std::size_t block = 0; block < lanes.blocks(); ++block, a += 12, b += 12) {
    float out[3][4];
#if defined(__SSE2__)
    const __m128 fv = _mm_set1_ps(f);
    for (int c = 0; c < 3; ++c) {
      const __m128 av = _mm_loadu_ps(a + c * 4), bv = _mm_loadu_ps(b + c * 4);
      _mm_storeu_ps(out[c], _mm_add_ps(av, _mm_mul_ps(_mm_sub_ps(bv, av), fv)));
    }
#else
    for (int c = 0; c < 3; ++c)
      for (int l = 0; l < 4; ++l) out[c][l] = a[c * 4 + l] + (b[c * 4 + l] - a[c * 4 + l]) * f;
#endif
    for (int l = 0; l < 4; ++l) {
      const int bone = lanes.bones[block * 4 + static_cast<std::size_t>(l)];
      if (bone >= 0 && static_cast<std::size_t>(bone) < poseBones)
        pose.local[static_cast<std::size_t>(bone)].*member = glm::vec3(out[0][l], out[1][l], out[2][l]);
    }
  }
}

#if !defined(__SSE2__)
glm::quat laneQuat(const float* block, int lane) {
  glm::quat q;
  q.x = block[lane];
  q.y = block[4 + lane];
  q.z = block[8 + lane];
  q.w = block[12 + lane];
  return q;
}
#endif

// The rotations of lanes, four at a time (mix4).
void blendRotations(const Lanes<4>& lanes, std::size_t k, float f, Pose& pose) {
  const float* a = lanes.row(k);
  const float* b = lanes.row(k + 1);
  const std::size_t poseBones = pose.local.size();
  for (std::size_t block = 0; block < lanes.blocks(); ++block, a += 16, b += 16) {
#if defined(__SSE2__)
    const __m128 ax = _mm_loadu_ps(a), ay = _mm_loadu_ps(a + 4), az = _mm_loadu_ps(a + 8),
                 aw = _mm_loadu_ps(a + 12);
    const __m128 bx = _mm_loadu_ps(b), by = _mm_loadu_ps(b + 4), bz = _mm_loadu_ps(b + 8),
                 bw = _mm_loadu_ps(b + 12);
    __m128 q[4];
    mix4(ax, ay, az, aw, bx, by, bz, bw, f, 0xF, q);  // lanes without a bone hold identities
    _MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
#endif
    for (int l = 0; l < 4; ++l) {
      const int bone = lanes.bones[block * 4 + static_cast<std::size_t>(l)];
      if (bone < 0 || static_cast<std::size_t>(bone) >= poseBones) continue;
      glm::quat& out = pose.local[static_cast<std::size_t>(bone)].rotation;
#if defined(__SSE2__)
      _mm_storeu_ps(&out.x, q[l]);
#else
      out = mix(laneQuat(a, l), laneQuat(b, l), f);
#endif
    }
  }
}

// sample() through the table, when t lies strictly between the common times' first and last key
// (elsewhere every channel goes its own way: holding, running on to the first key); false when
// it does not.
bool sampleTable(Table& table, const Clip& clip, const Skeleton& skeleton, float t, Pose& pose,
                 std::uint32_t* cursors, float wrapEnd) {
  const auto& times = table.times;
  if (!(t > times.front()) || !(t < times.back())) return false;
  const std::uint32_t k = findInterval(times, t, &table.cursor);
  const float f = (t - times[k]) / (times[k + 1] - times[k]);
  for (const auto& s : table.singles) {
    if (static_cast<std::size_t>(s.bone) >= pose.local.size() || s.track >= clip.tracks.size()) continue;
    const auto& track = clip.tracks[s.track];
    // Keys edited in place are not noticed (pose.h), but a channel emptied since must not be read.
    if (!keyed(track, s.channel)) {
      table.usable = false;
      return false;
    }
    Transform& out = pose.local[static_cast<std::size_t>(s.bone)];
    std::uint32_t* cursor = cursors ? cursors + s.track * 3 + static_cast<std::size_t>(s.channel) : nullptr;
    if (s.channel == kTranslation)
      out.translation = sampleChannel(track.translation, t, cursor, wrapEnd);
    else if (s.channel == kRotation)
      out.rotation = sampleChannel(track.rotation, t, cursor, wrapEnd);
    else
      out.scale = sampleChannel(track.scale, t, cursor, wrapEnd);
  }
  const std::size_t bones = std::min(pose.local.size(), skeleton.bones.size());
  for (int bone : table.restingBones[kTranslation])
    if (static_cast<std::size_t>(bone) < bones) pose.local[bone].translation = skeleton.bones[bone].translation;
  for (int bone : table.restingBones[kRotation])
    if (static_cast<std::size_t>(bone) < bones) pose.local[bone].rotation = skeleton.bones[bone].rotation;
  for (int bone : table.restingBones[kScale])
    if (static_cast<std::size_t>(bone) < bones) pose.local[bone].scale = skeleton.bones[bone].scale;
  blendVectors(table.translation, k, f, pose, &Transform::translation);
  blendRotations(table.rotation, k, f, pose);
  blendVectors(table.scale, k, f, pose, &Transform::scale);
  return true;
}

}  // namespace

SamplingCache::SamplingCache() = default;
SamplingCache::~SamplingCache() = default;
SamplingCache::SamplingCache(SamplingCache&&) noexcept = default;
SamplingCache& SamplingCache::operator=(SamplingCache&&) noexcept = default;

bool SamplingCache::holdsTable() const { return table_ && table_->usable; }

void SamplingCache::reset() {
  cursors_.clear();
  table_.reset();
}

void resetToRest(const Skeleton& skeleton, Pose& pose) {
  pose.local.resize(skeleton.bones.size());
  for (std::size_t i = 0; i < skeleton.bones.size(); ++i) {
    const auto& b = skeleton.bones[i];
    pose.local[i] = Transform{b.translation, b.rotation, b.scale};
  }
  pose.model.resize(skeleton.bones.size());
}

Pose restPose(const Skeleton& skeleton) {
  Pose p;
  resetToRest(skeleton, p);
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
  if (cache) {
    auto& table = cache->table();
    if (!table || !madeFrom(*table, clip, binding)) table = makeTable(clip, binding);
    if (table->usable && sampleTable(*table, clip, skeleton, t, pose, cursors, wrapEnd)) return;
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
#if defined(MARROW_AVX_PRODUCTS)
  if (kAvx) return computeModelAvx(skeleton, pose, n);
#endif
#if defined(__SSE2__)
  modelMatrices(skeleton, pose, n, [](const float* parent, const __m128 c[4], float* out) {
    __m128 a[4];
    for (int k = 0; k < 4; ++k) a[k] = _mm_loadu_ps(parent + 4 * k);
    for (int j = 0; j < 4; ++j) _mm_storeu_ps(out + 4 * j, productColumn(a, c[j]));
  });
  return;
#endif
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
