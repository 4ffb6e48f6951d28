#include "tests/reference/cal3d_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace marrow::reference {

OurModel::OurModel(formats::Scene scene) : scene_(std::move(scene)) {
  // Packed once, as the viewer does: packing is load-time work, not per-frame work.
  for (const auto& mesh : scene_.meshes) packed_.push_back(anim::packInfluences(mesh));
}

int OurModel::findClip(const std::string& name) const {
  for (std::size_t i = 0; i < scene_.clips.size(); ++i)
    if (scene_.clips[i].name == name) return static_cast<int>(i);
  return -1;
}

OurFrame OurModel::pose(const formats::Clip* clip, float t, bool looping) const {
  const anim::Pose pose = anim::evaluate(scene_.skeleton, clip, t, looping);
  OurFrame f;
  f.bones = pose.model;
  std::vector<glm::mat4> palette;
  for (std::size_t m = 0; m < scene_.meshes.size(); ++m) {
    const formats::Mesh& mesh = scene_.meshes[m];
    anim::skinPalette(scene_.skeleton, mesh, pose, palette);
    std::vector<glm::vec3> p, n;
    anim::skin(mesh, packed_[m], palette, p, &n);
    f.positions.push_back(std::move(p));
    f.normals.push_back(std::move(n));
  }
  return f;
}

Correspondence correspond(const Cal3dFrame& theirs, const formats::Scene& ours) {
  Correspondence c;
  for (std::size_t i = 0; i < theirs.bones.size(); ++i) {
    // The same index first: names need not be unique (cal3d does not require it).
    int b = i < ours.skeleton.bones.size() && ours.skeleton.bones[i].name == theirs.bones[i].name
                ? static_cast<int>(i)
                : ours.skeleton.find(theirs.bones[i].name);
    if (b < 0 && c.problem.empty()) c.problem = "no bone named '" + theirs.bones[i].name + "'";
    c.bone.push_back(b);
  }
  if (theirs.bones.size() != ours.skeleton.bones.size() && c.problem.empty())
    c.problem = "libcal3d has " + std::to_string(theirs.bones.size()) + " bones, Marrow " +
                std::to_string(ours.skeleton.bones.size());
  for (const auto& s : theirs.submeshes) {
    int m = -1;
    for (std::size_t i = 0; i < ours.meshes.size(); ++i)
      if (ours.meshes[i].name == s.name) m = static_cast<int>(i);
    if (c.problem.empty()) {
      if (m < 0)
        c.problem = "no mesh named '" + s.name + "'";
      else if (ours.meshes[m].vertexCount() != s.positions.size())
        c.problem = "mesh '" + s.name + "': libcal3d has " + std::to_string(s.positions.size()) +
                    " vertices, Marrow " + std::to_string(ours.meshes[m].vertexCount());
    }
    c.submesh.push_back(m);
  }
  if (theirs.submeshes.size() != ours.meshes.size() && c.problem.empty())
    c.problem = "libcal3d has " + std::to_string(theirs.submeshes.size()) + " submeshes, Marrow " +
                std::to_string(ours.meshes.size()) + " meshes";
  return c;
}

double modelSize(const std::vector<glm::vec3>& restVertices, const Cal3dFrame& restFrame) {
  glm::dvec3 lo(1e300), hi(-1e300);
  bool any = false;
  auto add = [&](const glm::vec3& p) {
    lo = glm::min(lo, glm::dvec3(p));
    hi = glm::max(hi, glm::dvec3(p));
    any = true;
  };
  for (const auto& p : restVertices) add(p);
  if (!any)
    for (const auto& b : restFrame.bones) add(b.origin);
  const double size = any ? glm::length(hi - lo) : 0.0;
  return size > 0 ? size : 1.0;
}

std::string describe(const glm::vec3& v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.6g, %.6g, %.6g)", v.x, v.y, v.z);
  return buf;
}

void Errors::add(const Errors& e) {
  auto take = [](double& mine, std::string& where, double theirs, const std::string& w) {
    if (theirs > mine || where.empty()) {
      mine = theirs;
      where = w;
    }
  };
  take(bonePosition, worstBone, e.bonePosition, e.worstBone);
  boneFrame = std::max(boneFrame, e.boneFrame);
  take(vertex, worstVertex, e.vertex, e.worstVertex);
  take(normal, worstNormal, e.normal, e.worstNormal);
  vertices += e.vertices;
}

Errors compare(const Cal3dFrame& theirs, const OurFrame& ours, const Correspondence& c,
               const formats::Scene& scene, double size) {
  Errors e;
  std::string frameWhere;
  for (std::size_t i = 0; i < theirs.bones.size() && i < c.bone.size(); ++i) {
    const int b = c.bone[i];
    if (b < 0 || static_cast<std::size_t>(b) >= ours.bones.size()) continue;
    const glm::mat4& m = ours.bones[static_cast<std::size_t>(b)];
    const glm::vec3 origin(m[3]);
    const double d = glm::length(glm::dvec3(origin) - glm::dvec3(theirs.bones[i].origin)) / size;
    if (!(d <= e.bonePosition) || e.worstBone.empty()) {
      e.bonePosition = std::isnan(d) ? INFINITY : d;
      e.worstBone = "bone '" + theirs.bones[i].name + "' ours " + describe(origin) + " libcal3d " +
                    describe(theirs.bones[i].origin);
    }
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 axis(m[k]);
      const double a = glm::length(glm::dvec3(axis) - glm::dvec3(theirs.bones[i].axes[k]));
      if (!(a <= e.boneFrame)) {
        e.boneFrame = std::isnan(a) ? INFINITY : a;
        frameWhere = theirs.bones[i].name;
      }
    }
  }
  if (!frameWhere.empty() && e.boneFrame > 1e-4)
    e.worstBone += "; worst frame: bone '" + frameWhere + "'";
  for (std::size_t s = 0; s < theirs.submeshes.size() && s < c.submesh.size(); ++s) {
    const int m = c.submesh[s];
    if (m < 0) continue;
    const auto& mine = ours.positions[static_cast<std::size_t>(m)];
    const auto& mineN = ours.normals[static_cast<std::size_t>(m)];
    const auto& ref = theirs.submeshes[s];
    const auto& stored = scene.meshes[static_cast<std::size_t>(m)].normals;
    for (std::size_t v = 0; v < ref.positions.size() && v < mine.size(); ++v) {
      ++e.vertices;
      // NaN (a vertex libcal3d did not write) must fail, so test "not ≤" rather than ">".
      double d = glm::length(glm::dvec3(mine[v]) - glm::dvec3(ref.positions[v])) / size;
      if (!(d <= e.vertex)) {
        e.vertex = std::isnan(d) ? INFINITY : d;
        e.worstVertex = "mesh '" + ref.name + "' vertex " + std::to_string(v) + " ours " +
                        describe(mine[v]) + " libcal3d " + describe(ref.positions[v]);
      }
      // A stored zero normal has no direction to compare.
      if (v < mineN.size() && v < stored.size() && glm::length(stored[v]) > 1e-3f) {
        const double n = glm::length(glm::dvec3(mineN[v]) - glm::dvec3(ref.normals[v]));
        if (!(n <= e.normal)) {
          e.normal = std::isnan(n) ? INFINITY : n;
          e.worstNormal = "mesh '" + ref.name + "' vertex " + std::to_string(v) + " ours " +
                          describe(mineN[v]) + " libcal3d " + describe(ref.normals[v]);
        }
      }
    }
  }
  return e;
}

}  // namespace marrow::reference
