// Collision bodies (Scene::bodies) as the renderer draws them: translucent triangles and an
// outline, tessellated once on the CPU in display space (bodies are static, never skinned).
#pragma once

#include <span>
#include <vector>

#include "formats/model/glm.h"
#include "formats/model/scene.h"

namespace marrow::render {

struct ColoredVertex {
  glm::vec3 position;
  glm::vec4 color;
};

struct BodyGeometry {
  std::vector<ColoredVertex> triangles;  // GL_TRIANGLES, translucent
  std::vector<ColoredVertex> lines;      // GL_LINES: polygon edges, capsule and sphere rings

  bool empty() const { return triangles.empty(); }
};

// The colour of a part's surface: spheres and capsules blue-green, manifolds and faces orange.
glm::vec4 bodyColor(formats::BodyPart::Kind kind);

// Spheres and capsules become UV spheres (a capsule: a cylinder from a to b capped by two
// hemispheres), faces a triangle fan of their polygon, manifolds a fan per polygon. Positions
// are mapped by `display` (formats::toDisplay of the scene's basis). Indices out of range and
// polygons of fewer than three corners are skipped.
BodyGeometry tessellateBodies(std::span<const formats::Body> bodies, const glm::mat4& display);

}  // namespace marrow::render
