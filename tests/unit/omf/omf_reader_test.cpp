// OMF 1 reader: files built by hand here (independent of the writer), one behaviour per test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "formats/io/byte_writer.h"
#include "formats/model/validate.h"
#include "formats/omf/omf.h"

#include "tests/support/read_context.h"

namespace marrow::formats {
namespace {

using ::marrow::testing::named;
const std::string kOmfName = "test.omf";  // the name readers are given

constexpr float kS = 0.70710678f;  // sin 45°
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Options {
  std::vector<std::uint8_t> codes{1, 2, 7, 8, 8};  // Position, Normal, UV, 2 Bone Weights
  bool mesh = true;                                // 4 vertices and 2 parts, or none of either
  bool armature = true;
  bool animation = true;
};

// A small OMF file and the offsets of the fields tests change, recorded while it is built.
struct Omf {
  std::vector<std::byte> bytes;
  std::size_t vertexCount = 0, stride = 0, numChannels = 0, dataOffsetField = 0, codes = 0;
  std::size_t data = 0, strideBytes = 0;
  std::vector<std::size_t> channel;  // offset of each channel inside a vertex
  std::size_t meshCount = 0;
  std::vector<std::size_t> parts, indexData;
  std::size_t boneCount = 0, firstBone = 0;
  std::vector<std::size_t> bones;
  std::size_t actionCount = 0, fps = 0;
  std::vector<std::size_t> actions, boneActions, keyframes;

  std::size_t vertex(int v, int ch) const { return data + v * strideBytes + channel[ch]; }
  template <class T>
  void set(std::size_t at, T v) {
    std::memcpy(bytes.data() + at, &v, sizeof v);
  }
};

const glm::vec3 kPositions[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
const Influence kWeights[4][2] = {{{0, 1.0f}, {1, 0.0f}},
                                  {{0, 0.5f}, {1, 0.5f}},
                                  {{1, 1.0f}, {0, 0.0f}},
                                  {{1, 0.25f}, {0, 0.75f}}};

void vec(ByteWriter& w, glm::vec3 v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}
void quat(ByteWriter& w, float x, float y, float z, float qw) {
  w.f32(x);
  w.f32(y);
  w.f32(z);
  w.f32(qw);
}

void writeChannel(ByteWriter& w, std::uint8_t code, int v, int uvSet, int weight) {
  switch (code) {
    case 1: vec(w, kPositions[v]); break;
    case 2: vec(w, {0, 0, 1}); break;
    case 3: vec(w, {0, v < 2 ? 1.0f : -1.0f, 0}); break;  // binormal: v2, v3 left-handed
    case 4: vec(w, {1, 0, 0}); break;
    case 5: vec(w, {0.5f, 0.25f, 1.0f}); break;
    case 6: quat(w, 0.1f, 0.2f, 0.3f, 0.4f); break;
    case 7:
      w.f32(kPositions[v].x * (uvSet + 1));
      w.f32(kPositions[v].y * (uvSet + 1));
      break;
    default:
      w.i32(weight < 2 ? static_cast<std::int32_t>(kWeights[v][weight].bone) : 0);
      w.f32(weight < 2 ? kWeights[v][weight].weight : 0.0f);
  }
}

std::size_t placeholder(ByteWriter& w) {
  const std::size_t at = w.offset();
  w.u32(0);
  return at;
}
void patchHere(ByteWriter& w, std::size_t at) {
  w.patchU32(at, static_cast<std::uint32_t>(w.offset()));
}

Omf build(const Options& o = {}) {
  Omf f;
  ByteWriter w;
  w.u32(0x31464D4F);
  w.u32(o.mesh ? 2 : 0);
  w.zeros(16);
  // Vertex header
  w.patchU32(8, static_cast<std::uint32_t>(w.offset()));
  f.vertexCount = w.offset();
  const int vertices = o.mesh ? 4 : 0;
  w.u32(static_cast<std::uint32_t>(vertices));
  for (std::uint8_t c : o.codes) {
    f.channel.push_back(f.strideBytes);
    f.strideBytes += c == 6 ? 16 : c >= 7 ? 8 : 12;
  }
  f.stride = w.offset();
  w.u16(static_cast<std::uint16_t>(f.strideBytes));
  f.numChannels = w.offset();
  w.u16(static_cast<std::uint16_t>(o.codes.size()));
  f.dataOffsetField = placeholder(w);
  f.codes = w.offset();
  for (std::uint8_t c : o.codes) w.u8(c);
  w.zeros((4 - w.offset() % 4) % 4);
  patchHere(w, f.dataOffsetField);
  f.data = w.offset();
  for (int v = 0; v < vertices; ++v) {
    int uv = 0, weight = 0;
    for (std::uint8_t c : o.codes) writeChannel(w, c, v, c == 7 ? uv++ : 0, c == 8 ? weight++ : 0);
  }
  // Index header and parts
  w.patchU32(12, static_cast<std::uint32_t>(w.offset()));
  f.meshCount = w.offset();
  const int parts = o.mesh ? 2 : 0;
  w.u32(static_cast<std::uint32_t>(parts));
  std::vector<std::size_t> table;
  for (int i = 0; i < parts; ++i) table.push_back(placeholder(w));
  const char* names[2] = {"body", "hat"};
  const char* materials[2] = {"skin", "metal"};
  std::vector<std::size_t> dataFields;
  for (int i = 0; i < parts; ++i) {
    patchHere(w, table[i]);
    f.parts.push_back(w.offset());
    w.fixedString(names[i], 16);
    w.i32(i);
    w.i32(1);
    w.fixedString(materials[i], 16);
    w.i32(-1);
    dataFields.push_back(placeholder(w));
  }
  const std::uint32_t indices[2][3] = {{0, 1, 2}, {3, 2, 1}};
  for (int i = 0; i < parts; ++i) {
    patchHere(w, dataFields[i]);
    f.indexData.push_back(w.offset());
    for (std::uint32_t k : indices[i]) w.u32(k);
  }
  if (o.armature) {
    w.patchU32(16, static_cast<std::uint32_t>(w.offset()));
    f.boneCount = w.offset();
    w.i32(2);
    f.firstBone = w.offset();
    w.i32(static_cast<std::int32_t>(w.offset() + 4));
    f.bones.push_back(w.offset());
    w.fixedString("root", 16);
    w.i32(0);
    w.i32(-1);
    vec(w, {0, 1, 0});
    quat(w, 0, 0, 0, 1);
    f.bones.push_back(w.offset());
    w.fixedString("arm", 16);
    w.i32(1);
    w.i32(0);
    vec(w, {1, 1, 0});
    quat(w, 0, 0, kS, kS);  // 90° about z, armature space
  }
  if (o.animation) {
    w.patchU32(20, static_cast<std::uint32_t>(w.offset()));
    f.actionCount = w.offset();
    w.i32(1);
    f.fps = w.offset();
    w.f32(30.0f);
    const std::size_t actionField = placeholder(w);
    patchHere(w, actionField);
    f.actions.push_back(w.offset());
    w.fixedString("wave", 16);
    w.i32(0);
    w.i32(2);
    w.f32(1.0f);
    const std::size_t ba[2] = {placeholder(w), placeholder(w)};
    std::size_t keyFields[2];
    const int trackBone[2] = {1, 0}, trackKeys[2] = {2, 1};
    for (int j = 0; j < 2; ++j) {
      patchHere(w, ba[j]);
      f.boneActions.push_back(w.offset());
      w.i32(trackBone[j]);
      w.i32(trackKeys[j]);
      keyFields[j] = placeholder(w);
    }
    patchHere(w, keyFields[0]);
    f.keyframes.push_back(w.offset());
    w.i32(0);
    vec(w, {1, 0, 0});
    quat(w, 0, 0, 0, 1);
    w.i32(30);
    vec(w, {1, 0, 0});
    quat(w, kS, 0, 0, kS);
    patchHere(w, keyFields[1]);
    f.keyframes.push_back(w.offset());
    w.i32(0);
    vec(w, {0, 1, 0});
    quat(w, 0, 0, 0, 1);
  }
  f.bytes = w.take();
  return f;
}

Scene readOk(const Omf& f, const ReadContext& ctx = named(kOmfName)) {
  auto r = readOmf(f.bytes, ctx);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  if (!r.ok()) return {};
  EXPECT_TRUE(validate(r.value()).empty());
  return std::move(r).value();
}

// The error names the file and the field, and points at the offending field's offset.
void expectError(const std::vector<std::byte>& bytes, std::uint64_t offset,
                 const std::string& field, const ReadContext& ctx = named(kOmfName)) {
  const auto r = readOmf(bytes, ctx);
  ASSERT_FALSE(r.ok()) << "expected an error at " << offset << " naming " << field;
  const std::string text = r.error().describe();
  EXPECT_EQ(r.error().file, "test.omf") << text;
  EXPECT_EQ(r.error().offset, offset) << text;
  EXPECT_NE(r.error().field.find(field), std::string::npos) << text;
  EXPECT_NE(text.find("offset " + std::to_string(offset)), std::string::npos) << text;
}

std::size_t warnings(const Scene& s) {
  return s.diagnostics.count(Severity::Warning);
}

// ---- invalid input ----

TEST(OmfReader, RejectsEmptyAndTruncatedHeader) {
  expectError({}, 0, "File ID");
  auto f = build();
  f.bytes.resize(10);
  EXPECT_FALSE(readOmf(f.bytes, named(kOmfName)).ok());
}

TEST(OmfReader, RejectsBadMagic) {
  auto f = build();
  f.bytes[3] = std::byte{'2'};
  expectError(f.bytes, 0, "File ID");
}

TEST(OmfReader, RejectsMeshPartCountMismatch) {
  auto f = build();
  f.set<std::uint32_t>(4, 3);
  expectError(f.bytes, f.meshCount, "Index header: Meshpart Count");
}

TEST(OmfReader, RejectsVertexHeaderOffsetPastTheFile) {
  auto f = build();
  f.set<std::uint32_t>(8, static_cast<std::uint32_t>(f.bytes.size() - 4));
  expectError(f.bytes, 8, "Vertex header offset");
}

TEST(OmfReader, RejectsIndexHeaderOffsetInsideTheFileHeader) {
  auto f = build();
  f.set<std::uint32_t>(12, 4);
  expectError(f.bytes, 12, "Index header offset");
}

TEST(OmfReader, RejectsArmatureOffsetInsideTheFileHeader) {
  auto f = build();
  f.set<std::uint32_t>(16, 20);
  expectError(f.bytes, 16, "Armature header offset");
}

TEST(OmfReader, RejectsAnimationOffsetPastTheFile) {
  auto f = build();
  f.set<std::uint32_t>(20, 0xFFFFFFF0u);
  expectError(f.bytes, 20, "Animation header offset");
}

TEST(OmfReader, RejectsNegativeIndexDataOffset) {
  auto f = build();
  f.set<std::int32_t>(f.parts[1] + 44, -4);
  expectError(f.bytes, f.parts[1] + 44, "Meshpart header 1: index data offset");
}

TEST(OmfReader, RejectsKeyframesRunningPastTheFile) {
  auto f = build();
  f.set<std::int32_t>(f.boneActions[1] + 8, static_cast<std::int32_t>(f.bytes.size() - 16));
  expectError(f.bytes, f.boneActions[1] + 8, "BoneAction 1: keyframe offset");
}

TEST(OmfReader, RejectsHugeVertexCountBeforeAllocating) {
  auto f = build();
  f.set<std::uint32_t>(f.vertexCount, 0xFFFFFFFFu);
  expectError(f.bytes, f.vertexCount, "Vertex Count");
}

TEST(OmfReader, RejectsVertexCountTheFileCannotHold) {
  auto f = build();
  f.set<std::uint32_t>(f.vertexCount, 1000);  // under the limit, over the file
  expectError(f.bytes, f.vertexCount, "Vertex Count");
}

TEST(OmfReader, RejectsHugeBoneCountBeforeAllocating) {
  auto f = build();
  f.set<std::uint32_t>(f.boneCount, 0xFFFFFFFFu);
  expectError(f.bytes, f.boneCount, "Bone Count");
  f.set<std::uint32_t>(f.boneCount, 0x3FFF);  // under the limit, over the file
  expectError(f.bytes, f.boneCount, "Bone Count");
}

TEST(OmfReader, RejectsHugeKeyCountBeforeAllocating) {
  auto f = build();
  f.set<std::uint32_t>(f.boneActions[0] + 4, 0xFFFFFFFFu);
  expectError(f.bytes, f.boneActions[0] + 4, "BoneAction 0: number of keyframes");
  f.set<std::uint32_t>(f.boneActions[0] + 4, 0x7FFFFFFFu);
  expectError(f.bytes, f.boneActions[0] + 4, "BoneAction 0: number of keyframes");
}

TEST(OmfReader, RejectsHugeTriangleCountBeforeAllocating) {
  auto f = build();
  f.set<std::uint32_t>(f.parts[0] + 20, 0xFFFFFFFFu);
  expectError(f.bytes, f.parts[0] + 20, "Meshpart header 0: NumberTriangles");
  f.set<std::uint32_t>(f.parts[0] + 20, 0x7FFFFFFFu);
  expectError(f.bytes, f.parts[0] + 20, "Meshpart header 0: NumberTriangles");
}

TEST(OmfReader, RejectsHugeActionCountBeforeAllocating) {
  auto f = build();
  f.set<std::uint32_t>(f.actionCount, 0x7FFFFFFFu);
  expectError(f.bytes, f.actionCount, "Action Count");
}

TEST(OmfReader, RejectsCountsOverTheContextLimits) {
  const auto f = build();
  auto ctx = named(kOmfName);
  ctx.limits.maxBones = 1;
  expectError(f.bytes, f.boneCount, "Bone Count", ctx);
  ctx = named(kOmfName);
  ctx.limits.maxVertices = 3;
  expectError(f.bytes, f.vertexCount, "Vertex Count", ctx);
  ctx = named(kOmfName);
  ctx.limits.maxTriangles = 1;
  expectError(f.bytes, f.parts[1] + 20, "Meshpart header 1: NumberTriangles", ctx);
  ctx = named(kOmfName);
  ctx.limits.maxKeys = 2;
  expectError(f.bytes, f.boneActions[1] + 4, "number of keyframes", ctx);
  ctx = named(kOmfName);
  ctx.limits.maxMeshes = 1;
  expectError(f.bytes, f.meshCount, "Meshpart Count", ctx);
  ctx = named(kOmfName);
  ctx.limits.maxClips = 0;
  expectError(f.bytes, f.actionCount, "Action Count", ctx);
}

TEST(OmfReader, RejectsAllocationsOverTheBudget) {
  const auto f = build();
  auto ctx = named(kOmfName);
  ctx.limits.allocationFactor = 0;
  ctx.limits.allocationSlack = 64;
  EXPECT_FALSE(readOmf(f.bytes, ctx).ok());
}

TEST(OmfReader, RejectsStrideSmallerThanTheChannels) {
  auto f = build();
  f.set<std::uint16_t>(f.stride, static_cast<std::uint16_t>(f.strideBytes - 4));
  expectError(f.bytes, f.stride, "Vertex Stride");
}

TEST(OmfReader, RejectsTwoPositionChannels) {
  auto f = build();
  f.set<std::uint8_t>(f.codes + 1, 1);  // the Normal becomes a second Position
  expectError(f.bytes, f.codes + 1, "channel 1 type code");
}

TEST(OmfReader, RejectsMissingPositionChannel) {
  auto f = build();
  f.set<std::uint8_t>(f.codes, 2);
  expectError(f.bytes, f.numChannels, "Num of Channels");
}

TEST(OmfReader, RejectsNineBoneWeightChannels) {
  auto f = build({.codes = {1, 8, 8, 8, 8, 8, 8, 8, 8, 8}});
  expectError(f.bytes, f.codes + 9, "channel 9 type code");
}

TEST(OmfReader, RejectsUnknownChannelCode) {
  auto f = build();
  f.set<std::uint8_t>(f.codes + 2, 9);
  expectError(f.bytes, f.codes + 2, "channel 2 type code");
  f.set<std::uint8_t>(f.codes + 2, 0);
  expectError(f.bytes, f.codes + 2, "channel 2 type code");
}

TEST(OmfReader, RejectsWeightChannelsWithoutArmature) {
  auto f = build({.armature = false, .animation = false});
  expectError(f.bytes, f.codes + 3, "channel 3 type code");
}

TEST(OmfReader, RejectsIndexPastTheVertexCount) {
  auto f = build();
  f.set<std::uint32_t>(f.indexData[1] + 8, 4);
  expectError(f.bytes, f.indexData[1] + 8, "Meshpart 1: index 2");
}

TEST(OmfReader, RejectsWeightedBoneIndexOutOfRange) {
  auto f = build();
  f.set<std::int32_t>(f.vertex(1, 4), 2);  // vertex 1, second weight channel: weight 0.5
  expectError(f.bytes, f.vertex(1, 4), "Vertex 1: Bone Weight 1 bone index");
  f.set<std::int32_t>(f.vertex(1, 4), -1);
  expectError(f.bytes, f.vertex(1, 4), "Vertex 1: Bone Weight 1 bone index");
}

TEST(OmfReader, RejectsNegativeWeight) {
  auto f = build();
  f.set<float>(f.vertex(3, 3) + 4, -0.25f);
  expectError(f.bytes, f.vertex(3, 3) + 4, "Vertex 3: Bone Weight 0 weight");
}

TEST(OmfReader, RejectsParentThatDoesNotPrecedeTheBone) {
  auto f = build();
  f.set<std::int32_t>(f.bones[1] + 20, 1);
  expectError(f.bytes, f.bones[1] + 20, "Bone 1: Parent Index");
  f.set<std::int32_t>(f.bones[0] + 20, -2);
  expectError(f.bytes, f.bones[0] + 20, "Bone 0: Parent Index");
}

TEST(OmfReader, RejectsBoneIndexFieldOtherThanItsPosition) {
  auto f = build();
  f.set<std::int32_t>(f.bones[1] + 16, 0);
  expectError(f.bytes, f.bones[1] + 16, "Bone 1: Index");
}

TEST(OmfReader, RejectsMeshpartIndexFieldOtherThanItsPosition) {
  auto f = build();
  f.set<std::int32_t>(f.parts[1] + 16, 0);
  expectError(f.bytes, f.parts[1] + 16, "Meshpart header 1: Index");
}

TEST(OmfReader, RejectsActionIndexFieldOtherThanItsPosition) {
  auto f = build();
  f.set<std::int32_t>(f.actions[0] + 16, 1);
  expectError(f.bytes, f.actions[0] + 16, "Action 0: Index");
}

TEST(OmfReader, RejectsDuplicateBoneNames) {
  auto f = build();
  std::memcpy(f.bytes.data() + f.bones[1], "root", 4);
  expectError(f.bytes, f.bones[1], "Bone 1: name");
}

TEST(OmfReader, RejectsParentBoneOutsideTheArmature) {
  auto f = build();
  f.set<std::int32_t>(f.parts[0] + 40, 2);
  expectError(f.bytes, f.parts[0] + 40, "Meshpart header 0: ParentBone");
}

TEST(OmfReader, RejectsTrackForBoneOutsideTheArmature) {
  auto f = build();
  f.set<std::int32_t>(f.boneActions[1], 2);
  expectError(f.bytes, f.boneActions[1], "Action 0 BoneAction 1: bone index");
}

TEST(OmfReader, RejectsTwoTracksForOneBone) {
  auto f = build();
  f.set<std::int32_t>(f.boneActions[1], 1);
  expectError(f.bytes, f.boneActions[1], "Action 0 BoneAction 1: bone index");
}

TEST(OmfReader, RejectsNonIncreasingFrames) {
  auto f = build();
  f.set<std::int32_t>(f.keyframes[0] + 32, 0);
  expectError(f.bytes, f.keyframes[0] + 32, "BoneAction 0 keyframe 1: frame number");
}

TEST(OmfReader, RejectsFramesWhoseTimesCollideAsFloats) {
  auto f = build();
  f.set<float>(f.fps, 1.0f);
  f.set<std::int32_t>(f.keyframes[0], 1 << 24);
  f.set<std::int32_t>(f.keyframes[0] + 32, (1 << 24) + 1);  // same float number of seconds
  expectError(f.bytes, f.keyframes[0] + 32, "BoneAction 0 keyframe 1: frame number");
}

TEST(OmfReader, RejectsNaNPosition) {
  auto f = build();
  f.set<float>(f.vertex(2, 0) + 4, kNaN);
  expectError(f.bytes, f.vertex(2, 0) + 4, "Vertex 2: Position");
  f.set<float>(f.vertex(2, 0) + 4, std::numeric_limits<float>::infinity());
  expectError(f.bytes, f.vertex(2, 0) + 4, "Vertex 2: Position");
}

TEST(OmfReader, RejectsNaNKey) {
  auto f = build();
  f.set<float>(f.keyframes[0] + 32 + 8, kNaN);  // key 1, translation y
  expectError(f.bytes, f.keyframes[0] + 40, "BoneAction 0 keyframe 1: translation");
  f = build();
  f.set<float>(f.keyframes[1] + 16 + 12, kNaN);  // rotation w
  expectError(f.bytes, f.keyframes[1] + 28, "BoneAction 1 keyframe 0: rotation");
}

TEST(OmfReader, RejectsNaNRestPose) {
  auto f = build();
  f.set<float>(f.bones[1] + 24, kNaN);
  expectError(f.bytes, f.bones[1] + 24, "Bone 1: rest position");
}

TEST(OmfReader, RejectsZeroQuaternion) {
  auto f = build();
  for (int k = 0; k < 4; ++k) f.set<float>(f.bones[1] + 36 + 4 * k, 0.0f);
  expectError(f.bytes, f.bones[1] + 36, "Bone 1: rest rotation");
}

TEST(OmfReader, RejectsFpsThatIsNotPositive) {
  auto f = build();
  for (float fps : {0.0f, -30.0f, kNaN, std::numeric_limits<float>::infinity()}) {
    f.set<float>(f.fps, fps);
    expectError(f.bytes, f.fps, "Animation header: FPS");
  }
}

TEST(OmfReader, RejectsNegativeOrNaNDuration) {
  auto f = build();
  f.set<float>(f.actions[0] + 24, -1.0f);
  expectError(f.bytes, f.actions[0] + 24, "Action 0: Duration");
  f.set<float>(f.actions[0] + 24, kNaN);
  expectError(f.bytes, f.actions[0] + 24, "Action 0: Duration");
}

// ---- valid input ----

TEST(OmfReader, ReadsFormatAndBasis) {
  const Scene s = readOk(build());
  EXPECT_EQ(s.format, "OMF 1");
  EXPECT_EQ(s.basis, Basis{});
  EXPECT_TRUE(s.diagnostics.empty());
}

TEST(OmfReader, MakesOneMeshPerPartHoldingOnlyItsVertices) {
  const Scene s = readOk(build());
  ASSERT_EQ(s.meshes.size(), 2u);
  EXPECT_EQ(s.meshes[0].name, "body");
  EXPECT_EQ(s.meshes[1].name, "hat");
  ASSERT_EQ(s.meshes[1].vertexCount(), 3u);  // vertices 3, 2, 1 in first-use order
  EXPECT_EQ(s.meshes[1].positions[0], kPositions[3]);
  EXPECT_EQ(s.meshes[1].positions[1], kPositions[2]);
  EXPECT_EQ(s.meshes[1].positions[2], kPositions[1]);
  EXPECT_EQ(s.meshes[1].indices, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(s.meshes[0].indices, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(OmfReader, ReadsNormalsAndUvsUnchanged) {
  const Scene s = readOk(build({.codes = {1, 2, 7, 7, 8, 8}}));
  const Mesh& m = s.meshes[1];
  ASSERT_EQ(m.uvSets.size(), 2u);
  EXPECT_EQ(m.normals[0], glm::vec3(0, 0, 1));
  EXPECT_EQ(m.uvSets[0][0], glm::vec2(1, 1));  // vertex 3; v = 0 is the top row in both
  EXPECT_EQ(m.uvSets[1][0], glm::vec2(2, 2));
}

TEST(OmfReader, ReadsInfluencesSkippingZeroWeights) {
  const Scene s = readOk(build());
  const Mesh& m = s.meshes[0];
  ASSERT_TRUE(m.skinned());
  ASSERT_EQ(m.influencesOf(0).size(), 1u);
  EXPECT_EQ(m.influencesOf(0)[0], (Influence{0, 1.0f}));
  ASSERT_EQ(m.influencesOf(1).size(), 2u);
  EXPECT_EQ(m.influencesOf(1)[1], (Influence{1, 0.5f}));
}

TEST(OmfReader, IgnoresBoneIndexOfZeroWeightInfluence) {
  auto f = build();
  f.set<std::int32_t>(f.vertex(0, 4), 77);  // weight 0: unused
  f.set<std::int32_t>(f.vertex(2, 4), -1);
  const Scene s = readOk(f);
  EXPECT_EQ(s.meshes[0].influencesOf(0).size(), 1u);
  EXPECT_TRUE(s.diagnostics.empty());
}

TEST(OmfReader, ReadsTangentHandednessFromBinormalAndColor3AsOpaque) {
  const Scene s =
      readOk(build({.codes = {1, 2, 4, 3, 5, 7}, .armature = false, .animation = false}));
  const Mesh& body = s.meshes[0];  // vertices 0, 1, 2
  ASSERT_EQ(body.tangents.size(), 3u);
  EXPECT_EQ(body.tangents[0], glm::vec4(1, 0, 0, 1));
  EXPECT_EQ(body.tangents[2], glm::vec4(1, 0, 0, -1));
  EXPECT_EQ(body.colors[0], glm::vec4(0.5f, 0.25f, 1.0f, 1.0f));
  EXPECT_FALSE(body.skinned());
}

TEST(OmfReader, ReadsTangentWithoutBinormalAsRightHanded) {
  const Scene s = readOk(build({.codes = {1, 4, 6}, .armature = false, .animation = false}));
  EXPECT_EQ(s.meshes[0].tangents[2], glm::vec4(1, 0, 0, 1));
  EXPECT_EQ(s.meshes[0].colors[2], glm::vec4(0.1f, 0.2f, 0.3f, 0.4f));
}

TEST(OmfReader, MapsMaterialNamesToDeduplicatedMaterials) {
  auto f = build();
  std::memcpy(f.bytes.data() + f.parts[1] + 24, "skin\0\0", 6);
  const Scene s = readOk(f);
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_EQ(s.materials[0].name, "skin");
  EXPECT_EQ(s.meshes[0].material, 0);
  EXPECT_EQ(s.meshes[1].material, 0);
  const Scene two = readOk(build());
  ASSERT_EQ(two.materials.size(), 2u);
  EXPECT_EQ(two.materials[1].name, "metal");
  EXPECT_EQ(two.meshes[1].material, 1);
}

TEST(OmfReader, ReadsRigidPartWithoutInfluences) {
  auto f = build();
  f.set<std::int32_t>(f.parts[1] + 40, 1);
  const Scene s = readOk(f);
  EXPECT_EQ(s.meshes[1].parentBone, 1);
  EXPECT_FALSE(s.meshes[1].skinned());
  EXPECT_TRUE(s.skeleton.inverseBind.empty());
}

TEST(OmfReader, ConvertsArmatureSpaceRestToParentRelative) {
  const Scene s = readOk(build());
  ASSERT_EQ(s.skeleton.bones.size(), 2u);
  const Bone& arm = s.skeleton.bones[1];
  EXPECT_EQ(arm.name, "arm");
  EXPECT_EQ(arm.parent, 0);
  EXPECT_NEAR(arm.translation.x, 1.0f, 1e-6f);
  EXPECT_NEAR(arm.translation.y, 0.0f, 1e-6f);
  EXPECT_NEAR(std::abs(glm::dot(arm.rotation, glm::quat(kS, 0, 0, kS))), 1.0f, 1e-6f);
  const auto model = s.skeleton.restModelMatrices();
  EXPECT_NEAR(model[1][3].y, 1.0f, 1e-6f);
  EXPECT_TRUE(s.skeleton.inverseBind.empty());
}

TEST(OmfReader, ReadsActionsAsClipsWithLocalKeys) {
  const Scene s = readOk(build());
  ASSERT_EQ(s.clips.size(), 1u);
  const Clip& c = s.clips[0];
  EXPECT_EQ(c.name, "wave");
  EXPECT_FLOAT_EQ(c.duration, 1.0f);
  EXPECT_FLOAT_EQ(c.frameRate, 30.0f);
  ASSERT_EQ(c.tracks.size(), 2u);
  EXPECT_EQ(c.tracks[0].bone, "arm");
  EXPECT_EQ(c.tracks[0].sourceIndex, 1);
  EXPECT_EQ(c.tracks[0].translation.times, (std::vector<float>{0.0f, 1.0f}));
  EXPECT_EQ(c.tracks[0].rotation.values[1], glm::quat(kS, kS, 0, 0));
  EXPECT_TRUE(c.tracks[0].scale.empty());
  EXPECT_EQ(c.tracks[1].translation.values[0], glm::vec3(0, 1, 0));
}

TEST(OmfReader, ReadsAnimationOnlyFile) {
  const Scene s = readOk(build({.codes = {1}, .mesh = false}));
  EXPECT_TRUE(s.meshes.empty());
  EXPECT_EQ(s.skeleton.bones.size(), 2u);
  EXPECT_EQ(s.clips.size(), 1u);
}

TEST(OmfReader, AcceptsEmptyTrackWhoseKeyframeOffsetIsZero) {
  auto f = build();
  f.set<std::int32_t>(f.boneActions[1] + 4, 0);  // a zero-length range overlaps nothing
  f.set<std::int32_t>(f.boneActions[1] + 8, 0);
  const Scene s = readOk(f);
  EXPECT_TRUE(s.clips[0].tracks[1].translation.empty());
}

TEST(OmfReader, UsesTheFirstOfRepeatedNormalChannelsWithOneWarning) {
  const auto f = build({.codes = {1, 2, 2, 8, 8}});
  const Scene s = readOk(f);
  ASSERT_EQ(warnings(s), 1u);
  EXPECT_EQ(s.diagnostics.items[0].offset, f.codes + 2);
  EXPECT_EQ(s.meshes[0].normals[0], glm::vec3(0, 0, 1));
}

TEST(OmfReader, LeavesOutVerticesNoPartUses) {
  auto f = build();
  f.set<std::uint32_t>(f.indexData[1], 1);  // the hat now uses 1, 2, 1: vertex 3 is unused
  const Scene s = readOk(f);
  EXPECT_EQ(s.meshes[1].vertexCount(), 2u);
  EXPECT_EQ(warnings(s), 0u);
  ASSERT_EQ(s.diagnostics.count(Severity::Info), 1u);
  EXPECT_NE(s.diagnostics.items[0].message.find("1 vertices"), std::string::npos);
}

// ---- repairs ----

TEST(OmfReader, NormalisesNonUnitQuaternionsWithOneWarning) {
  auto f = build();
  f.set<float>(f.bones[1] + 44, 2 * kS);
  f.set<float>(f.bones[1] + 48, 2 * kS);
  f.set<float>(f.keyframes[0] + 32 + 16, 2 * kS);
  f.set<float>(f.keyframes[0] + 32 + 28, 2 * kS);
  const Scene s = readOk(f);
  ASSERT_EQ(warnings(s), 1u);
  const Diagnostic& d = s.diagnostics.items[0];
  EXPECT_EQ(d.offset, f.bones[1] + 36);
  EXPECT_NE(d.message.find("2 quaternion"), std::string::npos) << describe(d);
  EXPECT_NEAR(glm::length(s.clips[0].tracks[0].rotation.values[1]), 1.0f, 1e-6f);
  EXPECT_NEAR(s.skeleton.bones[1].rotation.z, kS, 1e-6f);
}

TEST(OmfReader, RenormalisesWeightsWithOneWarning) {
  auto f = build();
  f.set<float>(f.vertex(1, 3) + 4, 0.25f);
  f.set<float>(f.vertex(1, 4) + 4, 0.25f);
  f.set<float>(f.vertex(3, 3) + 4, 0.5f);
  const Scene s = readOk(f);
  ASSERT_EQ(warnings(s), 1u);
  EXPECT_EQ(s.diagnostics.items[0].offset, f.vertex(1, 3));
  EXPECT_NE(s.diagnostics.items[0].message.find("2 vertices"), std::string::npos);
  EXPECT_FLOAT_EQ(s.meshes[0].influencesOf(1)[0].weight, 0.5f);
  EXPECT_FLOAT_EQ(s.meshes[1].influencesOf(0)[0].weight, 0.4f);  // vertex 3: 0.5 / 1.25
}

TEST(OmfReader, LeavesAllZeroWeightVertexUnskinnedWithOneWarning) {
  auto f = build();
  f.set<float>(f.vertex(0, 3) + 4, 0.0f);
  const Scene s = readOk(f);
  ASSERT_EQ(warnings(s), 1u);
  EXPECT_NE(s.diagnostics.items[0].message.find("1 vertices"), std::string::npos);
  EXPECT_TRUE(s.meshes[0].skinned());
  EXPECT_TRUE(s.meshes[0].influencesOf(0).empty());
}

TEST(OmfReader, ReadsPartWithOnlyZeroWeightsAsStatic) {
  auto f = build();
  for (int v = 1; v < 4; ++v)
    for (int ch = 3; ch < 5; ++ch) f.set<float>(f.vertex(v, ch) + 4, 0.0f);
  const Scene s = readOk(f);
  EXPECT_FALSE(s.meshes[1].skinned());  // vertices 3, 2, 1 carry no weight
  EXPECT_EQ(warnings(s), 1u);           // body's vertices 1 and 2 do, in a skinned part
}

}  // namespace
}  // namespace marrow::formats
