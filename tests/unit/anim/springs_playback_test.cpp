// render/anim/springs.h ClothPlayback: the cloth along a clip's time as the viewer plays it and
// the CLI shows it. Playing on (frame after frame, across a looped clip's end) continues the
// simulation; a jump simulates afresh, so a scrub shows what `pose --springs` shows. The
// simulation itself is checked against libcal3d in tests/reference (Cal3dSprings).
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "render/anim/pose.h"
#include "render/anim/springs.h"

namespace marrow {
namespace {

using formats::Scene;

// A bone swinging about x, and a strip hanging from it: the top two vertices skinned (physical
// weight 0), the two below on springs, the lowest two on springs below them.
Scene swingingStrip() {
  Scene s;
  formats::Bone bone;
  bone.name = "arm";
  s.skeleton.bones.push_back(bone);
  formats::Mesh m;
  m.name = "strip";
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 2; ++col) {
      m.positions.emplace_back(static_cast<float>(col), 0.0f, -10.0f * static_cast<float>(row));
      m.normals.emplace_back(0.0f, 1.0f, 0.0f);
      const formats::Influence one[] = {{0, 1.0f}};
      m.addInfluences(one);
      m.physicalWeights.push_back(row == 0 ? 0.0f : 1.0f);
    }
  m.indices = {0, 2, 1, 1, 2, 3, 2, 4, 3, 3, 4, 5};
  for (const auto& [a, b] : std::initializer_list<std::pair<std::uint32_t, std::uint32_t>>{
           {0, 2}, {1, 3}, {2, 4}, {3, 5}, {2, 3}, {4, 5}})
    m.springs.push_back({a, b, 1000.0f, glm::length(m.positions[a] - m.positions[b])});
  s.meshes.push_back(m);
  formats::Clip clip;
  clip.name = "swing";
  clip.duration = 2.0f;
  formats::Track t;
  t.bone = "arm";
  for (int k = 0; k <= 4; ++k)
    t.rotation.add(0.5f * static_cast<float>(k), glm::angleAxis(k % 2 ? 0.8f : -0.8f, glm::vec3(1, 0, 0)));
  clip.tracks.push_back(t);
  s.clips.push_back(clip);
  return s;
}

float worst(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  float w = a.size() == b.size() ? 0.0f : 1e30f;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) w = std::max(w, glm::length(a[i] - b[i]));
  return w;
}

struct Fixture {
  Scene scene = swingingStrip();
  anim::ClothPlayback::PoseAt poseAt = [this](float t) {
    return anim::evaluate(scene.skeleton, &scene.clips[0], t, true);
  };
  std::vector<glm::vec3> at(float t) {  // afresh
    anim::ClothPlayback c(scene);
    c.moveTo(t, 2.0f, true, poseAt);
    return c.positions(0);
  }
};

TEST(ClothPlayback, PlayingFrameByFrameGivesWhatASimulationAfreshGives) {
  Fixture f;
  anim::ClothPlayback playing(f.scene);
  ASSERT_EQ(playing.meshes(), std::vector<std::size_t>{0});
  for (int frame = 0; frame <= 60; ++frame) playing.moveTo(static_cast<float>(frame) / 60.0f, 2.0f, true, f.poseAt);
  const auto fresh = f.at(1.0f);
  // The same steps, up to the rounding of the times. (Before ceil learnt to ignore a rounding
  // error, 4/60 s afresh took a fifth step of 1e-8 s, and Verlet moved the cloth a whole step's
  // worth in it: 0.01 here.)
  EXPECT_LT(worst(playing.positions(0), fresh), 1e-5f);
  // The cloth moved: not the skinned strip, and the skinned top row exactly where skinning puts it.
  const anim::Pose pose = f.poseAt(1.0f);
  const glm::vec3 top = glm::vec3(pose.model[0] * glm::vec4(f.scene.meshes[0].positions[0], 1.0f));
  EXPECT_LT(glm::length(fresh[0] - top), 1e-5f);
  const glm::vec3 skinnedBottom = glm::vec3(pose.model[0] * glm::vec4(f.scene.meshes[0].positions[4], 1.0f));
  EXPECT_GT(glm::length(fresh[4] - skinnedBottom), 0.5f);
  EXPECT_EQ(playing.normals(0).size(), 6u);
}

TEST(ClothPlayback, AJumpSimulatesAfreshAndALoopsEndDoesNot) {
  Fixture f;
  anim::ClothPlayback c(f.scene);
  for (int frame = 0; frame <= 90; ++frame) c.moveTo(static_cast<float>(frame) / 60.0f, 2.0f, true, f.poseAt);
  c.moveTo(0.4f, 2.0f, true, f.poseAt);  // a scrub back: what the CLI shows at 0.4
  EXPECT_EQ(c.positions(0), f.at(0.4f));
  c.moveTo(1.95f, 2.0f, true, f.poseAt);  // a scrub forward, past kContinue: afresh too
  EXPECT_EQ(c.positions(0), f.at(1.95f));
  // Across the loop's end the cloth swings on: it does not fall back to where a fresh start at
  // 0.05 s would have it.
  c.moveTo(0.05f, 2.0f, true, f.poseAt);
  EXPECT_GT(worst(c.positions(0), f.at(0.05f)), 0.1f);
  // restart(): the next time is afresh whatever it is.
  c.restart();
  c.moveTo(0.1f, 2.0f, true, f.poseAt);
  EXPECT_EQ(c.positions(0), f.at(0.1f));
}

// Found in review: uneven frames (17 ms, a stall), the same time asked twice after several loops,
// and times a little apart must not kick the cloth or restart it.
TEST(ClothPlayback, UnevenFramesAndRepeatsNeitherKickNorRestartTheCloth) {
  Fixture f;
  anim::ClothPlayback playing(f.scene);
  float t = 0.0f;
  for (int frame = 0; frame < 60; ++frame, t += 0.017f) playing.moveTo(t, 2.0f, false, f.poseAt);
  t -= 0.017f;
  anim::ClothPlayback fresh(f.scene);
  fresh.moveTo(t, 2.0f, false, f.poseAt);
  // Whole steps on the same grid either way: what remains is rounding.
  EXPECT_LT(worst(playing.positions(0), fresh.positions(0)), 1e-4f);

  // Looping for several rounds, then the same time again: nothing moves.
  anim::ClothPlayback loop(f.scene);
  for (int frame = 0; frame < 600; ++frame) loop.moveTo(std::fmod(static_cast<float>(frame) / 60.0f, 2.0f), 2.0f, true, f.poseAt);
  const auto before = loop.positions(0);
  loop.moveTo(std::fmod(599.0f / 60.0f, 2.0f), 2.0f, true, f.poseAt);
  EXPECT_EQ(loop.positions(0), before);

  // Afresh, a hair later is a hair away (a short last step once moved the cloth by most of a step).
  EXPECT_LT(worst(f.at(0.75f), f.at(0.7501f)), 1e-2f);
}

TEST(ClothPlayback, PlayingBackwardsContinuesTheSimulation) {
  Fixture f;
  anim::ClothPlayback c(f.scene);
  for (int frame = 0; frame <= 60; ++frame) c.moveTo(static_cast<float>(frame) / 60.0f, 2.0f, false, f.poseAt);
  for (int frame = 59; frame >= 30; --frame) c.moveTo(static_cast<float>(frame) / 60.0f, 2.0f, false, f.poseAt);
  // Ping-pong's way back: the cloth swings on from where it was, not restarted at 0.5 s.
  EXPECT_GT(worst(c.positions(0), f.at(0.5f)), 0.05f);
  const anim::Pose pose = f.poseAt(0.5f);
  const glm::vec3 top = glm::vec3(pose.model[0] * glm::vec4(f.scene.meshes[0].positions[1], 1.0f));
  EXPECT_LT(glm::length(c.positions(0)[1] - top), 1e-5f) << "the fixed edge is where the body is now";
}

TEST(ClothPlayback, AModelWithoutSpringsHasNothingToSimulate) {
  Scene s = swingingStrip();
  s.meshes[0].springs.clear();
  anim::ClothPlayback c(s);
  EXPECT_TRUE(c.empty());
  c.moveTo(1.0f, 2.0f, true, [&](float t) { return anim::evaluate(s.skeleton, &s.clips[0], t, true); });
}

}  // namespace
}  // namespace marrow
