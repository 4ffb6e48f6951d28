// Random skinned scenes and poses for the skinning tests: a skeleton of random chains, one mesh
// of random vertices with random influences, poses of random similarity transforms. The same seed
// gives the same scene.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <string>
#include <vector>

#include "formats/model/scene.h"
#include "render/anim/pose.h"

namespace marrow::testing {

struct RandomSceneOptions {
  std::uint32_t bones = 64;
  std::uint32_t minInfluences = 0;  // per vertex, drawn between these two
  std::uint32_t maxInfluences = 4;
  std::size_t vertices = 3000;
  bool rigid = false;  // instead: exactly one influence of weight 1 per vertex
  std::uint32_t seed = 1;
};

// `bones` bones (each the child of an earlier one), one mesh "random" of `vertices` vertices in
// triangles; influences of weights that sum to 1.
inline formats::Scene randomSkinnedScene(const RandomSceneOptions& o) {
  std::mt19937 rng(o.seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  formats::Scene s;
  for (std::uint32_t b = 0; b < o.bones; ++b) {
    formats::Bone bone;
    bone.name = "bone" + std::to_string(b);
    bone.parent = b == 0 ? -1 : static_cast<int>(rng() % b);
    bone.translation = glm::vec3(unit(rng), unit(rng), unit(rng)) * 0.3f;
    bone.rotation = glm::normalize(glm::quat(1.0f + unit(rng), unit(rng), unit(rng), unit(rng)));
    s.skeleton.bones.push_back(bone);
  }
  formats::Mesh m;
  m.name = "random";
  std::uniform_int_distribution<std::uint32_t> pickBone(0, o.bones - 1);
  std::uniform_int_distribution<std::uint32_t> pickCount(o.minInfluences, o.maxInfluences);
  for (std::size_t v = 0; v < o.vertices; ++v) {
    m.positions.emplace_back(unit(rng), unit(rng) + 1.0f, unit(rng));
    m.normals.push_back(glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng)) + 0.01f));
    std::vector<formats::Influence> inf;
    if (o.rigid) {
      inf.push_back({pickBone(rng), 1.0f});
    } else {
      const std::uint32_t n = pickCount(rng);
      float total = 0.0f;
      for (std::uint32_t k = 0; k < n; ++k) {
        inf.push_back({pickBone(rng), 0.1f + std::fabs(unit(rng))});
        total += inf.back().weight;
      }
      for (auto& i : inf) i.weight /= total;
    }
    m.addInfluences(inf);
  }
  for (std::uint32_t i = 0; i + 2 < o.vertices; i += 3)
    m.indices.insert(m.indices.end(), {i, i + 1, i + 2});
  s.meshes.push_back(std::move(m));
  return s;
}

// Each bone's rest transform turned a little, moved a little and, with `scaleJitter`, scaled
// uniformly by up to that fraction: similarity transforms, which dual quaternions hold exactly.
inline anim::Pose randomPose(const formats::Skeleton& skel, std::uint32_t seed,
                             float scaleJitter = 0.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  anim::Pose p = anim::restPose(skel);
  for (auto& l : p.local) {
    l.rotation = glm::normalize(
        l.rotation * glm::quat(1.0f, unit(rng) * 0.5f, unit(rng) * 0.5f, unit(rng) * 0.5f));
    l.translation += glm::vec3(unit(rng), unit(rng), unit(rng)) * 0.05f;
    if (scaleJitter != 0.0f) l.scale = glm::vec3(1.0f + scaleJitter * unit(rng));
  }
  anim::computeModel(skel, p);
  return p;
}

// The diagonal of the points' bounding box.
inline float extent(const std::vector<glm::vec3>& points) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const auto& p : points) lo = glm::min(lo, p), hi = glm::max(hi, p);
  return glm::length(hi - lo);
}

// The largest distance between corresponding points of `a` and `b`, as a fraction of b's extent;
// huge when they differ in number or are empty.
inline float worstRelativeDistance(const std::vector<glm::vec3>& a,
                                   const std::vector<glm::vec3>& b) {
  if (a.size() != b.size() || a.empty()) return 1e30f;
  float worst = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(a[i] - b[i]));
  return worst / std::max(extent(b), 1e-6f);
}

}  // namespace marrow::testing
