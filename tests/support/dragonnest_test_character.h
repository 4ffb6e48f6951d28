// A small skinned, animated Dragon Nest character made with the project's own writers from the
// spec (no real skinned MSH, SKN v11 or ANI exists publicly): three bones, a skinned list
// submesh (a closed tetrahedron, two UV sets), a skinned strip with vertex colours and a
// degenerate stitch, a rigid submesh on a bone, a sphere and a box collision, one dummy, and
// two animations (one with an empty track and stepped scale keys).
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>
#include <map>
#include <string>
#include <vector>

#include "formats/dragonnest/dragonnest.h"

namespace marrow::formats::dragonnest::testing {

struct CharacterFiles {
  std::vector<std::byte> msh, skn, ani;
};

// The ANI bones in file order: a child before its parent on purpose (§5.2).
struct BoneSpec {
  const char* name;
  const char* parent;
  glm::vec3 t;
  glm::quat r;
};
inline const BoneSpec kBones[] = {
    {"Arm", "Spine", {3, 0, 0}, glm::angleAxis(0.3f, glm::vec3(0, 0, 1))},
    {"Bip01", "Scene Root", {0, 10, 0}, glm::quat(1, 0, 0, 0)},
    {"Spine", "Bip01", {0, 5, 0}, glm::angleAxis(0.2f, glm::vec3(1, 0, 0))},
};

inline glm::mat4 localOf(const BoneSpec& b) {
  return glm::translate(b.t) * glm::mat4_cast(b.r);
}
inline glm::mat4 worldOf(const char* name) {
  for (const auto& b : kBones)
    if (std::string(b.name) == name) {
      const glm::mat4 l = localOf(b);
      return std::string(b.parent) == "Scene Root" ? l : worldOf(b.parent) * l;
    }
  return glm::mat4(1.0f);
}

inline Msh characterMsh(int version) {
  Msh m;
  m.version = version;
  for (const char* name : {"Spine", "Arm", "Bip01"})  // exporter order, not the ANI's (§3.2)
    m.bones.push_back({name, fromGlm(glm::inverse(worldOf(name)))});
  // A tetrahedron around (0, 16, 0); stored triangles have (b−a)×(c−a) along the outward
  // normal, as the exporter writes them (§1).
  const glm::vec3 c(0, 16, 0);
  const glm::vec3 p[4] = {c + glm::vec3(1, 1, 1), c + glm::vec3(1, -1, -1),
                          c + glm::vec3(-1, 1, -1), c + glm::vec3(-1, -1, 1)};
  MshSubmesh list;
  list.name = "Body";
  list.skinned = true;
  const int faces[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  for (const auto& f : faces) {
    glm::vec3 n = glm::normalize(glm::cross(p[f[1]] - p[f[0]], p[f[2]] - p[f[0]]));
    if (glm::dot(n, p[f[0]] - c) < 0) n = -n;  // never: the table above is outward already
    for (int k = 0; k < 3; ++k) {
      list.indices.push_back(static_cast<std::uint16_t>(list.positions.size()));
      list.positions.push_back(p[f[k]]);
      list.normals.push_back(n);
    }
  }
  list.uvSets.resize(2);
  for (std::size_t v = 0; v < list.positions.size(); ++v) {
    list.uvSets[0].push_back({0.1f * v, 0.5f});
    list.uvSets[1].push_back({0.5f, 0.05f * v});
    list.boneIndices.push_back({1, 0, 0, 0});  // palette: Spine, Arm
    const float w = v % 3 == 0 ? 1.0f : 0.6f;
    list.weights.push_back({w, 1.0f - w, 0.0f, 0.0f});
    list.boneIndices.back()[1] = 0;
    if (w == 1.0f) list.boneIndices.back() = {0, 0, 0, 0};
  }
  list.palette = {"Spine", "Arm"};
  m.submeshes.push_back(list);

  MshSubmesh strip;
  strip.name = "Skirt";
  strip.skinned = true;
  strip.hasColors = true;
  for (int i = 0; i < 6; ++i) {
    strip.positions.push_back({static_cast<float>(i / 2), 9.0f + (i % 2), -1.0f});
    strip.normals.push_back({0, 0, -1});
    strip.colors.push_back(0xFF000000u | (0x10u * i) << 16 | 0x80u << 8 | 0x20u);
    strip.boneIndices.push_back({0, 0, 0, 0});
    strip.weights.push_back({1, 0, 0, 0});
  }
  strip.uvSets.push_back(std::vector<glm::vec2>(6, glm::vec2(0.25f, 0.75f)));
  strip.indices = {0, 1, 2, 3, 3, 4, 4, 5};  // a stitch: (3,3,4) and (3,4,4) are degenerate
  strip.strip = true;
  strip.palette = {"BIP01"};  // names match case-insensitively (§1)
  m.submeshes.push_back(strip);

  MshSubmesh rigid;
  rigid.name = "Glove";
  rigid.parent = "Arm";
  rigid.positions = {{3, 15, 0}, {4, 15, 0}, {3, 16, 0}};
  rigid.normals = std::vector<glm::vec3>(3, glm::vec3(0, 0, -1));
  rigid.uvSets.push_back(std::vector<glm::vec2>(3, glm::vec2(0.5f)));
  rigid.indices = {0, 2, 1};
  m.submeshes.push_back(rigid);

  MshCollision sphere;
  sphere.type = MshCollision::Sphere;
  sphere.parent = version > 10 ? "Spine" : "";
  sphere.centre = {0, 15, 0};
  sphere.radius = 2.0f;
  MshCollision box;
  box.type = MshCollision::Box;
  box.centre = {0, 5, 0};
  box.extent = {1, 5, 1};
  m.collisions = {sphere, box};

  MshDummy dummy;
  dummy.name = "Weapon";
  dummy.parent = "Arm";
  dummy.matrix = fromGlm(glm::translate(glm::vec3(1, 2, 3)));
  m.dummies.push_back(dummy);
  m.boundsMin = {-1, 9, -1};
  m.boundsMax = {4, 17, 1};
  return m;
}

inline Skn characterSkn(int version) {
  Skn s;
  s.version = version;
  s.fragmentOrder = 3;
  s.mesh = "Character.msh";
  for (const char* name : {"BodyMat", "SkirtMat", "GloveMat"}) {
    SknMaterial m;
    m.name = name;
    m.effect = "DiffuseAvatar.fx";
    m.alpha = 0.99f;
    m.alphaBlend = 1;
    SknParameter ambient{
        "g_MaterialAmbient", SknParameter::Vector, 0, 0, {0.2f, 0.2f, 0.2f, 1}, ""};
    SknParameter diffuse{"g_MaterialDiffuse", SknParameter::Vector, 0, 0, {1, 0.5f, 0.25f, 1}, ""};
    SknParameter tex{"g_DiffuseTex", SknParameter::Texture, 0, 0, {}, "character.dds"};
    SknParameter power{"g_EmissivePower", SknParameter::Float, 0, 0.5f, {}, ""};
    SknParameter flag{"g_UseSpecular", SknParameter::Int, 7, 0, {}, ""};
    m.parameters = {ambient, diffuse, tex, power, flag};
    s.materials.push_back(m);
  }
  return s;
}

inline Ani characterAni(int version) {
  Ani a;
  a.version = version;
  a.names = {"Wave", "Idle"};
  a.lengths = {30, 20};
  for (const auto& b : kBones) {
    AniBone bone{b.name, b.parent, {}};
    for (int anim = 0; anim < 2; ++anim) {
      AniTrack t;
      t.basePosition = b.t;
      t.baseRotation = b.r;
      const std::string name = b.name;
      if (anim == 0 && name == "Bip01") {
        t.positions = {{0, b.t}, {15, b.t + glm::vec3(0, 1, 0)}, {29, b.t}};
      } else if (anim == 0) {
        for (int f : {0, 10, 29})
          t.rotations.push_back(
              {f, glm::normalize(b.r * glm::angleAxis(0.05f * f, glm::vec3(0, 1, 0)))});
      }
      if (anim == 0 && name == "Arm") t.scales = {{0, glm::vec3(1)}, {10, glm::vec3(1.5f)}};
      if (anim == 1 && name == "Spine")
        t.rotations = {{5, glm::angleAxis(0.4f, glm::vec3(1, 0, 0))}};
      bone.tracks.push_back(t);  // Idle leaves Bip01 and Arm empty: their base pose holds
    }
    a.bones.push_back(bone);
  }
  return a;
}

// The MSH in `version` (10–13); the SKN and ANI in 11 from MSH 11 on, else 10.
inline CharacterFiles writeCharacter(int version) {
  CharacterFiles f;
  f.msh = writeMsh(characterMsh(version)).value();
  f.skn = writeSkn(characterSkn(version >= 11 ? 11 : 10)).value();
  f.ani = writeAni(characterAni(version >= 11 ? 11 : 10)).value();
  return f;
}

// A resolver over files held in memory, by exact name.
inline Resolver memoryResolver(std::map<std::string, std::vector<std::byte>> files) {
  return
      [files = std::move(files)](const std::string& name) -> std::optional<std::vector<std::byte>> {
        const auto it = files.find(name);
        if (it == files.end()) return std::nullopt;
        return it->second;
      };
}

}  // namespace marrow::formats::dragonnest::testing
