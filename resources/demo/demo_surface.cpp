#include "resources/demo/demo_surface.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>

namespace marrow::demo {
namespace {

float signedPow(float x, float p) {
  return std::copysign(std::pow(std::fabs(x), p), x);
}

}  // namespace

Surface sweep(const std::vector<Section>& sections, const std::vector<float>& angles) {
  Surface s;
  const auto n = static_cast<std::uint32_t>(angles.size());
  std::vector<std::uint32_t> first(sections.size());
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const Section& sec = sections[i];
    first[i] = static_cast<std::uint32_t>(s.positions.size());
    if (sec.pole()) {
      s.positions.push_back(sec.center);
      s.colors.push_back(sec.color);
      s.section.push_back(static_cast<int>(i));
      s.angle.push_back(0.0f);
      continue;
    }
    const float p = 2.0f / sec.roundness;
    for (float a : angles) {
      s.positions.push_back(sec.center + sec.u * (sec.ru * signedPow(std::cos(a), p)) +
                            sec.v * (sec.rv * signedPow(std::sin(a), p)));
      s.colors.push_back(sec.color);
      s.section.push_back(static_cast<int>(i));
      s.angle.push_back(a);
    }
  }
  auto tri = [&s](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    s.indices.insert(s.indices.end(), {a, b, c});
  };
  for (std::size_t i = 0; i + 1 < sections.size(); ++i) {
    const bool poleA = sections[i].pole();
    const bool poleB = sections[i + 1].pole();
    const std::uint32_t a0 = first[i];
    const std::uint32_t b0 = first[i + 1];
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t k1 = (k + 1) % n;
      if (poleA && poleB) break;
      if (poleA) {
        tri(a0, b0 + k1, b0 + k);
      } else if (poleB) {
        tri(a0 + k, a0 + k1, b0);
      } else {
        tri(a0 + k, a0 + k1, b0 + k1);
        tri(a0 + k, b0 + k1, b0 + k);
      }
    }
  }
  return s;
}

std::vector<float> ringAngles(int n, std::initializer_list<float> extra) {
  constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;
  constexpr float kHalfGap = 0.005f;
  std::vector<float> a;
  for (int i = 0; i < n; ++i) a.push_back(kTwoPi * static_cast<float>(i) / static_cast<float>(n));
  for (float e : extra) {
    const float w = std::fmod(std::fmod(e, kTwoPi) + kTwoPi, kTwoPi);
    // A regular angle too close to the pair would make a sliver; the pair replaces it.
    std::erase_if(a, [w](float x) {
      const float d = std::fabs(x - w);
      return std::min(d, kTwoPi - d) < 0.04f;
    });
    a.push_back(w - kHalfGap < 0.0f ? w - kHalfGap + kTwoPi : w - kHalfGap);
    a.push_back(w + kHalfGap);
  }
  std::sort(a.begin(), a.end());
  return a;
}

void crossFrame(const glm::vec3& axis, const glm::vec3& hint, glm::vec3& u, glm::vec3& v) {
  const glm::vec3 t = glm::normalize(axis);
  u = glm::normalize(hint - t * glm::dot(hint, t));
  v = glm::cross(t, u);
}

void appendCap(std::vector<Section>& out, const Section& base, const glm::vec3& outward,
               float length, int rings, bool atStart) {
  std::vector<Section> cap;
  for (int i = 1; i <= rings; ++i) {
    const float phi =
        0.5f * std::numbers::pi_v<float> * static_cast<float>(i) / static_cast<float>(rings + 1);
    Section s = base;
    s.center = base.center + outward * (length * std::sin(phi));
    s.ru = base.ru * std::cos(phi);
    s.rv = base.rv * std::cos(phi);
    cap.push_back(s);
  }
  Section pole = base;
  pole.center = base.center + outward * length;
  pole.ru = pole.rv = 0.0f;
  cap.push_back(pole);
  if (atStart) std::reverse(cap.begin(), cap.end());
  out.insert(out.end(), cap.begin(), cap.end());
}

void Weights::add(int bone, float weight) {
  if (!(weight > 0.0f)) return;
  for (auto& i : items_)
    if (i.bone == static_cast<std::uint32_t>(bone)) {
      i.weight += weight;
      return;
    }
  items_.push_back({static_cast<std::uint32_t>(bone), weight});
}

std::vector<formats::Influence> Weights::finish() const {
  std::vector<formats::Influence> w = items_;
  std::stable_sort(w.begin(), w.end(),
                   [](const auto& a, const auto& b) { return a.weight > b.weight; });
  if (w.size() > 4) w.resize(4);
  // Drop influences too small to matter: they only cost bandwidth in every skinning pass.
  std::erase_if(w, [](const auto& i) { return i.weight < 0.01f; });
  float total = 0.0f;
  for (const auto& i : w) total += i.weight;
  for (auto& i : w) i.weight /= total;
  return w;
}

float smoothstep(float edge0, float edge1, float x) {
  const float t = std::clamp((x - edge0) / (edge1 - edge0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

void MeshBuilder::add(const Surface& surface, const WeightFn& weights) {
  const auto base = static_cast<std::uint32_t>(mesh_.positions.size());
  for (std::size_t v = 0; v < surface.positions.size(); ++v) {
    mesh_.positions.push_back(surface.positions[v]);
    mesh_.colors.push_back(surface.colors[v]);
    const auto w = weights(surface.positions[v], v).finish();
    mesh_.addInfluences(w);
  }
  for (std::uint32_t i : surface.indices) mesh_.indices.push_back(base + i);
}

formats::Mesh MeshBuilder::finish(std::string name) {
  formats::Mesh m = std::move(mesh_);
  mesh_ = {};
  m.name = std::move(name);
  m.normals.assign(m.positions.size(), glm::vec3(0.0f));
  for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const std::uint32_t a = m.indices[t], b = m.indices[t + 1], c = m.indices[t + 2];
    // Unnormalised: its length is twice the triangle's area, the weight we want.
    const glm::vec3 n =
        glm::cross(m.positions[b] - m.positions[a], m.positions[c] - m.positions[a]);
    m.normals[a] += n;
    m.normals[b] += n;
    m.normals[c] += n;
  }
  for (auto& n : m.normals) {
    const float len = glm::length(n);
    n = len > 0.0f ? n / len : glm::vec3(0.0f, 1.0f, 0.0f);
  }
  return m;
}

}  // namespace marrow::demo
