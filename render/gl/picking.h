// Picking on the CPU: a ray through a pixel against skinned triangles, and the skeleton's joints
// and segments in screen space. No GL: the renderer hands in what it draws.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "formats/model/glm.h"

namespace marrow::render {

class Camera;

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // not necessarily unit length
};

// The ray from the eye through pixel (x, y) of a width × height view (y down, pixel centres at
// +0.5), in display space.
Ray rayThroughPixel(const Camera& camera, int width, int height, float x, float y);

// Where `p` (display space) lands in a width × height view: pixel coordinates (y down) and
// whether it is in front of the camera.
struct ScreenPoint {
  glm::vec2 pixel{0.0f};
  bool inFront = false;
};
ScreenPoint projectToPixel(const glm::mat4& viewProjection, int width, int height,
                           const glm::vec3& p);

// Möller–Trumbore, both faces: the ray parameter t (> 0) of the hit, and its barycentrics.
struct TriangleHit {
  float t = 0.0f;
  float u = 0.0f, v = 0.0f;  // the hit is (1-u-v)·a + u·b + v·c
};
std::optional<TriangleHit> intersectTriangle(const Ray& ray, const glm::vec3& a, const glm::vec3& b,
                                             const glm::vec3& c);

// The nearest hit of the ray with the triangles `indices` makes of `positions` (indices out of
// range are skipped): the triangle's first index position in `indices` and the hit. O(triangles).
struct MeshHit {
  std::size_t triangle = 0;  // index into `indices` of the triangle's first corner / 3
  TriangleHit hit;
};
std::optional<MeshHit> intersectMesh(const Ray& ray, std::span<const glm::vec3> positions,
                                     std::span<const std::uint32_t> indices);

// Distance from point p to the segment a–b (2D).
float distanceToSegment(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b);

}  // namespace marrow::render
