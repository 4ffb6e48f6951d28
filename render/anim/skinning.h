// The skinning formula, in the one place it lives. The vertex shader (shaders/skin.glsl)
// implements the same steps on the same packed data; a GL test compares the two.
//
//   M   = sum_i w_i * palette[b_i]         over the vertex's packed influences (at most 8)
//   M   = identity                         when the weights sum to 0 (vertex not skinned)
//   p'  = M * p
//   n'  = normalize(mat3(M) * n)
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/model/scene.h"
#include "render/anim/pose.h"

namespace marrow::anim {

inline constexpr int kMaxInfluences = 8;

// Per-vertex influences in the fixed layout the GPU reads: two groups of four (bone, weight).
// More than 8 influences keep the 8 heaviest, renormalised; a rigidly attached mesh
// (Mesh::parentBone) gets one influence of weight 1.
struct PackedInfluences {
  std::vector<glm::uvec4> bones0, bones1;
  std::vector<glm::vec4> weights0, weights1;
  int groups = 0;                 // 0 (not skinned), 1 (≤ 4 influences) or 2
  std::size_t truncatedVertices = 0;  // vertices that had more than 8 influences
};

PackedInfluences packInfluences(const formats::Mesh& mesh);

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

}  // namespace marrow::anim
