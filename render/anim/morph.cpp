#include "render/anim/morph.h"

#include <algorithm>
#include <cmath>

namespace marrow::anim {

void morphDeltas(const formats::Mesh& mesh, const formats::MorphTarget& target,
                 std::vector<glm::vec3>& positionDeltas, std::vector<glm::vec3>& normalDeltas) {
  const std::size_t n = mesh.vertexCount();
  positionDeltas.assign(n, glm::vec3(0.0f));
  normalDeltas.assign(n, glm::vec3(0.0f));
  const std::size_t moved = std::min(target.movedCount(n), target.positions.size());
  const bool normals = mesh.normals.size() == n && target.normals.size() >= moved;
  for (std::size_t i = 0; i < moved; ++i) {
    const std::size_t v = target.vertexAt(i);
    if (v >= n) continue;
    positionDeltas[v] = target.positions[i] - mesh.positions[v];
    if (normals) normalDeltas[v] = target.normals[i] - mesh.normals[v];
  }
}

void applyMorphs(const formats::Mesh& mesh, std::span<const float> weights,
                 std::vector<glm::vec3>& positions, std::vector<glm::vec3>& normals) {
  const std::size_t n = mesh.vertexCount();
  positions = mesh.positions;
  normals = mesh.normals;
  const bool hasNormals = normals.size() == n;
  bool any = false;
  for (std::size_t k = 0; k < mesh.morphs.size() && k < weights.size(); ++k) {
    const float w = weights[k];
    if (w == 0.0f) continue;
    any = true;
    const auto& t = mesh.morphs[k];
    const std::size_t moved = std::min(t.movedCount(n), t.positions.size());
    for (std::size_t i = 0; i < moved; ++i) {
      const std::size_t v = t.vertexAt(i);
      if (v >= n) continue;
      positions[v] += w * (t.positions[i] - mesh.positions[v]);
      if (hasNormals && i < t.normals.size()) normals[v] += w * (t.normals[i] - mesh.normals[v]);
    }
  }
  if (any && hasNormals)
    for (auto& nn : normals) {
      const float len = glm::length(nn);
      if (len > 0.0f) nn /= len;
    }
}

namespace {

float sampleWeight(const formats::Channel<float>& ch, float t) {
  if (ch.empty()) return 0.0f;
  if (t <= ch.times.front()) return ch.values.front();
  if (t >= ch.times.back()) return ch.values.back();
  const auto it = std::upper_bound(ch.times.begin(), ch.times.end(), t);
  const std::size_t hi = static_cast<std::size_t>(it - ch.times.begin());
  const std::size_t lo = hi - 1;
  if (ch.interpolation == formats::Interpolation::Step) return ch.values[lo];
  const float span = ch.times[hi] - ch.times[lo];
  const float a = span > 0.0f ? (t - ch.times[lo]) / span : 0.0f;
  return ch.values[lo] + (ch.values[hi] - ch.values[lo]) * a;
}

}  // namespace

void sampleMorphWeights(const formats::Clip& clip, float t, std::span<const formats::Mesh> meshes,
                        std::vector<std::vector<float>>& weights) {
  weights.resize(meshes.size());
  for (std::size_t m = 0; m < meshes.size(); ++m) weights[m].resize(meshes[m].morphs.size(), 0.0f);
  for (const auto& track : clip.morphTracks) {
    const float w = sampleWeight(track.weight, t);
    for (std::size_t m = 0; m < meshes.size(); ++m) {
      if (meshes[m].name != track.mesh) continue;
      for (std::size_t k = 0; k < meshes[m].morphs.size(); ++k)
        if (meshes[m].morphs[k].name == track.target) weights[m][k] = w;
    }
  }
}

}  // namespace marrow::anim
