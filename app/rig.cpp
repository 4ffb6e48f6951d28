// Rigging a model onto another skeleton (rig.h).
#include "app/rig.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <glm/gtc/quaternion.hpp>

#include "formats/model/convert.h"
#include "render/anim/bone_families.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

namespace marrow::app {

using formats::Scene;

namespace {

// The shortest turn that takes the unit vector `from` to the unit vector `to`.
glm::quat turnBetween(const glm::vec3& from, const glm::vec3& to) {
  const float d = glm::dot(from, to);
  if (d < -0.999999f) {
    glm::vec3 axis = glm::cross(glm::vec3(1.0f, 0.0f, 0.0f), from);
    if (glm::length(axis) < 1e-6f) axis = glm::cross(glm::vec3(0.0f, 1.0f, 0.0f), from);
    return glm::angleAxis(3.14159265358979f, glm::normalize(axis));
  }
  const glm::vec3 c = glm::cross(from, to);
  return glm::normalize(glm::quat(1.0f + d, c.x, c.y, c.z));
}

}  // namespace

formats::Result<Scene> rigOnto(const Scene& model, const Scene& target, const anim::BoneNameMap& map,
                               RigReport& report) {
  const formats::Skeleton& src = model.skeleton;
  const formats::Skeleton& dst = target.skeleton;
  if (src.empty()) return formats::FormatError{"", "skeleton", formats::kNoOffset, "the model has no skeleton to rig onto another"};
  if (dst.empty()) return formats::FormatError{"", "skeleton", formats::kNoOffset, "the skeleton given has no bones"};

  // Each model bone's partner; a bone without one follows its nearest ancestor that has one.
  std::vector<std::string> modelBones;
  for (const formats::Bone& b : src.bones) modelBones.push_back(b.name);
  const anim::BoneMatcher toTarget(dst, map.empty() ? nullptr : &map, true, &modelBones);
  if (toTarget.sourceFamily()) {
    report.sourceFamily = std::string(toTarget.sourceFamily()->name);
    report.targetFamily = std::string(toTarget.targetFamily()->name);
  }
  std::vector<int> partner(src.bones.size(), -1);
  anim::BoneNameMap backwards;  // target name → model name, for posing the model like the target
  for (std::size_t b = 0; b < src.bones.size(); ++b) {
    const anim::NameMatch m = toTarget.find(src.bones[b].name);
    partner[b] = m.bone;
    if (m.bone < 0) {
      report.unmatched.push_back(src.bones[b].name);
      continue;
    }
    (m.how == anim::MatchKind::Exact    ? report.exact
     : m.how == anim::MatchKind::Mapped ? report.mapped
     : m.how == anim::MatchKind::Family ? report.family
                                        : report.loose)++;
    backwards.pairs.try_emplace(dst.bones[static_cast<std::size_t>(m.bone)].name, src.bones[b].name);
  }
  if (backwards.empty())
    return formats::FormatError{"", "skeleton", formats::kNoOffset,
                                "no bone of the model has a partner in the skeleton given (give --bone-map)"};
  std::vector<std::uint32_t> follows(src.bones.size(), 0);
  for (std::size_t b = 0; b < src.bones.size(); ++b) {
    int a = static_cast<int>(b);
    while (a >= 0 && partner[static_cast<std::size_t>(a)] < 0) a = src.bones[static_cast<std::size_t>(a)].parent;
    follows[b] = a < 0 ? 0u : static_cast<std::uint32_t>(partner[static_cast<std::size_t>(a)]);
  }

  // The model posed as the target rests (the two rest poses corrected): parents first, each
  // matched bone turned so that the way to its first matched child points as its partner's does
  // in the target (bone axes differ between tools; the directions between joints do not).
  // The axes between the two, facing included: the meshes move by the whole basis change.
  const glm::mat3 modelToTarget = [&] {
    const glm::mat3 m(formats::basisChange(model.basis, target.basis));
    return m / std::cbrt(std::abs(glm::determinant(m)));
  }();
  const glm::mat3 targetToModel = glm::transpose(modelToTarget);
  const auto targetRest = dst.restModelMatrices();
  const auto jointOf = [&](int t) { return targetToModel * glm::vec3(targetRest[static_cast<std::size_t>(t)][3]); };
  std::vector<int> firstMatchedChild(src.bones.size(), -1);
  for (std::size_t b = src.bones.size(); b-- > 0;)
    if (const int p = src.bones[b].parent; p >= 0 && partner[b] >= 0) firstMatchedChild[static_cast<std::size_t>(p)] = static_cast<int>(b);
  std::vector<glm::quat> local(src.bones.size()), world(src.bones.size());
  std::vector<glm::vec3> joint(src.bones.size());
  for (std::size_t b = 0; b < src.bones.size(); ++b) {
    const formats::Bone& bone = src.bones[b];
    const int p = bone.parent;
    local[b] = glm::normalize(bone.rotation);
    const glm::quat parentWorld = p < 0 ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : world[static_cast<std::size_t>(p)];
    joint[b] = p < 0 ? bone.translation : joint[static_cast<std::size_t>(p)] + parentWorld * (src.bones[static_cast<std::size_t>(p)].scale * bone.translation);
    world[b] = parentWorld * local[b];
    const int c = firstMatchedChild[b];
    if (partner[b] < 0 || c < 0) continue;
    const glm::vec3 have = world[b] * (bone.scale * src.bones[static_cast<std::size_t>(c)].translation);
    const glm::vec3 want = jointOf(partner[static_cast<std::size_t>(c)]) - jointOf(partner[b]);
    if (glm::length(have) < 1e-9f || glm::length(want) < 1e-9f) continue;
    const glm::quat turnTo = turnBetween(glm::normalize(have), glm::normalize(want));
    world[b] = glm::normalize(turnTo * world[b]);
    local[b] = glm::normalize(glm::inverse(parentWorld) * world[b]);
  }
  formats::Clip fit;
  fit.name = "fit";
  for (std::size_t b = 0; b < src.bones.size(); ++b) {
    formats::Track t;
    t.bone = src.bones[b].name;
    t.rotation.add(0.0f, local[b]);
    fit.tracks.push_back(std::move(t));
  }
  const anim::Pose posed = anim::evaluate(src, &fit, 0.0f);

  Scene out = model;
  const glm::mat4 change = formats::basisChange(model.basis, target.basis);
  const glm::mat3 turn = glm::mat3(change) / std::cbrt(std::abs(glm::determinant(glm::mat3(change))));
  const bool mirror = glm::determinant(turn) < 0.0f;
  const auto point = [&](const glm::mat4& m, const glm::vec3& p) { return glm::vec3(change * (m * glm::vec4(p, 1.0f))); };
  const auto direction = [&](const glm::mat4& m, const glm::vec3& n) {
    const glm::vec3 d = turn * (glm::mat3(m) * n);
    const float len = glm::length(d);
    return len > 0.0f ? d / len : d;
  };
  std::vector<glm::mat4> palette;
  for (formats::Mesh& m : out.meshes) {
    const formats::Mesh& original = model.meshes[static_cast<std::size_t>(&m - out.meshes.data())];
    anim::skinPalette(src, original, posed, palette);
    const std::size_t V = m.vertexCount();
    std::vector<glm::mat4> perVertex(V, glm::mat4(1.0f));
    for (std::size_t v = 0; v < V; ++v) {
      if (m.parentBone >= 0 && static_cast<std::size_t>(m.parentBone) < palette.size()) {
        perVertex[v] = palette[static_cast<std::size_t>(m.parentBone)];
      } else if (m.skinned()) {
        glm::mat4 sum(0.0f);
        float total = 0.0f;
        for (const formats::Influence& i : m.influencesOf(v))
          if (i.weight > 0.0f && i.bone < palette.size()) sum += palette[i.bone] * i.weight, total += i.weight;
        if (total > 0.0f) perVertex[v] = sum * (1.0f / total);
      }
      m.positions[v] = point(perVertex[v], m.positions[v]);
      if (v < m.normals.size()) m.normals[v] = direction(perVertex[v], m.normals[v]);
      if (v < m.tangents.size())
        m.tangents[v] = glm::vec4(direction(perVertex[v], glm::vec3(m.tangents[v])), mirror ? -m.tangents[v].w : m.tangents[v].w);
    }
    for (formats::MorphTarget& t : m.morphs)
      for (std::size_t j = 0; j < t.positions.size(); ++j) {
        const std::size_t v = t.vertexAt(j);
        if (v >= V) continue;
        t.positions[j] = point(perVertex[v], t.positions[j]);
        if (j < t.normals.size()) t.normals[j] = direction(perVertex[v], t.normals[j]);
      }
    if (mirror)
      for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3) std::swap(m.indices[i + 1], m.indices[i + 2]);
    // Each influence on its bone's partner (two on one partner become one).
    if (m.skinned()) {
      formats::Mesh rebound;
      std::vector<formats::Influence> row;
      for (std::size_t v = 0; v < V; ++v) {
        std::map<std::uint32_t, float> byBone;
        for (const formats::Influence& i : m.influencesOf(v))
          if (i.bone < follows.size()) byBone[follows[i.bone]] += i.weight;
        row.clear();
        for (const auto& [bone, w] : byBone) row.push_back({bone, w});
        rebound.addInfluences(row);
      }
      m.influenceStart = std::move(rebound.influenceStart);
      m.influences = std::move(rebound.influences);
    }
    if (m.parentBone >= 0 && static_cast<std::size_t>(m.parentBone) < follows.size())
      m.parentBone = static_cast<int>(follows[static_cast<std::size_t>(m.parentBone)]);
    m.inverseBind.clear();  // bound at the target's rest pose
    m.lod = {};
  }
  for (formats::Body& b : out.bodies)
    for (formats::BodyPart& p : b.parts) {
      for (glm::vec3& q : p.positions) q = point(glm::mat4(1.0f), q);
      p.a = point(glm::mat4(1.0f), p.a);
      p.b = point(glm::mat4(1.0f), p.b);
      p.radius *= std::cbrt(std::abs(glm::determinant(glm::mat3(change))));
    }
  // An attachment point keeps its place on the posed model, now relative to its bone's partner at
  // the target's rest: model space = the posed bone's world × local; then in the partner's frame.
  const auto targetWorld = dst.restModelMatrices();
  for (formats::Attachment& a : out.attachments) {
    const int b = src.find(a.parent);
    const glm::mat4 onModel = b < 0 ? a.local : posed.model[static_cast<std::size_t>(b)] * a.local;
    const glm::mat4 placed = change * onModel * glm::inverse(change);  // the same transform, in the target's basis
    if (b < 0) {
      a.local = placed;
      continue;
    }
    const std::uint32_t t = follows[static_cast<std::size_t>(b)];
    a.parent = dst.bones[t].name;
    a.local = glm::inverse(targetWorld[t]) * placed;
  }

  // The clips, retargeted; their morph-weight tracks name meshes that are still there.
  out.clips.clear();
  anim::RetargetOptions forth;
  forth.source = &src;
  forth.sourceToTarget = modelToTarget;
  for (const formats::Clip& c : model.clips) {
    if (c.tracks.empty()) {
      out.clips.push_back(c);
      continue;
    }
    anim::RetargetReport r;
    formats::Clip moved = anim::retarget(c, dst, toTarget, forth, &r);
    moved.morphTracks = c.morphTracks;
    out.clips.push_back(std::move(moved));
    report.clips.push_back(std::move(r));
  }
  out.skeleton = dst;
  out.skeleton.inverseBind.clear();  // the meshes were bound at its rest pose
  out.skeleton.inverseBindParts.clear();
  out.basis = target.basis;
  out.format = model.format + " rigged onto " + (dst.name.empty() ? std::string("the skeleton given") : dst.name);
  if (!report.unmatched.empty()) {
    std::string names;
    for (std::size_t i = 0; i < report.unmatched.size() && i < 12; ++i) names += (i ? ", " : "") + report.unmatched[i];
    if (report.unmatched.size() > 12) names += ", …";
    out.diagnostics.warn("", "skeleton", formats::kNoOffset,
                         std::to_string(report.unmatched.size()) + " bones found no partner in " +
                             (dst.name.empty() ? std::string("the skeleton given") : "'" + dst.name + "'") + " (" + names +
                             "): their vertices follow the nearest bone above them that has one");
  }
  return out;
}

}  // namespace marrow::app
