// BRF vertex animation (spec brf.md §7.3) through the GPU's morph-then-skin path against the CPU
// reference (anim::applyMorphs then anim::skin), at times between stored frames.
#include <gtest/gtest.h>

#include <QFileInfo>
#include <algorithm>

#include "app/document.h"
#include "gl_fixture.h"
#include "render/anim/morph.h"
#include "render/anim/skinning.h"

#include "tests/support/skip.h"

namespace marrow {
namespace {

// Largest GPU–CPU distance over the mesh's vertices, as a fraction of the mesh's size.
float morphSkinError(render::Renderer& r, const formats::Scene& s, const anim::Pose& pose,
                     std::size_t mesh, const std::vector<float>& weights) {
  std::vector<glm::vec3> positions, normals, cpu;
  anim::applyMorphs(s.meshes[mesh], weights, positions, normals);
  std::vector<glm::mat4> palette;
  anim::skinPalette(s.skeleton, s.meshes[mesh], pose, palette);
  anim::skin(positions, normals, anim::packInfluences(s.meshes[mesh]), palette, cpu);
  const std::vector<glm::vec3> gpu = r.captureSkinnedPositions(mesh);
  EXPECT_EQ(gpu.size(), cpu.size());
  glm::vec3 lo(1e30f), hi(-1e30f);
  float worst = 0.0f;
  for (std::size_t i = 0; i < cpu.size() && i < gpu.size(); ++i) {
    worst = std::max(worst, glm::length(gpu[i] - cpu[i]));
    lo = glm::min(lo, cpu[i]), hi = glm::max(hi, cpu[i]);
  }
  return worst / std::max(glm::length(hi - lo), 1e-6f);
}

class BrfMorphGpu : public testing::GlTest {};

TEST_F(BrfMorphGpu, VertexAnimationBetweenFramesMatchesTheCpu) {
  const QString path = QStringLiteral(MARROW_FIXTURES_DIR "/brf/wfas_map_icons_c.brf");
  if (!QFileInfo::exists(path)) MARROW_SKIP() << "fixture missing: " << path.toStdString();
  auto doc = app::loadDocument({path}, app::Textures::Skip);
  ASSERT_TRUE(doc) << doc.error().message;
  const formats::Scene& s = *doc->scene;
  const auto clip = std::find_if(s.clips.begin(), s.clips.end(), [](const formats::Clip& c) {
    return c.name == "icon_mule (frames)";
  });
  ASSERT_NE(clip, s.clips.end());
  std::size_t mesh = 0;
  while (mesh < s.meshes.size() && s.meshes[mesh].name != "icon_mule") ++mesh;
  ASSERT_LT(mesh, s.meshes.size());
  ASSERT_EQ(s.meshes[mesh].morphs.size(), 14u);  // its stored frames

  renderer_.setScene(doc->scene, {});
  const anim::Pose pose = anim::evaluate(s.skeleton, &*clip, 0.0f);
  renderer_.setPose(pose);
  // Halfway between the middle frame and the one before it (two targets at 0.5), at other
  // times between frames (two targets), and at the end (one target).
  const auto& middle = clip->morphTracks[clip->morphTracks.size() / 2].weight;
  ASSERT_EQ(middle.times.size(), 3u);
  const float halfway = (middle.times[0] + middle.times[1]) * 0.5f;
  std::vector<std::vector<float>> weights;
  const std::pair<float, long> times[] = {{halfway, 2},
                                          {clip->duration * 0.37f, 2},
                                          {clip->duration * 0.81f, 2},
                                          {clip->duration, 1}};
  for (const auto& [t, targets] : times) {
    anim::sampleMorphWeights(*clip, t, s.meshes, weights);
    const auto active = std::count_if(weights[mesh].begin(), weights[mesh].end(),
                                      [](float w) { return w != 0.0f; });
    EXPECT_EQ(active, targets) << "at " << t;
    renderer_.setMorphWeights(mesh, weights[mesh]);
    EXPECT_LT(morphSkinError(renderer_, s, pose, mesh, weights[mesh]), 1e-5f) << "at " << t;
  }
}

}  // namespace
}  // namespace marrow
