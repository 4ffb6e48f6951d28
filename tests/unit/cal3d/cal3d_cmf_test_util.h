// Shared by the binary cal3d mesh (.cmf) tests: files built byte by byte in all three layouts,
// and a reader that checks what it read with validate().
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cal3d_binary_test_util.h"
#include "formats/cal3d/binary_format.h"
#include "formats/model/validate.h"

namespace marrow::formats::cal3d::testing::cmf {

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline const std::string kFile = "body.cmf";

struct VertexSpec {
  glm::vec3 p, n{0, 0, 1};
  int collapse = -1, faceCollapse = 0;
  std::vector<std::pair<int, float>> influences;
  glm::vec3 color{0.5f, 0.25f, 1.0f};
};
struct BlendSpec {
  int id;
  glm::vec3 p;
};
struct MorphSpec {
  std::string name;
  std::vector<BlendSpec> blends;
};
struct SubmeshSpec {
  int material = 2;
  std::vector<VertexSpec> vertices;
  std::vector<std::array<int, 3>> faces;
  int lod = 0;
  std::vector<Spring> springs;
  int maps = 1;
  std::vector<MorphSpec> morphs;
};

// A unit quad in z = 0, counter-clockwise seen from +z, its last vertex collapsible.
inline SubmeshSpec quad() {
  SubmeshSpec s;
  s.vertices = {{{0, 0, 0}, {0, 0, 1}, -1, 0, {{0, 1.0f}}},
                {{1, 0, 0}, {0, 0, 1}, -1, 0, {{0, 0.5f}, {1, 0.5f}}},
                {{0, 1, 0}, {0, 0, 1}, -1, 0, {{2, 1.0f}}},
                {{1, 1, 0}, {0, 0, 1}, 1, 1, {}}};
  s.faces = {{0, 1, 2}, {1, 3, 2}};
  s.lod = 1;
  s.springs = {{0, 3, 0.5f, 1.5f}};
  s.morphs = {{"smile", {{1, {1, 0, 2}}, {3, {1, 1, 2}}}}};
  return s;
}

struct SubmeshAt {
  std::size_t header = 0, vertexCount = 0, faceCount = 0, lodCount = 0, springCount = 0,
              mapCount = 0, morphCount = 0;
  std::vector<std::size_t> vertex;  // each vertex's position
  std::vector<std::size_t> spring, morph, face;
  std::size_t influenceCount(std::size_t v, CmfLayout l) const {
    return vertex[v] + 24 + (l == CmfLayout::ColourSentinel ? 12 : 0) + 8 + 8;  // 1 uv set
  }
};

struct Cmf {
  std::vector<std::byte> bytes;
  std::vector<SubmeshAt> at;
  CmfLayout layout;
};

inline Cmf build(const std::vector<SubmeshSpec>& subs = {quad()}, int version = 700,
                 std::optional<CmfLayout> forced = std::nullopt) {
  Cmf f;
  f.layout = forced.value_or(cmfDefaultLayout(version));
  const bool morphs = f.layout != CmfLayout::Plain;
  ByteWriter w;
  header(w, "CMF", version);
  w.i32(static_cast<std::int32_t>(subs.size()));
  for (const auto& s : subs) {
    SubmeshAt a;
    a.header = w.offset();
    w.i32(s.material);
    a.vertexCount = w.offset();
    w.i32(static_cast<std::int32_t>(s.vertices.size()));
    a.faceCount = w.offset();
    w.i32(static_cast<std::int32_t>(s.faces.size()));
    a.lodCount = w.offset();
    w.i32(s.lod);
    a.springCount = w.offset();
    w.i32(static_cast<std::int32_t>(s.springs.size()));
    a.mapCount = w.offset();
    w.i32(s.maps);
    a.morphCount = w.offset();
    if (morphs) w.i32(static_cast<std::int32_t>(s.morphs.size()));
    for (std::size_t v = 0; v < s.vertices.size(); ++v) {
      const auto& x = s.vertices[v];
      a.vertex.push_back(w.offset());
      vec3(w, x.p);
      vec3(w, x.n);
      if (f.layout == CmfLayout::ColourSentinel) vec3(w, x.color);
      w.i32(x.collapse);
      w.i32(x.faceCollapse);
      for (int m = 0; m < s.maps; ++m) {
        w.f32(x.p.x + static_cast<float>(m));
        w.f32(x.p.y);
      }
      w.i32(static_cast<std::int32_t>(x.influences.size()));
      for (auto [bone, weight] : x.influences) {
        w.i32(bone);
        w.f32(weight);
      }
      if (!s.springs.empty()) w.f32(0.25f * static_cast<float>(v));
    }
    for (const auto& sp : s.springs) {
      a.spring.push_back(w.offset());
      w.i32(static_cast<std::int32_t>(sp.a));
      w.i32(static_cast<std::int32_t>(sp.b));
      w.f32(sp.coefficient);
      w.f32(sp.idleLength);
    }
    if (morphs)
      for (const auto& m : s.morphs) {
        a.morph.push_back(w.offset());
        string(w, m.name);
        if (f.layout == CmfLayout::CountPrefixed) w.i32(static_cast<std::int32_t>(m.blends.size()));
        for (const auto& b : m.blends) {
          w.i32(b.id);
          vec3(w, b.p);
          vec3(w, {0, 1, 0});
          for (int k = 0; k < s.maps; ++k) {
            w.f32(9.0f);
            w.f32(8.0f);
          }
        }
        if (f.layout == CmfLayout::ColourSentinel)
          w.i32(static_cast<std::int32_t>(s.vertices.size()) + 1);
      }
    for (const auto& face : s.faces) {
      a.face.push_back(w.offset());
      for (int i : face) w.i32(i);
    }
    f.at.push_back(a);
  }
  f.bytes = w.take();
  return f;
}

inline Skeleton threeBones() {
  Skeleton s;
  s.bones = {{"root", -1}, {"arm", 0}, {"hand", 1}};
  return s;
}

struct Reader {
  Skeleton skeleton = threeBones();
  BoneMap bones{&skeleton, {0, 1, 2}};
  Result<MeshPart> operator()(const std::vector<std::byte>& b,
                              const ReadContext& ctx = context(kFile)) const {
    return readCmf(b, ctx, bones);
  }
};

inline MeshPart readOk(const std::vector<std::byte>& bytes, const BoneMap& bones,
                       const std::string& name = kFile) {
  auto r = readCmf(bytes, context(name), bones);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  if (!r.ok()) return {};
  Scene s;
  if (bones.skeleton) s.skeleton = *bones.skeleton;
  s.meshes = r->meshes;
  if (!bones.skeleton)  // file bone ids kept: as many placeholder bones as readModel adds
    for (const auto& m : s.meshes)
      for (const auto& i : m.influences)
        while (s.skeleton.bones.size() <= i.bone)
          s.skeleton.bones.push_back(
              {"#" + std::to_string(s.skeleton.bones.size()), -1, {}, {1, 0, 0, 0}, {1, 1, 1}});
  const auto problems = validate(s);
  EXPECT_TRUE(problems.empty()) << problems.front();
  return std::move(r).value();
}
inline MeshPart readOk(const std::vector<std::byte>& bytes) {
  static const Reader reader;
  return readOk(bytes, reader.bones);
}

}  // namespace marrow::formats::cal3d::testing::cmf
