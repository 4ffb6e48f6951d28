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

void SpringSystem::pin(const formats::Mesh& mesh, std::span<const glm::vec3> skinned) {
  if (!hasSprings(mesh) || skinned.size() != out_.size() || mesh.physicalWeights.size() != out_.size()) return;
  for (std::size_t v = 0; v < out_.size(); ++v)
    if (!(mesh.physicalWeights[v] > 0.0f)) out_[v] = skinned[v];
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

void ClothPlayback::step(float time, float dt, const PoseAt& poseAt, float duration, bool looping) {
  const Pose pose = poseAt(clipTime(time, duration, looping ? PlayMode::Loop : PlayMode::Once));
  for (std::size_t k = 0; k < meshes_.size(); ++k) {
    const formats::Mesh& mesh = scene_.meshes[meshes_[k]];
    skinPalette(scene_.skeleton, mesh, pose, palette_);
    skin(mesh, packed_[k], palette_, skinned_);
    systems_[k].step(mesh, skinned_, dt);
  }
}

void ClothPlayback::present(float t, const PoseAt& poseAt, float duration, bool looping) {
  const Pose pose = poseAt(clipTime(t, duration, looping ? PlayMode::Loop : PlayMode::Once));
  for (std::size_t k = 0; k < meshes_.size(); ++k) {
    const formats::Mesh& mesh = scene_.meshes[meshes_[k]];
    skinPalette(scene_.skeleton, mesh, pose, palette_);
    skin(mesh, packed_[k], palette_, skinned_, &normals_[k]);
    systems_[k].pin(mesh, skinned_);
  }
}

void ClothPlayback::moveTo(float t, float duration, bool looping, const PoseAt& poseAt) {
  if (meshes_.empty() || !std::isfinite(t) || t < 0.0f) return;
  if (last_ >= 0.0f && t == last_) return;  // nothing moved
  // How far the playhead went since the last time, and which way.
  float travel = -1.0f, direction = 1.0f;
  if (last_ >= 0.0f) {
    if (t > last_ && t - last_ <= kContinue) {
      travel = t - last_;
    } else if (t < last_ && looping && duration > 0.0f && duration - last_ + t <= kContinue) {
      travel = duration - last_ + t;  // across the loop's end
    } else if (t < last_ && last_ - t <= kContinue) {
      travel = last_ - t;  // backwards: ping-pong, a small scrub back
      direction = -1.0f;
    }
  }
  // Whole steps only. A span a rounding error short of a whole number of steps (4/60 as floats)
  // counts as that number.
  const auto wholeSteps = [](float span) { return std::max(0L, static_cast<long>(std::floor(span / kStep + 1e-3f))); };
  if (travel < 0.0f) {  // afresh, from the bind positions
    for (std::size_t k = 0; k < meshes_.size(); ++k) systems_[k].reset(scene_.meshes[meshes_[k]]);
    const float start = std::max(0.0f, t - kHistory);
    step(start, 0.0f, poseAt, duration, looping);
    const long steps = wholeSteps(t - start);  // ≤ kHistory / kStep
    for (long i = 1; i <= steps; ++i) step(start + static_cast<float>(i) * kStep, kStep, poseAt, duration, looping);
    carry_ = std::max(0.0f, (t - start) - static_cast<float>(steps) * kStep);
  } else {
    const float total = carry_ + travel;
    const long steps = wholeSteps(total);
    for (long i = 1; i <= steps; ++i) {
      const float along = static_cast<float>(i) * kStep - carry_;  // how far along the way went
      step(last_ + direction * along, kStep, poseAt, duration, looping);  // clipTime wraps or clamps it
    }
    carry_ = std::max(0.0f, total - static_cast<float>(steps) * kStep);
  }
  last_ = t;
  present(t, poseAt, duration, looping);
}

}  // namespace marrow::anim
