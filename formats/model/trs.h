// A matrix as translation × rotation × scale, for formats that store node matrices (assimp's
// aiNode, glTF's `matrix`) while the model keeps bones as T·R·S.
#pragma once

#include "formats/model/glm.h"

namespace marrow::formats {

struct Trs {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
  float error = 0.0f;  // largest difference between T*R*S and the matrix, relative to its scale
};

// T * R * S from an affine matrix. A mirror goes into a negative x scale; shear and projection
// have no TRS form: the nearest rotation is kept and `error` says how far off the result is.
Trs decompose(const glm::mat4& m);

}  // namespace marrow::formats
