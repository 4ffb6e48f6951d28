// The weight inspection views: a bone's weights as a colour ramp (drawn by the mesh shader; the
// ramp is mirrored here for legends and tests) and the vertices coloured by how many bones
// influence them, with the ones whose stored weights are suspect flagged.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "formats/model/glm.h"
#include "formats/model/scene.h"

namespace marrow::render {

// Weight 0 → 1 as blue, cyan, green, yellow, red (shaders/mesh.frag: weightRamp).
glm::vec3 weightColor(float weight);

// Influence classes of the influence view, in legend order.
enum class InfluenceClass { None, One, Two, Three, Four, MoreThanFour, kCount };
inline constexpr std::size_t kInfluenceClasses = static_cast<std::size_t>(InfluenceClass::kCount);

glm::vec3 influenceClassColor(InfluenceClass c);
const char* influenceClassName(InfluenceClass c);  // "1 bone", "more than 4", …
// Vertices whose stored weights do not sum to 1 are drawn in this colour whatever their class.
glm::vec3 unnormalisedColor();

// A stored weight sum further than this from 1 is flagged (float files often store 0.9999999).
inline constexpr float kWeightSumTolerance = 1e-3f;

// What the influence view shows for one mesh, from the weights as the file stores them (before
// the normalisation render/anim applies for skinning): per vertex its distinct bones of
// positive weight and whether those weights sum to 1.
struct InfluenceView {
  std::vector<glm::vec4> colors;                        // one per vertex, for the colour attribute
  std::vector<std::uint32_t> overFour;                  // vertices of more than 4 bones
  std::vector<std::uint32_t> unnormalised;              // vertices whose weights do not sum to 1
  std::array<std::size_t, kInfluenceClasses> counts{};  // vertices per class
};

// A rigid mesh (Mesh::parentBone) counts as one bone of weight 1 everywhere; a mesh without
// influences as none.
InfluenceView influenceView(const formats::Mesh& mesh);

// The bone with the largest stored weight at a vertex (the first of equal ones), the rigid
// parent of a rigid mesh, or -1.
int dominantBone(const formats::Mesh& mesh, std::size_t vertex);

}  // namespace marrow::render
