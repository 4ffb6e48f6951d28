#include "render/anim/skinning.h"

#include <algorithm>
#include <array>
#include <cmath>

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

void accumulate(glm::mat4& m, float& total, const glm::uvec4& b, const glm::vec4& w,
                std::span<const glm::mat4> palette) {
  for (int k = 0; k < 4; ++k) {
    if (w[k] == 0.0f || b[k] >= palette.size()) continue;
    m += palette[b[k]] * w[k];
    total += w[k];
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
  for (std::size_t v = 0; v < n; ++v) {
    glm::mat4 m(0.0f);
    float total = 0.0f;
    if (packed.groups >= 1) accumulate(m, total, packed.bones0[v], packed.weights0[v], palette);
    if (packed.groups == 2) accumulate(m, total, packed.bones1[v], packed.weights1[v], palette);
    if (total == 0.0f) m = glm::mat4(1.0f);
    positionsOut[v] = glm::vec3(m * glm::vec4(positions[v], 1.0f));
    if (doNormals) {
      const glm::vec3 nn = glm::mat3(m) * normals[v];
      const float len = glm::length(nn);
      (*normalsOut)[v] = len > 0.0f ? nn / len : nn;
    }
  }
}

}  // namespace marrow::anim
