#include "render/anim/skinning.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include <glm/gtc/quaternion.hpp>

#include "formats/io/big_buffer.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The build targets plain x86-64 (SSE2). With GCC on Linux the per-vertex loop for influences
// without a plan is compiled a second time for AVX2 and chosen when the program loads (an ifunc):
// the same operations, VEX-encoded with three operands (fewer register copies), hence the same
// floats.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define MARROW_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#else
#define MARROW_AVX2_CLONE
#endif

// With GCC on x86-64, the planned loop and the normalisation also have AVX2 + FMA versions
// written for 256-bit registers, chosen at run time (__builtin_cpu_supports), and the planned
// loop an AVX-512VL one with the same arithmetic (SkinLoop, skinning.h). They round differently
// (fused multiply-adds, a refined reciprocal square root): within kSkinningTolerance of the
// plain expressions, not the same floats.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MARROW_AVX2 1
#include <immintrin.h>
#endif

namespace marrow::anim {

PackedInfluences packInfluences(const formats::Mesh& mesh) {
  PackedInfluences p;
  const std::size_t n = mesh.vertexCount();
  const bool rigid = mesh.parentBone >= 0;
  if (!rigid && !mesh.skinned()) return p;

  const std::uint32_t maxInf = rigid ? 1 : std::min<std::uint32_t>(mesh.maxInfluences(), kMaxInfluences);
  p.groups = maxInf > 4 ? 2 : 1;
  p.bones0 = formats::bigVector<glm::uvec4>(n);
  p.weights0 = formats::bigVector<glm::vec4>(n);
  if (p.groups == 2) {
    p.bones1 = formats::bigVector<glm::uvec4>(n);
    p.weights1 = formats::bigVector<glm::vec4>(n);
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
    if (count > kMaxInfluences) {
      std::partial_sort(scratch.begin(), scratch.begin() + kMaxInfluences, scratch.begin() + count,
                        [](const auto& a, const auto& b) { return a.weight > b.weight; });
      count = kMaxInfluences;
      ++p.truncatedVertices;
    }
    // Weights are normalised: what glTF requires, FBX's default link mode, Blender's armature and
    // the engines do. Weights summing to 0.5 would otherwise pull the vertex halfway to the origin.
    double total = 0.0;
    for (std::size_t k = 0; k < count; ++k) total += scratch[k].weight;
    const bool normalise = total > 0.0 && std::abs(total - 1.0) > 1e-6;
    p.unnormalisedVertices += normalise;
    for (std::size_t k = 0; k < count; ++k) {
      const float w = normalise ? static_cast<float>(scratch[k].weight / total) : scratch[k].weight;
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

std::shared_ptr<const PackedScene> packScene(const std::shared_ptr<const formats::Scene>& scene) {
  auto packed = std::make_shared<PackedScene>();
  auto meshes = std::make_shared<std::vector<PackedInfluences>>();
  if (scene) {
    packed->scene = scene;
    meshes->reserve(scene->meshes.size());
    for (const auto& mesh : scene->meshes) meshes->push_back(packInfluences(mesh));
  }
  packed->meshes = std::move(meshes);
  return packed;
}

bool PackedScene::packs(const std::shared_ptr<const formats::Scene>& s) const {
  return s && meshes && scene.lock() == s && meshes->size() == s->meshes.size();
}

std::shared_ptr<const PackedScene> PackedScene::forCopy(const std::shared_ptr<const formats::Scene>& original,
                                                        const std::shared_ptr<const formats::Scene>& copy) const {
  if (!packs(original) || !copy || copy->meshes.size() != original->meshes.size()) return nullptr;
  for (std::size_t m = 0; m < copy->meshes.size(); ++m)
    if (copy->meshes[m].vertexCount() != original->meshes[m].vertexCount()) return nullptr;
  auto shared = std::make_shared<PackedScene>();
  shared->scene = copy;
  shared->meshes = meshes;
  return shared;
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
      plan.paletteSize = std::max(plan.paletteSize, std::size_t{packed.bones0[v].x} + 1);
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
        plan.paletteSize = std::max(plan.paletteSize, std::size_t{bg[k]} + 1);
      }
    }
    cls[v] = static_cast<std::uint8_t>(total == 0.0f ? kIdentityClass : count);
  }
  // Classes run in order, each in increasing vertex order; one bone's vertices of weight 1 side
  // by side, so that the loop reads that bone's matrix once for all of them. The array's last
  // vertex ends its run (the AVX2 loop reads 16 bytes for a vertex's 12, past the array's end
  // for that one: it is left to the loop for the odd ones out).
  for (int c = kPaletteClass; c <= kIdentityClass; ++c) {
    Plan::Run run;
    run.kind = c == kPaletteClass    ? Plan::Kind::Palette
               : c == kIdentityClass ? Plan::Kind::Identity
                                     : Plan::Kind::Blend;
    run.influences = static_cast<std::uint8_t>(run.kind == Plan::Kind::Blend ? c : 0);
    run.begin = static_cast<std::uint32_t>(plan.vertex.size());
    run.first = static_cast<std::uint32_t>(plan.bone.size());
    std::vector<std::uint32_t> order;
    for (std::size_t v = 0; v < n; ++v)
      if (cls[v] == c) order.push_back(static_cast<std::uint32_t>(v));
    if (c == kPaletteClass)
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        if ((a + 1 == n) != (b + 1 == n)) return b + 1 == n;
        return packed.bones0[a].x < packed.bones0[b].x;
      });
    for (std::uint32_t v : order) {
      plan.vertex.push_back(v);
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

void skinPalette(const formats::Skeleton& skeleton, const formats::Mesh& mesh, const Pose& pose,
                 std::vector<glm::mat4>& palette) {
  const std::size_t n = std::min(skeleton.bones.size(), pose.model.size());
  palette.resize(n);
  const bool own = mesh.inverseBind.size() == skeleton.bones.size();
  if (own || skeleton.inverseBind.size() == skeleton.bones.size()) {
    const auto& inv = own ? mesh.inverseBind : skeleton.inverseBind;
    multiplyEach(pose.model.data(), inv.data(), palette.data(), n);
    return;
  }
  const auto inv = skeleton.inverseBindMatrices();
  multiplyEach(pose.model.data(), inv.data(), palette.data(), n);
}

namespace {

using Plan = PackedInfluences::Plan;

// The CPU skinning loop. M = Σ w_k palette[b_k] (skinning.h) is summed in the order the
// influences are packed, and p' = M p, n' = normalize(mat3(M) n) are computed with the same sums
// in the same order as vec3(M * vec4(p, 1)), mat3(M) * n and n / glm::length(n) — so the results
// are the very floats those glm expressions give, with SSE (every x86-64: a matrix column is one
// register, normals are normalised four at a time) or without it. The AVX2 + FMA code below (two
// vertices' columns to a register, normals eight at a time) fuses each multiply with its add and
// normalises with a refined reciprocal square root: fewer instructions, other roundings, within
// kSkinningTolerance (measured: about 1e-7; tests/unit/anim/skinning_test.cpp).
//
// Most vertices of real models follow one bone with weight 1 (two thirds of paladin's): then M is
// that bone's palette entry itself — exactly what the sum 0 + 1 · palette[b] gives — and nothing
// is blended or copied. The plan (skinning.h) runs those, and the vertices with n weighted
// influences for each n, as loops without per-vertex tests; the positions and normals are read
// and written where the vertices are, so the plan changes the order of the work, not its result.
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

[[gnu::always_inline]] inline Columns zeroMatrix() {
  return {{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()}};
}

// m += w · p, column by column.
[[gnu::always_inline]] inline void addWeighted(Columns& m, const glm::mat4& p, float w) {
  const Columns pc = load(p);
  const __m128 wk = _mm_set1_ps(w);
  for (int c = 0; c < 4; ++c) m.c[c] = _mm_add_ps(m.c[c], _mm_mul_ps(pc.c[c], wk));
}

// mat3(M) n, not yet normalised.
[[gnu::always_inline]] inline __m128 linearOf(const Columns& m, const glm::vec3& n) {
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(m.c[0], _mm_set1_ps(n.x)),
                               _mm_mul_ps(m.c[1], _mm_set1_ps(n.y))),
                    _mm_mul_ps(m.c[2], _mm_set1_ps(n.z)));
}

// M p.
[[gnu::always_inline]] inline __m128 pointOf(const Columns& m, const glm::vec3& p) {
  const __m128 xy = _mm_add_ps(_mm_mul_ps(m.c[0], _mm_set1_ps(p.x)),
                               _mm_mul_ps(m.c[1], _mm_set1_ps(p.y)));
  const __m128 zw = _mm_add_ps(_mm_mul_ps(m.c[2], _mm_set1_ps(p.z)), m.c[3]);
  return _mm_add_ps(xy, zw);
}

// x, y, z of r into out, and nothing beyond. (Writing 16 bytes where the next vertex is written
// later anyway was tried: no faster, for the runs it takes to know where.)
[[gnu::always_inline]] inline void put(glm::vec3& out, __m128 r) {
  _mm_storel_pi(reinterpret_cast<__m64*>(&out.x), r);
  _mm_store_ss(&out.z, _mm_movehl_ps(r, r));
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

#else

using Columns = glm::mat4;

inline Columns load(const glm::mat4& m) { return m; }
inline Columns zeroMatrix() { return glm::mat4(0.0f); }
inline void addWeighted(glm::mat4& m, const glm::mat4& p, float w) { m += p * w; }
inline glm::vec3 linearOf(const glm::mat4& m, const glm::vec3& n) { return glm::mat3(m) * n; }
inline glm::vec3 pointOf(const glm::mat4& m, const glm::vec3& p) {
  return glm::vec3(m * glm::vec4(p, 1.0f));
}
inline void put(glm::vec3& out, const glm::vec3& r) { out = r; }

void normalizeSse(std::span<glm::vec3> n) {
  for (auto& v : n) {
    const float len = glm::length(v);
    if (len > 0.0f) v /= len;
  }
}

#endif

// Vertex v from the arrays, as skinning.h says: the influences in packed order, zero weights
// and bones beyond the palette left out, the identity when the weights sum to 0.
inline Columns blended(const PackedInfluences& packed, std::size_t v,
                       std::span<const glm::mat4> palette) {
  if (singleFullWeight(packed, v, palette.size())) return load(palette[packed.bones0[v].x]);
  Columns m = zeroMatrix();
  float total = 0.0f;
  for (int g = 0; g < packed.groups; ++g) {
    const glm::uvec4& b = g == 0 ? packed.bones0[v] : packed.bones1[v];
    const glm::vec4& w = g == 0 ? packed.weights0[v] : packed.weights1[v];
    for (int k = 0; k < 4; ++k) {
      if (w[k] == 0.0f || b[k] >= palette.size()) continue;
      addWeighted(m, palette[b[k]], w[k]);
      total += w[k];
    }
  }
  if (total == 0.0f) return load(glm::mat4(1.0f));
  return m;
}

// ---- The plan's runs, one vertex at a time (SSE). ----

// The pointers taken out of the plan once: stores through glm::vec3 may alias anything, so the
// compiler would read the plan's vectors again after each.
struct RunArgs {
  const Plan& plan;
  const Plan::Run& run;
  const std::uint32_t* vertex;
  const std::uint32_t* bone;  // of the run's first vertex
  const float* weight;
  const glm::vec3* positions;
  const glm::vec3* normals;
  const glm::mat4* palette;
  glm::vec3* positionsOut;
  glm::vec3* normalsOut;
  // Where the AVX loops put the normals: in plan order, 16 bytes each (normalizePlanned takes
  // them to their vertices). Null: straight to normalsOut.
  glm::vec4* normalsPlanned = nullptr;
};

#if defined(__SSE2__)
inline void putPlanned(glm::vec4& out, __m128 r) { _mm_storeu_ps(&out.x, r); }
#else
inline void putPlanned(glm::vec4& out, const glm::vec3& r) { out = glm::vec4(r, 0.0f); }
#endif

// Vertex v, the plan's i-th.
template <bool Normals>
[[gnu::always_inline]] inline void transformOne(const RunArgs& a, const Columns& m,
                                                std::uint32_t i, std::uint32_t v) {
  put(a.positionsOut[v], pointOf(m, a.positions[v]));
  if constexpr (Normals) {
    if (a.normalsPlanned) putPlanned(a.normalsPlanned[i], linearOf(m, a.normals[v]));
    else put(a.normalsOut[v], linearOf(m, a.normals[v]));
  }
}

template <bool Normals>
[[gnu::always_inline]] inline void paletteRun(const RunArgs& a, std::uint32_t begin) {
  for (std::uint32_t i = begin; i < a.run.end; ++i)
    transformOne<Normals>(a, load(a.palette[a.bone[i - a.run.begin]]), i, a.vertex[i]);
}

template <int K, bool Normals>
[[gnu::always_inline]] inline void blendRun(const RunArgs& a, std::uint32_t begin) {
  const std::uint32_t* bone = a.bone + std::size_t{begin - a.run.begin} * K;
  const float* weight = a.weight + std::size_t{begin - a.run.begin} * K;
  for (std::uint32_t i = begin; i < a.run.end; ++i, bone += K, weight += K) {
    Columns m = zeroMatrix();
    for (int k = 0; k < K; ++k) addWeighted(m, a.palette[bone[k]], weight[k]);
    transformOne<Normals>(a, m, i, a.vertex[i]);
  }
}

template <bool Normals>
[[gnu::always_inline]] inline void identityRun(const RunArgs& a) {
  for (std::uint32_t i = a.run.begin; i < a.run.end; ++i) {
    const std::uint32_t v = a.vertex[i];
    a.positionsOut[v] = a.positions[v];
    if constexpr (Normals) {
      if (a.normalsPlanned) a.normalsPlanned[i] = glm::vec4(a.normals[v], 0.0f);
      else a.normalsOut[v] = a.normals[v];
    }
  }
}

template <bool Normals>
[[gnu::always_inline]] inline void anyRun(const RunArgs& a) {
  switch (a.run.kind) {
    case Plan::Kind::Palette: return paletteRun<Normals>(a, a.run.begin);
    case Plan::Kind::Identity: return identityRun<Normals>(a);
    case Plan::Kind::Blend: break;
  }
  switch (a.run.influences) {
    case 1: return blendRun<1, Normals>(a, a.run.begin);
    case 2: return blendRun<2, Normals>(a, a.run.begin);
    case 3: return blendRun<3, Normals>(a, a.run.begin);
    case 4: return blendRun<4, Normals>(a, a.run.begin);
    case 5: return blendRun<5, Normals>(a, a.run.begin);
    case 6: return blendRun<6, Normals>(a, a.run.begin);
    case 7: return blendRun<7, Normals>(a, a.run.begin);
    case 8: return blendRun<8, Normals>(a, a.run.begin);
    default: break;
  }
}

// The whole plan; the normals are left to normalise.
MARROW_AVX2_CLONE
void runPlan(const Plan& plan, const glm::vec3* positions, const glm::vec3* normals,
             const glm::mat4* palette, glm::vec3* positionsOut, glm::vec3* normalsOut) {
  for (const Plan::Run& run : plan.runs) {
    const RunArgs a{plan, run, plan.vertex.data(), plan.bone.data() + run.first,
                    plan.weight.data() + run.first, positions, normals, palette,
                    positionsOut, normalsOut};
    if (normalsOut) anyRun<true>(a);
    else anyRun<false>(a);
  }
}

#if defined(MARROW_AVX2)
// ---- AVX2: two vertices at a time. ----
//
// A 256-bit register holds the same column of both vertices' matrices, so one fused
// multiply-add does the work of two 128-bit multiplications and two additions, in the same
// order of terms. Weighted sums are formed two columns to a register (m01 = columns 0 and 1, m23 = 2
// and 3), then regrouped. A vertex's 12 bytes are read as 16, which stays inside the array for
// every vertex but its last: that one, and the odd one out of a run, go through the code above.
#pragma GCC push_options
#pragma GCC target("avx2,fma")

// The normalisation of eight vectors, x, y and z each in a register. A square root and three
// divisions kept the divider busy for most of the time this took; a reciprocal square root
// refined by one Newton step (r ← r (1.5 − ½ d r²), relative error about 1e-7) and three
// multiplications do the same work without it. Eights holding a length below 1e-15 or above 1e15
// (zero, denormal or huge vectors, where the estimate fails) take the square root and divisions,
// with zero vectors left as they are.
[[gnu::always_inline]] inline void unitEight(__m256 x, __m256 y, __m256 z, __m256& nx, __m256& ny,
                                             __m256& nz) {
  const __m256 dot = _mm256_fmadd_ps(z, z, _mm256_fmadd_ps(y, y, _mm256_mul_ps(x, x)));
  const __m256 inRange =
      _mm256_and_ps(_mm256_cmp_ps(dot, _mm256_set1_ps(1e-30f), _CMP_GE_OQ),
                    _mm256_cmp_ps(dot, _mm256_set1_ps(1e30f), _CMP_LE_OQ));
  if (_mm256_movemask_ps(inRange) == 0xFF) {
    __m256 r = _mm256_rsqrt_ps(dot);
    const __m256 half = _mm256_mul_ps(dot, _mm256_set1_ps(0.5f));
    r = _mm256_mul_ps(r, _mm256_fnmadd_ps(_mm256_mul_ps(half, r), r, _mm256_set1_ps(1.5f)));
    nx = _mm256_mul_ps(x, r);
    ny = _mm256_mul_ps(y, r);
    nz = _mm256_mul_ps(z, r);
  } else {
    const __m256 len = _mm256_sqrt_ps(dot);
    const __m256 positive = _mm256_cmp_ps(len, _mm256_setzero_ps(), _CMP_GT_OQ);
    nx = _mm256_blendv_ps(x, _mm256_div_ps(x, len), positive);
    ny = _mm256_blendv_ps(y, _mm256_div_ps(y, len), positive);
    nz = _mm256_blendv_ps(z, _mm256_div_ps(z, len), positive);
  }
}

namespace avx2 {
// How a pair's results reach their vertices (the loop itself is skinning_pairs.inc): here each
// half as 8 + 4 bytes, which takes two shuffles per pair (the high half out, its z down);
// avx512::Put writes them with none. The shuffle units are this loop's limit.
struct Put {
  [[gnu::always_inline]] static void pair(glm::vec3& outA, glm::vec3& outB, __m256 r) {
    put(outA, _mm256_castps256_ps128(r));
    put(outB, _mm256_extractf128_ps(r, 1));
  }
};

#include "render/anim/skinning_pairs.inc"
}  // namespace avx2

void runPlanAvx2(const Plan& plan, const glm::vec3* positions, const glm::vec3* normals,
                 const glm::mat4* palette, glm::vec3* positionsOut, glm::vec3* normalsOut,
                 glm::vec4* normalsPlanned) {
  avx2::runPlanPairs(plan, positions, normals, palette, positionsOut, normalsOut, normalsPlanned);
}

// Eight vectors at a time, in place (unitEight).
struct Eight {
  __m256 m03, m14, m25;  // vectors 0–3 in the low halves, 4–7 in the high ones
};

[[gnu::always_inline]] inline Eight loadEight(const float* f) {
  return {avx2::two(f, f + 12), avx2::two(f + 4, f + 16), avx2::two(f + 8, f + 20)};
}

[[gnu::always_inline]] inline void normalizeEight(const Eight& e, float* f) {
  // per half: m03 = x0 y0 z0 x1, m14 = y1 z1 x2 y2, m25 = z2 x3 y3 z3
  const __m256 xy = _mm256_shuffle_ps(e.m14, e.m25, _MM_SHUFFLE(2, 1, 3, 2));  // x2 y2 x3 y3
  const __m256 yz = _mm256_shuffle_ps(e.m03, e.m14, _MM_SHUFFLE(1, 0, 2, 1));  // y0 z0 y1 z1
  const __m256 x = _mm256_shuffle_ps(e.m03, xy, _MM_SHUFFLE(2, 0, 3, 0));      // x0 x1 x2 x3
  const __m256 y = _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0));         // y0 y1 y2 y3
  const __m256 z = _mm256_shuffle_ps(yz, e.m25, _MM_SHUFFLE(3, 0, 3, 1));      // z0 z1 z2 z3
  __m256 nx, ny, nz;
  unitEight(x, y, z, nx, ny, nz);
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

// At least eight vectors. Those after the last whole eight are done as the array's last eight,
// read before the others are written, so the ones done twice get the same floats twice.
void normalizeAvx2(std::span<glm::vec3> n) {
  float* const last = &n[n.size() - 8].x;
  const Eight lastEight = loadEight(last);
  for (std::size_t i = 0; i + 8 <= n.size(); i += 8) normalizeEight(loadEight(&n[i].x), &n[i].x);
  if (n.size() % 8 != 0) normalizeEight(lastEight, last);
}

#pragma GCC pop_options

// The planned loop again, writing with AVX-512VL's masked stores: the same arithmetic, so the
// same floats as runPlanAvx2.
#pragma GCC push_options
#pragma GCC target("avx2,fma,avx512f,avx512vl")

namespace avx512 {
struct Put {
  // Lanes 0–2 to outA; lanes 4–6 to outB, through an address 16 bytes before it (the masked-off
  // lanes are neither written nor read, and cannot fault).
  [[gnu::always_inline]] static void pair(glm::vec3& outA, glm::vec3& outB, __m256 r) {
    _mm256_mask_storeu_ps(&outA.x, 0x07, r);
    _mm256_mask_storeu_ps(
        reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(&outB.x) - 4 * sizeof(float)),
        0x70, r);
  }
};
#include "render/anim/skinning_pairs.inc"
}  // namespace avx512

void runPlanAvx512(const Plan& plan, const glm::vec3* positions, const glm::vec3* normals,
                   const glm::mat4* palette, glm::vec3* positionsOut, glm::vec3* normalsOut,
                   glm::vec4* normalsPlanned) {
  avx512::runPlanPairs(plan, positions, normals, palette, positionsOut, normalsOut, normalsPlanned);
}

#pragma GCC pop_options

const bool kAvx2 = (__builtin_cpu_init(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
const bool kAvx512 = kAvx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#endif

}  // namespace

bool fastSkinningPath() {
#if defined(MARROW_AVX2)
  return kAvx2;
#else
  return false;
#endif
}

bool skinLoopRuns(SkinLoop loop) {
  switch (loop) {
    case SkinLoop::Plain: return true;
#if defined(MARROW_AVX2)
    case SkinLoop::Avx2: return kAvx2;
    case SkinLoop::Avx512: return kAvx512;
#else
    default: return false;
#endif
  }
  return false;
}

namespace {

const SkinLoop kBestLoop = skinLoopRuns(SkinLoop::Avx512) ? SkinLoop::Avx512
                           : skinLoopRuns(SkinLoop::Avx2) ? SkinLoop::Avx2
                                                          : SkinLoop::Plain;

// Normalisation goes with the loop: the AVX2 version for Avx2 and Avx512.
void normalizeAll(std::span<glm::vec3> n, SkinLoop loop) {
#if defined(MARROW_AVX2)
  if (loop != SkinLoop::Plain && kAvx2 && n.size() >= 8) return normalizeAvx2(n);
#endif
  (void)loop;
  normalizeSse(n);
}

// Vertex by vertex from the arrays: for a PackedInfluences without a plan, a palette shorter than
// the plan needs, or output over input.
MARROW_AVX2_CLONE
void skinEachVertex(std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                    const PackedInfluences& packed, std::span<const glm::mat4> palette,
                    std::vector<glm::vec3>& positionsOut, std::vector<glm::vec3>* normalsOut,
                    SkinLoop loop) {
  const std::size_t n = positions.size();
  // In blocks, so that the normals are normalised while they are still in the L1 cache.
  constexpr std::size_t kBlock = 256;
  for (std::size_t begin = 0; begin < n; begin += kBlock) {
    const std::size_t end = std::min(n, begin + kBlock);
    for (std::size_t v = begin; v < end; ++v) {
      const Columns m = blended(packed, v, palette);
      put(positionsOut[v], pointOf(m, positions[v]));
      if (normalsOut) put((*normalsOut)[v], linearOf(m, normals[v]));
    }
    if (normalsOut) normalizeAll(std::span(*normalsOut).subspan(begin, end - begin), loop);
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
  skinWith(kBestLoop, positions, normals, packed, palette, positionsOut, normalsOut);
}

void skinWith(SkinLoop loop, std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
              const PackedInfluences& packed, std::span<const glm::mat4> palette,
              std::vector<glm::vec3>& positionsOut, std::vector<glm::vec3>* normalsOut) {
  if (!skinLoopRuns(loop)) loop = SkinLoop::Plain;
  const std::size_t n = positions.size();
  positionsOut.resize(n);
  const bool doNormals = normalsOut && normals.size() == n;
  if (doNormals) normalsOut->resize(n);
  glm::vec3* const normalsTo = doNormals ? normalsOut->data() : nullptr;
  if (packed.groups == 0) {  // not skinned: M is the identity for every vertex
    std::copy(positions.begin(), positions.end(), positionsOut.begin());
    if (doNormals) {
      std::copy(normals.begin(), normals.end(), normalsTo);
      normalizeAll(*normalsOut, loop);
    }
    return;
  }
  const Plan& plan = packed.plan;
  const bool planned = !plan.runs.empty() && plan.vertexCount == n &&
                       palette.size() >= plan.paletteSize &&
                       positions.data() != positionsOut.data() &&
                       (!doNormals || normals.data() != normalsTo);
  if (!planned) {
    skinEachVertex(positions, normals, packed, palette, positionsOut,
                   doNormals ? normalsOut : nullptr, loop);
    return;
  }
#if defined(MARROW_AVX2)
  if (loop != SkinLoop::Plain) {
    // The AVX loops leave the normals in plan order, in whole eights (unit vectors after the
    // last), and normalise them from there on their way to the vertices. The buffer is kept
    // per thread: 16 bytes a vertex of the largest mesh skinned on it.
    static thread_local std::vector<glm::vec4> inPlanOrder;
    glm::vec4* normalsPlanned = nullptr;
    if (doNormals) {
      const std::size_t eights = (n + 7) / 8 * 8;
      if (inPlanOrder.size() < eights) inPlanOrder.resize(eights);
      std::fill(inPlanOrder.begin() + static_cast<std::ptrdiff_t>(n),
                inPlanOrder.begin() + static_cast<std::ptrdiff_t>(eights), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
      normalsPlanned = inPlanOrder.data();
    }
    if (loop == SkinLoop::Avx512)
      runPlanAvx512(plan, positions.data(), normals.data(), palette.data(), positionsOut.data(),
                    normalsTo, normalsPlanned);
    else
      runPlanAvx2(plan, positions.data(), normals.data(), palette.data(), positionsOut.data(),
                  normalsTo, normalsPlanned);
    return;
  }
#endif
  runPlan(plan, positions.data(), normals.data(), palette.data(), positionsOut.data(), normalsTo);
  if (doNormals) normalizeAll(*normalsOut, loop);
}

// ---- Dual-quaternion skinning (skinning.h). Plain scalar code: a viewer option and the
// reference of its shader, not the hot path. ----

glm::mat4 encodeDualQuat(const glm::mat4& m) {
  glm::vec3 c[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
  const float len[3] = {glm::length(c[0]), glm::length(c[1]), glm::length(c[2])};
  const float scale = (len[0] + len[1] + len[2]) / 3.0f;
  glm::quat r(1.0f, 0.0f, 0.0f, 0.0f);
  if (len[0] > 0.0f && len[1] > 0.0f && len[2] > 0.0f && std::isfinite(scale)) {
    for (int i = 0; i < 3; ++i) c[i] /= len[i];
    // A mirror (negative determinant) is no rotation: its first axis is turned back.
    if (glm::dot(glm::cross(c[0], c[1]), c[2]) < 0.0f) c[0] = -c[0];
    r = glm::normalize(glm::quat_cast(glm::mat3(c[0], c[1], c[2])));
  }
  const glm::vec3 t(m[3]);
  const glm::quat d = glm::quat(0.0f, t.x, t.y, t.z) * r * 0.5f;
  glm::mat4 e(0.0f);
  e[0] = glm::vec4(r.x, r.y, r.z, r.w);
  e[1] = glm::vec4(d.x, d.y, d.z, d.w);
  e[2] = glm::vec4(scale, 0.0f, 0.0f, 0.0f);
  return e;
}

void encodeDualQuats(std::span<const glm::mat4> palette, std::vector<glm::mat4>& encoded) {
  encoded.resize(palette.size());
  for (std::size_t i = 0; i < palette.size(); ++i) encoded[i] = encodeDualQuat(palette[i]);
}

glm::mat4 dualQuatMatrix(const PackedInfluences& packed, std::size_t v,
                         std::span<const glm::mat4> encoded) {
  glm::vec4 real(0.0f), dual(0.0f), first(0.0f);
  float scale = 0.0f, total = 0.0f;
  bool haveFirst = false;
  for (int g = 0; g < packed.groups; ++g) {
    const glm::uvec4& b = g == 0 ? packed.bones0[v] : packed.bones1[v];
    const glm::vec4& w = g == 0 ? packed.weights0[v] : packed.weights1[v];
    for (int k = 0; k < 4; ++k) {
      if (w[k] == 0.0f || b[k] >= encoded.size()) continue;
      const glm::mat4& q = encoded[b[k]];
      if (!haveFirst) {
        first = q[0];
        haveFirst = true;
      }
      const float sw = glm::dot(first, q[0]) < 0.0f ? -w[k] : w[k];
      real += q[0] * sw;
      dual += q[1] * sw;
      scale += q[2].x * w[k];
      total += w[k];
    }
  }
  const float norm = glm::length(real);
  if (total == 0.0f || !(norm > 0.0f)) return glm::mat4(1.0f);
  real /= norm;
  dual /= norm;
  scale /= total;
  const glm::quat r(real.w, real.x, real.y, real.z);
  const glm::vec3 rv(real), dv(dual);
  // 2 (e q*).xyz for unit q: the translation the dual quaternion carries.
  const glm::vec3 t = 2.0f * (real.w * dv - dual.w * rv + glm::cross(rv, dv));
  glm::mat4 m(glm::mat3_cast(r) * scale);
  m[3] = glm::vec4(t, 1.0f);
  return m;
}

void skinDualQuat(std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                  const PackedInfluences& packed, std::span<const glm::mat4> palette,
                  std::vector<glm::vec3>& positionsOut, std::vector<glm::vec3>* normalsOut) {
  const std::size_t n = positions.size();
  const bool doNormals = normalsOut && normals.size() == n;
  std::vector<glm::vec3> pos(n), nrm(doNormals ? n : 0);  // output may be the input
  if (packed.groups == 0 || packed.bones0.size() != n) {
    std::copy(positions.begin(), positions.end(), pos.begin());
    if (doNormals) std::copy(normals.begin(), normals.end(), nrm.begin());
  } else {
    std::vector<glm::mat4> encoded;
    encodeDualQuats(palette, encoded);
    for (std::size_t v = 0; v < n; ++v) {
      const glm::mat4 m = dualQuatMatrix(packed, v, encoded);
      pos[v] = glm::vec3(m * glm::vec4(positions[v], 1.0f));
      if (doNormals) nrm[v] = glm::mat3(m) * normals[v];
    }
  }
  positionsOut = std::move(pos);
  if (doNormals) {
    for (auto& x : nrm) {
      const float len = glm::length(x);
      if (len > 0.0f) x /= len;
    }
    *normalsOut = std::move(nrm);
  }
}

}  // namespace marrow::anim
