// Building blocks of the demo mesh: swept closed surfaces (tubes with rounded caps), per-vertex
// skin weights, and the builder that gathers parts into one skinned mesh. Internal.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::demo {

// One cross-section of a sweep: a superellipse in the plane (u, v) around `center`, or a single
// pole vertex when both radii are 0. u × v must point along the sweep, which is what makes the
// generated triangles counter-clockwise seen from outside.
struct Section {
  glm::vec3 center{0.0f};
  glm::vec3 u{1.0f, 0.0f, 0.0f};
  glm::vec3 v{0.0f, 1.0f, 0.0f};
  float ru = 0.0f;
  float rv = 0.0f;
  float roundness = 2.0f;  // superellipse exponent: 2 is an ellipse, larger is boxier
  glm::vec4 color{1.0f};
  bool pole() const { return ru == 0.0f && rv == 0.0f; }
};

// A closed surface before it is coloured and weighted: what sweep() produces.
struct Surface {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec4> colors;
  std::vector<int> section;  // per vertex: the section it came from
  std::vector<float> angle;  // per vertex: its angle in the section (0 for poles)
  std::vector<std::uint32_t> indices;
};

// Connects consecutive sections into quads (two triangles each) and poles into fans. The first
// and last sections should be poles for the surface to be closed.
Surface sweep(const std::vector<Section>& sections, const std::vector<float>& angles);

// n angles evenly around the circle, plus `extra` ones (radians) where a colour edge must be
// sharp: each extra angle becomes a pair 0.01 rad apart.
std::vector<float> ringAngles(int n, std::initializer_list<float> extra = {});

// A frame (u, v) perpendicular to `axis` with u × v = axis; u is as close to `hint` as possible.
void crossFrame(const glm::vec3& axis, const glm::vec3& hint, glm::vec3& u, glm::vec3& v);

// Rounded cap sections: `rings` rings shrinking from (ru, rv) at `center` to a pole `length`
// beyond it along `outward`, as a quarter ellipse. Appended in sweep order: when `atStart`,
// from the pole inwards; otherwise from the centre outwards.
void appendCap(std::vector<Section>& out, const Section& base, const glm::vec3& outward,
               float length, int rings, bool atStart);

// Up to four bone influences for one vertex, renormalised to sum to 1.
class Weights {
 public:
  void add(int bone, float weight);
  // Keeps the four heaviest and makes them sum to 1.
  std::vector<formats::Influence> finish() const;

 private:
  std::vector<formats::Influence> items_;
};

float smoothstep(float edge0, float edge1, float x);

// Gathers parts into one skinned mesh; normals are the area-weighted average of the faces
// around each vertex, so they always agree with the winding.
class MeshBuilder {
 public:
  using WeightFn = std::function<Weights(const glm::vec3& position, std::size_t vertex)>;

  void add(const Surface& surface, const WeightFn& weights);
  formats::Mesh finish(std::string name);

 private:
  formats::Mesh mesh_;
};

}  // namespace marrow::demo
