// The GPU skinning path (shaders/skin.glsl through the renderer's real mesh program) against the
// CPU reference (render/anim/skinning.cpp), captured with transform feedback.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include <glm/gtc/quaternion.hpp>

#include "formats/registry.h"
#include "gl_fixture.h"
#include "render/anim/morph.h"
#include "render/anim/skinning.h"

#include "tests/support/random_scenes.h"
#include "tests/support/skip.h"

namespace marrow {
namespace {

using formats::Bone;
using formats::Influence;
using formats::Mesh;
using formats::Scene;

// Largest distance between GPU and CPU skinned positions, as a fraction of the model's size.
float gpuCpuError(render::Renderer& r, const Scene& scene, const anim::Pose& pose, std::size_t mesh) {
  std::vector<glm::mat4> palette;
  anim::skinPalette(scene.skeleton, scene.meshes[mesh], pose, palette);
  std::vector<glm::vec3> cpu;
  anim::skin(scene.meshes[mesh], anim::packInfluences(scene.meshes[mesh]), palette, cpu);
  const std::vector<glm::vec3> gpu = r.captureSkinnedPositions(mesh);
  EXPECT_EQ(gpu.size(), cpu.size());
  return testing::worstRelativeDistance(gpu, cpu);
}

// A skeleton of `bones` bones (a few chains), a mesh whose vertices each carry up to
// `maxInfluences` random influences (none, some of them).
Scene randomSkinnedScene(std::uint32_t bones, std::uint32_t maxInfluences, std::size_t vertices,
                         std::uint32_t seed) {
  return testing::randomSkinnedScene({bones, 0, maxInfluences, vertices, false, seed});
}

using testing::randomPose;

class GpuSkinning : public testing::GlTest {};

TEST_F(GpuSkinning, UniformBlockPaletteMatchesCpuSkinning) {
  auto scene = std::make_shared<Scene>(randomSkinnedScene(64, 4, 3000, 1));
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 2);
  renderer_.setPose(pose);
  EXPECT_LT(gpuCpuError(renderer_, *scene, pose, 0), anim::kSkinningTolerance);
}

// Influences packed ahead (anim::packScene, the viewer's loading thread) are what the renderer
// skins with, on the GPU and for picking, when they are its scene's; another scene's are left
// alone, even with as many vertices.
TEST_F(GpuSkinning, InfluencesPackedAheadAreUsedForTheirOwnSceneOnly) {
  std::shared_ptr<const Scene> scene = std::make_shared<Scene>(randomSkinnedScene(64, 4, 3000, 1));
  std::shared_ptr<const Scene> other = std::make_shared<Scene>(randomSkinnedScene(64, 4, 3000, 9));
  const anim::Pose pose = randomPose(scene->skeleton, 2);
  std::vector<glm::mat4> palette;
  anim::skinPalette(scene->skeleton, scene->meshes[0], pose, palette);
  auto cpuWith = [&](const anim::PackedInfluences& packed) {
    std::vector<glm::vec3> out;
    anim::skin(scene->meshes[0], packed, palette, out);
    return out;
  };
  const std::vector<glm::vec3> own = cpuWith(anim::packInfluences(scene->meshes[0]));
  const std::vector<glm::vec3> others = cpuWith(anim::packInfluences(other->meshes[0]));
  ASSERT_GT(testing::worstRelativeDistance(own, others), 100 * anim::kSkinningTolerance);

  // Packed from this scene object: used. To tell, they hold the other scene's influences.
  auto swapped = std::make_shared<anim::PackedScene>(*anim::packScene(other));
  swapped->scene = scene;
  renderer_.setScene(scene, {}, swapped);
  renderer_.setPose(pose);
  EXPECT_LT(testing::worstRelativeDistance(renderer_.captureSkinnedPositions(0), others), anim::kSkinningTolerance);
  EXPECT_LT(testing::worstRelativeDistance(renderer_.displayPositions(0), others), anim::kSkinningTolerance);

  // Packed from another scene, or from an equal copy (alive): packed again here.
  const std::shared_ptr<const Scene> copy = std::make_shared<const Scene>(*scene);
  for (const auto& packed : {anim::packScene(other), anim::packScene(copy)}) {
    renderer_.setScene(scene, {}, packed);
    renderer_.setPose(pose);
    EXPECT_LT(testing::worstRelativeDistance(renderer_.captureSkinnedPositions(0), own), anim::kSkinningTolerance);
    EXPECT_LT(testing::worstRelativeDistance(renderer_.displayPositions(0), own), anim::kSkinningTolerance);
  }
}

// Simulated cloth (render/anim/springs.h) reaches the GPU as placed vertices: drawn, captured
// and picked as given, neither skinned nor morphed; clearing them puts the skinning back.
TEST_F(GpuSkinning, PlacedVerticesAreDrawnAsGivenUntilCleared) {
  auto scene = std::make_shared<Scene>(randomSkinnedScene(16, 4, 500, 11));
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 12);
  renderer_.setPose(pose);
  std::vector<glm::vec3> placed(scene->meshes[0].vertexCount());
  for (std::size_t v = 0; v < placed.size(); ++v) placed[v] = glm::vec3(static_cast<float>(v), 1.0f, -2.0f);
  renderer_.setPlacedVertices(0, placed);
  EXPECT_TRUE(renderer_.placed(0));
  EXPECT_EQ(renderer_.captureSkinnedPositions(0), placed);
  const std::vector<glm::vec3> picked = renderer_.displayPositions(0);  // what picking sees
  ASSERT_EQ(picked.size(), placed.size());
  const glm::mat4 display = formats::toDisplay(scene->basis);
  EXPECT_LT(glm::length(picked[7] - glm::vec3(display * glm::vec4(placed[7], 1.0f))), 1e-5f);
  renderer_.setPlacedVertices(0, std::vector<glm::vec3>(3));  // not one per vertex: cleared
  EXPECT_FALSE(renderer_.placed(0));
  EXPECT_LT(gpuCpuError(renderer_, *scene, pose, 0), anim::kSkinningTolerance);
  renderer_.setPlacedVertices(0, placed);
  renderer_.setScene(scene, {});  // a new scene: nothing placed
  EXPECT_FALSE(renderer_.placed(0));
}

TEST_F(GpuSkinning, EightInfluencesPerVertexMatchCpuSkinning) {
  auto scene = std::make_shared<Scene>(randomSkinnedScene(200, 8, 3000, 3));
  ASSERT_GT(scene->meshes[0].maxInfluences(), 4u);
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 4);
  renderer_.setPose(pose);
  EXPECT_LT(gpuCpuError(renderer_, *scene, pose, 0), anim::kSkinningTolerance);
}

TEST_F(GpuSkinning, TextureBufferPaletteBeyond256BonesMatchesCpuSkinning) {
  auto scene = std::make_shared<Scene>(randomSkinnedScene(700, 8, 6000, 5));
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 6);
  renderer_.setPose(pose);
  // Make sure bones past 256 are really used.
  std::uint32_t highest = 0;
  for (const auto& i : scene->meshes[0].influences) highest = std::max(highest, i.bone);
  ASSERT_GT(highest, 600u);
  EXPECT_LT(gpuCpuError(renderer_, *scene, pose, 0), anim::kSkinningTolerance);
}

TEST_F(GpuSkinning, MoreThanEightInfluencesAreTruncatedTheSameWayOnBothPaths) {
  auto scene = std::make_shared<Scene>(randomSkinnedScene(40, 12, 2000, 7));
  ASSERT_GT(scene->meshes[0].maxInfluences(), 8u);
  EXPECT_GT(anim::packInfluences(scene->meshes[0]).truncatedVertices, 0u);
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 8);
  renderer_.setPose(pose);
  EXPECT_LT(gpuCpuError(renderer_, *scene, pose, 0), anim::kSkinningTolerance);
}

TEST_F(GpuSkinning, RigidlyAttachedAndUnskinnedMeshesMatchCpuSkinning) {
  auto base = randomSkinnedScene(10, 0, 300, 9);  // no influences at all: identity
  Mesh rigid = base.meshes[0];
  rigid.name = "rigid";
  rigid.influenceStart.clear();
  rigid.influences.clear();
  rigid.parentBone = 7;
  base.meshes.push_back(rigid);
  auto scene = std::make_shared<Scene>(std::move(base));
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 10);
  renderer_.setPose(pose);
  EXPECT_LT(gpuCpuError(renderer_, *scene, pose, 0), anim::kSkinningTolerance);
  EXPECT_LT(gpuCpuError(renderer_, *scene, pose, 1), anim::kSkinningTolerance);
}

TEST_F(GpuSkinning, RealAnimatedModelMatchesCpuSkinningAtSeveralTimes) {
  const std::string path = std::string(MARROW_ASSIMP_MODELS_DIR) + "/X/BCN_Epileptic.X";
  if (!std::ifstream(path)) MARROW_SKIP() << path << " is absent (Debian package assimp-testmodels)";
  auto loaded = formats::loadFile(path);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  auto scene = std::make_shared<Scene>(std::move(loaded).value());
  ASSERT_FALSE(scene->clips.empty());
  renderer_.setScene(scene, {});
  const auto& clip = scene->clips[0];
  for (float f : {0.0f, 0.3f, 0.55f, 0.9f}) {
    const anim::Pose pose = anim::evaluate(scene->skeleton, &clip, clip.duration * f);
    renderer_.setPose(pose);
    for (std::size_t m = 0; m < scene->meshes.size(); ++m)
      EXPECT_LT(gpuCpuError(renderer_, *scene, pose, m), anim::kSkinningTolerance) << "mesh " << m << " at " << f;
  }
}

}  // namespace
}  // namespace marrow

namespace marrow {
namespace {

// Morph targets then skinning, GPU against the CPU reference (anim::applyMorphs + skin).
float morphedError(render::Renderer& r, const Scene& scene, const anim::Pose& pose,
                   const std::vector<float>& weights) {
  const auto& mesh = scene.meshes[0];
  std::vector<glm::vec3> positions, normals, cpu;
  anim::applyMorphs(mesh, weights, positions, normals);
  std::vector<glm::mat4> palette;
  anim::skinPalette(scene.skeleton, mesh, pose, palette);
  anim::skin(positions, normals, anim::packInfluences(mesh), palette, cpu);
  r.setMorphWeights(0, weights);
  const auto gpu = r.captureSkinnedPositions(0);
  EXPECT_EQ(gpu.size(), cpu.size());
  float worst = 0.0f;
  for (std::size_t i = 0; i < cpu.size() && i < gpu.size(); ++i)
    worst = std::max(worst, glm::length(gpu[i] - cpu[i]));
  return worst / std::max(testing::extent(cpu), 1e-6f);
}

Scene morphedScene() {
  Scene s = randomSkinnedScene(30, 4, 2000, 21);
  std::mt19937 rng(22);
  std::uniform_real_distribution<float> u(-0.2f, 0.2f);
  auto& mesh = s.meshes[0];
  for (int k = 0; k < 7; ++k) {
    formats::MorphTarget t;
    t.name = "target" + std::to_string(k);
    for (std::uint32_t v = static_cast<std::uint32_t>(k); v < mesh.vertexCount(); v += 3) {
      t.vertices.push_back(v);  // sparse, as cal3d stores them
      t.positions.push_back(mesh.positions[v] + glm::vec3(u(rng), u(rng), u(rng)));
      t.normals.push_back(glm::normalize(mesh.normals[v] + glm::vec3(u(rng), u(rng), u(rng))));
    }
    mesh.morphs.push_back(std::move(t));
  }
  return s;
}

TEST_F(GpuSkinning, UpToFourMorphTargetsBlendOnTheGpuAsOnTheCpu) {
  auto scene = std::make_shared<Scene>(morphedScene());
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 23);
  renderer_.setPose(pose);
  EXPECT_LT(morphedError(renderer_, *scene, pose, {0.0f, 0.7f, 0.0f, 0.3f, 1.0f, 0.0f, -0.5f}), anim::kSkinningTolerance);
}

TEST_F(GpuSkinning, MoreMorphTargetsThanSlotsAreSummedOnTheCpuAndStillMatch) {
  auto scene = std::make_shared<Scene>(morphedScene());
  renderer_.setScene(scene, {});
  const anim::Pose pose = randomPose(scene->skeleton, 24);
  renderer_.setPose(pose);
  EXPECT_LT(morphedError(renderer_, *scene, pose, {0.2f, 0.7f, 0.4f, 0.3f, 1.0f, 0.6f, -0.5f}), anim::kSkinningTolerance);
  // And back to none: the base shape.
  EXPECT_LT(morphedError(renderer_, *scene, pose, {}), anim::kSkinningTolerance);
}

}  // namespace
}  // namespace marrow
