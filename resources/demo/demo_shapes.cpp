#include "resources/demo/demo_shapes.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>

namespace marrow::demo {
namespace {

// Keys closer than this form a step: interpolation across them is linear and their neighbours
// ignore them when estimating slopes, so a hem does not make the sleeve bulge.
constexpr float kStep = 0.006f;

template <class Get>
float slopeAt(const std::vector<ProfileKey>& k, std::size_t i, Get get) {
  const bool stepBefore = i > 0 && k[i].s - k[i - 1].s < kStep;
  const bool stepAfter = i + 1 < k.size() && k[i + 1].s - k[i].s < kStep;
  const std::size_t lo = (i == 0 || stepBefore) ? i : i - 1;
  const std::size_t hi = (i + 1 == k.size() || stepAfter) ? i : i + 1;
  if (lo == hi) return 0.0f;
  return (get(k[hi]) - get(k[lo])) / (k[hi].s - k[lo].s);
}

template <class Get>
float hermite(const std::vector<ProfileKey>& k, std::size_t i, float s, Get get) {
  const float h = k[i + 1].s - k[i].s;
  const float f = (s - k[i].s) / h;
  const float a = get(k[i]), b = get(k[i + 1]);
  if (h < kStep) return a + (b - a) * f;
  const float m0 = slopeAt(k, i, get) * h, m1 = slopeAt(k, i + 1, get) * h;
  const float f2 = f * f, f3 = f2 * f;
  return (2 * f3 - 3 * f2 + 1) * a + (f3 - 2 * f2 + f) * m0 + (-2 * f3 + 3 * f2) * b +
         (f3 - f2) * m1;
}

}  // namespace

ProfileKey sampleProfile(const std::vector<ProfileKey>& keys, float s) {
  if (s <= keys.front().s) return keys.front();
  if (s >= keys.back().s) return keys.back();
  std::size_t i = 0;
  while (i + 2 < keys.size() && keys[i + 1].s <= s) ++i;
  ProfileKey out = keys[i];
  out.s = s;
  out.ru = hermite(keys, i, s, [](const ProfileKey& k) { return k.ru; });
  out.rv = hermite(keys, i, s, [](const ProfileKey& k) { return k.rv; });
  out.offset = hermite(keys, i, s, [](const ProfileKey& k) { return k.offset; });
  return out;
}

Polyline::Polyline(std::vector<glm::vec3> points) : points_(std::move(points)) {
  cumulative_.push_back(0.0f);
  for (std::size_t i = 1; i < points_.size(); ++i)
    cumulative_.push_back(cumulative_.back() + glm::length(points_[i] - points_[i - 1]));
}

glm::vec3 Polyline::at(float s) const {
  std::size_t i = 0;
  while (i + 2 < points_.size() && cumulative_[i + 1] <= s) ++i;
  const glm::vec3 d = glm::normalize(points_[i + 1] - points_[i]);
  return points_[i] + d * (s - cumulative_[i]);
}

glm::vec3 Polyline::tangent(float s) const {
  constexpr float kBlend = 0.03f;
  glm::vec3 t(0.0f);
  // Averaging the directions a little before and after smooths the turn at inner points.
  for (float ds : {-kBlend, 0.0f, kBlend}) {
    const float q = std::clamp(s + ds, 0.0f, length());
    std::size_t i = 0;
    while (i + 2 < points_.size() && cumulative_[i + 1] <= q) ++i;
    t += glm::normalize(points_[i + 1] - points_[i]);
  }
  return glm::normalize(t);
}

std::vector<Section> tubeSections(const Polyline& path, const std::vector<ProfileKey>& keys,
                                  const TubeStyle& style) {
  const float s0 = keys.front().s, s1 = keys.back().s;
  std::vector<float> samples;
  for (const auto& k : keys) samples.push_back(k.s);
  const int n = std::max(1, static_cast<int>(std::round((s1 - s0) / style.spacing)));
  for (int i = 1; i < n; ++i) {
    const float s = s0 + (s1 - s0) * static_cast<float>(i) / static_cast<float>(n);
    const bool nearKey = std::any_of(keys.begin(), keys.end(), [&](const ProfileKey& k) {
      return std::fabs(k.s - s) < 0.4f * style.spacing;
    });
    if (!nearKey) samples.push_back(s);
  }
  std::sort(samples.begin(), samples.end());

  auto sectionAt = [&](float s) {
    const ProfileKey k = sampleProfile(keys, s);
    Section sec;
    crossFrame(path.tangent(s), style.hint, sec.u, sec.v);
    sec.center = path.at(s) + style.offsetDir * k.offset;
    sec.ru = k.ru;
    sec.rv = k.rv;
    sec.roundness = style.roundness;
    sec.color = k.color;
    return sec;
  };

  std::vector<Section> out;
  const Section first = sectionAt(s0);
  const Section last = sectionAt(s1);
  if (style.capStart > 0.0f)
    appendCap(out, first, -path.tangent(s0), style.capStart, style.capRings, true);
  for (float s : samples) out.push_back(sectionAt(s));
  if (style.capEnd > 0.0f)
    appendCap(out, last, path.tangent(s1), style.capEnd, style.capRings, false);
  return out;
}

Surface ellipsoid(const glm::vec3& center, const glm::vec3& axis, const glm::vec3& hint, float ra,
                  float ru, float rv, int rings, int sides, const glm::vec4& color) {
  Section base;
  base.center = center;
  crossFrame(axis, hint, base.u, base.v);
  base.ru = ru;
  base.rv = rv;
  base.color = color;
  const glm::vec3 a = glm::normalize(axis);
  std::vector<Section> sections;
  // Latitude rings; the two halves are caps of the equator.
  appendCap(sections, base, -a, ra, rings / 2, true);
  sections.push_back(base);
  appendCap(sections, base, a, ra, rings / 2, false);
  return sweep(sections, ringAngles(sides));
}

}  // namespace marrow::demo
