// Changing a scene's coordinate basis: the one conversion renderers and exporters share.
#pragma once

#include "formats/model/scene.h"

namespace marrow::formats {

// Re-expresses every position, normal, tangent, bone, inverse bind matrix, key, collision body and
// attachment point of `scene` in
// `target` (only axis changes and uniform scale are involved, so rotations stay rotations).
// When the change mirrors (left ↔ right-handed), triangle winding is flipped so front faces stay
// in front. `scene.basis` becomes `target`.
void convertBasis(Scene& scene, const Basis& target);

// For formats with one rigid bind pose per skeleton (OMF, cal3d; call removeBoneScale first):
// makes every mesh use the skeleton's inverse binds, and those rigid (rotation and translation).
// The binds all bound meshes share (or else the skeleton's) become the reference, made rigid;
// each mesh whose binds differ is re-posed into it, its vertices moved by the weighted bind
// difference — exact when that difference is the same for every bone of a vertex, as when a
// mesh was bound under a scaled or moved node; a diagnostic says when it was not.
void unifyBindPoses(Scene& scene, Diagnostics& diagnostics);

// For formats whose bind pose is the skeleton's rest pose (BRF; call unifyBindPoses first):
// re-poses every bound mesh from the skeleton's bind pose into its rest pose and drops the
// stored binds. Returns the largest disagreement between the bones of one vertex (0 when exact:
// when the binds differ from the rest pose by one transform for all of a vertex's bones).
float bindAtRest(Scene& scene);

// For formats whose bones have no scale (OMF, cal3d): folds each bone's accumulated rest scale
// into its children's translations (rest and keys) and into the inverse binds, which leaves every
// skinned vertex where it was. Exact for uniform scale that does not animate; non-uniform or
// animated scale is approximated by its uniform rest value, with a diagnostic.
void removeBoneScale(Scene& scene, Diagnostics& diagnostics);

// The matrix that takes a native model-space point of `from` to `to`.
glm::mat4 basisChange(const Basis& from, const Basis& to);

}  // namespace marrow::formats
