// Changing a scene's coordinate basis: the one conversion renderers and exporters share.
#pragma once

#include "formats/model/scene.h"

namespace marrow::formats {

// Re-expresses every position, normal, tangent, bone, inverse bind matrix and key of `scene` in
// `target` (only axis changes and uniform scale are involved, so rotations stay rotations).
// When the change mirrors (left ↔ right-handed), triangle winding is flipped so front faces stay
// in front. `scene.basis` becomes `target`.
void convertBasis(Scene& scene, const Basis& target);

// The matrix that takes a native model-space point of `from` to `to`.
glm::mat4 basisChange(const Basis& from, const Basis& to);

}  // namespace marrow::formats
