#include "formats/model/convert.h"

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace marrow::formats {

namespace {

bool nearMatrix(const glm::mat4& a, const glm::mat4& b, float tolerance) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (std::fabs(a[c][r] - b[c][r]) > tolerance * (1.0f + std::fabs(b[c][r]))) return false;
  return true;
}

bool sameBinds(const std::vector<glm::mat4>& a, const std::vector<glm::mat4>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!nearMatrix(a[i], b[i], 1e-6f)) return false;
  return true;
}

// Moves a mesh from its own bind pose into `reference`: v' = Σ w_b · (reference_b⁻¹ · own_b) · v.
// Returns the largest disagreement between the bones of one vertex (0 when exact).
float rebind(Mesh& m, const std::vector<glm::mat4>& reference) {
  std::vector<glm::mat4> delta(m.inverseBind.size());
  for (std::size_t b = 0; b < delta.size(); ++b) delta[b] = glm::inverse(reference[b]) * m.inverseBind[b];
  float worst = 0.0f;
  auto blended = [&](std::size_t v) {
    if (m.parentBone >= 0) return delta[static_cast<std::size_t>(m.parentBone)];
    glm::mat4 sum(0.0f);
    float total = 0.0f;
    for (const Influence& i : m.influencesOf(v))
      if (i.weight > 0.0f && i.bone < delta.size()) {
        sum += delta[i.bone] * i.weight;
        total += i.weight;
      }
    if (total <= 0.0f) return glm::mat4(1.0f);
    sum *= 1.0f / total;
    for (const Influence& i : m.influencesOf(v))
      if (i.weight > 0.0f && i.bone < delta.size())
        worst = std::max(worst, glm::length(glm::vec3(delta[i.bone] * glm::vec4(m.positions[v], 1.0f)) -
                                            glm::vec3(sum * glm::vec4(m.positions[v], 1.0f))));
    return sum;
  };
  std::vector<glm::mat4> perVertex(m.vertexCount());
  for (std::size_t v = 0; v < m.vertexCount(); ++v) perVertex[v] = blended(v);
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    m.positions[v] = glm::vec3(perVertex[v] * glm::vec4(m.positions[v], 1.0f));
    if (v < m.normals.size()) {
      const glm::vec3 n = glm::mat3(perVertex[v]) * m.normals[v];
      const float len = glm::length(n);
      m.normals[v] = len > 0.0f ? n / len : n;
    }
    if (v < m.tangents.size())
      m.tangents[v] = glm::vec4(glm::normalize(glm::mat3(perVertex[v]) * glm::vec3(m.tangents[v])),
                                m.tangents[v].w);
  }
  for (MorphTarget& t : m.morphs)
    for (std::size_t i = 0; i < t.positions.size(); ++i) {
      const std::size_t v = t.vertexAt(i);
      if (v >= perVertex.size()) continue;
      t.positions[i] = glm::vec3(perVertex[v] * glm::vec4(t.positions[i], 1.0f));
      if (i < t.normals.size()) t.normals[i] = glm::normalize(glm::mat3(perVertex[v]) * t.normals[i]);
    }
  m.inverseBind.clear();
  return worst;
}

// A bind made rigid by taking scale out on the mesh side: InverseBind = [A | c] with
// A = R_boneᵀ · s·R_mesh becomes [A / s | c], so that the scale s (common to every bone when the
// mesh was bound under a scaled node) moves into the vertices (see rebind).
glm::mat4 rigidInverseBind(const glm::mat4& inverseBind) {
  glm::mat3 a(inverseBind);
  const float s = std::cbrt(std::fabs(glm::determinant(a)));
  if (!(s > 0.0f) || !std::isfinite(s)) return inverseBind;
  a *= 1.0f / s;
  a[0] = glm::normalize(a[0]);
  a[1] = glm::normalize(a[1] - glm::dot(a[1], a[0]) * a[0]);
  a[2] = glm::cross(a[0], a[1]);
  glm::mat4 rigid(a);
  rigid[3] = inverseBind[3];
  return rigid;
}

}  // namespace

void unifyBindPoses(Scene& scene, Diagnostics& diagnostics) {
  const std::size_t bones = scene.skeleton.bones.size();
  if (bones == 0) {
    for (Mesh& m : scene.meshes) m.inverseBind.clear();
    return;
  }
  bool anyOwn = false;
  for (const Mesh& m : scene.meshes) anyOwn = anyOwn || !m.inverseBind.empty();
  bool rigid = true;
  for (const glm::mat4& ib : scene.skeleton.inverseBind)
    rigid = rigid && nearMatrix(rigidInverseBind(ib), ib, 1e-6f);
  if (!anyOwn && rigid) return;  // nothing to do: keep the values bit for bit
  const std::vector<glm::mat4> skeletonBinds = scene.skeleton.inverseBindMatrices();
  auto bindsOf = [&](const Mesh& m) -> const std::vector<glm::mat4>& {
    return m.inverseBind.size() == bones ? m.inverseBind : skeletonBinds;
  };
  // The shared binds when every bound mesh has the same, else the skeleton's; made rigid, since
  // these formats store a bind pose as rotation and translation.
  const std::vector<glm::mat4>* shared = nullptr;
  bool allSame = true;
  for (const Mesh& m : scene.meshes) {
    if (!(m.skinned() || m.parentBone >= 0)) continue;
    if (!shared) shared = &bindsOf(m);
    allSame = allSame && sameBinds(bindsOf(m), *shared);
  }
  std::vector<glm::mat4> reference = allSame && shared ? *shared : skeletonBinds;
  for (glm::mat4& ib : reference) ib = rigidInverseBind(ib);

  float worst = 0.0f;
  std::size_t moved = 0;
  for (Mesh& m : scene.meshes) {
    if (!(m.skinned() || m.parentBone >= 0)) {
      m.inverseBind.clear();
      continue;
    }
    if (m.inverseBind.size() != bones) m.inverseBind = skeletonBinds;
    if (sameBinds(m.inverseBind, reference)) {
      m.inverseBind.clear();
      continue;
    }
    worst = std::max(worst, rebind(m, reference));
    ++moved;
  }
  scene.skeleton.inverseBind = std::move(reference);
  if (moved && worst > 1e-4f)
    diagnostics.warn("", "bind pose", kNoOffset,
                     std::to_string(moved) + " mesh(es) were re-posed into one rigid bind pose "
                     "approximately (up to " + std::to_string(worst) + " units apart at a joint)");
}

float bindAtRest(Scene& scene) {
  if (scene.skeleton.empty()) return 0.0f;
  const std::vector<glm::mat4> binds = scene.skeleton.inverseBindMatrices();
  std::vector<glm::mat4> rest = scene.skeleton.restModelMatrices();
  for (glm::mat4& m : rest) m = glm::inverse(m);
  float worst = 0.0f;
  if (!sameBinds(binds, rest))
    for (Mesh& m : scene.meshes) {
      if (!(m.skinned() || m.parentBone >= 0)) continue;
      if (m.inverseBind.size() != binds.size()) m.inverseBind = binds;
      worst = std::max(worst, rebind(m, rest));
    }
  scene.skeleton.inverseBind.clear();  // derived from the rest pose
  scene.skeleton.inverseBindParts.clear();
  return worst;
}

void removeBoneScale(Scene& scene, Diagnostics& diagnostics) {
  auto& bones = scene.skeleton.bones;
  if (bones.empty()) return;
  bool scaled = false, nonUniform = false;
  for (const Bone& b : bones) {
    scaled = scaled || b.scale != glm::vec3(1.0f);
    nonUniform = nonUniform || !(std::fabs(b.scale.x - b.scale.y) <= 1e-5f * std::fabs(b.scale.x) &&
                                 std::fabs(b.scale.x - b.scale.z) <= 1e-5f * std::fabs(b.scale.x));
  }
  bool animated = false;
  for (const Clip& c : scene.clips)
    for (const Track& t : c.tracks) {
      const int b = scene.skeleton.find(t.bone);
      for (const glm::vec3& v : t.scale.values) {
        const glm::vec3 rest = b < 0 ? glm::vec3(1.0f) : bones[static_cast<std::size_t>(b)].scale;
        animated = animated || glm::length(v - rest) > 1e-5f * (1.0f + glm::length(rest));
      }
    }
  if (!scaled && !animated) {
    for (Clip& c : scene.clips)
      for (Track& t : c.tracks) t.scale = {};
    return;
  }
  // The accumulated uniform scale of each bone's frame at rest; a child's translation is in its
  // parent's scaled frame, so it grows by the parent's accumulated scale.
  std::vector<float> accumulated(bones.size(), 1.0f);
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const glm::vec3 s = glm::abs(bones[i].scale);
    const float uniform = std::cbrt(s.x * s.y * s.z);
    const int p = bones[i].parent;
    accumulated[i] = (p >= 0 ? accumulated[static_cast<std::size_t>(p)] : 1.0f) *
                     (uniform > 0.0f ? uniform : 1.0f);
  }
  auto parentScale = [&](std::size_t i) {
    const int p = bones[i].parent;
    return p >= 0 ? accumulated[static_cast<std::size_t>(p)] : 1.0f;
  };
  for (std::size_t i = 0; i < bones.size(); ++i) {
    bones[i].translation *= parentScale(i);
    bones[i].scale = glm::vec3(1.0f);
  }
  for (Clip& c : scene.clips)
    for (Track& t : c.tracks) {
      const int b = scene.skeleton.find(t.bone);
      if (b >= 0)
        for (glm::vec3& v : t.translation.values) v *= parentScale(static_cast<std::size_t>(b));
      t.scale = {};
    }
  // A bone's model matrix M = M' · S (M' without scale, S its accumulated scale), so the skinning
  // matrix M · IB stays the same with M' · (S · IB): the rows of each inverse bind grow by s.
  auto unscale = [&](std::vector<glm::mat4>& binds) {
    for (std::size_t b = 0; b < binds.size() && b < accumulated.size(); ++b)
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r) binds[b][c][r] *= accumulated[b];
  };
  unscale(scene.skeleton.inverseBind);
  for (Mesh& m : scene.meshes) unscale(m.inverseBind);
  if (nonUniform || animated)
    diagnostics.warn("", "bone scale", kNoOffset,
                     std::string("bones have ") + (nonUniform ? "non-uniform " : "") +
                         (animated ? "animated " : "") +
                         "scale, which this format cannot hold; it was approximated by each "
                         "bone's uniform rest scale");
}

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
  // r·R(q)·rᵀ: the same angle about the axis r·v, whose sign flips with r's determinant (a
  // mirror r = −r' turns as r' does). Taken on the components, so that a quaternion a file
  // stores not quite unit (BRF's keys) is the rotation the samplers play, normalised; through
  // mat3_cast it would first become a matrix that is no rotation.
  glm::quat rot(const glm::quat& q) const {
    const float det = glm::determinant(r) < 0.0f ? -1.0f : 1.0f;
    const glm::vec3 axis = det * (r * glm::vec3(q.x, q.y, q.z));
    const glm::quat out(q.w, axis.x, axis.y, axis.z);
    const float len = glm::length(out);
    if (len > 0.0f && std::isfinite(len)) return out / len;
    return len == 0.0f ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : out;  // the zero quaternion: no rotation
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
  for (auto& body : scene.bodies)
    for (auto& part : body.parts) {
      for (auto& p : part.positions) p = c.point(p);
      part.a = c.point(part.a);
      part.b = c.point(part.b);
      part.radius *= c.s;
      if (c.mirror)
        for (auto& poly : part.polygons) std::reverse(poly.begin(), poly.end());
    }
  // An attachment's transform is in its bone's frame (or the model's), which changed the same way.
  for (auto& a : scene.attachments) a.local = c.similar(a.local);
  scene.basis = target;
}

}  // namespace marrow::formats
