// The CPU dual-quaternion skinning path (render/anim/skinning.h) against geometry worked out by
// hand: rotations about a known axis, translations, the antipodal quaternion, what is dropped.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>
#include <numbers>

#include "render/anim/skinning.h"

namespace marrow::anim {
namespace {

using formats::Influence;
using formats::Mesh;

constexpr float kPi = std::numbers::pi_v<float>;

glm::vec3 skinOne(const glm::vec3& p, std::vector<Influence> influences,
                  const std::vector<glm::mat4>& palette, glm::vec3* normal = nullptr) {
  Mesh m;
  m.positions = {p};
  m.addInfluences(influences);
  std::vector<glm::vec3> out, normalsOut;
  const std::vector<glm::vec3> normals = {normal ? *normal : glm::vec3(0, 0, 1)};
  skinDualQuat(m.positions, normals, packInfluences(m), palette, out, &normalsOut);
  if (normal) *normal = normalsOut[0];
  return out[0];
}

void expectNear(const glm::vec3& a, const glm::vec3& b, float tolerance = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, tolerance) << "x";
  EXPECT_NEAR(a.y, b.y, tolerance) << "y";
  EXPECT_NEAR(a.z, b.z, tolerance) << "z";
}

// ---- Bad and degenerate input first. ----

TEST(DualQuatSkinning, VertexWithoutWeightsStaysWhereItIs) {
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(5, 0, 0))};
  expectNear(skinOne({1, 2, 3}, {}, palette), {1, 2, 3});
}

TEST(DualQuatSkinning, BonesBeyondThePaletteAreLeftOut) {
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(0, 1, 0))};
  // Bone 7 does not exist: only bone 0 counts, with its weight renormalised away by the blend.
  expectNear(skinOne({1, 0, 0}, {{0, 0.5f}, {7, 0.5f}}, palette), {1, 1, 0});
}

TEST(DualQuatSkinning, AZeroScaleBoneIsNoRotation) {
  const std::vector<glm::mat4> palette = {glm::mat4(0.0f)};
  // Every column of length 0: no rotation can be read, the scale is 0 and the point collapses
  // onto the (zero) translation rather than becoming NaN.
  const glm::vec3 p = skinOne({1, 2, 3}, {{0, 1.0f}}, palette);
  EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
  expectNear(p, {0, 0, 0});
}

TEST(DualQuatSkinning, InputMayBeTheOutput) {
  Mesh m;
  m.positions = {{1, 0, 0}};
  m.addInfluences(std::vector<Influence>{{0, 1.0f}});
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(0, 0, 2))};
  std::vector<glm::vec3> inOut = m.positions;
  skinDualQuat(inOut, {}, packInfluences(m), palette, inOut);
  expectNear(inOut[0], {1, 0, 2});
}

// ---- One bone: the bone's own transform. ----

TEST(DualQuatSkinning, OneFullWeightIsTheBonesRigidTransform) {
  const glm::mat4 bone = glm::translate(glm::vec3(1, -2, 0.5f)) *
                         glm::rotate(0.7f, glm::normalize(glm::vec3(1, 2, 3)));
  const glm::vec3 p(0.3f, -0.4f, 2.0f);
  expectNear(skinOne(p, {{0, 1.0f}}, {bone}), glm::vec3(bone * glm::vec4(p, 1.0f)));
}

TEST(DualQuatSkinning, UniformScaleIsKept) {
  const glm::mat4 bone = glm::translate(glm::vec3(0, 1, 0)) *
                         glm::rotate(kPi / 2, glm::vec3(0, 0, 1)) * glm::scale(glm::vec3(2.0f));
  // (1, 0, 0) scaled to (2, 0, 0), turned a quarter about z to (0, 2, 0), moved up one.
  expectNear(skinOne({1, 0, 0}, {{0, 1.0f}}, {bone}), {0, 3, 0});
}

TEST(DualQuatSkinning, NonUniformScaleBecomesItsMean) {
  // The documented caveat: scale (3, 1, 2) is no dual quaternion; its mean, 2, is kept.
  const glm::mat4 bone = glm::scale(glm::vec3(3, 1, 2));
  expectNear(skinOne({1, 1, 1}, {{0, 1.0f}}, {bone}), {2, 2, 2});
}

TEST(DualQuatSkinning, NormalsAreRotatedAndUnitLength) {
  const glm::mat4 bone = glm::rotate(kPi / 2, glm::vec3(0, 1, 0)) * glm::scale(glm::vec3(3.0f));
  glm::vec3 n(0, 0, 1);
  skinOne({0, 0, 0}, {{0, 1.0f}}, {bone}, &n);
  expectNear(n, {1, 0, 0});  // +z turned a quarter about +y is +x
}

// ---- Blends. ----

TEST(DualQuatSkinning, HalfwayBetweenTwoRotationsKeepsTheRadius) {
  // Bones turned 0 and 90 degrees about z; a vertex weighted half to each turns 45 degrees and
  // stays at radius 1 — where the linear blend would pull it in to cos 45° (candy wrapper).
  const std::vector<glm::mat4> palette = {glm::mat4(1.0f),
                                          glm::rotate(kPi / 2, glm::vec3(0, 0, 1))};
  const glm::vec3 p = skinOne({1, 0, 0}, {{0, 0.5f}, {1, 0.5f}}, palette);
  const float h = std::sqrt(0.5f);
  expectNear(p, {h, h, 0});
  EXPECT_NEAR(glm::length(p), 1.0f, 1e-6f);

  Mesh m;
  m.positions = {{1, 0, 0}};
  m.addInfluences(std::vector<Influence>{{0, 0.5f}, {1, 0.5f}});
  std::vector<glm::vec3> linear;
  skin(m, packInfluences(m), palette, linear);
  EXPECT_NEAR(glm::length(linear[0]), h, 1e-6f);  // the collapse DQ avoids
}

TEST(DualQuatSkinning, UnequalWeightsTurnInProportion) {
  // Weights ¾ and ¼ of 0 and 60 degrees: a unit-quaternion blend of a small angle is very close to
  // the proportional angle, 15 degrees (exactly: atan of the blended half-angle terms).
  const std::vector<glm::mat4> palette = {glm::mat4(1.0f),
                                          glm::rotate(kPi / 3, glm::vec3(0, 0, 1))};
  const glm::vec3 p = skinOne({2, 0, 0}, {{0, 0.75f}, {1, 0.25f}}, palette);
  const float half = std::atan2(0.25f * std::sin(kPi / 6), 0.75f + 0.25f * std::cos(kPi / 6));
  expectNear(p, {2 * std::cos(2 * half), 2 * std::sin(2 * half), 0});
}

TEST(DualQuatSkinning, TranslationsBlendLinearly) {
  const std::vector<glm::mat4> palette = {glm::translate(glm::vec3(2, 0, 0)),
                                          glm::translate(glm::vec3(0, 4, 0))};
  expectNear(skinOne({1, 1, 1}, {{0, 0.5f}, {1, 0.5f}}, palette), {2, 3, 1});
}

TEST(DualQuatSkinning, OppositeQuaternionsOfOneRotationBlendAsThatRotation) {
  // 170 and 190 degrees about z, the second encoded as its negative (q and -q are one rotation):
  // the quaternions then lie in opposite hemispheres and, summed as they are, would nearly cancel.
  // Taken into the first one's hemisphere, halfway is 180 degrees.
  Mesh m;
  m.positions = {{1, 0, 0}};
  m.addInfluences(std::vector<Influence>{{0, 0.5f}, {1, 0.5f}});
  const PackedInfluences packed = packInfluences(m);
  std::vector<glm::mat4> encoded = {
      encodeDualQuat(glm::rotate(kPi * 170 / 180, glm::vec3(0, 0, 1))),
      encodeDualQuat(glm::rotate(kPi * 190 / 180, glm::vec3(0, 0, 1)))};
  if (glm::dot(encoded[0][0], encoded[1][0]) > 0.0f) {
    encoded[1][0] = -encoded[1][0];
    encoded[1][1] = -encoded[1][1];
  }
  ASSERT_LT(glm::dot(encoded[0][0], encoded[1][0]), 0.0f);
  const glm::mat4 blended = dualQuatMatrix(packed, 0, encoded);
  expectNear(glm::vec3(blended * glm::vec4(1, 0, 0, 1)), {-1, 0, 0});
  // And the other way round: the first influence's hemisphere wins, the result is the same.
  std::swap(encoded[0], encoded[1]);
  expectNear(glm::vec3(dualQuatMatrix(packed, 0, encoded) * glm::vec4(1, 0, 0, 1)), {-1, 0, 0});
}

TEST(DualQuatSkinning, RotationAboutAnOffsetPivot) {
  // A bone turning 90° about a pivot at (1, 0, 0): the vertex at (2, 0, 0) follows it to (1, 1, 0)
  // when fully weighted, and halfway (45°, same radius about the pivot) when weighted half.
  const glm::mat4 turned = glm::translate(glm::vec3(1, 0, 0)) *
                           glm::rotate(kPi / 2, glm::vec3(0, 0, 1)) *
                           glm::translate(glm::vec3(-1, 0, 0));
  expectNear(skinOne({2, 0, 0}, {{1, 1.0f}}, {glm::mat4(1.0f), turned}), {1, 1, 0});
  const glm::vec3 half = skinOne({2, 0, 0}, {{0, 0.5f}, {1, 0.5f}}, {glm::mat4(1.0f), turned});
  const float h = std::sqrt(0.5f);
  expectNear(half, {1 + h, h, 0});
}

TEST(DualQuatSkinning, EncodingHoldsRotationTranslationAndScale) {
  const glm::quat r = glm::angleAxis(0.9f, glm::normalize(glm::vec3(-1, 2, 1)));
  const glm::vec3 t(3, -1, 2);
  const glm::mat4 m = glm::translate(t) * glm::mat4_cast(r) * glm::scale(glm::vec3(1.5f));
  const glm::mat4 e = encodeDualQuat(m);
  const glm::vec4 real(r.x, r.y, r.z, r.w);
  EXPECT_NEAR(std::abs(glm::dot(e[0], real)), 1.0f, 1e-6f);  // the same rotation, either sign
  EXPECT_NEAR(e[2].x, 1.5f, 1e-6f);
  // The translation comes back as 2 d r*.
  const glm::quat rq(e[0].w, e[0].x, e[0].y, e[0].z), dq(e[1].w, e[1].x, e[1].y, e[1].z);
  const glm::quat back = 2.0f * dq * glm::conjugate(rq);
  expectNear({back.x, back.y, back.z}, t);
}

}  // namespace
}  // namespace marrow::anim
