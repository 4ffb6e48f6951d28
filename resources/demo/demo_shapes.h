// Shapes the demo mesh is made of, on top of sweep(): tubes along polylines with a radius
// profile, and ellipsoids. Internal.
#pragma once

#include <vector>

#include "resources/demo/demo_surface.h"

namespace marrow::demo {

// A profile key at arc length `s`: the cross-section radii there, a sideways offset of the
// centre (used by the torso for its z), and the colour from here to the next key. Two keys a few
// millimetres apart make a sharp colour edge or a step in radius (a sleeve hem, a belt).
struct ProfileKey {
  float s = 0.0f;
  float ru = 0.0f;
  float rv = 0.0f;
  glm::vec4 color{1.0f};
  float offset = 0.0f;
};

// Radii and offset interpolated smoothly between keys (linearly across steps), colour held.
ProfileKey sampleProfile(const std::vector<ProfileKey>& keys, float s);

// Arc-length parametrised polyline; tangents turn smoothly near the inner points so that the
// rings of a tube do not cross there.
class Polyline {
 public:
  explicit Polyline(std::vector<glm::vec3> points);
  glm::vec3 at(float s) const;
  glm::vec3 tangent(float s) const;
  float length() const { return cumulative_.back(); }

 private:
  std::vector<glm::vec3> points_;
  std::vector<float> cumulative_;
};

struct TubeStyle {
  float spacing = 0.02f;             // distance between rings along the tube
  glm::vec3 hint{1.0f, 0.0f, 0.0f};  // direction of each section's u axis (made perpendicular)
  float roundness = 2.0f;
  float capStart = 0.0f;  // length of the rounded cap before the first key (0: flat-ish)
  float capEnd = 0.0f;
  int capRings = 4;
  glm::vec3 offsetDir{0.0f};  // direction in which ProfileKey::offset moves the centre
};

// A closed tube along `path` from its first key to its last, with rounded caps.
std::vector<Section> tubeSections(const Polyline& path, const std::vector<ProfileKey>& keys,
                                  const TubeStyle& style);

// A closed ellipsoid: radius `ra` along `axis`, `ru` along `hint` (made perpendicular), `rv`
// along the third axis.
Surface ellipsoid(const glm::vec3& center, const glm::vec3& axis, const glm::vec3& hint, float ra,
                  float ru, float rv, int rings, int sides, const glm::vec4& color);

}  // namespace marrow::demo
