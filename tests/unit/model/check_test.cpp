// The games' limits (formats/check.h): a model that breaks each limit of each target is told so
// with the code scripts rely on, and its fixed form (fixModel) has no error and keeps its shape.
#include "formats/check.h"
#include "formats/write.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <glm/gtc/quaternion.hpp>
#include <set>
#include <string>

namespace marrow::formats {
namespace {

bool has(const std::vector<Problem>& problems, const std::string& code, Severity severity) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const Problem& p) { return p.code == code && p.severity == severity; });
}

std::string codes(const std::vector<Problem>& problems) {
  std::string out;
  for (const auto& p : problems) out += p.code + (p.severity == Severity::Error ? "(error) " : "(warning) ");
  return out;
}

const CheckTarget& target(const char* id) {
  const CheckTarget* t = findCheckTarget(id);
  EXPECT_NE(t, nullptr) << id;
  return *t;
}

// A strip of `quads` quads (2 triangles each) up the Y axis, skinned along a chain of `bones`
// bones, every vertex to `perVertex` consecutive bones.
Scene strip(std::size_t quads, std::size_t bones, std::size_t perVertex) {
  Scene s;
  for (std::size_t b = 0; b < bones; ++b) {
    Bone bone;
    bone.name = "b" + std::to_string(b);
    bone.parent = b == 0 ? -1 : static_cast<int>(b) - 1;
    bone.translation = {0.0f, b == 0 ? 0.0f : 1.0f, 0.0f};
    s.skeleton.bones.push_back(bone);
  }
  Mesh m;
  m.name = "strip";
  for (std::size_t i = 0; i <= quads; ++i)
    for (int side = 0; side < 2; ++side) {
      m.positions.push_back({static_cast<float>(side), static_cast<float>(i) * 0.01f, 0.0f});
      m.normals.push_back({0.0f, 0.0f, 1.0f});
      std::vector<Influence> inf;
      const std::size_t first = (i * bones) / (quads + 1);
      for (std::size_t k = 0; k < perVertex; ++k)
        inf.push_back({static_cast<std::uint32_t>((first + k) % bones), 1.0f / static_cast<float>(perVertex)});
      m.addInfluences(inf);
    }
  for (std::uint32_t i = 0; i < quads; ++i) {
    const std::uint32_t a = 2 * i, b = a + 1, c = a + 2, d = a + 3;
    m.indices.insert(m.indices.end(), {a, b, c, b, d, c});
  }
  s.meshes.push_back(std::move(m));
  return s;
}

TEST(Check, EveryTargetIsFoundAndEveryOutputOfAGameHasOne) {
  for (const char* id : {"warband", "mb1011", "dragonnest", "cal3d"}) EXPECT_EQ(target(id).id, id);
  EXPECT_EQ(findCheckTarget("skyrim"), nullptr);
  EXPECT_EQ(checkTargetFor("brf", std::nullopt)->id, "warband");
  EXPECT_EQ(checkTargetFor("brf", 0)->id, "mb1011");
  EXPECT_EQ(checkTargetFor("xmf", std::nullopt)->id, "cal3d");
  EXPECT_EQ(checkTargetFor("skn", std::nullopt)->id, "dragonnest");
  EXPECT_EQ(checkTargetFor("glb", std::nullopt), nullptr);
  EXPECT_EQ(checkTargetList(), "warband, mb1011, dragonnest or cal3d");
}

TEST(Check, AModelWithinTheLimitsHasNoError) {
  const Scene s = strip(10, 4, 2);
  for (const CheckTarget& t : checkTargets()) {
    const auto problems = checkModel(s, t);
    EXPECT_FALSE(hasErrors(problems)) << t.id << ": " << codes(problems);
  }
}

// A clip keyed at 24 frames a second going to a game that keys on 30 (BRF) or 60 (Dragon Nest's
// ANI) is resampled; check says so with what it costs. Keys on the game's frames say nothing.
TEST(Check, KeysOffTheGamesFramesAreAWarningSayingWhatResamplingCosts) {
  Scene s = strip(4, 2, 1);
  const auto clipAt = [](float fps, float degreesPerKey) {
    Clip c;
    c.name = "swing";
    c.frameRate = fps;
    Track t;
    t.bone = "b1";
    for (int k = 0; k <= 6; ++k)
      t.rotation.add(static_cast<float>(k) / fps,
                     glm::angleAxis(glm::radians(degreesPerKey * static_cast<float>(k % 2)), glm::vec3(0, 0, 1)));
    c.duration = 6.0f / fps;
    c.tracks.push_back(t);
    return c;
  };
  s.clips = {clipAt(24.0f, 20.0f)};
  for (const char* id : {"warband", "dragonnest"}) {
    const auto problems = checkModel(s, target(id));
    const auto it = std::find_if(problems.begin(), problems.end(), [](const Problem& p) { return p.code == "clip.frame_rate"; });
    ASSERT_NE(it, problems.end()) << id << ": " << codes(problems);
    EXPECT_EQ(it->severity, Severity::Warning);
    EXPECT_EQ(it->where, "clip 'swing'");
    EXPECT_NE(it->message.find("(the clip is at 24)"), std::string::npos) << it->message;
    EXPECT_NE(it->message.find("turn by up to"), std::string::npos) << it->message;
    EXPECT_EQ(it->message.find("up to 0°"), std::string::npos) << "keys 20° apart off the frames cost something: " << it->message;
  }
  // cal3d keys at any time; a 30 fps clip sits on BRF's and on Dragon Nest's frames.
  EXPECT_FALSE(has(checkModel(s, target("cal3d")), "clip.frame_rate", Severity::Warning));
  s.clips = {clipAt(30.0f, 20.0f)};
  for (const char* id : {"warband", "dragonnest", "cal3d"})
    EXPECT_FALSE(has(checkModel(s, target(id)), "clip.frame_rate", Severity::Warning)) << id;
}

// Dragon Nest's meshes and animations hold no morph targets: check and the writer both say what
// is left out, where the other games keep them (BRF as vertex-animation frames).
TEST(Check, MorphTargetsAndMorphAnimationAreSaidWhereTheGameHasNone) {
  Scene s = strip(2, 2, 1);
  MorphTarget smile;
  smile.name = "smile";
  smile.vertices = {0};
  smile.positions = {{0.0f, 0.5f, 0.0f}};
  s.meshes[0].morphs.push_back(smile);
  Clip talk;
  talk.name = "talk";
  talk.duration = 1.0f;
  MorphTrack mt{"strip", "smile", {}};
  mt.weight.add(0.0f, 0.0f);
  mt.weight.add(1.0f, 1.0f);
  talk.morphTracks.push_back(mt);
  s.clips.push_back(talk);
  const auto dn = checkModel(s, target("dragonnest"));
  EXPECT_TRUE(has(dn, "mesh.morphs", Severity::Warning)) << codes(dn);
  EXPECT_TRUE(has(dn, "clip.morphs", Severity::Warning)) << codes(dn);
  for (const char* id : {"warband", "cal3d"}) {
    const auto problems = checkModel(s, target(id));
    EXPECT_FALSE(has(problems, "mesh.morphs", Severity::Warning)) << id;
    EXPECT_FALSE(has(problems, "clip.morphs", Severity::Warning)) << id;
  }
  const WriteResult written = writeModel(WriteSource{&s, nullptr, {}}, "out/strip.skn");
  ASSERT_TRUE(written.ok()) << written.refusal;
  bool targets = false, animation = false;
  for (const auto& d : written.diagnostics.items) {
    targets |= d.field == "morph targets" && d.message.find("1 mesh has 1 morph target,") != std::string::npos;
    animation |= d.field == "morph animation" && d.message.find("1 clip animates") != std::string::npos;
  }
  EXPECT_TRUE(targets && animation) << "convert to .skn says what Dragon Nest leaves out";
}

TEST(Check, FiveInfluencesAreAnErrorWhereTheGameKeepsFour) {
  const Scene s = strip(4, 8, 5);
  EXPECT_TRUE(has(checkModel(s, target("warband")), "influences.count", Severity::Error));
  EXPECT_TRUE(has(checkModel(s, target("dragonnest")), "influences.count", Severity::Error));
  EXPECT_FALSE(has(checkModel(s, target("cal3d")), "influences.count", Severity::Error)) << "cal3d has no limit";
  std::vector<std::string> changes;
  const Scene fixed = fixModel(s, target("warband"), changes);
  EXPECT_FALSE(hasErrors(checkModel(fixed, target("warband")))) << codes(checkModel(fixed, target("warband")));
  EXPECT_FALSE(changes.empty());
  for (std::size_t v = 0; v < fixed.meshes[0].vertexCount(); ++v) {
    const auto inf = fixed.meshes[0].influencesOf(v);
    ASSERT_EQ(inf.size(), 4u);
    float sum = 0.0f;
    for (const auto& i : inf) sum += i.weight;
    EXPECT_NEAR(sum, 1.0f, 1e-6f);
  }
}

TEST(Check, WeightsThatDoNotSumToOneAreAWarningAndRenormalised) {
  Scene s = strip(2, 4, 2);
  for (auto& i : s.meshes[0].influences) i.weight = 0.45f;
  const auto problems = checkModel(s, target("warband"));
  EXPECT_TRUE(has(problems, "influences.weights", Severity::Warning)) << codes(problems);
  EXPECT_FALSE(hasErrors(problems));
  std::vector<std::string> changes;
  const Scene fixed = fixModel(s, target("warband"), changes);
  EXPECT_FALSE(has(checkModel(fixed, target("warband")), "influences.weights", Severity::Warning));
}

TEST(Check, AMeshOverSixteenBitIndicesIsSplitKeepingEveryTriangle) {
  const Scene s = strip(40000, 4, 1);  // 80,002 vertices
  ASSERT_GT(s.meshes[0].vertexCount(), 65535u);
  EXPECT_TRUE(has(checkModel(s, target("warband")), "mesh.vertices", Severity::Error));
  EXPECT_TRUE(has(checkModel(s, target("dragonnest")), "mesh.vertices", Severity::Error));
  EXPECT_FALSE(has(checkModel(s, target("cal3d")), "mesh.vertices", Severity::Error));
  std::vector<std::string> changes;
  const Scene fixed = fixModel(s, target("warband"), changes);
  ASSERT_EQ(fixed.meshes.size(), 2u);
  EXPECT_EQ(fixed.meshes[0].name, "strip");
  EXPECT_EQ(fixed.meshes[1].name, "strip_2");
  std::size_t triangles = 0;
  // Every triangle is where it was, corner for corner, with the same influences.
  const Mesh& source = s.meshes[0];
  std::size_t t0 = 0;
  for (const Mesh& part : fixed.meshes) {
    EXPECT_LE(part.vertexCount(), 65535u);
    triangles += part.triangleCount();
    for (std::size_t i = 0; i < part.indices.size(); ++i, ++t0) {
      EXPECT_EQ(part.positions[part.indices[i]], source.positions[source.indices[t0]]);
      const auto a = part.influencesOf(part.indices[i]);
      const auto b = source.influencesOf(source.indices[t0]);
      ASSERT_EQ(a.size(), b.size());
      EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
    }
  }
  EXPECT_EQ(triangles, source.triangleCount());
  EXPECT_FALSE(hasErrors(checkModel(fixed, target("warband"))));
}

TEST(Check, APaletteOverFiftyBonesIsSplitForDragonNest) {
  const Scene s = strip(200, 64, 2);
  const auto problems = checkModel(s, target("dragonnest"));
  EXPECT_TRUE(has(problems, "mesh.bones", Severity::Error)) << codes(problems);
  EXPECT_FALSE(has(checkModel(s, target("warband")), "mesh.bones", Severity::Error));
  std::vector<std::string> changes;
  const Scene fixed = fixModel(s, target("dragonnest"), changes);
  ASSERT_GE(fixed.meshes.size(), 2u);
  std::size_t triangles = 0;
  for (const Mesh& part : fixed.meshes) {
    std::set<std::uint32_t> bones;
    for (const auto& i : part.influences) bones.insert(i.bone);
    EXPECT_LE(bones.size(), 50u) << part.name;
    triangles += part.triangleCount();
  }
  EXPECT_EQ(triangles, s.meshes[0].triangleCount());
  EXPECT_FALSE(hasErrors(checkModel(fixed, target("dragonnest"))));
}

TEST(Check, NamesTooLongOrSpacedOrOutsideAsciiAreTold) {
  Scene s = strip(2, 4, 1);
  s.meshes[0].name = std::string(300, 'm');
  s.skeleton.bones[1].name = "upper arm.L";
  s.skeleton.bones[2].name = std::string(120, 'b');
  Material mat;
  mat.name = "도복";
  s.materials.push_back(mat);
  Clip walk;
  walk.name = "walk slow";
  Track t;
  t.bone = "upper arm.L";
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  walk.tracks.push_back(t);
  s.clips.push_back(walk);
  const auto warband = checkModel(s, target("warband"));
  EXPECT_TRUE(has(warband, "name.length", Severity::Error)) << codes(warband);
  EXPECT_TRUE(has(warband, "name.spaces", Severity::Error)) << codes(warband);
  EXPECT_TRUE(has(warband, "name.characters", Severity::Warning)) << codes(warband);
  // Errors come first.
  EXPECT_EQ(warband.front().severity, Severity::Error);
  const auto dn = checkModel(s, target("dragonnest"));
  EXPECT_TRUE(has(dn, "name.length", Severity::Error));
  EXPECT_FALSE(has(dn, "name.spaces", Severity::Error)) << "Dragon Nest names may hold spaces";
  std::vector<std::string> changes;
  const Scene fixed = fixModel(s, target("warband"), changes);
  EXPECT_FALSE(hasErrors(checkModel(fixed, target("warband")))) << codes(checkModel(fixed, target("warband")));
  EXPECT_EQ(fixed.meshes[0].name.size(), 255u);
  EXPECT_EQ(fixed.skeleton.bones[1].name, "upper_arm.L");
  EXPECT_EQ(fixed.skeleton.bones[2].name.size(), 98u);
  EXPECT_EQ(fixed.clips[0].name, "walk_slow");
  EXPECT_EQ(fixed.clips[0].tracks[0].bone, "upper_arm.L") << "a clip follows its bones' new names";
}

// Two bones of one name: the second is renamed, and the clip's track (which played on the first,
// Skeleton::find) stays on the first.
TEST(Check, ARenamedDuplicateKeepsTheClipOnTheBoneItPlayedOn) {
  Scene s = strip(2, 4, 1);
  s.skeleton.bones[1].name = "arm";
  s.skeleton.bones[2].name = "arm";
  Clip c;
  c.name = "wave";
  Track t;
  t.bone = "arm";
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  c.tracks.push_back(t);
  s.clips.push_back(c);
  std::vector<std::string> changes;
  const Scene fixed = fixModel(s, target("cal3d"), changes);
  EXPECT_EQ(fixed.skeleton.bones[1].name, "arm");
  EXPECT_EQ(fixed.skeleton.bones[2].name, "arm_2");
  EXPECT_EQ(fixed.clips[0].tracks[0].bone, "arm");
}

TEST(Check, DegenerateTrianglesAndMissingTexturesAreWarnings) {
  Scene s = strip(3, 4, 1);
  s.meshes[0].indices.insert(s.meshes[0].indices.end(), {0, 0, 1, 0, 2, 4});  // a repeated corner; three in a line
  Texture tex;
  tex.name = "skin.dds";
  s.textures.push_back(tex);
  Material mat;
  mat.name = "skin";
  mat.maps.push_back({"diffuse", 0, 0, ""});
  s.materials.push_back(mat);
  s.meshes[0].material = 0;
  const auto problems = checkModel(s, target("mb1011"));
  EXPECT_TRUE(has(problems, "mesh.degenerate", Severity::Warning)) << codes(problems);
  EXPECT_TRUE(has(problems, "texture.missing", Severity::Warning)) << codes(problems);
  EXPECT_FALSE(hasErrors(problems));
  std::vector<std::string> changes;
  const Scene fixed = fixModel(s, target("mb1011"), changes);
  EXPECT_EQ(fixed.meshes[0].triangleCount(), 6u);
  EXPECT_FALSE(has(checkModel(fixed, target("mb1011")), "mesh.degenerate", Severity::Warning));
}

TEST(Check, ASkeletonLikeTheGamesButNotItIsAWarningForWarband) {
  Scene s = strip(2, 4, 1);
  const char* human[] = {"abdomen", "thigh.L", "calf.L", "foot.L", "thigh.R", "calf.R", "foot.R",
                         "spine", "thorax", "head", "shoulder.L", "upperarm.L", "forearm.L", "hand.L"};
  s.skeleton.bones.clear();
  for (std::size_t b = 0; b < std::size(human); ++b) {
    Bone bone;
    bone.name = human[b];
    bone.parent = b == 0 ? -1 : 0;
    s.skeleton.bones.push_back(bone);
  }
  EXPECT_TRUE(has(checkModel(s, target("warband")), "skeleton.game", Severity::Warning));
  EXPECT_FALSE(has(checkModel(s, target("cal3d")), "skeleton.game", Severity::Warning));
  Scene prop = strip(2, 4, 1);  // a skeleton of its own is no problem
  EXPECT_FALSE(has(checkModel(prop, target("warband")), "skeleton.game", Severity::Warning));
}

TEST(Check, BoneScaleIsAWarningForCal3d) {
  Scene s = strip(2, 4, 1);
  s.skeleton.bones[1].scale = glm::vec3(2.0f);
  EXPECT_TRUE(has(checkModel(s, target("cal3d")), "bone.scale", Severity::Warning));
  EXPECT_FALSE(has(checkModel(s, target("dragonnest")), "bone.scale", Severity::Warning));
}

}  // namespace
}  // namespace marrow::formats
