#include "render/anim/springs.h"

#include <algorithm>

#include <glm/geometric.hpp>

namespace marrow::anim {

bool hasSprings(const formats::Mesh& mesh) {
  return !mesh.springs.empty() && mesh.physicalWeights.size() == mesh.vertexCount() &&
         std::any_of(mesh.physicalWeights.begin(), mesh.physicalWeights.end(),
                     [](float w) { return w > 0.0f; });
}

SpringSystem::SpringSystem(const formats::Mesh& mesh, SpringSettings settings)
    : settings_(settings) {
  reset(mesh);
}

void SpringSystem::reset(const formats::Mesh& mesh) {
  position_ = mesh.positions;
  previous_ = mesh.positions;
  out_ = mesh.positions;
}

const std::vector<glm::vec3>& SpringSystem::step(const formats::Mesh& mesh,
                                                 std::span<const glm::vec3> skinned, float dt) {
  const std::size_t n = skinned.size();
  if (!hasSprings(mesh) || n != mesh.vertexCount() || position_.size() != n) {
    out_.assign(skinned.begin(), skinned.end());
    return out_;
  }
  const std::vector<float>& weight = mesh.physicalWeights;
  out_.resize(n);
  // The forces and the Verlet step, in libcal3d's order of operations (float for float).
  for (std::size_t v = 0; v < n; ++v) {
    const glm::vec3 current = position_[v];
    if (weight[v] > 0.0f) {
      const glm::vec3 f = settings_.force + settings_.gravity * weight[v];
      position_[v] += (current - previous_[v]) * 0.99f + f / weight[v] * dt * dt;
    } else {
      position_[v] = skinned[v];
    }
    previous_[v] = current;
    out_[v] = position_[v];
  }
  // The springs pull their ends towards their idle lengths, twice over.
  for (int iteration = 0; iteration < 2; ++iteration)
    for (const formats::Spring& s : mesh.springs) {
      if (s.a >= n || s.b >= n) continue;
      const glm::vec3 d = out_[s.b] - out_[s.a];
      const float length = glm::length(d);
      if (!(length > 0.0f)) continue;
      float k0 = (length - s.idleLength) / length, k1 = k0;
      if (weight[s.a] > 0.0f) {
        k0 /= 2.0f;
        k1 /= 2.0f;
      } else {
        k0 = 0.0f;
      }
      if (weight[s.b] <= 0.0f) {
        k0 *= 2.0f;
        k1 = 0.0f;
      }
      out_[s.a] += d * k0;
      position_[s.a] = out_[s.a];
      out_[s.b] -= d * k1;
      position_[s.b] = out_[s.b];
    }
  return out_;
}

}  // namespace marrow::anim
