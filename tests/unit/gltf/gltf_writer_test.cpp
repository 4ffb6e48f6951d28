// The glTF writer's containers and structure, on small synthetic scenes.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "formats/gltf/gltf_reader.h"
#include "formats/gltf/gltf_writer.h"
#include "formats/gltf/json.h"

namespace marrow::formats {
namespace {

std::uint32_t u32(const std::vector<std::byte>& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | std::to_integer<std::uint32_t>(b[at + i]);
  return v;
}

std::string jsonOf(const std::vector<std::byte>& glb) {
  const std::uint32_t n = u32(glb, 12);
  std::string s(n, ' ');
  for (std::uint32_t i = 0; i < n; ++i) s[i] = static_cast<char>(glb[20 + i]);
  return s;
}

// A triangle on two bones; `influences` per vertex spread over bones 0 and 1.
Scene triangle(int influences = 1) {
  Scene s;
  s.skeleton.bones = {{"root", -1, {}, {1, 0, 0, 0}, glm::vec3(1.0f)},
                      {"arm", 0, {1, 0, 0}, {1, 0, 0, 0}, glm::vec3(1.0f)}};
  Mesh m;
  m.name = "tri";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.indices = {0, 1, 2};
  for (int v = 0; v < 3; ++v) {
    std::vector<Influence> in;
    for (int k = 0; k < influences; ++k)
      in.push_back({static_cast<std::uint32_t>(k % 2), 1.0f / static_cast<float>(influences)});
    m.addInfluences(in);
  }
  s.meshes.push_back(m);
  return s;
}

TEST(GltfJson, WritesFloatsSoTheyReadBackExactly) {
  gltf::Json a = gltf::Json::array();
  a.push(0.1f);
  a.push("a\"b");
  EXPECT_EQ(a.dump(), "[0.10000000149011612,\"a\\\"b\"]");
}

TEST(GltfWriter, GlbHasHeaderAndFourByteAlignedChunks) {
  Diagnostics d;
  auto glb = writeGlb(triangle(), d);
  ASSERT_TRUE(glb);
  ASSERT_GE(glb->size(), 28u);
  EXPECT_EQ(u32(*glb, 0), 0x46546C67u);  // "glTF"
  EXPECT_EQ(u32(*glb, 4), 2u);
  EXPECT_EQ(u32(*glb, 8), glb->size());
  const std::uint32_t jsonLength = u32(*glb, 12);
  EXPECT_EQ(jsonLength % 4, 0u);
  EXPECT_EQ(u32(*glb, 16), 0x4E4F534Au);  // "JSON"
  const std::size_t bin = 20 + jsonLength;
  EXPECT_EQ(u32(*glb, bin) % 4, 0u);
  EXPECT_EQ(u32(*glb, bin + 4), 0x004E4942u);  // "BIN\0"
  EXPECT_EQ(bin + 8 + u32(*glb, bin), glb->size());
}

TEST(GltfWriter, SkinnedMeshHasJointsWeightsAndInverseBinds) {
  Diagnostics d;
  const std::string json = jsonOf(*writeGlb(triangle(), d));
  EXPECT_NE(json.find("\"JOINTS_0\""), std::string::npos);
  EXPECT_NE(json.find("\"WEIGHTS_0\""), std::string::npos);
  EXPECT_EQ(json.find("\"JOINTS_1\""), std::string::npos);
  EXPECT_NE(json.find("\"inverseBindMatrices\""), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"arm\""), std::string::npos);
  EXPECT_NE(json.find("\"min\":[0,0,0],\"max\":[1,1,0]"), std::string::npos) << json;
}

TEST(GltfWriter, MoreThanFourInfluencesUseASecondSet) {
  Scene s = triangle();
  for (int b = 2; b < 6; ++b) s.skeleton.bones.push_back({"b" + std::to_string(b), 0, {}, {1, 0, 0, 0}, glm::vec3(1.0f)});
  Mesh& m = s.meshes[0];
  m.influenceStart.clear();
  m.influences.clear();
  for (int v = 0; v < 3; ++v) {
    std::vector<Influence> in;
    for (std::uint32_t b = 0; b < 6; ++b) in.push_back({b, 1.0f / 6.0f});
    m.addInfluences(in);
  }
  Diagnostics d;
  const std::string json = jsonOf(*writeGlb(s, d));
  EXPECT_NE(json.find("\"JOINTS_1\""), std::string::npos);
  EXPECT_NE(json.find("\"WEIGHTS_1\""), std::string::npos);
}

TEST(GltfWriter, WeightsNotSummingToOneAreNormalisedWithADiagnostic) {
  Scene s = triangle();
  for (auto& i : s.meshes[0].influences) i.weight = 0.5f;
  Diagnostics d;
  ASSERT_TRUE(writeGlb(s, d));
  ASSERT_FALSE(d.empty());
  EXPECT_NE(d.items[0].message.find("normalised"), std::string::npos);
}

// The triangle with a target "open" moving vertex 2 up by 1, and a clip `name` driving it by
// `weights` (time, weight).
Scene openingTriangle(const char* name, std::initializer_list<std::pair<float, float>> weights) {
  Scene s = triangle();
  MorphTarget t;
  t.name = "open";
  t.vertices = {2};
  t.positions = {{0, 2, 0}};
  s.meshes[0].morphs.push_back(t);
  Clip c;
  c.name = name;
  c.duration = 1.0f;
  MorphTrack mt{"tri", "open", {}};
  for (const auto& [time, weight] : weights) mt.weight.add(time, weight);
  c.morphTracks.push_back(mt);
  s.clips.push_back(c);
  return s;
}

TEST(GltfWriter, MorphTargetsAndTheirWeightsAnimation) {
  const Scene s = openingTriangle("blink", {{0.0f, 0.0f}, {1.0f, 1.0f}});
  Diagnostics d;
  const std::string json = jsonOf(*writeGlb(s, d));
  EXPECT_NE(json.find("\"targets\":[{\"POSITION\""), std::string::npos);
  EXPECT_NE(json.find("\"targetNames\":[\"open\"]"), std::string::npos);
  EXPECT_NE(json.find("\"path\":\"weights\""), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"blink\""), std::string::npos);
}

TEST(GltfWriter, RigidMeshIsAChildOfItsJoint) {
  Scene s = triangle();
  s.meshes[0].influenceStart.clear();
  s.meshes[0].influences.clear();
  s.meshes[0].parentBone = 1;
  Diagnostics d;
  const std::string json = jsonOf(*writeGlb(s, d));
  // Node 1 (arm) has the mesh node (2) as its child; no skin is written.
  EXPECT_NE(json.find("\"name\":\"arm\",\"translation\":[1,0,0],\"children\":[2]"), std::string::npos) << json;
  EXPECT_EQ(json.find("\"skins\""), std::string::npos);
}

TEST(GltfWriter, LeftHandedSourceIsConvertedWithoutMirroringItsFaces) {
  Scene s = triangle();
  s.basis.rightHanded = false;  // Y up, left-handed: z is mirrored and the winding flipped
  s.meshes[0].influenceStart.clear();  // unskinned: the indices follow the normals in the buffer
  s.meshes[0].influences.clear();
  Diagnostics d;
  const auto glb = *writeGlb(s, d);
  // The buffer starts with POSITION (3 × 12 bytes), NORMAL (3 × 12) and the 16-bit indices.
  const std::size_t bin = 20 + u32(glb, 12) + 8;
  auto f = [&](std::size_t at) { return std::bit_cast<float>(u32(glb, bin + at)); };
  auto index = [&](int i) { return std::to_integer<int>(glb[bin + 72 + 2 * i]); };
  glm::vec3 p[3];
  for (int v = 0; v < 3; ++v) p[v] = {f(12 * v), f(12 * v + 4), f(12 * v + 8)};
  const glm::vec3 face = glm::cross(p[index(1)] - p[index(0)], p[index(2)] - p[index(0)]);
  const glm::vec3 normal(f(36), f(40), f(44));
  EXPECT_FLOAT_EQ(normal.z, -1.0f);
  EXPECT_GT(glm::dot(face, normal), 0.0f) << "the front face still points along its normal";
}

TEST(GltfWriter, GltfFilesAreTheJsonTheBinAndImages) {
  Diagnostics d;
  auto files = writeGltf(triangle(), "tri", d);
  ASSERT_TRUE(files);
  ASSERT_EQ(files->files.size(), 2u);
  EXPECT_EQ(files->files[0].name, "tri.gltf");
  EXPECT_EQ(files->files[1].name, "tri.bin");
}

// The .glb written, read back by the native reader.
Scene roundTrip(const Scene& s, Diagnostics& d) {
  const auto glb = writeGlb(s, d);
  EXPECT_TRUE(glb);
  ReadContext ctx;
  ctx.name = "out.glb";
  auto back = readGltf(*glb, ctx);
  EXPECT_TRUE(back.ok()) << back.error().describe();
  return back.ok() ? std::move(back).value() : Scene{};
}

const Track* trackOf(const Clip& c, const std::string& bone) {
  for (const Track& t : c.tracks)
    if (t.bone == bone) return &t;
  return nullptr;
}

// Importers that keep a pose between actions (Blender) show a bone a clip does not key as the last
// action left it; every joint gets every channel, holding the rest pose over the whole clip.
TEST(GltfWriter, EveryJointHasEveryChannelInEveryAnimationAndHeldOnesSpanTheClip) {
  Scene s = triangle();
  s.skeleton.bones[1].rotation = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  Clip c;
  c.name = "wave";
  c.duration = 2.5f;  // longer than its keys
  Track t;
  t.bone = "root";
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  t.rotation.add(1.0f, glm::angleAxis(0.1f, glm::vec3(0, 1, 0)));
  c.tracks.push_back(t);
  s.clips.push_back(c);
  Diagnostics d;
  const Scene back = roundTrip(s, d);
  ASSERT_EQ(back.clips.size(), 1u);
  const Clip& clip = back.clips[0];
  EXPECT_FLOAT_EQ(clip.duration, 2.5f) << "the held channels keep the clip's length";
  ASSERT_EQ(clip.tracks.size(), 2u);
  const Track* arm = trackOf(clip, "arm");
  ASSERT_NE(arm, nullptr) << "a bone the clip does not key has channels too";
  ASSERT_FALSE(arm->translation.empty());
  ASSERT_FALSE(arm->rotation.empty());
  ASSERT_FALSE(arm->scale.empty());
  EXPECT_EQ(arm->translation.values.front(), glm::vec3(1, 0, 0));
  EXPECT_NEAR(std::fabs(glm::dot(arm->rotation.values.back(), s.skeleton.bones[1].rotation)), 1.0f, 1e-6f);
  EXPECT_EQ(arm->scale.values.back(), glm::vec3(1.0f));
  const Track* root = trackOf(clip, "root");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->rotation.size(), 2u) << "keys close together are written as they are";
  EXPECT_EQ(root->translation.values.front(), glm::vec3(0.0f)) << "the rest translation, held";
}

// Keys 128° apart (a Warband animation keyed every 7 frames): keys put in between on the slerp,
// so that interpolating the written keys component by component and normalising (Blender) stays
// within 1e-4 of the model's size of the slerp.
TEST(GltfWriter, RotationsFarApartGetKeysInBetweenSoThatAComponentWiseLerpIsTheSlerp) {
  Scene s = triangle();
  Clip c;
  c.name = "swing";
  c.frameRate = 30.0f;
  c.duration = 14.0f / 30.0f;
  Track t;
  t.bone = "arm";
  const glm::quat a(1, 0, 0, 0), b = glm::angleAxis(glm::radians(128.0f), glm::normalize(glm::vec3(1, 1, 0)));
  t.rotation.add(0.0f, a);
  t.rotation.add(7.0f / 30.0f, b);
  t.rotation.add(14.0f / 30.0f, a);
  c.tracks.push_back(t);
  s.clips.push_back(c);
  Diagnostics d;
  const Scene back = roundTrip(s, d);
  ASSERT_EQ(back.clips.size(), 1u);
  EXPECT_FLOAT_EQ(back.clips[0].frameRate, 30.0f) << "the authored rate, not the spacing of the keys put in between";
  const Track* arm = trackOf(back.clips[0], "arm");
  ASSERT_NE(arm, nullptr);
  const auto& r = arm->rotation;
  ASSERT_GT(r.size(), 10u);
  // The skeleton is 2 bones deep: 1e-4 radians along the chain is 5e-5 a bone. Component-wise
  // lerps between the written keys, against the slerp of the source's.
  float worst = 0.0f;
  for (std::size_t k = 0; k + 1 < r.size(); ++k)
    for (int i = 1; i < 8; ++i) {
      const float f = static_cast<float>(i) / 8.0f;
      const float time = r.times[k] + (r.times[k + 1] - r.times[k]) * f;
      glm::quat q0 = r.values[k], q1 = r.values[k + 1];
      const glm::quat lerp = glm::normalize(glm::quat(q0.w + (q1.w - q0.w) * f, q0.x + (q1.x - q0.x) * f,
                                                      q0.y + (q1.y - q0.y) * f, q0.z + (q1.z - q0.z) * f));
      const float half = 7.0f / 30.0f;
      const glm::quat exact = time < half ? glm::slerp(a, b, time / half) : glm::slerp(b, a, (time - half) / half);
      // The angle between them from the vector part of their difference, in double precision
      // (an acos of a float near 1 cannot tell angles below 3e-4 apart).
      const glm::dquat between = glm::conjugate(glm::dquat(exact)) * glm::dquat(lerp);
      worst = std::max(worst, static_cast<float>(2.0 * std::asin(std::min(1.0, glm::length(glm::dvec3(between.x, between.y, between.z))))));
    }
  EXPECT_LT(worst, 5e-5f) << r.size() << " keys";
  EXPECT_GT(worst, 1e-6f) << "the measure sees the lerp's error";
  // The source's keys are among those written, at their times.
  for (const float time : {0.0f, 7.0f / 30.0f, 14.0f / 30.0f})
    EXPECT_NE(std::find(r.times.begin(), r.times.end(), time), r.times.end()) << time;
}

// Blender sizes a shape key's slider from the weights it reads: a weight of 1.35 shows as 1.
// The target is written 1.35 times as far and its weights divided by 1.35.
TEST(GltfWriter, MorphWeightsBeyondOneScaleTheTargetAndStayWithinZeroAndOne) {
  const Scene s = openingTriangle("yawn", {{0.0f, 0.0f}, {0.5f, 1.35f}, {1.0f, 0.27f}});
  Diagnostics d;
  const Scene back = roundTrip(s, d);
  ASSERT_EQ(back.meshes.size(), 1u);
  ASSERT_EQ(back.meshes[0].morphs.size(), 1u);
  ASSERT_EQ(back.clips.size(), 1u);
  ASSERT_EQ(back.clips[0].morphTracks.size(), 1u);
  const auto& w = back.clips[0].morphTracks[0].weight;
  ASSERT_EQ(w.size(), 3u);
  EXPECT_FLOAT_EQ(w.values[1], 1.0f);
  EXPECT_FLOAT_EQ(w.values[2], 0.2f);
  // Vertex 2 moves from (0, 1, 0) by (0, 1, 0) × weight: the same at every key.
  const auto& target = back.meshes[0].morphs[0];
  const glm::vec3 moved = target.positions[target.vertices.empty() ? 2 : 0] - glm::vec3(0, 1, 0);
  EXPECT_NEAR(moved.y * w.values[1], 1.35f, 1e-5f);
  EXPECT_NEAR(moved.y * w.values[2], 0.27f, 1e-5f);
}

}  // namespace
}  // namespace marrow::formats
