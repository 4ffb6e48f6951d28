#include "render/gl/weight_view.h"

#include <algorithm>
#include <cmath>

namespace marrow::render {

glm::vec3 weightColor(float weight) {
  static constexpr glm::vec3 kStops[5] = {{0.10f, 0.15f, 0.55f},
                                          {0.00f, 0.55f, 0.95f},
                                          {0.15f, 0.80f, 0.25f},
                                          {1.00f, 0.85f, 0.10f},
                                          {0.90f, 0.12f, 0.08f}};
  const float x = std::clamp(std::isfinite(weight) ? weight : 0.0f, 0.0f, 1.0f) * 4.0f;
  const int i = std::min(static_cast<int>(x), 3);
  const float f = x - static_cast<float>(i);
  return kStops[i] * (1.0f - f) + kStops[i + 1] * f;
}

glm::vec3 influenceClassColor(InfluenceClass c) {
  switch (c) {
    case InfluenceClass::None: return {0.45f, 0.45f, 0.45f};
    case InfluenceClass::One: return {0.20f, 0.40f, 1.00f};
    case InfluenceClass::Two: return {0.15f, 0.80f, 0.30f};
    case InfluenceClass::Three: return {1.00f, 0.88f, 0.10f};
    case InfluenceClass::Four: return {1.00f, 0.50f, 0.00f};
    case InfluenceClass::MoreThanFour: return {0.85f, 0.05f, 0.05f};
    case InfluenceClass::kCount: break;
  }
  return {0.0f, 0.0f, 0.0f};
}

const char* influenceClassName(InfluenceClass c) {
  switch (c) {
    case InfluenceClass::None: return "no bone";
    case InfluenceClass::One: return "1 bone";
    case InfluenceClass::Two: return "2 bones";
    case InfluenceClass::Three: return "3 bones";
    case InfluenceClass::Four: return "4 bones";
    case InfluenceClass::MoreThanFour: return "more than 4 bones";
    case InfluenceClass::kCount: break;
  }
  return "";
}

glm::vec3 unnormalisedColor() {
  return {1.0f, 0.0f, 1.0f};
}

InfluenceView influenceView(const formats::Mesh& mesh) {
  InfluenceView view;
  const std::size_t n = mesh.vertexCount();
  view.colors.resize(n);
  const bool rigid = mesh.parentBone >= 0;
  const bool rows = mesh.skinned() && mesh.influenceStart.size() >= n;
  std::vector<std::uint32_t> bones;
  for (std::size_t v = 0; v < n; ++v) {
    std::size_t distinct = 0;
    double total = 0.0;
    if (rigid) {
      distinct = 1;
      total = 1.0;
    } else if (rows) {
      bones.clear();
      for (const auto& i : mesh.influencesOf(v)) {
        if (!(i.weight > 0.0f)) continue;
        total += i.weight;
        if (std::find(bones.begin(), bones.end(), i.bone) == bones.end()) bones.push_back(i.bone);
      }
      distinct = bones.size();
    }
    const auto cls = static_cast<InfluenceClass>(std::min<std::size_t>(distinct, 5));
    ++view.counts[static_cast<std::size_t>(cls)];
    const bool badSum = distinct > 0 && std::abs(total - 1.0) > kWeightSumTolerance;
    if (distinct > 4) view.overFour.push_back(static_cast<std::uint32_t>(v));
    if (badSum) view.unnormalised.push_back(static_cast<std::uint32_t>(v));
    view.colors[v] = glm::vec4(badSum ? unnormalisedColor() : influenceClassColor(cls), 1.0f);
  }
  return view;
}

int dominantBone(const formats::Mesh& mesh, std::size_t vertex) {
  if (mesh.parentBone >= 0) return mesh.parentBone;
  if (!mesh.skinned() || vertex >= mesh.vertexCount()) return -1;
  int best = -1;
  float weight = 0.0f;
  for (const auto& i : mesh.influencesOf(vertex))
    if (i.weight > weight) {
      weight = i.weight;
      best = static_cast<int>(i.bone);
    }
  return best;
}

}  // namespace marrow::render
