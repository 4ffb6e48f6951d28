// The glTF writer's containers and structure, on small synthetic scenes.
#include <gtest/gtest.h>

#include <bit>
#include <string>

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

TEST(GltfWriter, MorphTargetsAndTheirWeightsAnimation) {
  Scene s = triangle();
  MorphTarget t;
  t.name = "open";
  t.vertices = {2};
  t.positions = {{0, 2, 0}};
  s.meshes[0].morphs.push_back(t);
  Clip c;
  c.name = "blink";
  c.duration = 1.0f;
  MorphTrack mt{"tri", "open", {}};
  mt.weight.add(0.0f, 0.0f);
  mt.weight.add(1.0f, 1.0f);
  c.morphTracks.push_back(mt);
  s.clips.push_back(c);
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

}  // namespace
}  // namespace marrow::formats
