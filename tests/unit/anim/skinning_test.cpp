#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>

#include "render/anim/skinning.h"

namespace marrow::anim {
namespace {

using formats::Influence;
using formats::Mesh;

TEST(PackInfluences, KeepsTheEightHeaviestAndRenormalises) {
  Mesh m;
  m.positions = {{0, 0, 0}};
  std::vector<Influence> inf;
  for (std::uint32_t b = 0; b < 10; ++b) inf.push_back({b, static_cast<float>(b + 1)});
  m.addInfluences(inf);
  const PackedInfluences p = packInfluences(m);
  EXPECT_EQ(p.groups, 2);
  EXPECT_EQ(p.truncatedVertices, 1u);
  float total = 0.0f;
  for (int k = 0; k < 4; ++k) {
    total += p.weights0[0][k] + p.weights1[0][k];
    EXPECT_GE(p.bones0[0][k], 2u);  // bones 0 and 1 were the lightest
    EXPECT_GE(p.bones1[0][k], 2u);
  }
  EXPECT_NEAR(total, 1.0f, 1e-6f);
}

TEST(PackInfluences, RigidAttachmentIsOneFullWeight) {
  Mesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}};
  m.parentBone = 3;
  const PackedInfluences p = packInfluences(m);
  ASSERT_EQ(p.groups, 1);
  EXPECT_EQ(p.bones0[1].x, 3u);
  EXPECT_EQ(p.weights0[1].x, 1.0f);
}

TEST(Skin, VertexWithoutWeightsStaysWhereItIs) {
  Mesh m;
  m.positions = {{1, 2, 3}};
  m.addInfluences({});
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(5, 0, 0))};
  std::vector<glm::vec3> out;
  skin(m, packInfluences(m), palette, out);
  EXPECT_EQ(out[0], glm::vec3(1, 2, 3));
}

TEST(Skin, WeightsNotSummingToOneAreNormalised) {
  // 0.25 + 0.25 would pull the vertex halfway to the origin if used as stored; normalised (glTF,
  // FBX's default, the engines) the vertex follows its two bones equally.
  Mesh m;
  m.positions = {{4, 0, 0}, {4, 0, 0}};
  const Influence half[] = {{0, 0.25f}, {1, 0.25f}};
  const Influence over[] = {{0, 1.0f}, {1, 1.0f}};
  m.addInfluences(half);
  m.addInfluences(over);
  const PackedInfluences p = packInfluences(m);
  EXPECT_EQ(p.unnormalisedVertices, 2u);
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(0, 2, 0)),
                                          glm::translate(glm::vec3(0, 4, 0))};
  std::vector<glm::vec3> pos;
  skin(m, p, palette, pos);
  for (const glm::vec3& q : pos) {
    EXPECT_NEAR(q.x, 4.0f, 1e-6f);
    EXPECT_NEAR(q.y, 3.0f, 1e-6f);
  }
}

TEST(Skin, BlendsMatricesByWeightAndRenormalisesNormals) {
  Mesh m;
  m.positions = {{0, 0, 0}};
  m.normals = {{0, 1, 0}};
  const Influence both[] = {{0, 0.5f}, {1, 0.5f}};
  m.addInfluences(both);
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(2, 0, 0)),
                                          glm::rotate(glm::radians(90.0f), glm::vec3(0, 0, 1))};
  std::vector<glm::vec3> pos, nrm;
  skin(m, packInfluences(m), palette, pos, &nrm);
  EXPECT_NEAR(pos[0].x, 1.0f, 1e-6f);
  EXPECT_NEAR(glm::length(nrm[0]), 1.0f, 1e-6f);
  EXPECT_NEAR(nrm[0].x, -std::sqrt(0.5f), 1e-5f);
}

TEST(SkinPalette, RestPoseGivesIdentityPalette) {
  formats::Skeleton s;
  s.bones.push_back({"a", -1, {0, 1, 0}, glm::angleAxis(0.4f, glm::vec3(1, 0, 0)), {1, 1, 1}});
  s.bones.push_back({"b", 0, {0, 2, 0}, glm::angleAxis(-0.7f, glm::vec3(0, 0, 1)), {1, 1, 1}});
  const Pose p = evaluate(s, nullptr, 0.0f);
  std::vector<glm::mat4> palette;
  skinPalette(s, Mesh{}, p, palette);
  for (const auto& m : palette)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(m[c][r], c == r ? 1.0f : 0.0f, 1e-5f);
}

TEST(SkinPalette, UsesTheMeshsOwnInverseBindsWhenItHasThem) {
  formats::Skeleton s;
  s.bones.push_back({"a", -1, {0, 0, 0}, {1, 0, 0, 0}, {1, 1, 1}});
  Mesh m;
  m.inverseBind = {glm::translate(glm::vec3(0, -3, 0))};
  const Pose p = evaluate(s, nullptr, 0.0f);
  std::vector<glm::mat4> palette;
  skinPalette(s, m, p, palette);
  EXPECT_NEAR(palette[0][3][1], -3.0f, 1e-6f);
}

}  // namespace
}  // namespace marrow::anim

#include "render/anim/morph.h"

namespace marrow::anim {
namespace {

formats::Mesh strip() {  // 4 vertices, 2 triangles; vertex 3 collapses onto 1 taking 1 face
  formats::Mesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.indices = {0, 1, 2, 2, 1, 3};
  m.lod.collapsible = 1;
  m.lod.collapseTo = {-1, -1, -1, 1};
  m.lod.faceCollapseCount = {0, 0, 0, 1};
  return m;
}

TEST(Lod, FullDetailDrawsEveryTriangle) {
  std::vector<std::uint32_t> out;
  lodIndices(strip(), 1.0f, out);
  EXPECT_EQ(out, strip().indices);
}

TEST(Lod, LowestDetailCollapsesTheLastVerticesAndDropsTheirFaces) {
  std::vector<std::uint32_t> out;
  lodIndices(strip(), 0.0f, out);
  EXPECT_EQ(out, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(Lod, CollapseChainsEndingInMinusOneStopThere) {
  formats::Mesh m = strip();
  m.lod.collapsible = 2;
  m.lod.collapseTo = {-1, -1, -1, 2};  // 3 → 2, and 2 itself collapses nowhere (−1)
  m.lod.faceCollapseCount = {0, 0, 0, 1};
  std::vector<std::uint32_t> out;
  lodIndices(m, 0.0f, out);  // 2 removed: vertices 2 and 3 inactive, one face dropped
  EXPECT_EQ(out, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(Morph, WeightsBlendSparseAbsoluteTargets) {
  formats::Mesh m = strip();
  formats::MorphTarget t;
  t.name = "lift";
  t.vertices = {3};
  t.positions = {{1, 1, 2}};
  m.morphs.push_back(t);
  std::vector<glm::vec3> p, n;
  const float w[] = {0.25f};
  applyMorphs(m, w, p, n);
  EXPECT_EQ(p[3], glm::vec3(1, 1, 0.5f));
  EXPECT_EQ(p[0], m.positions[0]);
}

}  // namespace
}  // namespace marrow::anim
