// Dual-quaternion skinning on the GPU (shaders/skin.glsl, the renderer's real mesh program,
// captured with transform feedback) against the CPU reference (anim::skinDualQuat), and against
// linear blend skinning where the two must agree: vertices of one bone with weight 1.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <random>

#include "gl_fixture.h"
#include "render/anim/skinning.h"

#include "tests/support/random_scenes.h"

namespace marrow {
namespace {

using formats::Bone;
using formats::Influence;
using formats::Mesh;
using formats::Scene;

float worstRelative(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  EXPECT_EQ(a.size(), b.size());
  return testing::worstRelativeDistance(a, b);
}

// A random scene as the tests here use them: at least one influence a vertex.
Scene randomScene(std::uint32_t bones, std::uint32_t maxInfluences, std::size_t vertices,
                  bool rigid, std::uint32_t seed) {
  return testing::randomSkinnedScene({bones, 1, std::max(maxInfluences, 1u), vertices, rigid, seed});
}

// Random rotations, translations and uniform scales of up to 10%: similarity transforms.
anim::Pose randomPose(const formats::Skeleton& skel, std::uint32_t seed) {
  return testing::randomPose(skel, seed, 0.1f);
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

  // The GPU's dual-quaternion skinning of `scene` in a random pose of seed `poseSeed`, against
  // the CPU reference.
  void expectTheCpuReference(const std::shared_ptr<Scene>& scene, std::uint32_t poseSeed) {
    renderer_.setScene(scene, {});
    const anim::Pose pose = randomPose(scene->skeleton, poseSeed);
    renderer_.setPose(pose);
    EXPECT_LT(
        worstRelative(capture(render::SkinningMethod::DualQuaternion), cpuDualQuat(*scene, pose)),
        anim::kSkinningTolerance);
  }
};

TEST_F(DualQuatGpu, UpToFourInfluencesMatchTheCpuReference) {
  expectTheCpuReference(std::make_shared<Scene>(randomScene(64, 4, 3000, false, 31)), 32);
}

TEST_F(DualQuatGpu, EightInfluencesMatchTheCpuReference) {
  auto scene = std::make_shared<Scene>(randomScene(200, 8, 3000, false, 33));
  ASSERT_GT(scene->meshes[0].maxInfluences(), 4u);
  expectTheCpuReference(scene, 34);
}

TEST_F(DualQuatGpu, TextureBufferPaletteMatchesTheCpuReference) {
  expectTheCpuReference(std::make_shared<Scene>(randomScene(700, 8, 6000, false, 35)), 36);
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
