// Any model → BRF records (formats/brf/from_scene.h): a hand-made Y-up model with what BRF holds
// differently (five influences on a vertex, morph targets played by a clip, keys between frames,
// PNG textures, a mesh without a material, a bone scale) written, read back by the BRF reader and
// posed against the source in display space; the records checked against the spec's rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include <glm/gtc/quaternion.hpp>

#include "formats/brf/brf.h"
#include "formats/brf/from_scene.h"
#include "formats/model/convert.h"
#include "formats/model/lod.h"
#include "formats/registry.h"
#include "formats/write.h"
#include "render/anim/morph.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

namespace marrow::formats {
namespace {

// Y-up (glTF's basis): a root at the origin, a spine up from it, an arm out to the side.
Scene handMade() {
  Scene s;
  s.basis = Basis{Axis::Y, true, 1.0f, 0};
  const auto bone = [&](const char* name, int parent, glm::vec3 t, glm::quat r = glm::quat(1, 0, 0, 0)) {
    Bone b;
    b.name = name;
    b.parent = parent;
    b.translation = t;
    b.rotation = r;
    s.skeleton.bones.push_back(b);
  };
  bone("hips", -1, {0.0f, 1.0f, 0.0f});
  bone("spine", 0, {0.0f, 0.3f, 0.0f}, glm::angleAxis(0.2f, glm::vec3(0, 0, 1)));
  bone("arm", 1, {0.2f, 0.3f, 0.0f}, glm::angleAxis(-1.2f, glm::vec3(0, 0, 1)));
  bone("hand", 2, {0.0f, 0.3f, 0.0f});
  bone("tip", 3, {0.0f, 0.1f, 0.0f});

  Mesh body;
  body.name = "body";
  for (int i = 0; i < 12; ++i) {
    const float y = 0.8f + 0.1f * static_cast<float>(i / 2);
    body.positions.push_back({i % 2 ? 0.1f : -0.1f, y, 0.05f * static_cast<float>(i % 3)});
    body.normals.push_back({0.0f, 0.0f, 1.0f});
  }
  body.uvSets.push_back({});
  for (std::size_t v = 0; v < body.positions.size(); ++v)
    body.uvSets[0].push_back({0.1f * static_cast<float>(v), 0.5f});
  for (std::uint32_t i = 0; i + 3 < 12; i += 2) body.indices.insert(body.indices.end(), {i, i + 1, i + 2, i + 1, i + 3, i + 2});
  for (std::size_t v = 0; v < body.positions.size(); ++v) {
    std::vector<Influence> inf;
    if (v == 5) {  // five influences: the weakest (tip, 0.04) goes
      inf = {{0, 0.3f}, {1, 0.25f}, {2, 0.21f}, {3, 0.2f}, {4, 0.04f}};
    } else {
      inf = {{static_cast<std::uint32_t>(v % 3), 0.7f}, {static_cast<std::uint32_t>(v % 3 + 1), 0.3f}};
    }
    body.addInfluences(inf);
  }
  body.material = 0;
  s.meshes.push_back(body);

  Mesh flag;  // not skinned, two morph targets, no material, no normals
  flag.name = "flag";
  flag.positions = {{0.0f, 2.0f, 0.0f}, {0.5f, 2.0f, 0.0f}, {0.0f, 2.5f, 0.0f}, {0.5f, 2.5f, 0.0f}};
  flag.indices = {0, 1, 2, 1, 3, 2};
  for (int k = 0; k < 2; ++k) {
    MorphTarget t;
    t.name = k ? "wave b" : "wave a";
    t.positions = flag.positions;
    t.positions[3].z = k ? -0.2f : 0.2f;
    flag.morphs.push_back(t);
  }
  s.meshes.push_back(flag);

  Material m;
  m.name = "skin";
  m.shininess = 12.0f;
  s.textures.push_back({"skin.png", "textures/skin.png", {}, false});
  s.textures.push_back({"skin_n.tga", "textures/skin_n.tga", {}, false});
  m.maps.push_back({"diffuse", 0, 0, ""});
  m.maps.push_back({"normal", 1, 0, ""});
  s.materials.push_back(m);

  Clip wave;  // keys on frames of 30 per second
  wave.name = "wave";
  wave.duration = 1.0f;
  Track arm;
  arm.bone = "arm";
  for (int f = 0; f <= 30; f += 10)
    arm.rotation.add(static_cast<float>(f) / 30.0f, glm::angleAxis(-1.2f + 0.3f * static_cast<float>(f) / 10.0f, glm::vec3(0, 0, 1)));
  Track hips;  // the root walks
  hips.bone = "hips";
  hips.translation.add(0.0f, {0.0f, 1.0f, 0.0f});
  hips.translation.add(1.0f, {0.0f, 1.0f, 0.5f});
  wave.tracks = {arm, hips};
  for (int k = 0; k < 2; ++k) {
    MorphTrack t;
    t.mesh = "flag";
    t.target = k ? "wave b" : "wave a";
    t.weight.add(0.0f, 0.0f);
    t.weight.add(k ? 1.0f : 0.5f, 1.0f);
    wave.morphTracks.push_back(t);
  }
  s.clips.push_back(wave);

  Clip film;  // keys at 24 per second: resampled at every frame
  film.name = "film";
  film.duration = 0.5f;
  Track spine;
  spine.bone = "spine";
  for (int f = 0; f <= 12; ++f)
    spine.rotation.add(static_cast<float>(f) / 24.0f, glm::angleAxis(0.2f + 0.05f * static_cast<float>(f), glm::vec3(1, 0, 0)));
  film.tracks = {spine};
  s.clips.push_back(film);
  return s;
}

std::vector<glm::vec3> posedDisplay(const Scene& s, std::size_t mesh, const Clip* clip, float t) {
  const anim::Pose pose = anim::evaluate(s.skeleton, clip, t);
  std::vector<glm::mat4> palette;
  const Mesh& m = s.meshes[mesh];
  anim::skinPalette(s.skeleton, m, pose, palette);
  std::vector<glm::vec3> v;
  if (m.skinned()) {
    anim::skin(m, anim::packInfluences(m), palette, v);
  } else {
    v = m.positions;
  }
  const glm::mat4 display = toDisplay(s.basis);
  for (auto& p : v) p = glm::vec3(display * glm::vec4(p, 1.0f));
  return v;
}

const Clip* clipNamed(const Scene& s, const std::string& name) {
  for (const Clip& c : s.clips)
    if (c.name == name) return &c;
  return nullptr;
}

TEST(BrfFromScene, WritesRecordsTheSpecDescribes) {
  const Scene source = handMade();
  Diagnostics d;
  auto doc = brf::fromScene(source, 1, "hero", d);
  ASSERT_TRUE(doc) << doc.error().describe();
  EXPECT_FALSE(brf::checkWritable(*doc));
  EXPECT_EQ(doc->version, 1);
  ASSERT_EQ(doc->meshes.size(), 2u);
  for (const auto& m : doc->meshes) EXPECT_TRUE(m.flags & (1u << 17)) << "§3: Warband meshes set bit 17";
  // §7.2: the five-influence position keeps its four strongest, renormalised.
  const brf::Mesh& body = doc->meshes[0];
  std::vector<std::pair<std::int32_t, float>> five;
  const std::int32_t p5 = body.vertices[5].position;
  for (const auto& rb : body.rigging)
    for (const auto& pair : rb.pairs)
      if (pair.position == p5) five.push_back({rb.bone, pair.weight});
  ASSERT_EQ(five.size(), 4u);
  float total = 0.0f;
  for (const auto& [bone, w] : five) {
    EXPECT_NE(bone, 4) << "the weakest influence is the one left out";
    total += w;
  }
  EXPECT_NEAR(total, 1.0f, 1e-6f);
  EXPECT_NEAR(five[0].second, 0.3f / 0.96f, 1e-6f);
  for (std::size_t k = 1; k < body.rigging.size(); ++k) EXPECT_LT(body.rigging[k - 1].bone, body.rigging[k].bone);
  // §4, §6: textures by DDS name, materials naming them without the extension.
  ASSERT_EQ(doc->textures.size(), 2u);
  EXPECT_EQ(doc->textures[0].name, "skin.dds");
  EXPECT_EQ(doc->textures[1].name, "skin_n.dds");
  ASSERT_EQ(doc->materials.size(), 2u);  // "skin", and one for the flag, which has none
  EXPECT_EQ(doc->materials[0].diffuseA, "skin");
  EXPECT_EQ(doc->materials[0].bump, "skin_n");
  EXPECT_EQ(doc->materials[0].diffuseB, "none");
  EXPECT_FLOAT_EQ(doc->materials[0].specularCoefficient, 12.0f);
  EXPECT_EQ(body.material, "skin");
  EXPECT_EQ(doc->meshes[1].material, doc->materials[1].name);
  // §7.3: a frame per morph target, at the frame its weight peaks.
  const brf::Mesh& flag = doc->meshes[1];
  ASSERT_EQ(flag.frames.size(), 2u);
  EXPECT_EQ(flag.frames[0].time, 15);
  EXPECT_EQ(flag.frames[1].time, 30);
  ASSERT_EQ(flag.frames[0].positions.size(), flag.positions.size());
  ASSERT_EQ(flag.frames[0].normals.size(), flag.vertices.size());
  // Its normals were made from its faces: Y-up +Z becomes Z-up -Y (the front turned to +Y: §11).
  for (const auto& v : flag.vertices) EXPECT_GT(glm::length(v.normal), 0.99f);
  // §8: the skeleton, named after the file; §9: an animation per clip, a track per bone.
  ASSERT_EQ(doc->skeletons.size(), 1u);
  EXPECT_EQ(doc->skeletons[0].name, "skel_hero");
  EXPECT_EQ(doc->skeletons[0].bones.size(), 5u);
  ASSERT_EQ(doc->animations.size(), 2u);
  for (const auto& a : doc->animations) {
    EXPECT_EQ(a.tracks.size(), 5u);
    for (const auto& track : a.tracks) {
      ASSERT_FALSE(track.empty());
      for (std::size_t k = 1; k < track.size(); ++k) EXPECT_LT(track[k - 1].time, track[k].time);
    }
  }
  EXPECT_EQ(doc->animations[0].tracks[2].size(), 4u) << "keys on frames are kept as they are";
  EXPECT_EQ(doc->animations[1].tracks[1].size(), 16u) << "keys between frames: one per frame 0..15";
  EXPECT_EQ(doc->animations[0].translations.size(), 2u);
  // What changed is said.
  std::string said;
  for (const auto& item : d.items) said += item.message + "\n";
  EXPECT_NE(said.find("more than 4 influences"), std::string::npos) << said;
  EXPECT_NE(said.find("not DDS"), std::string::npos) << said;
  EXPECT_NE(said.find("between frames"), std::string::npos) << said;
  EXPECT_NE(said.find("no normals"), std::string::npos) << said;
}

TEST(BrfFromScene, ReadsBackPosedAsTheSourceAtEveryFrame) {
  const Scene source = handMade();
  Diagnostics d;
  auto doc = brf::fromScene(source, 1, "hero", d);
  ASSERT_TRUE(doc) << doc.error().describe();
  auto back = readScene(brf::write(*doc), ReadContext{"hero.brf", {}, {}});
  ASSERT_TRUE(back) << back.error().describe();
  ASSERT_EQ(back->meshes.size(), 2u);
  // The source as BRF shows it: vertex 5 with its four strongest influences.
  Scene expected = source;
  {
    Mesh& m = expected.meshes[0];
    Mesh trimmed = m;
    trimmed.influenceStart.clear();
    trimmed.influences.clear();
    for (std::size_t v = 0; v < m.vertexCount(); ++v) {
      std::vector<Influence> inf(m.influencesOf(v).begin(), m.influencesOf(v).end());
      if (inf.size() > 4) {
        inf.resize(4);
        for (auto& i : inf) i.weight /= 0.96f;
      }
      trimmed.addInfluences(inf);
    }
    m = trimmed;
  }
  for (const char* name : {"wave", "film"}) {
    const Clip* a = clipNamed(expected, name);
    const Clip* b = clipNamed(*back, name);
    ASSERT_NE(b, nullptr) << name;
    for (int f = 0; f <= static_cast<int>(std::lround(a->duration * 30.0f)); ++f) {
      const float t = static_cast<float>(f) / 30.0f;
      const auto want = posedDisplay(expected, 0, a, t);
      const auto got = posedDisplay(*back, 0, b, t);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t v = 0; v < want.size(); ++v)
        EXPECT_LT(glm::length(got[v] - want[v]), 1e-5f) << name << " frame " << f << " vertex " << v;
    }
  }
  // The flag's frames play as a clip of the file's frame times (§7.3): frame 1 shows wave a.
  const Clip* frames = clipNamed(*back, "flag (frames)");
  ASSERT_NE(frames, nullptr);
  std::vector<std::vector<float>> weights(back->meshes.size());
  anim::sampleMorphWeights(*frames, 0.5f, back->meshes, weights);
  std::vector<glm::vec3> shape, normals;
  anim::applyMorphs(back->meshes[1], weights[1], shape, normals);
  ASSERT_EQ(shape.size(), 4u);
  EXPECT_NEAR(shape[3].y, 0.2f, 1e-6f) << "the source's +Z (its front) is the file's +Y (§11: characters face +Y)";
}

// Frame 100,000 (Warband's anim_human) is 3333.333 s, which a float holds only to 2.4e-4 s: the
// keys of a clip read from a file of seconds (glTF) still lie on frames and stay as they are.
TEST(BrfFromScene, KeysOfALongClipStayOnTheirFrames) {
  Scene s = handMade();
  Clip longClip;
  longClip.name = "long";
  Track arm;
  arm.bone = "arm";
  for (int f : {0, 35520, 99999, 100000})
    arm.rotation.add(static_cast<float>(f) / 30.0f, glm::angleAxis(0.001f * static_cast<float>(f % 7), glm::vec3(0, 0, 1)));
  longClip.duration = arm.rotation.times.back();
  longClip.tracks = {arm};
  s.clips = {longClip};
  Diagnostics d;
  auto doc = brf::fromScene(s, 1, "hero", d);
  ASSERT_TRUE(doc);
  ASSERT_EQ(doc->animations.size(), 1u);
  const auto& track = doc->animations[0].tracks[2];
  ASSERT_EQ(track.size(), 4u);
  EXPECT_EQ(track[1].time, 35520);
  EXPECT_EQ(track[3].time, 100000);
}

// 3ds Max's Biped: an unrigged Bip01 that moves and turns, above a pelvis that bobs. BRF keys
// only the root's translation (§9): the root's keys carry both, and the rigged bones below move
// as in the source at every frame.
TEST(BrfFromScene, AMovingRootAboveARiggedPelvisCarriesItsMotion) {
  Scene s = handMade();
  // hips → "Bip01" (nothing rigged), a new "pelvis" under it takes the hips' vertices and child.
  s.skeleton.bones[0].name = "Bip01";
  Bone pelvis;
  pelvis.name = "pelvis";
  pelvis.parent = 0;
  pelvis.translation = {0.0f, 0.1f, 0.0f};
  s.skeleton.bones.insert(s.skeleton.bones.begin() + 1, pelvis);
  for (std::size_t b = 2; b < s.skeleton.bones.size(); ++b) s.skeleton.bones[b].parent += 1;  // the spine under the pelvis
  for (Mesh& m : s.meshes)
    for (Influence& i : m.influences) i.bone += 1;
  Clip walk;
  walk.name = "biped walk";
  walk.duration = 1.0f;
  Track bip;
  bip.bone = "Bip01";
  Track hip;
  hip.bone = "pelvis";
  for (int f = 0; f <= 30; f += 5) {
    const float t = static_cast<float>(f) / 30.0f;
    bip.translation.add(t, {0.2f * t, 1.0f, 0.3f * t});
    bip.rotation.add(t, glm::angleAxis(0.5f * t, glm::vec3(0, 1, 0)));
    hip.translation.add(t, {0.0f, 0.1f + 0.05f * std::sin(6.0f * t), 0.02f * t});
  }
  walk.tracks = {bip, hip};
  s.clips = {walk};
  Diagnostics d;
  auto doc = brf::fromScene(s, 1, "biped", d);
  ASSERT_TRUE(doc);
  for (const auto& item : d.items) EXPECT_EQ(item.message.find("animates only the root"), std::string::npos) << item.message;
  auto back = readScene(brf::write(*doc), ReadContext{"biped.brf", {}, {}});
  ASSERT_TRUE(back) << back.error().describe();
  const Clip* b = clipNamed(*back, "biped walk");
  ASSERT_NE(b, nullptr);
  for (int f = 0; f <= 30; ++f) {
    const float t = static_cast<float>(f) / 30.0f;
    const auto want = posedDisplay(s, 0, &s.clips[0], t);
    const auto got = posedDisplay(*back, 0, b, t);
    for (std::size_t v = 0; v < want.size(); ++v) EXPECT_LT(glm::length(got[v] - want[v]), 1e-5f) << "frame " << f << " vertex " << v;
  }
}

// The flag's second target peaks before its first: BRF plays frames in stored order, so they are
// written in target order and the check says so (brf.frames).
TEST(BrfFromScene, MorphTargetsPeakingOutOfOrderAreSaid) {
  Scene s = handMade();
  for (MorphTrack& t : s.clips[0].morphTracks) t.weight.times[1] = t.target == "wave a" ? 1.0f : 0.5f;
  Diagnostics d;
  auto doc = brf::fromScene(s, 1, "hero", d);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->meshes[1].frames[0].time, 30);
  EXPECT_EQ(doc->meshes[1].frames[1].time, 31);
  bool said = false;
  for (const auto& item : d.items) said = said || (item.field == "frames" && item.severity == Severity::Warning);
  EXPECT_TRUE(said);
}

// A hostile clip: 3.5e7 s long, keys between frames. Sampled at most 216,001 times a track, not
// a billion.
TEST(BrfFromScene, AnEndlessClipIsSampledWithinBounds) {
  Scene s = handMade();
  Clip endless;
  endless.name = "endless";
  endless.duration = 3.5e7f;
  Track arm;
  arm.bone = "arm";
  arm.rotation.add(0.01f, glm::angleAxis(0.1f, glm::vec3(0, 0, 1)));
  arm.rotation.add(3.5e7f, glm::angleAxis(0.2f, glm::vec3(0, 0, 1)));
  arm.scale.interpolation = Interpolation::Step;
  arm.scale.add(0.0f, glm::vec3(1.0f));
  endless.tracks = {arm};
  s.clips = {endless};
  Diagnostics d;
  auto doc = brf::fromScene(s, 1, "hero", d);
  ASSERT_TRUE(doc);
  const auto& keys = doc->animations.at(0).tracks[2];
  EXPECT_LE(keys.size(), 216002u);
  EXPECT_GT(keys.size(), 1000u);
  for (std::size_t k = 1; k < keys.size(); ++k) ASSERT_LT(keys[k - 1].time, keys[k].time);
  EXPECT_EQ(keys.back().time, static_cast<std::int32_t>(std::lround(3.5e7 * 30.0)));
}

// Which BRF outputs write the records as they were read: the records picked, or files of BRF
// records given; a module (a library of BRF files) or any other model is made into records.
TEST(BrfFromScene, RecordsAreWrittenAsReadOnlyForBrfInputs) {
  const Output brf = outputFor("out.brf");
  WriteOptions o;
  EXPECT_TRUE(writesRecordsAsRead(brf, {"a.brf", "b.brf::boots"}, o));
  EXPECT_FALSE(writesRecordsAsRead(brf, {"mod/module.ini"}, o));
  EXPECT_FALSE(writesRecordsAsRead(brf, {"a.brf", "hero.gltf"}, o));
  EXPECT_FALSE(writesRecordsAsRead(outputFor("out.glb"), {"a.brf"}, o));
  o.nodes = std::vector<std::string>{"0/mesh/1"};
  EXPECT_TRUE(writesRecordsAsRead(brf, {"mod/module.ini"}, o));
}

// A progressive mesh (cal3d's level of detail): a fan whose rim vertices collapse one by one,
// each taking the last face. Written with its levels as the game names them, NAME.lod1 … .lod3
// at a half, a quarter and an eighth of its collapsible vertices, each the triangles lod.h draws.
TEST(BrfFromScene, AProgressiveMeshIsWrittenWithItsLevels) {
  Scene s;
  Mesh fan;
  fan.name = "fan";
  constexpr std::uint32_t n = 18;
  fan.positions.push_back({0.0f, 0.0f, 0.0f});
  for (std::uint32_t i = 1; i < n; ++i)
    fan.positions.push_back({std::cos(0.3f * static_cast<float>(i)), std::sin(0.3f * static_cast<float>(i)), 0.0f});
  for (std::uint32_t i = 1; i + 1 < n; ++i) fan.indices.insert(fan.indices.end(), {0, i, i + 1});
  fan.lod.collapsible = n - 3;
  fan.lod.collapseTo.assign(n, -1);
  fan.lod.faceCollapseCount.assign(n, 0);
  for (std::uint32_t v = 3; v < n; ++v) {
    fan.lod.collapseTo[v] = static_cast<std::int32_t>(v - 1);
    fan.lod.faceCollapseCount[v] = 1;
  }
  s.meshes.push_back(fan);
  Diagnostics d;
  auto doc = brf::fromScene(s, 1, "fan", d);
  ASSERT_TRUE(doc);
  ASSERT_EQ(doc->meshes.size(), 4u);
  const std::size_t faces[] = {16, 9, 5, 3};  // 15 collapsible: 7, 11 and 13 of them gone
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(doc->meshes[k].name, k == 0 ? std::string("fan") : "fan.lod" + std::to_string(k));
    EXPECT_EQ(doc->meshes[k].faces.size(), faces[k]) << k;
  }
  // The first level's corners are those lod.h draws at a half, in the file's Z-up space.
  std::vector<std::uint32_t> half;
  lodIndices(fan, 0.5f, half);
  const brf::Mesh& lod1 = doc->meshes[1];
  const glm::mat4 change = basisChange(s.basis, Basis{Axis::Z, true, 1.0f, +1});
  for (std::size_t f = 0; f < lod1.faces.size(); ++f)
    for (std::size_t c = 0; c < 3; ++c) {
      const glm::vec3 want = glm::vec3(change * glm::vec4(fan.positions[half[3 * f + c]], 1.0f));
      const glm::vec3 got = lod1.positions[static_cast<std::size_t>(lod1.vertices[static_cast<std::size_t>(lod1.faces[f][c])].position)];
      EXPECT_LT(glm::length(got - want), 1e-5f) << "face " << f;
    }
}

TEST(BrfFromScene, VersionZeroWritesTheOldLayout) {
  Scene s = handMade();
  s.meshes[0].uvSets.push_back(s.meshes[0].uvSets[0]);
  for (auto& uv : s.meshes[0].uvSets[1]) uv.y = 0.25f;
  Diagnostics d;
  auto doc = brf::fromScene(s, 0, "hero", d);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->version, 0);
  EXPECT_FALSE(doc->hasVersionToken);
  EXPECT_EQ(brf::layoutOf(doc->meshes[0], 0), brf::VertexLayout::A_1011);
  EXPECT_EQ(doc->meshes[0].flags & (3u << 16), 0u);
  EXPECT_FLOAT_EQ(doc->meshes[0].vertices[3].uv2.y, 0.25f);
  auto back = readScene(brf::write(*doc), ReadContext{"hero.brf", {}, {}});
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->format, "BRF (M&B 1.011)");
  ASSERT_EQ(back->meshes[0].uvSets.size(), 2u);
  EXPECT_FLOAT_EQ(back->meshes[0].uvSets[1][3].y, 0.25f);
}

// `convert` and File › Export come through writeModel: a model read from another format is
// written as records made from it.
TEST(BrfFromScene, WriteModelWritesAnyModelAsBrf) {
  const Scene s = handMade();
  WriteSource source;
  source.scene = &s;
  source.addresses = {"hero.gltf"};
  const WriteResult r = writeModel(source, "out/hero.brf");
  ASSERT_TRUE(r.ok()) << r.why();
  ASSERT_EQ(r.files.size(), 1u);
  auto back = readScene(r.files[0].bytes, ReadContext{"hero.brf", {}, {}});
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->format, "BRF (Warband)");
  EXPECT_EQ(back->skeleton.name, "skel_hero");
  for (const auto& item : r.diagnostics.items) EXPECT_EQ(item.file, "out/hero.brf");
}

}  // namespace
}  // namespace marrow::formats
