#include "formats/model/trs.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

namespace marrow::formats {

Trs decompose(const glm::mat4& m) {
  Trs out;
  out.translation = glm::vec3(m[3]);
  glm::vec3 axis[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
  for (int i = 0; i < 3; ++i) out.scale[i] = glm::length(axis[i]);
  if (glm::dot(glm::cross(axis[0], axis[1]), axis[2]) < 0.0f) out.scale.x = -out.scale.x;

  constexpr float kTiny = 1e-12f;
  const bool ok0 = std::fabs(out.scale.x) > kTiny, ok1 = std::fabs(out.scale.y) > kTiny,
             ok2 = std::fabs(out.scale.z) > kTiny;
  if (ok0 && ok1 && ok2) {
    // Gram-Schmidt from the x axis: exact for rotation × scale, the nearest rotation otherwise.
    glm::vec3 x = axis[0] / out.scale.x;
    glm::vec3 y = axis[1] - glm::dot(axis[1], x) * x;
    const float ly = glm::length(y);
    y = ly > kTiny ? y / ly : glm::vec3(0.0f);
    glm::vec3 z = glm::cross(x, y);
    if (ly > kTiny) out.rotation = glm::normalize(glm::quat_cast(glm::mat3(x, y, z)));
  }
  // A zero scale (a collapsed axis) keeps the identity rotation; the error check reports it if
  // the matrix had a rotation too.

  glm::mat4 back = glm::mat4_cast(out.rotation);
  back[0] *= out.scale.x;
  back[1] *= out.scale.y;
  back[2] *= out.scale.z;
  float diff = 0.0f, size = 0.0f;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 4; ++r) {
      diff = std::max(diff, std::fabs(back[c][r] - m[c][r]));
      size = std::max(size, std::fabs(m[c][r]));
    }
  for (int r = 0; r < 3; ++r) diff = std::max(diff, std::fabs(m[r][3]));  // projective row
  diff = std::max(diff, std::fabs(m[3][3] - 1.0f));
  out.error = diff / std::max(size, 1e-6f);
  return out;
}

}  // namespace marrow::formats
