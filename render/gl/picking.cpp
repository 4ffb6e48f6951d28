#include "render/gl/picking.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <limits>

#include "render/gl/camera.h"

namespace marrow::render {

Ray rayThroughPixel(const Camera& camera, int width, int height, float x, float y) {
  const int w = std::max(width, 1), h = std::max(height, 1);
  const glm::mat4 inverse = glm::inverse(
      camera.projection(static_cast<float>(w) / static_cast<float>(h)) * camera.view());
  const float nx = 2.0f * x / static_cast<float>(w) - 1.0f;
  const float ny = 1.0f - 2.0f * y / static_cast<float>(h);
  glm::vec4 nearPoint = inverse * glm::vec4(nx, ny, -1.0f, 1.0f);
  glm::vec4 farPoint = inverse * glm::vec4(nx, ny, 1.0f, 1.0f);
  nearPoint /= nearPoint.w;
  farPoint /= farPoint.w;
  return {glm::vec3(nearPoint), glm::vec3(farPoint - nearPoint)};
}

ScreenPoint projectToPixel(const glm::mat4& viewProjection, int width, int height,
                           const glm::vec3& p) {
  const glm::vec4 clip = viewProjection * glm::vec4(p, 1.0f);
  ScreenPoint s;
  s.inFront = clip.w > 0.0f;
  if (!s.inFront) return s;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  s.pixel = {(ndc.x + 1.0f) * 0.5f * static_cast<float>(width),
             (1.0f - ndc.y) * 0.5f * static_cast<float>(height)};
  return s;
}

std::optional<TriangleHit> intersectTriangle(const Ray& ray, const glm::vec3& a, const glm::vec3& b,
                                             const glm::vec3& c) {
  const glm::vec3 e1 = b - a, e2 = c - a;
  const glm::vec3 p = glm::cross(ray.direction, e2);
  const float det = glm::dot(e1, p);
  // Scale-free test of a degenerate (or edge-on) triangle.
  if (!(std::abs(det) > 1e-12f * glm::length(e1) * glm::length(e2) * glm::length(ray.direction)))
    return std::nullopt;
  const float inv = 1.0f / det;
  const glm::vec3 s = ray.origin - a;
  const float u = glm::dot(s, p) * inv;
  if (u < 0.0f || u > 1.0f) return std::nullopt;
  const glm::vec3 q = glm::cross(s, e1);
  const float v = glm::dot(ray.direction, q) * inv;
  if (v < 0.0f || u + v > 1.0f) return std::nullopt;
  const float t = glm::dot(e2, q) * inv;
  if (!(t > 0.0f) || !std::isfinite(t)) return std::nullopt;
  return TriangleHit{t, u, v};
}

std::optional<MeshHit> intersectMesh(const Ray& ray, std::span<const glm::vec3> positions,
                                     std::span<const std::uint32_t> indices) {
  std::optional<MeshHit> best;
  const std::size_t n = positions.size();
  for (std::size_t i = 0; i + 2 < indices.size(); i += 3) {
    const std::uint32_t a = indices[i], b = indices[i + 1], c = indices[i + 2];
    if (a >= n || b >= n || c >= n) continue;
    const auto hit = intersectTriangle(ray, positions[a], positions[b], positions[c]);
    if (hit && (!best || hit->t < best->hit.t)) best = MeshHit{i / 3, *hit};
  }
  return best;
}

float distanceToSegment(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b) {
  const glm::vec2 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

}  // namespace marrow::render
