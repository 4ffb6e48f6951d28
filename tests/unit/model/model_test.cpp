#include <gtest/gtest.h>

#include <cmath>

#include "formats/format_table.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "formats/io/detect.h"
#include "formats/model/convert.h"
#include "formats/model/validate.h"
#include "render/anim/skinning.h"

namespace marrow::formats {
namespace {

glm::vec3 apply(const glm::mat4& m, glm::vec3 p) { return glm::vec3(m * glm::vec4(p, 1.0f)); }

TEST(Basis, ZUpRightHandedTurnsUpToY) {
  const glm::mat4 m = toDisplay(Basis{Axis::Z, true, 1.0f});
  EXPECT_EQ(apply(m, {0, 0, 1}), glm::vec3(0, 1, 0));
  EXPECT_EQ(apply(m, {1, 0, 0}), glm::vec3(1, 0, 0));
  EXPECT_GT(glm::determinant(m), 0.0f);
  EXPECT_FALSE(flipsWinding(Basis{Axis::Z, true, 1.0f}));
}

TEST(Basis, LeftHandedIsMirroredAlongDepthAndFlipsWinding) {
  const Basis lh{Axis::Y, false, 1.0f};
  const glm::mat4 m = toDisplay(lh);
  EXPECT_EQ(apply(m, {0, 1, 0}), glm::vec3(0, 1, 0));
  EXPECT_EQ(apply(m, {1, 0, 0}), glm::vec3(1, 0, 0));
  EXPECT_EQ(apply(m, {0, 0, 1}), glm::vec3(0, 0, -1));
  EXPECT_LT(glm::determinant(m), 0.0f);
  EXPECT_TRUE(flipsWinding(lh));
  const glm::mat4 zl = toDisplay(Basis{Axis::Z, false, 1.0f});
  EXPECT_EQ(apply(zl, {0, 0, 1}), glm::vec3(0, 1, 0));
  EXPECT_LT(glm::determinant(zl), 0.0f);
}

TEST(Basis, AModelThatSaysWhereItFacesIsTurnedToFaceTheCamera) {
  // BRF characters face +Y with Z up: turned half round Y, so they face +Z; not mirrored.
  const glm::mat4 m = toDisplay(Basis{Axis::Z, true, 1.0f, +1});
  EXPECT_EQ(apply(m, {0, 1, 0}), glm::vec3(0, 0, 1));
  EXPECT_EQ(apply(m, {0, 0, 1}), glm::vec3(0, 1, 0));
  EXPECT_EQ(apply(m, {1, 0, 0}), glm::vec3(-1, 0, 0));  // the model's right is on the viewer's left
  EXPECT_GT(glm::determinant(m), 0.0f);
  // Y-up facing -Z is turned; facing +Z (or unknown) is not.
  EXPECT_EQ(apply(toDisplay(Basis{Axis::Y, true, 1.0f, -1}), {0, 0, -1}), glm::vec3(0, 0, 1));
  EXPECT_EQ(apply(toDisplay(Basis{Axis::Y, true, 1.0f, +1}), {0, 0, 1}), glm::vec3(0, 0, 1));
  EXPECT_EQ(apply(toDisplay(Basis{Axis::Z, true, 1.0f, -1}), {0, -1, 0}), glm::vec3(0, 0, 1));
}

TEST(Basis, UnitScalesToMetres) {
  const glm::mat4 m = toDisplay(Basis{Axis::Y, true, 0.01f});
  EXPECT_NEAR(apply(m, {100, 0, 0}).x, 1.0f, 1e-6f);
}

Scene skinnedZUpScene() {
  Scene s;
  s.basis = Basis{Axis::Z, false, 0.5f};
  s.skeleton.bones.push_back({"root", -1, {0, 0, 1}, glm::angleAxis(0.3f, glm::vec3(0, 0, 1)), {1, 1, 1}});
  s.skeleton.bones.push_back({"arm", 0, {1, 0, 0}, glm::angleAxis(0.5f, glm::vec3(0, 1, 0)), {1, 2, 1}});
  Mesh m;
  m.positions = {{0, 0, 0}, {1, 0, 1}, {2, 1, 1}};
  m.normals = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
  m.indices = {0, 1, 2};
  const Influence a[] = {{0, 1.0f}};
  const Influence b[] = {{0, 0.5f}, {1, 0.5f}};
  const Influence c[] = {{1, 1.0f}};
  m.addInfluences(a), m.addInfluences(b), m.addInfluences(c);
  s.meshes.push_back(m);
  Clip clip;
  clip.name = "c";
  clip.duration = 1.0f;
  Track t;
  t.bone = "arm";
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  t.rotation.add(1.0f, glm::angleAxis(1.0f, glm::normalize(glm::vec3(1, 1, 0))));
  t.translation.add(0.5f, {1, 0.5f, 0});
  clip.tracks.push_back(t);
  s.clips.push_back(clip);
  return s;
}

std::vector<glm::vec3> skinnedDisplay(const Scene& s, float t) {
  const anim::Pose p = anim::evaluate(s.skeleton, &s.clips[0], t);
  std::vector<glm::mat4> pal;
  anim::skinPalette(s.skeleton, s.meshes[0], p, pal);
  std::vector<glm::vec3> out;
  anim::skin(s.meshes[0], anim::packInfluences(s.meshes[0]), pal, out);
  for (auto& v : out) v = apply(toDisplay(s.basis), v);
  return out;
}

TEST(ConvertBasis, KeepsTheAnimatedModelWhereTheDisplayShowsIt) {
  const Scene original = skinnedZUpScene();
  Scene converted = original;
  convertBasis(converted, Basis{});
  EXPECT_EQ(converted.basis, Basis{});
  for (float t : {0.0f, 0.3f, 0.75f, 1.0f}) {
    const auto a = skinnedDisplay(original, t);
    const auto b = skinnedDisplay(converted, t);
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(glm::length(a[i] - b[i]), 0.0f, 1e-5f) << "vertex " << i << " at " << t;
  }
}

// Files store quaternions a little off unit (BRF keys by up to 0.24 %): converted, each is the
// rotation it means (the unit quaternion's), not the matrix a non-unit one would make.
TEST(ConvertBasis, AQuaternionNotQuiteUnitTurnsAsTheRotationItMeans) {
  Scene s = skinnedZUpScene();
  const glm::quat unit = glm::angleAxis(glm::radians(75.0f), glm::normalize(glm::vec3(0.3f, -1.0f, 0.2f)));
  s.skeleton.bones[0].rotation = unit * 1.0024f;
  Scene reference = skinnedZUpScene();
  reference.skeleton.bones[0].rotation = unit;
  convertBasis(s, Basis{});
  convertBasis(reference, Basis{});
  const glm::quat q = s.skeleton.bones[0].rotation, want = reference.skeleton.bones[0].rotation;
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
  EXPECT_NEAR(std::fabs(glm::dot(q, want)), 1.0f, 1e-7f);
  // The rotation in the new basis is C·R·C⁻¹: a point turned there is the turned point converted.
  const glm::mat4 c = basisChange(skinnedZUpScene().basis, Basis{});
  const glm::vec3 p(0.4f, 0.1f, -0.7f);
  const glm::vec3 turnedThenConverted = glm::vec3(c * glm::vec4(unit * p, 0.0f));
  const glm::vec3 convertedThenTurned = q * glm::vec3(c * glm::vec4(p, 0.0f));
  EXPECT_LE(glm::length(turnedThenConverted - convertedThenTurned), 1e-6f);
}

TEST(ConvertBasis, FlipsWindingWhenHandednessChanges) {
  Scene s = skinnedZUpScene();
  convertBasis(s, Basis{});
  EXPECT_EQ(s.meshes[0].indices, (std::vector<std::uint32_t>{0, 2, 1}));
}

TEST(Validate, FindsIndicesPastTheVertices) {
  Scene s = skinnedZUpScene();
  s.meshes[0].indices[1] = 7;
  const auto p = validate(s);
  ASSERT_FALSE(p.empty());
  EXPECT_NE(p.front().find("past the 3 vertices"), std::string::npos) << p.front();
}

TEST(Validate, FindsParentsThatDoNotPrecedeTheirChild) {
  Scene s = skinnedZUpScene();
  s.skeleton.bones[0].parent = 1;
  EXPECT_FALSE(validate(s).empty());
}

TEST(Validate, FindsInfluencesOfMissingBonesAndNonIncreasingKeys) {
  Scene s = skinnedZUpScene();
  s.meshes[0].influences[0].bone = 9;
  EXPECT_FALSE(validate(s).empty());
  Scene k = skinnedZUpScene();
  k.clips[0].tracks[0].rotation.times = {0.5f, 0.5f};
  EXPECT_FALSE(validate(k).empty());
}

TEST(Validate, AcceptsAConsistentScene) { EXPECT_TRUE(validate(skinnedZUpScene()).empty()); }

TEST(Merge, BindsASecondMeshToTheFirstSkeletonByBoneName) {
  Scene a = skinnedZUpScene();
  Scene b = skinnedZUpScene();
  std::swap(b.skeleton.bones[0].name, b.skeleton.bones[1].name);  // other order of names
  b.skeleton.bones.push_back({"extra", 0, {}, {1, 0, 0, 0}, {1, 1, 1}});
  merge(a, b, "b");
  ASSERT_EQ(a.meshes.size(), 2u);
  // b's vertex 0 was weighted to its bone 0 ("arm"), which is a's bone 1.
  EXPECT_EQ(a.meshes[1].influencesOf(0)[0].bone, 1u);
  EXPECT_TRUE(validate(a).empty());
  EXPECT_FALSE(a.diagnostics.empty());
}

TEST(Detect, UsesMagicBeforeExtension) {
  const char omf[] = "OMF1....";
  const auto bytes = std::as_bytes(std::span(omf));
  EXPECT_EQ(detect(bytes, "model.gltf"), formatById("omf"));
  EXPECT_EQ(detect({}, "MODEL.OMF"), formatById("omf"));
  EXPECT_EQ(detect({}, "walk.SMD"), formatById("assimp"));
  EXPECT_EQ(detect({}, "scene.GLB"), formatById("gltf"));
  EXPECT_EQ(detect({}, "readme.txt"), nullptr);
  EXPECT_EQ(detect({}, "noextension"), nullptr);
}

}  // namespace
}  // namespace marrow::formats

namespace marrow::formats {
namespace {

// A skeleton under a uniformly scaled root whose mesh was bound under a scaled, moved node.
Scene scaledAndRebound() {
  Scene s = skinnedZUpScene();
  s.basis = Basis{};
  s.skeleton.bones[0].scale = glm::vec3(3.0f);
  s.skeleton.bones[1].scale = glm::vec3(1.0f);
  const glm::mat4 node = glm::translate(glm::mat4(1.0f), glm::vec3(0.5f, 0, 0)) *
                         glm::scale(glm::mat4(1.0f), glm::vec3(0.25f));
  s.meshes[0].inverseBind = s.skeleton.inverseBindMatrices();
  for (auto& ib : s.meshes[0].inverseBind) ib = ib * node;
  s.clips[0].tracks[0].scale = {};
  return s;
}

TEST(RemoveBoneScaleAndUnifyBindPoses, LeaveEverySkinnedVertexWhereItWas) {
  const Scene original = scaledAndRebound();
  Scene plain = original;
  Diagnostics d;
  removeBoneScale(plain, d);
  unifyBindPoses(plain, d);
  for (const auto& b : plain.skeleton.bones) EXPECT_EQ(b.scale, glm::vec3(1.0f));
  EXPECT_TRUE(plain.meshes[0].inverseBind.empty());
  EXPECT_TRUE(validate(plain).empty());
  for (float t : {0.0f, 0.4f, 1.0f}) {
    const auto a = skinnedDisplay(original, t);
    const auto b = skinnedDisplay(plain, t);
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(glm::length(a[i] - b[i]), 0.0f, 1e-5f) << "vertex " << i << " at " << t;
  }
  EXPECT_TRUE(d.empty()) << describe(d.items.front());
}

TEST(UnifyBindPoses, LeavesAlreadyRigidSharedBindsUntouched) {
  Scene s = skinnedZUpScene();
  s.skeleton.bones[1].scale = glm::vec3(1.0f);
  const Scene before = s;
  Diagnostics d;
  unifyBindPoses(s, d);
  EXPECT_EQ(s.skeleton.inverseBind, before.skeleton.inverseBind);
  EXPECT_EQ(s.meshes[0].positions, before.meshes[0].positions);
}

}  // namespace
}  // namespace marrow::formats
