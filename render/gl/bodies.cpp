#include "render/gl/bodies.h"

#include <cmath>
#include <numbers>

namespace marrow::render {
namespace {

using Kind = formats::BodyPart::Kind;

constexpr int kSegments = 24;  // around the axis
constexpr int kHalfRings = 8;  // from a pole to the equator
constexpr float kSurfaceAlpha = 0.3f;
constexpr float kOutlineAlpha = 0.75f;

// Shading baked into the colour: a fixed light in display space, so that the round shapes read
// as round without a lit shader; the two sides of a face shade alike.
glm::vec4 shade(const glm::vec4& color, const glm::vec3& normal) {
  static const glm::vec3 kLight = glm::normalize(glm::vec3(0.4f, 0.8f, 0.45f));
  const float len = glm::length(normal);
  const float lambert = len > 0.0f ? std::fabs(glm::dot(normal / len, kLight)) : 1.0f;
  return {glm::vec3(color) * (0.6f + 0.4f * lambert), color.a};
}

class Builder {
 public:
  Builder(BodyGeometry& out, const glm::mat4& display)
      : out_(out),
        display_(display),
        normalMatrix_(glm::transpose(glm::inverse(glm::mat3(display)))) {}

  glm::vec3 map(const glm::vec3& p) const { return glm::vec3(display_ * glm::vec4(p, 1.0f)); }

  void triangle(const glm::vec3& p0, const glm::vec3& p1, const glm::vec3& p2, const glm::vec3& n0,
                const glm::vec3& n1, const glm::vec3& n2, const glm::vec4& color) {
    out_.triangles.push_back({map(p0), shade(color, normalMatrix_ * n0)});
    out_.triangles.push_back({map(p1), shade(color, normalMatrix_ * n1)});
    out_.triangles.push_back({map(p2), shade(color, normalMatrix_ * n2)});
  }

  void line(const glm::vec3& p0, const glm::vec3& p1, const glm::vec4& color) {
    const glm::vec4 c(glm::vec3(color), kOutlineAlpha);
    out_.lines.push_back({map(p0), c});
    out_.lines.push_back({map(p1), c});
  }

  // A polygon as a fan from its first corner, flat shaded, with its edges outlined.
  void polygon(std::span<const glm::vec3> corners, const glm::vec4& color) {
    if (corners.size() < 3) return;
    glm::vec3 normal(0.0f);  // Newell's method: robust for any planar polygon
    for (std::size_t i = 0; i < corners.size(); ++i) {
      const glm::vec3& p = corners[i];
      const glm::vec3& q = corners[(i + 1) % corners.size()];
      normal += glm::vec3((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x),
                          (p.x - q.x) * (p.y + q.y));
    }
    for (std::size_t i = 1; i + 1 < corners.size(); ++i)
      triangle(corners[0], corners[i], corners[i + 1], normal, normal, normal, color);
    for (std::size_t i = 0; i < corners.size(); ++i)
      line(corners[i], corners[(i + 1) % corners.size()], color);
  }

  // A capsule around the segment a→b (a sphere when a == b): rings of latitude from the pole
  // below a to the equator at a, then from the equator at b to the pole above b; the band
  // between the two equators is the cylinder.
  void capsule(const glm::vec3& a, const glm::vec3& b, float radius, const glm::vec4& color) {
    const glm::vec3 axis = b - a;
    const float length = glm::length(axis);
    const glm::vec3 w =
        length > 1e-6f * std::max(radius, 1e-6f) ? axis / length : glm::vec3(0, 0, 1);
    const glm::vec3 helper = std::fabs(w.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    const glm::vec3 u = glm::normalize(glm::cross(w, helper));
    const glm::vec3 v = glm::cross(w, u);

    constexpr int kRings = 2 * (kHalfRings + 1);
    auto normalAt = [&](int ring, int segment) {
      const int lat = ring <= kHalfRings ? ring - kHalfRings : ring - kHalfRings - 1;
      const float phi = static_cast<float>(lat) * std::numbers::pi_v<float> * 0.5f / kHalfRings;
      const float theta =
          static_cast<float>(segment) * 2.0f * std::numbers::pi_v<float> / kSegments;
      return std::cos(phi) * (std::cos(theta) * u + std::sin(theta) * v) + std::sin(phi) * w;
    };
    auto pointAt = [&](int ring, int segment) {
      return (ring <= kHalfRings ? a : b) + radius * normalAt(ring, segment);
    };
    for (int r = 0; r + 1 < kRings; ++r)
      for (int s = 0; s < kSegments; ++s) {
        const int s1 = (s + 1) % kSegments;
        const glm::vec3 p00 = pointAt(r, s), p01 = pointAt(r, s1);
        const glm::vec3 p10 = pointAt(r + 1, s), p11 = pointAt(r + 1, s1);
        const glm::vec3 n00 = normalAt(r, s), n01 = normalAt(r, s1);
        const glm::vec3 n10 = normalAt(r + 1, s), n11 = normalAt(r + 1, s1);
        triangle(p00, p01, p11, n00, n01, n11, color);
        triangle(p00, p11, p10, n00, n11, n10, color);
      }
    // Outline: the equators at both ends and four meridians over the whole profile.
    for (int s = 0; s < kSegments; ++s) {
      const int s1 = (s + 1) % kSegments;
      line(pointAt(kHalfRings, s), pointAt(kHalfRings, s1), color);
      if (length > 0.0f) line(pointAt(kHalfRings + 1, s), pointAt(kHalfRings + 1, s1), color);
    }
    for (int s = 0; s < kSegments; s += kSegments / 4)
      for (int r = 0; r + 1 < kRings; ++r) line(pointAt(r, s), pointAt(r + 1, s), color);
  }

 private:
  BodyGeometry& out_;
  glm::mat4 display_;
  glm::mat3 normalMatrix_;
};

}  // namespace

glm::vec4 bodyColor(Kind kind) {
  switch (kind) {
    case Kind::Sphere:
    case Kind::Capsule: return {0.15f, 0.85f, 0.75f, kSurfaceAlpha};
    case Kind::Manifold:
    case Kind::Face: break;
  }
  return {1.0f, 0.55f, 0.1f, kSurfaceAlpha};
}

BodyGeometry tessellateBodies(std::span<const formats::Body> bodies, const glm::mat4& display) {
  BodyGeometry out;
  Builder builder(out, display);
  std::vector<glm::vec3> corners;
  for (const auto& body : bodies)
    for (const auto& part : body.parts) {
      const glm::vec4 color = bodyColor(part.kind);
      switch (part.kind) {
        case Kind::Sphere: builder.capsule(part.a, part.a, part.radius, color); break;
        case Kind::Capsule: builder.capsule(part.a, part.b, part.radius, color); break;
        case Kind::Face: builder.polygon(part.positions, color); break;
        case Kind::Manifold:
          for (const auto& polygon : part.polygons) {
            corners.clear();
            for (std::uint32_t i : polygon)
              if (i < part.positions.size()) corners.push_back(part.positions[i]);
            if (corners.size() == polygon.size()) builder.polygon(corners, color);
          }
          break;
      }
    }
  return out;
}

}  // namespace marrow::render
