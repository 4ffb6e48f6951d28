#include "formats/model/convert.h"

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

namespace marrow::formats {

glm::mat4 basisChange(const Basis& from, const Basis& to) {
  return glm::inverse(toDisplay(to)) * toDisplay(from);
}

namespace {

struct Change {
  glm::mat3 r;     // the axis permutation with signs (orthogonal, det ±1)
  float s = 1.0f;  // uniform scale
  bool mirror = false;

  glm::vec3 point(const glm::vec3& p) const { return s * (r * p); }
  glm::vec3 dir(const glm::vec3& d) const { return r * d; }
  glm::quat rot(const glm::quat& q) const {
    return glm::normalize(glm::quat_cast(r * glm::mat3_cast(q) * glm::transpose(r)));
  }
  glm::vec3 scale(const glm::vec3& v) const {
    // r is a signed permutation: scales move between axes, signs drop out.
    return glm::abs(glm::mat3(glm::abs(r[0]), glm::abs(r[1]), glm::abs(r[2])) * v);
  }
  glm::mat4 similar(const glm::mat4& m) const {  // C m C^-1 with C = s·r
    glm::mat4 c(r);
    c = glm::mat4(s) * c;
    c[3][3] = 1.0f;
    return c * m * glm::inverse(c);
  }
};

}  // namespace

void convertBasis(Scene& scene, const Basis& target) {
  // Not only faster: the matrix round trip of the rotations below would turn -0 into +0.
  if (scene.basis == target) return;
  const glm::mat4 m = basisChange(scene.basis, target);
  Change c;
  const glm::mat3 m3(m);
  c.s = glm::length(m3[0]);
  c.r = m3 * (1.0f / c.s);
  c.mirror = glm::determinant(c.r) < 0.0f;

  for (auto& mesh : scene.meshes) {
    for (auto& p : mesh.positions) p = c.point(p);
    for (auto& n : mesh.normals) n = c.dir(n);
    for (auto& t : mesh.tangents) {
      t = glm::vec4(c.dir(glm::vec3(t)), c.mirror ? -t.w : t.w);
    }
    for (auto& morph : mesh.morphs) {
      for (auto& q : morph.positions) q = c.point(q);
      for (auto& d : morph.normals) d = c.dir(d);
    }
    for (auto& ib : mesh.inverseBind) ib = c.similar(ib);
    if (c.mirror)
      for (std::size_t i = 0; i + 2 < mesh.indices.size(); i += 3)
        std::swap(mesh.indices[i + 1], mesh.indices[i + 2]);
  }
  for (auto& b : scene.skeleton.bones) {
    b.translation = c.point(b.translation);
    b.rotation = c.rot(b.rotation);
    b.scale = c.scale(b.scale);
  }
  for (auto& ib : scene.skeleton.inverseBind) ib = c.similar(ib);
  for (auto& clip : scene.clips)
    for (auto& t : clip.tracks) {
      for (auto& v : t.translation.values) v = c.point(v);
      for (auto& q : t.rotation.values) q = c.rot(q);
      for (auto& v : t.scale.values) v = c.scale(v);
    }
  scene.basis = target;
}

}  // namespace marrow::formats
