#include "render/anim/springs.h"

#include <algorithm>
#include <cmath>

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

ClothPlayback::ClothPlayback(const formats::Scene& scene) : scene_(scene) {
  for (std::size_t m = 0; m < scene.meshes.size(); ++m)
    if (hasSprings(scene.meshes[m])) {
      meshes_.push_back(m);
      systems_.emplace_back(scene.meshes[m]);
      packed_.push_back(packInfluences(scene.meshes[m]));
      normals_.emplace_back();
    }
}

void ClothPlayback::step(float time, float dt, bool last, const PoseAt& poseAt, float duration, bool looping) {
  float sampled = time;
  if (looping && duration > 0.0f) sampled = std::fmod(time, duration);
  sampled = std::clamp(sampled, 0.0f, std::max(duration, 0.0f));
  const Pose pose = poseAt(sampled);
  for (std::size_t k = 0; k < meshes_.size(); ++k) {
    const formats::Mesh& mesh = scene_.meshes[meshes_[k]];
    skinPalette(scene_.skeleton, mesh, pose, palette_);
    skin(mesh, packed_[k], palette_, skinned_, last ? &normals_[k] : nullptr);
    systems_[k].step(mesh, skinned_, dt);
  }
}

void ClothPlayback::moveTo(float t, float duration, bool looping, const PoseAt& poseAt) {
  if (meshes_.empty() || !std::isfinite(t) || t < 0.0f) return;
  // From where the last time was: forward a little, or forward across a looped clip's end.
  float from = -1.0f, to = t;
  if (at_ >= 0.0f) {
    const float wrapped = duration > 0.0f ? std::fmod(at_, duration) : at_;
    if (t > wrapped && t - wrapped <= kContinue) {
      from = at_;
      to = at_ + (t - wrapped);
    } else if (looping && duration > 0.0f && t < wrapped && duration - wrapped + t <= kContinue) {
      from = at_;
      to = at_ + (duration - wrapped + t);
    } else if (t == wrapped) {
      return;  // nothing moved
    }
  }
  if (from < 0.0f) {  // afresh, from the bind positions
    for (std::size_t k = 0; k < meshes_.size(); ++k) systems_[k].reset(scene_.meshes[meshes_[k]]);
    from = std::max(0.0f, t - kHistory);
    to = t;
    step(from, 0.0f, from == to, poseAt, duration, looping);
  }
  // Whole steps, the last one shorter. A span a rounding error over a whole number of steps (4/60
  // as floats) takes no extra sliver of a step: Verlet carries the last step's velocity into the
  // next whatever its length, so a step of 1e-8 s would move the cloth by a whole step's worth.
  long steps = static_cast<long>(std::ceil((to - from) / kStep - 1e-3f));  // ≤ kHistory / kStep
  if (steps < 1 && to > from) steps = 1;
  float time = from;
  for (long i = 1; i <= steps; ++i) {
    const float next = i == steps ? to : std::min(to, from + static_cast<float>(i) * kStep);
    step(next, next - time, i == steps, poseAt, duration, looping);
    time = next;
  }
  at_ = to;
}

}  // namespace marrow::anim
