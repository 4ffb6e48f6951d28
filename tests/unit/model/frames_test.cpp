// Per-frame meshes as vertex animation (formats/model/frames.h): names, times, and the joins'
// refusals.
#include <gtest/gtest.h>

#include "formats/model/frames.h"

namespace marrow::formats {
namespace {

Mesh triangle(const std::string& name, float lift, bool extraVertex = false) {
  Mesh m;
  m.name = name;
  m.positions = {{0, 0, 0}, {1, 0, lift}, {0, 1, 2 * lift}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.indices = {0, 1, 2};
  if (extraVertex) {
    m.positions.push_back({1, 1, 0});
    m.normals.push_back({0, 0, 1});
    m.indices.insert(m.indices.end(), {1, 3, 2});
  }
  return m;
}

Scene frameOf(float lift, bool extraVertex = false) {
  Scene s;
  s.meshes.push_back(triangle("flag", lift, extraVertex));
  return s;
}

TEST(Frames, NumberedNamesLoseTheirExtensionFolderAndSeparator) {
  auto n = numberedName("models/anim/flag_000012.obj");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->stem, "flag");
  EXPECT_EQ(n->number, 12);
  n = numberedName("Plane.001");  // Blender's duplicate: the digits are no extension
  ASSERT_TRUE(n);
  EXPECT_EQ(n->stem, "Plane");
  EXPECT_EQ(n->number, 1);
  n = numberedName("C:\\work\\cape-7.fbx");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->stem, "cape");
  EXPECT_EQ(n->number, 7);
  n = numberedName("0042");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->stem, "");
  EXPECT_EQ(n->number, 42);
  EXPECT_FALSE(numberedName("flag.obj"));
  EXPECT_FALSE(numberedName("flag_12x.obj"));
  EXPECT_FALSE(numberedName("a_1234567890123456.obj"));  // more digits than a frame number has
}

TEST(Frames, TimesFollowTheNumbersOrElseTheOrder) {
  EXPECT_EQ(frameTimes({"a_0010.obj", "a_0013.obj", "a_0019.obj"}, 30.0f),
            (std::vector<float>{0.0f, 0.1f, 0.3f}));
  EXPECT_EQ(frameTimes({"a_5.obj", "a_6.obj"}, 24.0f), (std::vector<float>{0.0f, 1.0f / 24.0f}));
  // Numbers that do not increase, or a name without one: one frame each 1/fps, in order.
  EXPECT_EQ(frameTimes({"a_3.obj", "a_2.obj", "a_9.obj"}, 10.0f), (std::vector<float>{0.0f, 0.1f, 0.2f}));
  EXPECT_EQ(frameTimes({"first.obj", "a_2.obj"}, 10.0f), (std::vector<float>{0.0f, 0.1f}));
}

TEST(Frames, ModelsJoinIntoTargetsAndAClipThatPlaysThem) {
  std::vector<Scene> frames;
  for (float lift : {0.0f, 0.5f, 1.0f}) frames.push_back(frameOf(lift));
  frames[1].meshes[0].normals.clear();  // a frame without normals keeps the mesh's
  auto s = joinFrames(std::move(frames), {"dir/wave_1.obj", "dir/wave_2.obj", "dir/wave_4.obj"}, 30.0f);
  ASSERT_TRUE(s.ok()) << s.error().describe();
  ASSERT_EQ(s->meshes.size(), 1u);
  const Mesh& m = s->meshes[0];
  ASSERT_EQ(m.morphs.size(), 3u);
  EXPECT_EQ(m.morphs[0].name, "frame 1");
  EXPECT_EQ(m.morphs[2].positions[2], glm::vec3(0, 1, 2));
  EXPECT_TRUE(m.morphs[1].normals.empty());
  EXPECT_EQ(m.morphs[2].normals.size(), 3u);
  ASSERT_EQ(s->clips.size(), 1u);
  const Clip& c = s->clips[0];
  EXPECT_EQ(c.name, "wave (frames)");
  EXPECT_FLOAT_EQ(c.duration, 0.1f);
  ASSERT_EQ(c.morphTracks.size(), 3u);
  // Frame 2 (number 2, at 1/30 s) rises from frame 1's time and falls to frame 3's.
  EXPECT_EQ(c.morphTracks[1].target, "frame 2");
  EXPECT_EQ(c.morphTracks[1].weight.times, (std::vector<float>{0.0f, 1.0f / 30.0f, 0.1f}));
  EXPECT_EQ(c.morphTracks[1].weight.values, (std::vector<float>{0.0f, 1.0f, 0.0f}));
}

// A shell lists flag_10 before flag_2: the frames play by their numbers.
TEST(Frames, FramesPlayInTheOrderOfTheirNumbers) {
  std::vector<Scene> frames;
  for (float lift : {0.0f, 10.0f, 2.0f}) frames.push_back(frameOf(lift));
  auto s = joinFrames(std::move(frames), {"f_1.obj", "f_10.obj", "f_2.obj"}, 10.0f);
  ASSERT_TRUE(s.ok());
  const Mesh& m = s->meshes[0];
  EXPECT_EQ(m.morphs[1].positions[1].z, 2.0f);
  EXPECT_EQ(m.morphs[2].positions[1].z, 10.0f);
  EXPECT_FLOAT_EQ(s->clips[0].duration, 0.9f);
  EXPECT_EQ(s->diagnostics.count(Severity::Warning), 0u);
  std::vector<Scene> unnumbered{frameOf(0.0f), frameOf(1.0f)};
  s = joinFrames(std::move(unnumbered), {"first.obj", "second.obj"}, 10.0f);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->diagnostics.count(Severity::Warning), 1u);
}

TEST(Frames, AFrameOfOtherMeshesIsRefusedByName) {
  std::vector<Scene> frames{frameOf(0.0f), frameOf(1.0f, true)};
  auto s = joinFrames(std::move(frames), {"w_1.obj", "w_2.obj"}, 30.0f);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().file, "w_2.obj");
  EXPECT_EQ(s.error().field, "mesh 'flag'");

  std::vector<Scene> two{frameOf(0.0f), frameOf(1.0f)};
  two[1].meshes[0].indices = {0, 2, 1};  // the same vertices, wound the other way
  s = joinFrames(std::move(two), {"w_1.obj", "w_2.obj"}, 30.0f);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("other triangles"), std::string::npos);

  std::vector<Scene> fewer{frameOf(0.0f), Scene{}};
  s = joinFrames(std::move(fewer), {"w_1.obj", "w_2.obj"}, 30.0f);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().field, "meshes");
}

TEST(Frames, NumberedMeshesOfOneModelJoinPerStem) {
  Scene s;
  s.meshes = {triangle("cape.3", 1.0f), triangle("body", 0.0f), triangle("cape.1", 0.0f), triangle("cape.2", 0.5f),
              triangle("hat_1", 0.0f), triangle("hat_2", 0.0f, true), triangle("belt_1", 0.0f)};
  EXPECT_EQ(joinNumberedMeshes(s, 30.0f), 1u);
  std::vector<std::string> names;
  for (const Mesh& m : s.meshes) names.push_back(m.name);
  // The cape's frames in number order; the hats differ (left, with a warning); a lone belt stays.
  EXPECT_EQ(names, (std::vector<std::string>{"body", "cape", "hat_1", "hat_2", "belt_1"}));
  const Mesh& cape = s.meshes[1];
  ASSERT_EQ(cape.morphs.size(), 3u);
  EXPECT_EQ(cape.morphs[0].positions[1].z, 0.0f);
  EXPECT_EQ(cape.morphs[2].positions[1].z, 1.0f);
  ASSERT_EQ(s.clips.size(), 1u);
  EXPECT_EQ(s.clips[0].name, "cape (frames)");
  EXPECT_EQ(s.clips[0].morphTracks[0].mesh, "cape");
  EXPECT_EQ(s.diagnostics.count(Severity::Warning), 1u);
}

// The meshes kept keep their data, the first of them included, and with nothing to join nothing
// changes (the first version moved each kept mesh onto itself, which emptied it).
TEST(Frames, MeshesNotJoinedAreKeptWhole) {
  Scene s;
  s.meshes = {triangle("body", 0.5f), triangle("cape_1", 0.0f), triangle("cape_2", 1.0f)};
  EXPECT_EQ(joinNumberedMeshes(s, 30.0f), 1u);
  ASSERT_EQ(s.meshes.size(), 2u);
  EXPECT_EQ(s.meshes[0].name, "body");
  EXPECT_EQ(s.meshes[0].positions.size(), 3u);
  EXPECT_EQ(s.meshes[1].name, "cape");
  EXPECT_EQ(s.meshes[1].indices.size(), 3u);
  Scene plain;
  plain.meshes = {triangle("body", 0.5f), triangle("hat", 0.0f)};
  EXPECT_EQ(joinNumberedMeshes(plain, 30.0f), 0u);
  ASSERT_EQ(plain.meshes.size(), 2u);
  EXPECT_EQ(plain.meshes[0].name, "body");
  EXPECT_EQ(plain.meshes[1].positions.size(), 3u);
}

}  // namespace
}  // namespace marrow::formats
