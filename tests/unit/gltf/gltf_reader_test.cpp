// formats/gltf/gltf_reader.h on documents built byte by byte for what real files do and what
// hostile ones try: skins with quantized weights, sparse and interleaved accessors, strips and
// fans, morph-weight clips, spline and step keys, .glb chunks, and damage of every kind, which
// must be an error naming the file and the field (or a warning and a model), never a crash or an
// allocation the file's size does not pay for. tests/reference/gltf_reader_test.cpp compares the
// reader with assimp on real files.
#include "formats/gltf/gltf_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "formats/gltf/gltf_writer.h"
#include "formats/model/validate.h"
#include "tests/support/big_model.h"
#include "tests/support/gltf_document.h"

namespace marrow {
namespace {

using formats::Scene;
using testing::Gltf;

formats::Result<Scene> read(const std::string& text, const std::string& name = "test.gltf") {
  formats::ReadContext ctx;
  ctx.name = name;
  return formats::readGltf(std::as_bytes(std::span(text.data(), text.size())), ctx);
}

bool mentions(const Scene& s, const std::string& words) {
  for (const auto& d : s.diagnostics.items)
    if (d.message.find(words) != std::string::npos) return true;
  return false;
}

std::vector<std::uint8_t> bytesOf(const void* p, std::size_t n) {
  const auto* b = static_cast<const std::uint8_t*>(p);
  return {b, b + n};
}

const char* kScene = "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],";

TEST(GltfReader, SkinWithQuantizedWeightsBindsJointsToBonesWithTheSkinsInverseBinds) {
  Gltf g;
  const int pos = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
  const std::uint8_t joints[] = {0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0};  // joint indices into the skin
  const int j = g.raw(bytesOf(joints, sizeof joints), 5121, 3, "VEC4");
  const std::uint8_t weights[] = {255, 0, 0, 0, 128, 127, 0, 0, 51, 204, 0, 0};  // normalized
  const int w = g.raw(bytesOf(weights, sizeof weights), 5121, 3, "VEC4", ",\"normalized\":true");
  glm::mat4 ibm[2] = {glm::mat4(1.0f), glm::mat4(1.0f)};
  ibm[1][3] = glm::vec4(0.0f, -2.0f, 0.0f, 1.0f);
  const int binds = g.floats(std::vector<float>(&ibm[0][0][0], &ibm[0][0][0] + 32), "MAT4", 16);
  const std::string body =
      std::string(kScene) +
      "\"nodes\":[{\"name\":\"root\",\"children\":[1,2]},{\"name\":\"hip\",\"children\":[3]},"
      "{\"name\":\"body\",\"mesh\":0,\"skin\":0,\"translation\":[100,0,0]},"
      "{\"name\":\"knee\",\"translation\":[0,2,0]}],"
      "\"skins\":[{\"joints\":[1,3],\"inverseBindMatrices\":" + std::to_string(binds) + "}],"
      "\"meshes\":[{\"name\":\"legs\",\"primitives\":[{\"attributes\":{\"POSITION\":" + std::to_string(pos) +
      ",\"JOINTS_0\":" + std::to_string(j) + ",\"WEIGHTS_0\":" + std::to_string(w) + "}}]}]";
  const auto r = read(g.document(body));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->format, "glTF 2.0");
  // The skins' joints, depth-first: not the root above them, not the mesh's node.
  ASSERT_EQ(r->skeleton.bones.size(), 2u);
  EXPECT_EQ(r->skeleton.bones[0].name, "hip");
  EXPECT_EQ(r->skeleton.bones[0].parent, -1);
  EXPECT_EQ(r->skeleton.bones[1].name, "knee");
  EXPECT_EQ(r->skeleton.bones[1].parent, 0);
  ASSERT_EQ(r->meshes.size(), 1u);
  const auto& m = r->meshes[0];
  ASSERT_TRUE(m.skinned());
  EXPECT_EQ(m.positions[1], glm::vec3(1, 0, 0)) << "a skinned mesh keeps its coordinates: its node plays no part";
  const auto v0 = m.influencesOf(0);
  ASSERT_EQ(v0.size(), 1u);
  EXPECT_EQ(v0[0].bone, 0u);
  EXPECT_FLOAT_EQ(v0[0].weight, 1.0f);
  const auto v1 = m.influencesOf(1);
  ASSERT_EQ(v1.size(), 2u);
  EXPECT_EQ(v1[0].bone, 1u) << "joint 1 of the skin is node 3, the knee: bone 1";
  EXPECT_FLOAT_EQ(v1[0].weight, 128.0f / 255.0f);
  EXPECT_EQ(v1[1].bone, 0u);
  EXPECT_FLOAT_EQ(v1[1].weight, 127.0f / 255.0f);
  ASSERT_EQ(m.inverseBind.size(), 2u);
  EXPECT_EQ(m.inverseBind[1], ibm[1]);
  EXPECT_EQ(m.inverseBind[0], ibm[0]);
  EXPECT_TRUE(formats::validate(*r).empty());
}

// A triangle whose first vertex is joint 0's and the other two joint 1's (accessors of `g`), and
// its mesh's JSON.
struct SkinnedTriangle {
  explicit SkinnedTriangle(Gltf& g) {
    positions = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
    const std::uint8_t j[] = {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    joints = g.raw(bytesOf(j, sizeof j), 5121, 3, "VEC4");
    weights = g.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", 4);
  }
  std::string mesh(const std::string& name) const {
    return "{\"name\":\"" + name + "\",\"primitives\":[{\"attributes\":{\"POSITION\":" + std::to_string(positions) +
           ",\"JOINTS_0\":" + std::to_string(joints) + ",\"WEIGHTS_0\":" + std::to_string(weights) + "}}]}";
  }
  int positions = -1, joints = -1, weights = -1;
};

// What Blender's glTF exporter writes: an armature object above the joints (here turned, moved
// and scaled as an imported FBX rig is), a mesh object of the same name as the root bone, an
// empty, and a prop parented to a bone. The skeleton is the skin's joints alone, with their names,
// and the armature's transform is in the rest pose and in the keys of the root.
TEST(GltfReader, ADccsArmatureMeshAndEmptyNodesAreNoBonesAndTheArmaturesTransformIsKept) {
  Gltf g;
  const SkinnedTriangle tri(g);
  const int times = g.floats({0.0f, 1.0f / 30.0f}, "SCALAR", 1);
  const int moves = g.floats({0, 1, 0, 0, 1, 5}, "VEC3", 3);
  const int turns = g.floats({0, 0, 0, 1, 0, 0.70710678f, 0, 0.70710678f}, "VEC4", 4);
  const std::string body =
      std::string("\"scene\":0,\"scenes\":[{\"nodes\":[0,6]}],") +
      "\"nodes\":[{\"name\":\"Armature\",\"rotation\":[0.70710678,0,0,0.70710678],\"scale\":[0.01,0.01,0.01],"
      "\"translation\":[1,2,3],\"children\":[1,3,4]},"
      "{\"name\":\"Wuson\",\"translation\":[0,1,0],\"children\":[2]},"
      "{\"name\":\"spine\",\"translation\":[0,1,0],\"children\":[5]},"
      "{\"name\":\"Wuson\",\"mesh\":0,\"skin\":0},"
      "{\"name\":\"Empty\"},"
      "{\"name\":\"prop\",\"mesh\":1,\"translation\":[0,0,2]},"
      "{\"name\":\"Light\"}],"
      "\"skins\":[{\"joints\":[1,2]}],"
      "\"meshes\":[" + tri.mesh("body") + ",{\"name\":\"sword\",\"primitives\":[{\"attributes\":{\"POSITION\":" +
      std::to_string(tri.positions) + "}}]}],"
      "\"animations\":[{\"name\":\"walk\",\"samplers\":[{\"input\":" + std::to_string(times) + ",\"output\":" +
      std::to_string(moves) + "},{\"input\":" + std::to_string(times) + ",\"output\":" + std::to_string(turns) + "}],"
      "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
      "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}}]}]";
  const auto r = read(g.document(body));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->skeleton.bones.size(), 2u) << "the armature, the mesh objects, the empty and the light are no bones";
  EXPECT_EQ(r->skeleton.bones[0].name, "Wuson") << "the bone keeps its name; the mesh object of that name is no bone";
  EXPECT_EQ(r->skeleton.bones[1].name, "spine");
  EXPECT_EQ(r->skeleton.bones[1].parent, 0);
  EXPECT_FALSE(mentions(*r, "renamed"));
  EXPECT_TRUE(mentions(*r, "are not bones"));

  // The root at rest is where the armature puts it: 2 × 0.01 up the armature's turned Y axis (+Z).
  const glm::quat armature(0.70710678f, 0.70710678f, 0.0f, 0.0f);
  const auto& root = r->skeleton.bones[0];
  EXPECT_LE(glm::length(root.translation - glm::vec3(1.0f, 2.0f, 3.01f)), 1e-6f);
  EXPECT_NEAR(std::fabs(glm::dot(root.rotation, armature)), 1.0f, 1e-6f);
  EXPECT_LE(glm::length(root.scale - glm::vec3(0.01f)), 1e-7f);
  EXPECT_EQ(r->skeleton.bones[1].translation, glm::vec3(0, 1, 0)) << "below the root nothing changes";

  // The root's keys move in the armature's space too.
  ASSERT_EQ(r->clips.size(), 1u);
  ASSERT_EQ(r->clips[0].tracks.size(), 1u);
  const auto& track = r->clips[0].tracks[0];
  EXPECT_EQ(track.bone, "Wuson");
  ASSERT_EQ(track.translation.size(), 2u);
  EXPECT_LE(glm::length(track.translation.values[1] - glm::vec3(1.0f, 1.95f, 3.01f)), 1e-6f);
  ASSERT_EQ(track.rotation.size(), 2u);
  const glm::quat turned = armature * glm::quat(0.70710678f, 0.0f, 0.70710678f, 0.0f);
  EXPECT_NEAR(std::fabs(glm::dot(track.rotation.values[1], turned)), 1.0f, 1e-6f);

  // The skinned body and the prop, which follows the bone above its node.
  // In node order: the prop (below the spine) comes before the body.
  ASSERT_EQ(r->meshes.size(), 2u);
  const auto& sword = r->meshes[0];
  const auto& skin = r->meshes[1];
  EXPECT_EQ(skin.name, "body");
  EXPECT_TRUE(skin.skinned());
  EXPECT_EQ(skin.inverseBind.size(), 2u);
  EXPECT_EQ(sword.name, "sword");
  EXPECT_FALSE(sword.skinned());
  EXPECT_EQ(sword.parentBone, 1);
  // Placed at rest by the armature, the bones and its node: (0,0,0) → (1, 2, 3) + 0.01 × (0, 2, 0)
  // and (0, 0, 2) turned (Y → Z, Z → -Y).
  EXPECT_LE(glm::length(sword.positions[0] - glm::vec3(1.0f, 1.98f, 3.02f)), 1e-5f);
  EXPECT_TRUE(formats::validate(*r).empty());
}

// An armature that mirrors (or scales unevenly) cannot fold into the keys' rotations: it stays a
// bone, and the root's keys stay as the file has them.
TEST(GltfReader, AMirroringArmatureStaysABone) {
  Gltf g;
  const SkinnedTriangle tri(g);
  for (const char* scale : {"[-1,1,1]", "[1,2,1]"}) {
    const std::string body =
        std::string(kScene) + "\"nodes\":[{\"name\":\"Armature\",\"scale\":" + scale + ",\"children\":[1,3]},"
        "{\"name\":\"hip\",\"children\":[2]},{\"name\":\"knee\",\"translation\":[0,1,0]},"
        "{\"name\":\"body\",\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[1,2]}],"
        "\"meshes\":[" + tri.mesh("legs") + "]";
    const auto r = read(g.document(body));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->skeleton.bones.size(), 3u) << scale;
    EXPECT_EQ(r->skeleton.bones[0].name, "Armature") << scale;
    EXPECT_EQ(r->skeleton.bones[1].name, "hip");
    EXPECT_EQ(r->skeleton.bones[1].parent, 0);
    EXPECT_EQ(r->skeleton.bones[1].translation, glm::vec3(0.0f));
  }
}

// extras may be any JSON value (§5.13); only an object's frameRate is read.
TEST(GltfReader, AnAnimationsExtrasOfAnyKindAreReadOrIgnored) {
  for (const char* extras : {"5", "\"fast\"", "[1]", "{\"frameRate\":24}", "{\"frameRate\":\"x\"}"}) {
    Gltf g;
    const int times = g.floats({0.0f, 0.5f}, "SCALAR", 1);
    const int moves = g.floats({0, 0, 0, 0, 1, 0}, "VEC3", 3);
    const std::string body = std::string(kScene) + "\"nodes\":[{\"name\":\"root\"}],"
        "\"animations\":[{\"name\":\"a\",\"extras\":" + extras + ",\"samplers\":[{\"input\":" + std::to_string(times) +
        ",\"output\":" + std::to_string(moves) + "}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]";
    const auto r = read(g.document(body));
    ASSERT_TRUE(r.ok()) << extras << ": " << r.error().describe();
    ASSERT_EQ(r->clips.size(), 1u);
    EXPECT_FLOAT_EQ(r->clips[0].frameRate, std::string(extras) == "{\"frameRate\":24}" ? 24.0f : 30.0f) << extras;  // keys 0.5 s apart say no rate: 30
  }
}

TEST(GltfReader, InterleavedQuantizedAndSparseAccessorsReadAsTheSpecSays) {
  Gltf g;
  // Three vertices, each 12 bytes of float position then 4 bytes of normalized short uv: stride 16.
  std::vector<std::uint8_t> interleaved;
  const float p[3][3] = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
  const std::int16_t uv[3][2] = {{0, 0}, {32767, 0}, {0, -32768}};
  for (int v = 0; v < 3; ++v) {
    const auto a = bytesOf(p[v], 12), b = bytesOf(uv[v], 4);
    interleaved.insert(interleaved.end(), a.begin(), a.end());
    interleaved.insert(interleaved.end(), b.begin(), b.end());
  }
  const int view = g.nextView();
  const int pos = g.raw(interleaved, 5126, 3, "VEC3", "", ",\"byteStride\":16");
  // A second accessor on the same view: the uvs, 12 bytes in.
  const std::string uvAccessor = "{\"bufferView\":" + std::to_string(view) +
                                 ",\"byteOffset\":12,\"componentType\":5122,\"normalized\":true,\"count\":3,\"type\":\"VEC2\"}";
  // A morph target with no view: zeros, then one sparse substitution (vertex 2 moves +1 z).
  const std::uint8_t sparseIndex[] = {2, 0, 0, 0};
  const int indexView = g.nextView();
  g.raw(bytesOf(sparseIndex, 4), 5121, 1, "SCALAR");
  const float delta[3] = {0, 0, 1};
  const int valueView = g.nextView();
  g.raw(bytesOf(delta, 12), 5126, 1, "VEC3");
  const int target = g.noView(5126, 3, "VEC3",
                              ",\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":" + std::to_string(indexView) +
                                  ",\"componentType\":5121},\"values\":{\"bufferView\":" + std::to_string(valueView) + "}}");
  std::string text = g.document(std::string(kScene) + "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" +
                                std::to_string(pos) + ",\"TEXCOORD_0\":ACCESSOR_UV},\"targets\":[{\"POSITION\":" +
                                std::to_string(target) + "}]}],\"extras\":{\"targetNames\":[\"lift\"]}}]");
  // Append the hand-written accessor as the last one.
  const int uvIndex = target + 1;
  text.replace(text.find("ACCESSOR_UV"), 11, std::to_string(uvIndex));
  const auto at = text.find("],\"bufferViews\"");
  text.insert(at, "," + uvAccessor);
  const auto r = read(text);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->meshes.size(), 1u);
  const auto& m = r->meshes[0];
  EXPECT_EQ(m.name, "meshes[0]");
  ASSERT_EQ(m.vertexCount(), 3u);
  EXPECT_EQ(m.positions[1], glm::vec3(2, 0, 0));
  EXPECT_EQ(m.indices, (std::vector<std::uint32_t>{0, 1, 2})) << "no indices: one vertex per corner";
  ASSERT_EQ(m.uvSets.size(), 1u);
  EXPECT_FLOAT_EQ(m.uvSets[0][1].x, 1.0f);
  EXPECT_FLOAT_EQ(m.uvSets[0][2].y, -1.0f) << "-32768 clamps to -1";
  ASSERT_EQ(m.morphs.size(), 1u);
  EXPECT_EQ(m.morphs[0].name, "lift");
  EXPECT_EQ(m.morphs[0].positions[0], glm::vec3(0, 0, 0)) << "absolute shapes: base + zero delta";
  EXPECT_EQ(m.morphs[0].positions[2], glm::vec3(0, 2, 1));
}

TEST(GltfReader, StripsAndFansBecomeListsAndPointsAreLeftOutWithAWarning) {
  Gltf g;
  const int pos = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0}, "VEC3", 3);
  const std::string attrs = "{\"attributes\":{\"POSITION\":" + std::to_string(pos) + "},\"mode\":";
  const auto r = read(g.document(std::string(kScene) + "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"name\":\"m\",\"primitives\":[" +
                                 attrs + "5}," + attrs + "6}," + attrs + "0}]}]"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->meshes.size(), 2u);
  EXPECT_EQ(r->meshes[0].name, "m-0");
  EXPECT_EQ(r->meshes[0].indices, (std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3, 2, 3, 4}))
      << "a strip alternates its winding so that every triangle faces the same way";
  EXPECT_EQ(r->meshes[1].name, "m-1");
  EXPECT_EQ(r->meshes[1].indices, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 0, 3, 4}));
  EXPECT_TRUE(mentions(*r, "points or lines"));
}

TEST(GltfReader, AnimationsBecomeBoneTracksAndMorphWeightTracks) {
  Gltf g;
  const int pos = g.floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
  const int d0 = g.floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3", 3);
  const int d1 = g.floats({1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3", 3);
  const int times = g.floats({0.0f, 0.5f, 1.0f}, "SCALAR", 1);
  const int weights = g.floats({1, 0, 0, 1, 0.5f, 0.5f}, "SCALAR", 1);  // 3 keys × 2 targets
  // Cubic spline: in-tangent, value, out-tangent per key; the values are what is kept.
  const int spline = g.floats({9, 9, 9, 0, 0, 0, 9, 9, 9, 9, 9, 9, 0, 3, 0, 9, 9, 9, 9, 9, 9, 0, 5, 0, 9, 9, 9}, "VEC3", 3);
  const std::string body =
      std::string(kScene) +
      "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"face\",\"mesh\":0}],"
      "\"meshes\":[{\"name\":\"head\",\"primitives\":[{\"attributes\":{\"POSITION\":" + std::to_string(pos) +
      "},\"targets\":[{\"POSITION\":" + std::to_string(d0) + "},{\"POSITION\":" + std::to_string(d1) +
      "}]}],\"extras\":{\"targetNames\":[\"smile\",\"blink\"]}}],"
      "\"animations\":[{\"name\":\"talk\",\"samplers\":[{\"input\":" + std::to_string(times) + ",\"output\":" +
      std::to_string(weights) + ",\"interpolation\":\"STEP\"},{\"input\":" + std::to_string(times) +
      ",\"output\":" + std::to_string(spline) + ",\"interpolation\":\"CUBICSPLINE\"}],"
      "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"weights\"}},"
      "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]";
  const auto r = read(g.document(body));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->clips.size(), 1u);
  const auto& clip = r->clips[0];
  EXPECT_EQ(clip.name, "talk");
  EXPECT_FLOAT_EQ(clip.duration, 1.0f);
  ASSERT_EQ(clip.morphTracks.size(), 2u);
  EXPECT_EQ(clip.morphTracks[0].mesh, "head");
  EXPECT_EQ(clip.morphTracks[0].target, "smile");
  EXPECT_EQ(clip.morphTracks[1].target, "blink");
  EXPECT_EQ(clip.morphTracks[0].weight.values, (std::vector<float>{1, 0, 0.5f}));
  EXPECT_EQ(clip.morphTracks[1].weight.values, (std::vector<float>{0, 1, 0.5f}));
  EXPECT_EQ(clip.morphTracks[0].weight.interpolation, formats::Interpolation::Step);
  ASSERT_EQ(clip.tracks.size(), 1u);
  EXPECT_EQ(clip.tracks[0].bone, "root");
  ASSERT_EQ(clip.tracks[0].translation.size(), 3u);
  EXPECT_EQ(clip.tracks[0].translation.values[1], glm::vec3(0, 3, 0)) << "the spline's values, not its tangents";
  EXPECT_TRUE(mentions(*r, "cubic spline"));
  // The face mesh moves with its node: rigid, in model space at rest.
  EXPECT_EQ(r->meshes[0].parentBone, 1);
}

TEST(GltfReader, GlbChunksAreReadAndTheirLengthsChecked) {
  formats::Diagnostics d;
  const Scene tube = testing::bigSkinnedScene(6, 5, 4);
  auto glb = formats::writeGlb(tube, d);
  ASSERT_TRUE(glb) << glb.error().describe();
  formats::ReadContext ctx;
  ctx.name = "tube.glb";
  const auto r = formats::readGltf(*glb, ctx);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->meshes.size(), 1u);
  EXPECT_EQ(r->meshes[0].positions, tube.meshes[0].positions);
  EXPECT_EQ(r->meshes[0].indices, tube.meshes[0].indices);
  EXPECT_EQ(r->clips.size(), tube.clips.size());
  EXPECT_FALSE(formats::gltfNeedsAssimp(*glb));

  // The JSON chunk's length past the end of the file: an error at that chunk's offset.
  auto cut = *glb;
  const std::uint32_t huge = 0x7fffffff;
  std::memcpy(cut.data() + 12, &huge, 4);
  const auto bad = formats::readGltf(cut, ctx);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().file, "tube.glb");
  EXPECT_EQ(bad.error().offset, 12u);
  // A .glb of glTF 1.0 goes to assimp.
  auto v1 = *glb;
  v1[4] = std::byte{1};
  EXPECT_TRUE(formats::gltfNeedsAssimp(v1));
}

// Each document is damaged in one way; each must fail naming the file and the field, or read
// with a warning, and never read past a buffer or allocate what the file cannot pay for.
TEST(GltfReader, DamagedDocumentsAreErrorsNamingTheFieldNeverCrashes) {
  Gltf g = testing::triangleGltf();
  const std::string mesh = testing::kTriangleMesh;
  const std::string nodes = std::string(kScene) + "\"nodes\":[{\"mesh\":0}],";
  struct Case {
    const char* what;
    std::string text;
    const char* field;  // in the error; nullptr: reads, with a warning
  };
  std::string viewPastEnd = g.document(nodes + mesh);
  viewPastEnd.replace(viewPastEnd.find("\"byteLength\":36"), 15, "\"byteLength\":3600");
  std::string accessorPastView = g.document(nodes + mesh);
  accessorPastView.replace(accessorPastView.find("\"count\":3"), 9, "\"count\":4");
  std::string hugeCount = g.document(nodes + mesh);
  hugeCount.replace(hugeCount.find("{\"bufferView\":0,"), 16, "{");  // no view: zeros
  hugeCount.replace(hugeCount.find("\"count\":3"), 9, "\"count\":900000000000");
  std::string noVertices = g.document(nodes + mesh);  // found by fuzzing: a copy of zero floats
  for (int i = 0; i < 2; ++i)  // POSITION and TEXCOORD_0; the three indices then name no vertex
    noVertices.replace(noVertices.find("\"count\":3"), 9, "\"count\":0");
  std::string badStride = g.document(nodes + mesh);
  badStride.replace(badStride.find("\"byteLength\":36"), 15, "\"byteLength\":36,\"byteStride\":4");
  const std::vector<Case> cases = {
      {"an empty file", "", "JSON"},
      {"not JSON", "{\"asset\":", "JSON"},
      {"not glTF", "{\"meshes\":[]}", "asset"},
      {"a version to come", "{\"asset\":{\"version\":\"3.0\"}}", "asset.version"},
      {"a view past its buffer", viewPastEnd, "bufferViews[0]"},
      {"an accessor past its view", accessorPastView, "meshes[0].primitives[0].attributes.POSITION"},
      {"a count the file cannot pay for", hugeCount, "meshes[0].primitives[0].attributes.POSITION"},
      {"a stride shorter than an element", badStride, "meshes[0].primitives[0].attributes.POSITION"},
      {"a node that is its own child", g.document(std::string(kScene) + "\"nodes\":[{\"children\":[0]}]," + mesh), "nodes[0]"},
      {"a child that is not there", g.document(std::string(kScene) + "\"nodes\":[{\"children\":[7]}]," + mesh), "nodes[0].children"},
      {"a mesh that is not there", g.document(std::string(kScene) + "\"nodes\":[{\"mesh\":4}]," + mesh), "nodes[0].mesh"},
      {"an accessor that is not there",
       g.document(nodes + "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":99}}]}]"),
       "meshes[0].primitives[0].attributes.POSITION"},
      {"a matrix of 15 numbers", g.document(std::string(kScene) + "\"nodes\":[{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0],\"mesh\":0}]," + mesh), "nodes[0].matrix"},
      {"a negative index", g.document(std::string(kScene) + "\"nodes\":[{\"mesh\":-1}]," + mesh), "nodes[0].mesh"},
      {"base64 that is not", "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":\"data:;base64,@@@@\"}]}", "buffers[0].uri"},
      {"a buffer shorter than it says", "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":40,\"uri\":\"data:;base64,AAAA\"}]}", "buffers[0].byteLength"},
      {"a missing .bin", "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":\"gone.bin\"}]}", "buffers[0].uri"},
      {"a primitive of no vertices", noVertices, nullptr},
      {"indices past the vertices", g.document(nodes + "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":" +
                                                   std::to_string(g.indices({0, 1, 9})) + "}]}]"), nullptr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const auto r = read(c.text, "hostile.gltf");
    if (!c.field) {
      ASSERT_TRUE(r.ok()) << r.error().describe();
      EXPECT_FALSE(r->diagnostics.items.empty());
      EXPECT_TRUE(formats::validate(*r).empty());
      continue;
    }
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().file, "hostile.gltf");
    EXPECT_EQ(r.error().field, c.field) << r.error().describe();
    EXPECT_FALSE(r.error().message.empty());
  }
}

// Found in review: small files whose parts are repeated by reference. A mesh of 20,000 empty
// morph targets placed by 300 nodes must hit the memory limit, not take gigabytes; 2,000 buffers
// naming one file beside it fetch that file once.
TEST(GltfReader, RepeatedReferencesArePaidForAndFetchedOnce) {
  Gltf g = testing::triangleGltf();
  std::string targets, nodes, children;
  for (int k = 0; k < 20000; ++k) targets += std::string(k ? "," : "") + "{}";
  for (int n = 0; n < 300; ++n) {
    nodes += std::string(n ? "," : "") + "{\"mesh\":0}";
    children += std::string(n ? "," : "") + std::to_string(n);
  }
  const auto bomb = read(g.document("\"scene\":0,\"scenes\":[{\"nodes\":[" + children + "]}],\"nodes\":[" + nodes +
                                    "],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[" +
                                    targets + "]}]}]"));
  ASSERT_FALSE(bomb.ok());
  EXPECT_NE(bomb.error().message.find("limit"), std::string::npos) << bomb.error().describe();

  std::string buffers;
  for (int b = 0; b < 2000; ++b) buffers += std::string(b ? "," : "") + "{\"byteLength\":4,\"uri\":\"same.bin\"}";
  int asked = 0;
  formats::ReadContext ctx;
  ctx.name = "many.gltf";
  ctx.resolve = [&](const std::string&) -> std::optional<std::vector<std::byte>> {
    ++asked;
    return std::vector<std::byte>(4);
  };
  const std::string text = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[" + buffers + "]}";
  const auto r = formats::readGltf(std::as_bytes(std::span(text.data(), text.size())), ctx);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(asked, 1);
}

TEST(GltfReader, InfiniteValuesAreRepairedWithAWarning) {
  Gltf g;
  const float inf = std::numeric_limits<float>::infinity();
  const float p[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, inf, 0, 0};  // raw: JSON has no infinity for min/max
  const int pos = g.raw(bytesOf(p, sizeof p), 5126, 4, "VEC3");
  const int idx = g.indices({0, 1, 2, 1, 3, 2});
  const auto r = read(g.document(std::string(kScene) + "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" +
                                 std::to_string(pos) + "},\"indices\":" + std::to_string(idx) + "}]}]"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->meshes[0].indices, (std::vector<std::uint32_t>{0, 1, 2, 1, 3, 2}));
  EXPECT_EQ(r->meshes[0].positions[3], glm::vec3(0.0f)) << "as assimp's import repairs it";
  EXPECT_TRUE(mentions(*r, "not finite"));
  EXPECT_TRUE(formats::validate(*r).empty());
}

// Finite positions that a node's scale carries past the largest float (found by the fuzzer: a
// rigid mesh under a bone): repaired as an infinite value read, with a warning.
TEST(GltfReader, PositionsANodeCarriesPastTheLargestFloatAreRepaired) {
  Gltf g;
  const float big = 3.0e38f;
  const float p[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, big, 0, 0};
  const int pos = g.raw(bytesOf(p, sizeof p), 5126, 4, "VEC3");
  const int idx = g.indices({0, 1, 2, 1, 3, 2});
  const auto r = read(g.document(std::string(kScene) + "\"nodes\":[{\"mesh\":0,\"scale\":[4,4,4]}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" +
                                 std::to_string(pos) + "},\"indices\":" + std::to_string(idx) + "}]}]"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->meshes[0].positions[1], glm::vec3(4.0f, 0.0f, 0.0f));
  EXPECT_EQ(r->meshes[0].positions[3], glm::vec3(0.0f));
  EXPECT_TRUE(mentions(*r, "not finite once the node's transform places them"));
  EXPECT_TRUE(formats::validate(*r).empty());
}

}  // namespace
}  // namespace marrow
