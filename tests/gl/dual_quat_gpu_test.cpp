// Dual-quaternion skinning on the GPU (shaders/skin.glsl, the renderer's real mesh program,
// captured with transform feedback) against the CPU reference (anim::skinDualQuat), and against
// linear blend skinning where the two must agree: vertices of one bone with weight 1.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <random>

#include "gl_fixture.h"
#include "render/anim/skinning.h"

namespace marrow {
namespace {

using formats::Bone;
using formats::Influence;
using formats::Mesh;
using formats::Scene;

// A skeleton of `boneCount` bones and one mesh; each vertex has up to `maxInfluences` random
// influences (exactly one of weight 1 when `rigidVertices`).
Scene randomScene(std::uint32_t boneCount, std::uint32_t maxInfluences, std::size_t vertices,
                  bool rigidVertices, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  Scene s;
  for (std::uint32_t b = 0; b < boneCount; ++b) {
    Bone bone;
    bone.name = "bone" + std::to_string(b);
    bone.parent = b == 0 ? -1 : static_cast<int>(rng() % b);
    bone.translation = glm::vec3(unit(rng), unit(rng), unit(rng)) * 0.3f;
    bone.rotation = glm::normalize(glm::quat(1.0f + unit(rng), unit(rng), unit(rng), unit(rng)));
    s.skeleton.bones.push_back(bone);
  }
  Mesh m;
  m.name = "random";
  std::uniform_int_distribution<std::uint32_t> pickBone(0, boneCount - 1);
  std::uniform_int_distribution<std::uint32_t> pickCount(1, std::max(maxInfluences, 1u));
  for (std::size_t v = 0; v < vertices; ++v) {
    m.positions.emplace_back(unit(rng), unit(rng) + 1.0f, unit(rng));
    m.normals.push_back(glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng)) + 0.01f));
    std::vector<Influence> inf;
    if (rigidVertices) {
      inf.push_back({pickBone(rng), 1.0f});
    } else {
      const std::uint32_t n = pickCount(rng);
      float total = 0.0f;
      for (std::uint32_t k = 0; k < n; ++k) {
        inf.push_back({pickBone(rng), 0.1f + std::fabs(unit(rng))});
        total += inf.back().weight;
      }
      for (auto& i : inf) i.weight /= total;
    }
    m.addInfluences(inf);
  }
  for (std::uint32_t i = 0; i + 2 < vertices; i += 3)
    m.indices.insert(m.indices.end(), {i, i + 1, i + 2});
  s.meshes.push_back(std::move(m));
  return s;
}

// Random rotations, translations and uniform scales: palettes of similarity transforms, which
// dual quaternions hold exactly.
anim::Pose randomPose(const formats::Skeleton& skel, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  anim::Pose p = anim::restPose(skel);
  for (auto& l : p.local) {
    l.rotation = glm::normalize(
        l.rotation * glm::quat(1.0f, unit(rng) * 0.5f, unit(rng) * 0.5f, unit(rng) * 0.5f));
    l.translation += glm::vec3(unit(rng), unit(rng), unit(rng)) * 0.05f;
    l.scale = glm::vec3(1.0f + 0.1f * unit(rng));
  }
  anim::computeModel(skel, p);
  return p;
}

float sizeOf(const std::vector<glm::vec3>& pts) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const auto& p : pts) lo = glm::min(lo, p), hi = glm::max(hi, p);
  return glm::length(hi - lo);
}

float worstRelative(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  EXPECT_EQ(a.size(), b.size());
  if (a.size() != b.size() || a.empty()) return 1e30f;
  float worst = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(a[i] - b[i]));
  return worst / std::max(sizeOf(b), 1e-6f);
}

std::vector<glm::vec3> cpuDualQuat(const Scene& scene, const anim::Pose& pose) {
  std::vector<glm::mat4> palette;
  anim::skinPalette(scene.skeleton, scene.meshes[0], pose, palette);
  std::vector<glm::vec3> out;
  anim::skinDualQuat(scene.meshes[0].positions, {}, anim::packInfluences(scene.meshes[0]), palette,
                     out);
  return out;
}

class DualQuatGpu : public testing::GlTest {
 protected:
  std::vector<glm::vec3> capture(render::SkinningMethod method) {
    renderer_.setSkinningMethod(method);
    return renderer_.captureSkinnedPositions(0);
  }
};

TEST_F(DualQuatGpu, UpToFourInfluencesMatchTheCpuReference) {
  auto scene = std::make_shared<Scene>(randomScene(64, 4, 3000, false, 31));
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 32);
  renderer_.setPose(pose);
  EXPECT_LT(
      worstRelative(capture(render::SkinningMethod::DualQuaternion), cpuDualQuat(*scene, pose)),
      1e-4f);
}

TEST_F(DualQuatGpu, EightInfluencesMatchTheCpuReference) {
  auto scene = std::make_shared<Scene>(randomScene(200, 8, 3000, false, 33));
  ASSERT_GT(scene->meshes[0].maxInfluences(), 4u);
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 34);
  renderer_.setPose(pose);
  EXPECT_LT(
      worstRelative(capture(render::SkinningMethod::DualQuaternion), cpuDualQuat(*scene, pose)),
      1e-4f);
}

TEST_F(DualQuatGpu, TextureBufferPaletteMatchesTheCpuReference) {
  auto scene = std::make_shared<Scene>(randomScene(700, 8, 6000, false, 35));
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 36);
  renderer_.setPose(pose);
  EXPECT_LT(
      worstRelative(capture(render::SkinningMethod::DualQuaternion), cpuDualQuat(*scene, pose)),
      1e-4f);
}

TEST_F(DualQuatGpu, RigidSingleInfluenceVerticesSkinAsTheLinearBlend) {
  auto scene = std::make_shared<Scene>(randomScene(64, 1, 3000, true, 37));
  renderer_.setScene(scene, {});
  renderer_.setPose(randomPose(scene->skeleton, 38));
  const auto linear = capture(render::SkinningMethod::LinearBlend);
  const auto dual = capture(render::SkinningMethod::DualQuaternion);
  EXPECT_LT(worstRelative(dual, linear), 1e-5f);
}

TEST_F(DualQuatGpu, BlendedVerticesDifferFromTheLinearBlend) {
  // The switch really changes the formula: blends of rotated bones come out apart.
  auto scene = std::make_shared<Scene>(randomScene(16, 4, 600, false, 39));
  renderer_.setScene(scene, {});
  renderer_.setPose(randomPose(scene->skeleton, 40));
  const auto linear = capture(render::SkinningMethod::LinearBlend);
  const auto dual = capture(render::SkinningMethod::DualQuaternion);
  EXPECT_GT(worstRelative(dual, linear), 1e-3f);
}

TEST_F(DualQuatGpu, SwitchingBackGivesTheLinearBlendAgain) {
  auto scene = std::make_shared<Scene>(randomScene(32, 4, 900, false, 41));
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 42);
  renderer_.setPose(pose);
  const auto before = capture(render::SkinningMethod::LinearBlend);
  capture(render::SkinningMethod::DualQuaternion);
  renderer_.setPose(pose);  // a pose set while DQ is on must still give LBS palettes afterwards
  EXPECT_EQ(capture(render::SkinningMethod::LinearBlend), before);
}

}  // namespace
}  // namespace marrow
