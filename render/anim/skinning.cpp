#include "render/anim/skinning.h"

#include <algorithm>
#include <array>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
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
  return p;
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

// The CPU skinning loop. M = Σ w_k palette[b_k] (skinning.h) is summed in the order the
// influences are packed, and p' = M p, n' = normalize(mat3(M) n) are computed with the same sums
// in the same order as vec3(M * vec4(p, 1)), mat3(M) * n and n / glm::length(n) — so the results
// are the very floats those glm expressions give, with SSE (every x86-64: a matrix column is one
// register, normals are normalised four at a time) or without.
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

inline Columns load(const glm::mat4& m) {
  return {{_mm_loadu_ps(&m[0][0]), _mm_loadu_ps(&m[1][0]), _mm_loadu_ps(&m[2][0]),
           _mm_loadu_ps(&m[3][0])}};
}

inline void accumulate(Columns& m, float& total, const glm::uvec4& b, const glm::vec4& w,
                       std::span<const glm::mat4> palette) {
  for (int k = 0; k < 4; ++k) {
    if (w[k] == 0.0f || b[k] >= palette.size()) continue;
    const Columns p = load(palette[b[k]]);
    const __m128 wk = _mm_set1_ps(w[k]);
    for (int c = 0; c < 4; ++c) m.c[c] = _mm_add_ps(m.c[c], _mm_mul_ps(p.c[c], wk));
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

inline void store3(__m128 r, glm::vec3& out) {
  alignas(16) float f[4];
  _mm_store_ps(f, r);
  out = glm::vec3(f[0], f[1], f[2]);
}

// mat3(M) n, not yet normalised.
inline void transformLinear(const Columns& m, const glm::vec3& n, glm::vec3& out) {
  store3(_mm_add_ps(_mm_add_ps(_mm_mul_ps(m.c[0], _mm_set1_ps(n.x)),
                               _mm_mul_ps(m.c[1], _mm_set1_ps(n.y))),
                    _mm_mul_ps(m.c[2], _mm_set1_ps(n.z))),
         out);
}

inline void transformPoint(const Columns& m, const glm::vec3& p, glm::vec3& out) {
  const __m128 xy = _mm_add_ps(_mm_mul_ps(m.c[0], _mm_set1_ps(p.x)),
                               _mm_mul_ps(m.c[1], _mm_set1_ps(p.y)));
  const __m128 zw = _mm_add_ps(_mm_mul_ps(m.c[2], _mm_set1_ps(p.z)), m.c[3]);
  store3(_mm_add_ps(xy, zw), out);
}

// n / |n| where |n| > 0, four vectors at a time (x, y and z of four in one register each), so
// that one square root and three divisions serve four normals.
MARROW_AVX2_CLONE void normalizeAll(std::span<glm::vec3> n) {
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

#else

using Columns = glm::mat4;

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

inline void transformLinear(const glm::mat4& m, const glm::vec3& n, glm::vec3& out) {
  out = glm::mat3(m) * n;
}

inline void transformPoint(const glm::mat4& m, const glm::vec3& p, glm::vec3& out) {
  out = glm::vec3(m * glm::vec4(p, 1.0f));
}

void normalizeAll(std::span<glm::vec3> n) {
  for (auto& v : n) {
    const float len = glm::length(v);
    if (len > 0.0f) v /= len;
  }
}

#endif

}  // namespace

void skin(const formats::Mesh& mesh, const PackedInfluences& packed,
          std::span<const glm::mat4> palette, std::vector<glm::vec3>& positionsOut,
          std::vector<glm::vec3>* normalsOut) {
  skin(mesh.positions, mesh.normals, packed, palette, positionsOut, normalsOut);
}

MARROW_AVX2_CLONE
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

}  // namespace marrow::anim
