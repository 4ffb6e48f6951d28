// The skinning formula, in the one place it lives. The vertex shader (shaders/skin.glsl)
// implements the same steps on the same packed data; a GL test compares the two.
//
//   M   = sum_i w_i * palette[b_i]         over the vertex's packed influences (at most 8)
//   M   = identity                         when the weights sum to 0 (vertex not skinned)
//   p'  = M * p
//   n'  = normalize(mat3(M) * n)
//
// Computed ways that agree within kSkinningTolerance: on the CPU either the very floats of the
// glm expressions vec3(M * vec4(p, 1)) and normalize(mat3(M) * n) (SSE, or plain code without
// it) or, where the CPU has AVX2 and FMA (chosen at run time, GCC builds), fused multiply-adds
// and a refined reciprocal square root (fastSkinningPath); and on the GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "formats/model/scene.h"
#include "render/anim/pose.h"

namespace marrow::anim {

inline constexpr int kMaxInfluences = 8;

// How far two skinnings of the same vertices may lie apart — CPU paths against each other, GPU
// against CPU (the GL tests use it): the largest distance between corresponding positions as a
// fraction of the mesh's extent, and between corresponding unit normals.
inline constexpr float kSkinningTolerance = 1e-4f;

// Per-vertex influences in the fixed layout the GPU reads: two groups of four (bone, weight).
// More than 8 influences keep the 8 heaviest, renormalised; a rigidly attached mesh
// (Mesh::parentBone) gets one influence of weight 1.
struct PackedInfluences {
  std::vector<glm::uvec4> bones0, bones1;
  std::vector<glm::vec4> weights0, weights1;
  int groups = 0;                 // 0 (not skinned), 1 (≤ 4 influences) or 2
  std::size_t truncatedVertices = 0;  // vertices that had more than 8 influences
  std::size_t unnormalisedVertices = 0;  // vertices whose weights did not sum to 1 (normalised)

  // The same influences as the CPU loop (skin) walks them; the GPU does not read this. The
  // vertices are grouped by kind — one bone of weight 1 (M is that palette entry), n weighted
  // influences (the zero weights of the arrays above left out), none (M = identity) — so that
  // each kind runs as a straight loop without per-vertex tests; the results are the same floats
  // as vertex by vertex. Made by packInfluences; code that fills or changes the arrays above
  // itself calls planSkinning afterwards, or leaves `plan` empty: skin then reads the arrays
  // above directly (same results, slower).
  struct Plan {
    enum class Kind : std::uint8_t { Palette, Blend, Identity };
    // vertex[begin, end), all of one kind, in increasing order — but for the Palette run, in
    // order of bone (so that the loop reads each bone's matrix once), the array's last vertex last.
    struct Run {
      Kind kind = Kind::Identity;
      std::uint8_t influences = 0;       // per vertex, for Blend (1 to 8)
      std::uint32_t begin = 0, end = 0;  // into `vertex`
      std::uint32_t first = 0;           // into `bone` and `weight`: the run's first vertex's
    };
    std::size_t vertexCount = 0;    // of the arrays above when the plan was made
    std::size_t paletteSize = 0;    // palette entries the plan reads (1 + the highest bone)
    std::vector<Run> runs;
    std::vector<std::uint32_t> vertex;
    std::vector<std::uint32_t> bone;  // Palette: one per vertex; Blend: `influences` per vertex
    std::vector<float> weight;        // alongside `bone` (1 for Palette)
  } plan;
};

PackedInfluences packInfluences(const formats::Mesh& mesh);

// Every mesh of one scene packed (packInfluences), made ahead of drawing: the viewer packs them
// on its loading thread, so that the GUI thread only uploads them (500,000 skinned vertices take
// 15-80 ms to pack on the test machine).
struct PackedScene {
  std::weak_ptr<const formats::Scene> scene;  // what they were packed from
  std::shared_ptr<const std::vector<PackedInfluences>> meshes;  // one per scene mesh
  // Whether these are `s`'s (the same scene object, still alive).
  bool packs(const std::shared_ptr<const formats::Scene>& s) const;
  // The same packs for `copy`, a copy of their scene with the same meshes (the viewer adds clips
  // to a loaded model so): nothing is packed or copied again. Null when this does not pack
  // `original`, or when `copy`'s meshes differ from it in number or vertex counts.
  std::shared_ptr<const PackedScene> forCopy(const std::shared_ptr<const formats::Scene>& original,
                                             const std::shared_ptr<const formats::Scene>& copy) const;
};
std::shared_ptr<const PackedScene> packScene(const std::shared_ptr<const formats::Scene>& scene);

// Whether skin() takes the AVX2 + FMA path on this CPU (else its results are the glm floats).
bool fastSkinningPath();

// (Re)makes packed.plan from the arrays (packInfluences calls it).
void planSkinning(PackedInfluences& packed);

// palette[b] = pose.model[b] * inverseBind[b], inverseBind taken from the mesh when it has its
// own, else from the skeleton (stored or derived from the rest pose).
void skinPalette(const formats::Skeleton& skeleton, const formats::Mesh& mesh, const Pose& pose,
                 std::vector<glm::mat4>& palette);

// CPU skinning of positions (and normals, when `normalsOut` is given and the mesh has them).
void skin(const formats::Mesh& mesh, const PackedInfluences& packed,
          std::span<const glm::mat4> palette, std::vector<glm::vec3>& positionsOut,
          std::vector<glm::vec3>* normalsOut = nullptr);

// The same for other positions and normals of the mesh's vertices (morphed ones, say); `normals`
// may be empty.
void skin(std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
          const PackedInfluences& packed, std::span<const glm::mat4> palette,
          std::vector<glm::vec3>& positionsOut, std::vector<glm::vec3>* normalsOut = nullptr);

// skin()'s loop over a plan comes in versions by instruction set: Plain (the glm floats), Avx2
// (AVX2 + FMA, fastSkinningPath) and Avx512 (the Avx2 arithmetic written out with AVX-512VL's
// masked stores: the same floats as Avx2). skin() takes the last this CPU runs. For tests, which
// compare the versions: whether this CPU runs one, and skin() through it.
enum class SkinLoop { Plain, Avx2, Avx512 };
bool skinLoopRuns(SkinLoop loop);
void skinWith(SkinLoop loop, std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
              const PackedInfluences& packed, std::span<const glm::mat4> palette,
              std::vector<glm::vec3>& positionsOut, std::vector<glm::vec3>* normalsOut);

// ---- Dual-quaternion skinning (Kavan, Collins, Žára, O'Sullivan 2007) ----
//
// The alternative to the linear blend above, chosen in the viewer (View › Skinning). Each palette
// matrix M is split into what a unit dual quaternion and one number hold:
//
//   r   = the rotation of M's 3×3 part with its columns normalised (unit quaternion)
//   d   = ½ (0, t) r                       t = M's translation (last column)
//   s   = mean length of M's three columns (uniform scale)
//
// Non-uniform scale, shear and mirroring are dropped: a palette with them skins differently
// from the linear blend (the caveat the viewer shows). Per vertex, with its packed influences in
// packed order (zero weights and bones beyond the palette left out):
//
//   σ_i = sign(r_0 · r_i)                  one hemisphere, r_0 the first influence's rotation
//   R = Σ w_i σ_i r_i,  D = Σ w_i σ_i d_i,  S = Σ w_i s_i / Σ w_i
//   q = R / |R|,  e = D / |R|
//   M = [S · rot(q) | 2 (e q*).xyz]         identity when the weights sum to 0
//   p' = M p,  n' = normalize(mat3(M) n)
//
// A vertex of one influence of weight 1 gets exactly that bone's rotation, translation and
// uniform scale: the linear blend's result when the palette entry has no other scale or shear.
// The GPU (shaders/skin.glsl) reads the encoded palette below and does the same steps.

// One palette matrix encoded as the shader reads it: column 0 the rotation r (x, y, z, w),
// column 1 the dual part d (x, y, z, w), column 2 (s, 0, 0, 0), column 3 zero.
glm::mat4 encodeDualQuat(const glm::mat4& m);
void encodeDualQuats(std::span<const glm::mat4> palette, std::vector<glm::mat4>& encoded);

// The blended M of vertex v from an encoded palette (the formula above).
glm::mat4 dualQuatMatrix(const PackedInfluences& packed, std::size_t v,
                         std::span<const glm::mat4> encoded);

// CPU dual-quaternion skinning, called as skin is: `palette` holds matrices (skinPalette).
void skinDualQuat(std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                  const PackedInfluences& packed, std::span<const glm::mat4> palette,
                  std::vector<glm::vec3>& positionsOut,
                  std::vector<glm::vec3>* normalsOut = nullptr);

}  // namespace marrow::anim
