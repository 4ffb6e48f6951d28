#include "render/anim/skinning.h"

#include <algorithm>
#include <array>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>  // AVX2 normalisation, chosen at run time
#endif

// The build targets plain x86-64 (SSE2). With GCC on Linux the skinning loop is compiled a second
// time for AVX2 and chosen when the program loads (an ifunc): the same operations, VEX-encoded
// with three operands (fewer register copies), hence the same floats — about 9 % faster on
// paladin.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define MARROW_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#else
#define MARROW_AVX2_CLONE
#endif

namespace marrow::anim {

PackedInfluences packInfluences(const formats::Mesh& mesh) {
  PackedInfluences p;
  const std::size_t n = mesh.vertexCount();
  const bool rigid = mesh.parentBone >= 0;
  if (!rigid && !mesh.skinned()) return p;

  const std::uint32_t maxInf = rigid ? 1 : std::min<std::uint32_t>(mesh.maxInfluences(), kMaxInfluences);
  p.groups = maxInf > 4 ? 2 : 1;
  p.bones0.assign(n, glm::uvec4(0));
  p.weights0.assign(n, glm::vec4(0.0f));
  if (p.groups == 2) {
    p.bones1.assign(n, glm::uvec4(0));
    p.weights1.assign(n, glm::vec4(0.0f));
  }
  if (rigid) {
    for (std::size_t v = 0; v < n; ++v) {
      p.bones0[v].x = static_cast<std::uint32_t>(mesh.parentBone);
      p.weights0[v].x = 1.0f;
    }
    planSkinning(p);
    return p;
  }
  std::array<formats::Influence, 64> scratch;
  for (std::size_t v = 0; v < n; ++v) {
    auto infl = mesh.influencesOf(v);
    std::size_t count = 0;
    for (const auto& i : infl) {
      if (!(i.weight > 0.0f)) continue;
      if (count < scratch.size()) scratch[count++] = i;
    }
    float total = 0.0f;
    if (count > kMaxInfluences) {
      std::partial_sort(scratch.begin(), scratch.begin() + kMaxInfluences, scratch.begin() + count,
                        [](const auto& a, const auto& b) { return a.weight > b.weight; });
      count = kMaxInfluences;
      ++p.truncatedVertices;
      for (std::size_t k = 0; k < count; ++k) total += scratch[k].weight;
    }
    for (std::size_t k = 0; k < count; ++k) {
      // Renormalise only what truncation changed; stored weights are used as the file gives them.
      const float w = total > 0.0f ? scratch[k].weight / total : scratch[k].weight;
      if (k < 4) {
        p.bones0[v][static_cast<int>(k)] = scratch[k].bone;
        p.weights0[v][static_cast<int>(k)] = w;
      } else {
        p.bones1[v][static_cast<int>(k - 4)] = scratch[k].bone;
        p.weights1[v][static_cast<int>(k - 4)] = w;
      }
    }
  }
  planSkinning(p);
  return p;
}

void planSkinning(PackedInfluences& packed) {
  using Plan = PackedInfluences::Plan;
  Plan& plan = packed.plan;
  plan = Plan{};
  const std::size_t n = packed.bones0.size();
  plan.vertexCount = n;
  if (packed.groups == 0 || packed.weights0.size() != n ||
      (packed.groups == 2 && (packed.bones1.size() != n || packed.weights1.size() != n)))
    return;  // no runs: skin reads the arrays (or, not skinned, copies)

  // Each vertex's class: 0 one bone of weight 1, 1–8 that many weighted influences, 9 none.
  constexpr int kPaletteClass = 0, kIdentityClass = kMaxInfluences + 1;
  std::vector<std::uint8_t> cls(n);
  for (std::size_t v = 0; v < n; ++v) {
    const glm::vec4& w = packed.weights0[v];
    if (w.x == 1.0f && w.y == 0.0f && w.z == 0.0f && w.w == 0.0f &&
        (packed.groups < 2 || packed.weights1[v] == glm::vec4(0.0f))) {
      cls[v] = kPaletteClass;
      plan.paletteSize = std::max(plan.paletteSize, packed.bones0[v].x + 1);
      continue;
    }
    int count = 0;
    float total = 0.0f;  // as the loop sums it: identity when the weights sum to 0
    for (int g = 0; g < packed.groups; ++g) {
      const glm::vec4& wg = g == 0 ? packed.weights0[v] : packed.weights1[v];
      const glm::uvec4& bg = g == 0 ? packed.bones0[v] : packed.bones1[v];
      for (int k = 0; k < 4; ++k) {
        if (wg[k] == 0.0f) continue;
        ++count;
        total += wg[k];
        plan.paletteSize = std::max(plan.paletteSize, bg[k] + 1);
      }
    }
    cls[v] = static_cast<std::uint8_t>(total == 0.0f ? kIdentityClass : count);
  }
  // Classes run in order, each in increasing vertex order. A vertex may be written 16 bytes wide
  // (its 12 and the next vertex's x) when the next vertex is written after it.
  for (int c = kPaletteClass; c <= kIdentityClass; ++c) {
    for (const bool exact : {false, true}) {
      Plan::Run run;
      run.kind = c == kPaletteClass    ? Plan::Kind::Palette
                 : c == kIdentityClass ? Plan::Kind::Identity
                                       : Plan::Kind::Blend;
      run.influences = static_cast<std::uint8_t>(run.kind == Plan::Kind::Blend ? c : 0);
      run.exactStores = exact;
      run.begin = static_cast<std::uint32_t>(plan.vertex.size());
      run.first = static_cast<std::uint32_t>(plan.bone.size());
      for (std::size_t v = 0; v < n; ++v) {
        if (cls[v] != c) continue;
        const bool wide = v + 1 < n && cls[v + 1] >= c;
        if (wide == exact) continue;
        plan.vertex.push_back(static_cast<std::uint32_t>(v));
        if (run.kind == Plan::Kind::Palette) {
          plan.bone.push_back(packed.bones0[v].x);
          plan.weight.push_back(1.0f);  // unread: keeps `first` an index into both
        }
        if (run.kind != Plan::Kind::Blend) continue;
        for (int g = 0; g < packed.groups; ++g) {
          const glm::vec4& wg = g == 0 ? packed.weights0[v] : packed.weights1[v];
          const glm::uvec4& bg = g == 0 ? packed.bones0[v] : packed.bones1[v];
          for (int k = 0; k < 4; ++k) {
            if (wg[k] == 0.0f) continue;
            plan.bone.push_back(bg[k]);
            plan.weight.push_back(wg[k]);
          }
        }
      }
      run.end = static_cast<std::uint32_t>(plan.vertex.size());
      if (run.end > run.begin) plan.runs.push_back(run);
    }
  }
}

void skinPalette(const formats::Skeleton& skeleton, const formats::Mesh& mesh, const Pose& pose,
                 std::vector<glm::mat4>& palette) {
  const std::size_t n = std::min(skeleton.bones.size(), pose.model.size());
  palette.resize(n);
  const bool own = mesh.inverseBind.size() == skeleton.bones.size();
  if (own || skeleton.inverseBind.size() == skeleton.bones.size()) {
    const auto& inv = own ? mesh.inverseBind : skeleton.inverseBind;
    for (std::size_t i = 0; i < n; ++i) palette[i] = pose.model[i] * inv[i];
    return;
  }
  const auto inv = skeleton.inverseBindMatrices();
  for (std::size_t i = 0; i < n; ++i) palette[i] = pose.model[i] * inv[i];
}

namespace {

using Plan = PackedInfluences::Plan;

// The CPU skinning loop. M = Σ w_k palette[b_k] (skinning.h) is summed in the order the
// influences are packed, and p' = M p, n' = normalize(mat3(M) n) are computed with the same sums
// in the same order as vec3(M * vec4(p, 1)), mat3(M) * n and n / glm::length(n) — so the results
// are the very floats those glm expressions give, with SSE (every x86-64: a matrix column is one
// register, normals are normalised four or eight at a time) or without.
//
// Most vertices of real models follow one bone with weight 1 (two thirds of paladin's): then M is
// that bone's palette entry itself — exactly what the sum 0 + 1 · palette[b] gives — and nothing
// is blended or copied.
bool singleFullWeight(const PackedInfluences& packed, std::size_t v, std::size_t paletteSize) {
  const glm::vec4& w = packed.weights0[v];
  return w.x == 1.0f && w.y == 0.0f && w.z == 0.0f && w.w == 0.0f &&
         packed.bones0[v].x < paletteSize &&
         (packed.groups < 2 || packed.weights1[v] == glm::vec4(0.0f));
}

#if defined(__SSE2__)

struct Columns {
  __m128 c[4];
};

[[gnu::always_inline]] inline Columns load(const glm::mat4& m) {
  return {{_mm_loadu_ps(&m[0][0]), _mm_loadu_ps(&m[1][0]), _mm_loadu_ps(&m[2][0]),
           _mm_loadu_ps(&m[3][0])}};
}

// m += w · p, column by column.
[[gnu::always_inline]] inline void addWeighted(Columns& m, const glm::mat4& p, float w) {
  const Columns pc = load(p);
  const __m128 wk = _mm_set1_ps(w);
  for (int c = 0; c < 4; ++c) m.c[c] = _mm_add_ps(m.c[c], _mm_mul_ps(pc.c[c], wk));
}

inline void accumulate(Columns& m, float& total, const glm::uvec4& b, const glm::vec4& w,
                       std::span<const glm::mat4> palette) {
  for (int k = 0; k < 4; ++k) {
    if (w[k] == 0.0f || b[k] >= palette.size()) continue;
    addWeighted(m, palette[b[k]], w[k]);
    total += w[k];
  }
}

inline Columns blended(const PackedInfluences& packed, std::size_t v,
                       std::span<const glm::mat4> palette) {
  if (singleFullWeight(packed, v, palette.size())) return load(palette[packed.bones0[v].x]);
  Columns m{{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()}};
  float total = 0.0f;
  accumulate(m, total, packed.bones0[v], packed.weights0[v], palette);
  if (packed.groups == 2) accumulate(m, total, packed.bones1[v], packed.weights1[v], palette);
  if (total == 0.0f) return load(glm::mat4(1.0f));
  return m;
}

// mat3(M) n, not yet normalised; M p.
[[gnu::always_inline]] inline __m128 linearOf(const Columns& m, const glm::vec3& n) {
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(m.c[0], _mm_set1_ps(n.x)),
                               _mm_mul_ps(m.c[1], _mm_set1_ps(n.y))),
                    _mm_mul_ps(m.c[2], _mm_set1_ps(n.z)));
}

[[gnu::always_inline]] inline __m128 pointOf(const Columns& m, const glm::vec3& p) {
  const __m128 xy = _mm_add_ps(_mm_mul_ps(m.c[0], _mm_set1_ps(p.x)),
                               _mm_mul_ps(m.c[1], _mm_set1_ps(p.y)));
  const __m128 zw = _mm_add_ps(_mm_mul_ps(m.c[2], _mm_set1_ps(p.z)), m.c[3]);
  return _mm_add_ps(xy, zw);
}

// x, y, z of r into out; Wide also writes r's fourth float over the next vertex's x (which is
// written afterwards: the plan says when).
template <bool Wide>
[[gnu::always_inline]] inline void put(glm::vec3& out, __m128 r) {
  if constexpr (Wide) {
    _mm_storeu_ps(&out.x, r);
  } else {
    _mm_storel_pi(reinterpret_cast<__m64*>(&out.x), r);
    _mm_store_ss(&out.z, _mm_movehl_ps(r, r));
  }
}

inline void transformLinear(const Columns& m, const glm::vec3& n, glm::vec3& out) {
  put<false>(out, linearOf(m, n));
}

inline void transformPoint(const Columns& m, const glm::vec3& p, glm::vec3& out) {
  put<false>(out, pointOf(m, p));
}

// n / |n| where |n| > 0, four vectors at a time (x, y and z of four in one register each), so
// that one square root and three divisions serve four normals.
void normalizeSse(std::span<glm::vec3> n) {
  std::size_t i = 0;
  for (; i + 4 <= n.size(); i += 4) {
    float* f = &n[i].x;
    const __m128 a = _mm_loadu_ps(f), b = _mm_loadu_ps(f + 4), c = _mm_loadu_ps(f + 8);
    // a = x0 y0 z0 x1, b = y1 z1 x2 y2, c = z2 x3 y3 z3
    const __m128 x = _mm_shuffle_ps(a, _mm_shuffle_ps(b, c, _MM_SHUFFLE(1, 1, 2, 2)),
                                    _MM_SHUFFLE(2, 0, 3, 0));
    const __m128 y = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1)),
                                    _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3)),
                                    _MM_SHUFFLE(2, 0, 2, 0));
    const __m128 z = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2)),
                                    _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 3, 0, 0)),
                                    _MM_SHUFFLE(2, 0, 2, 0));
    const __m128 dot = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    const __m128 len = _mm_sqrt_ps(dot);
    const __m128 positive = _mm_cmpgt_ps(len, _mm_setzero_ps());
    auto divided = [&](__m128 v) {
      return _mm_or_ps(_mm_and_ps(positive, _mm_div_ps(v, len)), _mm_andnot_ps(positive, v));
    };
    const __m128 nx = divided(x), ny = divided(y), nz = divided(z);
    _mm_storeu_ps(f, _mm_shuffle_ps(_mm_shuffle_ps(nx, ny, _MM_SHUFFLE(0, 0, 0, 0)),
                                    _mm_shuffle_ps(nz, nx, _MM_SHUFFLE(1, 1, 0, 0)),
                                    _MM_SHUFFLE(2, 0, 2, 0)));
    _mm_storeu_ps(f + 4, _mm_shuffle_ps(_mm_shuffle_ps(ny, nz, _MM_SHUFFLE(1, 1, 1, 1)),
                                        _mm_shuffle_ps(nx, ny, _MM_SHUFFLE(2, 2, 2, 2)),
                                        _MM_SHUFFLE(2, 0, 2, 0)));
    _mm_storeu_ps(f + 8, _mm_shuffle_ps(_mm_shuffle_ps(nz, nx, _MM_SHUFFLE(3, 3, 2, 2)),
                                        _mm_shuffle_ps(ny, nz, _MM_SHUFFLE(3, 3, 3, 3)),
                                        _MM_SHUFFLE(2, 0, 2, 0)));
  }
  for (; i < n.size(); ++i) {
    const float len = glm::length(n[i]);
    if (len > 0.0f) n[i] /= len;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define MARROW_AVX2_NORMALIZE 1
// The same eight vectors at a time: the divider, not the shuffles, sets the pace, and it takes
// eight lanes in the time of four. Returns how many vectors it did (a multiple of eight).
__attribute__((target("avx2"))) std::size_t normalizeAvx2(std::span<glm::vec3> n) {
  std::size_t i = 0;
  for (; i + 8 <= n.size(); i += 8) {
    float* f = &n[i].x;
    // Vectors 0–3 in the low lanes, 4–7 in the high ones.
    const __m256 m03 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f)), _mm_loadu_ps(f + 12), 1);
    const __m256 m14 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f + 4)), _mm_loadu_ps(f + 16), 1);
    const __m256 m25 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f + 8)), _mm_loadu_ps(f + 20), 1);
    // per lane: m03 = x0 y0 z0 x1, m14 = y1 z1 x2 y2, m25 = z2 x3 y3 z3
    const __m256 xy = _mm256_shuffle_ps(m14, m25, _MM_SHUFFLE(2, 1, 3, 2));  // x2 y2 x3 y3
    const __m256 yz = _mm256_shuffle_ps(m03, m14, _MM_SHUFFLE(1, 0, 2, 1));  // y0 z0 y1 z1
    const __m256 x = _mm256_shuffle_ps(m03, xy, _MM_SHUFFLE(2, 0, 3, 0));    // x0 x1 x2 x3
    const __m256 y = _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0));     // y0 y1 y2 y3
    const __m256 z = _mm256_shuffle_ps(yz, m25, _MM_SHUFFLE(3, 0, 3, 1));    // z0 z1 z2 z3
    const __m256 dot = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)),
                                     _mm256_mul_ps(z, z));
    const __m256 len = _mm256_sqrt_ps(dot);
    const __m256 positive = _mm256_cmp_ps(len, _mm256_setzero_ps(), _CMP_GT_OQ);
    const __m256 nx = _mm256_blendv_ps(x, _mm256_div_ps(x, len), positive);
    const __m256 ny = _mm256_blendv_ps(y, _mm256_div_ps(y, len), positive);
    const __m256 nz = _mm256_blendv_ps(z, _mm256_div_ps(z, len), positive);
    const __m256 rxy = _mm256_shuffle_ps(nx, ny, _MM_SHUFFLE(2, 0, 2, 0));  // x0 x2 y0 y2
    const __m256 ryz = _mm256_shuffle_ps(ny, nz, _MM_SHUFFLE(3, 1, 3, 1));  // y1 y3 z1 z3
    const __m256 rzx = _mm256_shuffle_ps(nz, nx, _MM_SHUFFLE(3, 1, 2, 0));  // z0 z2 x1 x3
    const __m256 r03 = _mm256_shuffle_ps(rxy, rzx, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 r14 = _mm256_shuffle_ps(ryz, rxy, _MM_SHUFFLE(3, 1, 2, 0));
    const __m256 r25 = _mm256_shuffle_ps(rzx, ryz, _MM_SHUFFLE(3, 1, 3, 1));
    _mm_storeu_ps(f, _mm256_castps256_ps128(r03));
    _mm_storeu_ps(f + 4, _mm256_castps256_ps128(r14));
    _mm_storeu_ps(f + 8, _mm256_castps256_ps128(r25));
    _mm_storeu_ps(f + 12, _mm256_extractf128_ps(r03, 1));
    _mm_storeu_ps(f + 16, _mm256_extractf128_ps(r14, 1));
    _mm_storeu_ps(f + 20, _mm256_extractf128_ps(r25, 1));
  }
  return i;
}
#endif

void normalizeAll(std::span<glm::vec3> n) {
#if defined(MARROW_AVX2_NORMALIZE)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) n = n.subspan(normalizeAvx2(n));
#endif
  normalizeSse(n);
}

#else

using Columns = glm::mat4;

[[gnu::always_inline]] inline Columns load(const glm::mat4& m) { return m; }

[[gnu::always_inline]] inline void addWeighted(glm::mat4& m, const glm::mat4& p, float w) {
  m += p * w;
}

inline void accumulate(glm::mat4& m, float& total, const glm::uvec4& b, const glm::vec4& w,
                       std::span<const glm::mat4> palette) {
  for (int k = 0; k < 4; ++k) {
    if (w[k] == 0.0f || b[k] >= palette.size()) continue;
    m += palette[b[k]] * w[k];
    total += w[k];
  }
}

inline glm::mat4 blended(const PackedInfluences& packed, std::size_t v,
                         std::span<const glm::mat4> palette) {
  if (singleFullWeight(packed, v, palette.size())) return palette[packed.bones0[v].x];
  glm::mat4 m(0.0f);
  float total = 0.0f;
  accumulate(m, total, packed.bones0[v], packed.weights0[v], palette);
  if (packed.groups == 2) accumulate(m, total, packed.bones1[v], packed.weights1[v], palette);
  return total == 0.0f ? glm::mat4(1.0f) : m;
}

inline glm::vec3 linearOf(const glm::mat4& m, const glm::vec3& n) { return glm::mat3(m) * n; }

inline glm::vec3 pointOf(const glm::mat4& m, const glm::vec3& p) {
  return glm::vec3(m * glm::vec4(p, 1.0f));
}

template <bool Wide>
inline void put(glm::vec3& out, const glm::vec3& r) {
  out = r;
}

inline void transformLinear(const glm::mat4& m, const glm::vec3& n, glm::vec3& out) {
  out = linearOf(m, n);
}

inline void transformPoint(const glm::mat4& m, const glm::vec3& p, glm::vec3& out) {
  out = pointOf(m, p);
}

void normalizeAll(std::span<glm::vec3> n) {
  for (auto& v : n) {
    const float len = glm::length(v);
    if (len > 0.0f) v /= len;
  }
}

#endif

inline Columns zeroMatrix() {
#if defined(__SSE2__)
  return {{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()}};
#else
  return glm::mat4(0.0f);
#endif
}

// One run of the plan (skinning.h): vertices of one kind, in increasing order.
struct RunArgs {
  const Plan& plan;
  const Plan::Run& run;
  const glm::vec3* positions;
  const glm::vec3* normals;
  const glm::mat4* palette;
  glm::vec3* positionsOut;
  glm::vec3* normalsOut;
};

template <bool Normals, bool Wide>
[[gnu::always_inline]] inline void paletteRun(const RunArgs& a) {
  const std::uint32_t* vertex = a.plan.vertex.data();
  const std::uint32_t* bone = a.plan.bone.data() + a.run.first - a.run.begin;
  for (std::uint32_t i = a.run.begin; i < a.run.end; ++i) {
    const std::uint32_t v = vertex[i];
    const Columns m = load(a.palette[bone[i]]);
    put<Wide>(a.positionsOut[v], pointOf(m, a.positions[v]));
    if constexpr (Normals) put<Wide>(a.normalsOut[v], linearOf(m, a.normals[v]));
  }
}

template <int K, bool Normals, bool Wide>
[[gnu::always_inline]] inline void blendRun(const RunArgs& a) {
  const std::uint32_t* vertex = a.plan.vertex.data();
  const std::uint32_t* bone = a.plan.bone.data() + a.run.first;
  const float* weight = a.plan.weight.data() + a.run.first;
  for (std::uint32_t i = a.run.begin; i < a.run.end; ++i, bone += K, weight += K) {
    const std::uint32_t v = vertex[i];
    Columns m = zeroMatrix();
    for (int k = 0; k < K; ++k) addWeighted(m, a.palette[bone[k]], weight[k]);
    put<Wide>(a.positionsOut[v], pointOf(m, a.positions[v]));
    if constexpr (Normals) put<Wide>(a.normalsOut[v], linearOf(m, a.normals[v]));
  }
}

template <bool Normals>
[[gnu::always_inline]] inline void identityRun(const RunArgs& a) {
  for (std::uint32_t i = a.run.begin; i < a.run.end; ++i) {
    const std::uint32_t v = a.plan.vertex[i];
    a.positionsOut[v] = a.positions[v];
    if constexpr (Normals) a.normalsOut[v] = a.normals[v];
  }
}

template <bool Normals, bool Wide>
[[gnu::always_inline]] inline void anyRun(const RunArgs& a) {
  switch (a.run.kind) {
    case Plan::Kind::Palette: return paletteRun<Normals, Wide>(a);
    case Plan::Kind::Identity: return identityRun<Normals>(a);
    case Plan::Kind::Blend: break;
  }
  switch (a.run.influences) {
    case 1: return blendRun<1, Normals, Wide>(a);
    case 2: return blendRun<2, Normals, Wide>(a);
    case 3: return blendRun<3, Normals, Wide>(a);
    case 4: return blendRun<4, Normals, Wide>(a);
    case 5: return blendRun<5, Normals, Wide>(a);
    case 6: return blendRun<6, Normals, Wide>(a);
    case 7: return blendRun<7, Normals, Wide>(a);
    case 8: return blendRun<8, Normals, Wide>(a);
    default: break;
  }
}

MARROW_AVX2_CLONE
void runPlan(const Plan& plan, const glm::vec3* positions, const glm::vec3* normals,
             const glm::mat4* palette, glm::vec3* positionsOut, glm::vec3* normalsOut) {
  for (const Plan::Run& run : plan.runs) {
    const RunArgs a{plan, run, positions, normals, palette, positionsOut, normalsOut};
    if (normalsOut) {
      if (run.exactStores) anyRun<true, false>(a);
      else anyRun<true, true>(a);
    } else {
      if (run.exactStores) anyRun<false, false>(a);
      else anyRun<false, true>(a);
    }
  }
}

// Vertex by vertex from the arrays: for a PackedInfluences without a plan, a palette shorter than
// the plan needs, or output over input.
MARROW_AVX2_CLONE
void skinEachVertex(std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                    const PackedInfluences& packed, std::span<const glm::mat4> palette,
                    std::vector<glm::vec3>& positionsOut, std::vector<glm::vec3>* normalsOut) {
  const std::size_t n = positions.size();
  const bool doNormals = normalsOut != nullptr;
  // In blocks, so that the normals are normalised while they are still in the L1 cache.
  constexpr std::size_t kBlock = 256;
  for (std::size_t begin = 0; begin < n; begin += kBlock) {
    const std::size_t end = std::min(n, begin + kBlock);
    for (std::size_t v = begin; v < end; ++v) {
      const Columns m = blended(packed, v, palette);
      transformPoint(m, positions[v], positionsOut[v]);
      if (doNormals) transformLinear(m, normals[v], (*normalsOut)[v]);
    }
    if (doNormals) normalizeAll(std::span(*normalsOut).subspan(begin, end - begin));
  }
}

}  // namespace

void skin(const formats::Mesh& mesh, const PackedInfluences& packed,
          std::span<const glm::mat4> palette, std::vector<glm::vec3>& positionsOut,
          std::vector<glm::vec3>* normalsOut) {
  skin(mesh.positions, mesh.normals, packed, palette, positionsOut, normalsOut);
}

void skin(std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
          const PackedInfluences& packed, std::span<const glm::mat4> palette,
          std::vector<glm::vec3>& positionsOut, std::vector<glm::vec3>* normalsOut) {
  const std::size_t n = positions.size();
  positionsOut.resize(n);
  const bool doNormals = normalsOut && normals.size() == n;
  if (doNormals) normalsOut->resize(n);
  if (packed.groups == 0) {  // not skinned: M is the identity for every vertex
    std::copy(positions.begin(), positions.end(), positionsOut.begin());
    if (doNormals) {
      std::copy(normals.begin(), normals.end(), normalsOut->begin());
      normalizeAll(*normalsOut);
    }
    return;
  }
  const Plan& plan = packed.plan;
  const bool planned = !plan.runs.empty() && plan.vertexCount == n &&
                       palette.size() >= plan.paletteSize &&
                       positions.data() != positionsOut.data() &&
                       (!doNormals || normals.data() != normalsOut->data());
  if (!planned) {
    skinEachVertex(positions, normals, packed, palette, positionsOut, doNormals ? normalsOut : nullptr);
    return;
  }
  runPlan(plan, positions.data(), normals.data(), palette.data(), positionsOut.data(),
          doNormals ? normalsOut->data() : nullptr);
  if (doNormals) normalizeAll(*normalsOut);
}

}  // namespace marrow::anim
