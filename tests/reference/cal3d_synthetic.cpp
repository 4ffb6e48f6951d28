#include "tests/reference/cal3d_synthetic.h"

#include <glm/gtc/quaternion.hpp>

namespace marrow::reference {
namespace {

using formats::Bone;
using formats::Influence;

glm::quat rot(float degrees, glm::vec3 axis) {
  return glm::angleAxis(glm::radians(degrees), glm::normalize(axis));
}

glm::mat4 trs(const glm::vec3& t, const glm::quat& r) {
  glm::mat4 m = glm::mat4_cast(r);
  m[3] = glm::vec4(t, 1.0f);
  return m;
}

}  // namespace

formats::Scene syntheticCal3dModel() {
  formats::Scene s;
  s.format = "synthetic";
  s.basis = formats::Basis{formats::Axis::Z, true, 1.0f};

  auto& bones = s.skeleton.bones;
  bones.push_back(Bone{"root", -1, {1.0f, 2.0f, 3.0f}, rot(30.0f, {0, 0, 1})});
  bones.push_back(Bone{"spine", 0, {0.0f, 0.5f, 10.0f}, rot(20.0f, {1, 1, 0})});
  bones.push_back(Bone{"arm", 1, {5.0f, 0.0f, 2.0f}, rot(-45.0f, {1, 0, 0.3f})});
  bones.push_back(Bone{"hand", 2, {6.0f, 1.0f, 0.0f}, rot(15.0f, {0.2f, 1, 0})});
  bones.push_back(Bone{"head", 1, {0.0f, 0.0f, 6.0f}, rot(10.0f, {0, 1, 0})});

  // The bind pose: the rest pose except for the arm, bound 12° further round and 0.4 along x.
  std::vector<glm::mat4> bind(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) {
    glm::vec3 t = bones[i].translation;
    glm::quat r = bones[i].rotation;
    if (bones[i].name == "arm") {
      t.x += 0.4f;
      r = rot(12.0f, {0, 0, 1}) * r;
    }
    const glm::mat4 local = trs(t, r);
    bind[i] =
        bones[i].parent >= 0 ? bind[static_cast<std::size_t>(bones[i].parent)] * local : local;
  }
  for (const auto& m : bind) s.skeleton.inverseBind.push_back(glm::inverse(m));

  // Submesh 0: a ring of four vertices around every bone, weighted to it and its ancestors.
  formats::Mesh body;
  body.name = "synth#0";
  body.material = 0;
  body.uvSets.resize(1);
  const glm::vec3 ring[4] = {{1, 1, 0}, {-1, 1, 0.5f}, {-1, -1, 0}, {1, -1, -0.5f}};
  for (std::uint32_t b = 0; b < bones.size(); ++b) {
    for (int k = 0; k < 4; ++k) {
      body.positions.push_back(glm::vec3(bind[b] * glm::vec4(ring[k], 1.0f)));
      body.normals.push_back(
          glm::normalize(glm::mat3(bind[b]) * (ring[k] + glm::vec3(0, 0, 0.7f))));
      body.uvSets[0].push_back({0.25f * static_cast<float>(k), 0.2f * static_cast<float>(b)});
      const int parent = bones[b].parent;
      const int grandparent = parent >= 0 ? bones[static_cast<std::size_t>(parent)].parent : -1;
      std::vector<Influence> in;
      if (parent < 0) {
        in = {{b, 1.0f}};
      } else if (grandparent < 0 || k % 2 == 0) {
        in = {{b, 0.65f}, {static_cast<std::uint32_t>(parent), 0.35f}};
      } else {
        in = {{b, 0.5f},
              {static_cast<std::uint32_t>(parent), 0.3f},
              {static_cast<std::uint32_t>(grandparent), 0.2f}};
      }
      body.addInfluences(in);
    }
    if (b + 1 < bones.size()) {
      const std::uint32_t o = 4 * b;
      body.indices.insert(body.indices.end(), {o, o + 1, o + 2, o, o + 2, o + 3, o, o + 4, o + 1});
    }
  }
  s.meshes.push_back(std::move(body));

  // Submesh 1: a flap on the hand with springs; its last vertex has no influences at all.
  formats::Mesh flap;
  flap.name = "synth#1";
  flap.material = -1;
  flap.uvSets.resize(1);
  const glm::vec3 flapLocal[6] = {{0, 0, 0},  {2, 0, 0},     {0, 0, -2},
                                  {2, 0, -2}, {0, 0.5f, -4}, {3, 3, 3}};
  for (int v = 0; v < 6; ++v) {
    const glm::mat4& m = bind[3];
    flap.positions.push_back(glm::vec3(m * glm::vec4(flapLocal[v], 1.0f)));
    flap.normals.push_back(
        glm::normalize(glm::mat3(m) * glm::vec3(0.1f * static_cast<float>(v), 1, 0.2f)));
    flap.uvSets[0].push_back({0.5f, 0.1f * static_cast<float>(v)});
    if (v == 5)
      flap.addInfluences({});
    else if (v < 2)
      flap.addInfluences(std::vector<Influence>{{3, 1.0f}});
    else
      flap.addInfluences(std::vector<Influence>{{3, 0.7f}, {2, 0.3f}});
  }
  flap.indices = {0, 2, 1, 1, 2, 3, 2, 4, 3};
  flap.springs = {{0, 2, 0.8f, 2.0f}, {1, 3, 0.8f, 2.0f}, {2, 4, 0.5f, 2.1f}};
  flap.physicalWeights = {0.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.0f};
  s.meshes.push_back(std::move(flap));

  formats::Material skin;
  skin.name = "synth_skin";
  skin.diffuse = {0.8f, 0.6f, 0.4f, 1.0f};
  skin.ambient = {0.2f, 0.2f, 0.2f, 1.0f};
  skin.specular = {1.0f, 1.0f, 1.0f, 1.0f};
  skin.shininess = 0.5f;
  skin.maps.push_back({"diffuse", 0, 0, "Diffuse Color"});
  s.materials.push_back(skin);
  s.textures.push_back({"skin.png", "skin.png", {}});

  // A cycle whose keys end 0.5 s before its duration: looping runs from the last key back to the
  // first. Large steps about skewed axes, so that conjugating or not makes a visible difference.
  formats::Clip cycle;
  cycle.name = "synth_cycle";
  cycle.duration = 2.0f;
  cycle.wrapsToFirstKey = true;
  auto track = [](const char* bone, int index) {
    formats::Track t;
    t.bone = bone;
    t.sourceIndex = index;
    return t;
  };
  const float times[4] = {0.0f, 0.5f, 1.0f, 1.5f};
  {
    formats::Track t = track("root", 0);
    const glm::vec3 p[4] = {{1, 2, 3}, {3, 2, 3}, {3, 5, 3}, {1, 5, 4}};
    const float a[4] = {30, 120, 210, 300};
    for (int k = 0; k < 4; ++k) {
      t.translation.add(times[k], p[k]);
      t.rotation.add(times[k], rot(a[k], {0, 0, 1}));
    }
    cycle.tracks.push_back(t);
  }
  {
    formats::Track t = track("spine", 1);
    const float a[4] = {20, 80, 140, 60};
    for (int k = 0; k < 4; ++k) {
      t.translation.add(times[k], {0.0f, 0.5f, 10.0f + 0.5f * static_cast<float>(k)});
      t.rotation.add(times[k], rot(a[k], {1, 2, 3}));
    }
    cycle.tracks.push_back(t);
  }
  {
    formats::Track t = track("arm", 2);
    const float a[4] = {-45, 45, 100, 0};
    for (int k = 0; k < 4; ++k) {
      t.translation.add(times[k], {5.0f, static_cast<float>(k), 2.0f});
      t.rotation.add(times[k], rot(a[k], {1, -1, 0.5f}));
    }
    cycle.tracks.push_back(t);
  }
  {
    formats::Track t = track("head", 4);  // rotation only: the translation stays at rest
    const float a[4] = {10, -30, 40, 0};
    for (int k = 0; k < 4; ++k) t.rotation.add(times[k], rot(a[k], {0, 1, 0.2f}));
    cycle.tracks.push_back(t);
  }
  s.clips.push_back(cycle);

  // A clip that closes at its duration with a copy of its first key (as hero and Arthur data
  // do), with a constant single-key track.
  formats::Clip closed;
  closed.name = "synth_closed";
  closed.duration = 1.0f;
  closed.wrapsToFirstKey = true;
  {
    formats::Track t = track("arm", 2);
    const float a[3] = {-45, 60, -45};
    const float z[3] = {2.0f, 3.5f, 2.0f};
    for (int k = 0; k < 3; ++k) {
      t.translation.add(0.5f * static_cast<float>(k), {5.0f, 0.0f, z[k]});
      t.rotation.add(0.5f * static_cast<float>(k), rot(a[k], {0.3f, 1, 1}));
    }
    closed.tracks.push_back(t);
  }
  {
    formats::Track t = track("spine", 1);
    t.translation.add(0.0f, {0.0f, 0.5f, 10.0f});
    t.rotation.add(0.0f, rot(50.0f, {1, 0, 1}));
    closed.tracks.push_back(t);
  }
  s.clips.push_back(closed);
  return s;
}

}  // namespace marrow::reference
