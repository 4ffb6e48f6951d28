// Binary cal3d mesh (.cmf) reader: files built here byte by byte in all three layouts
// (cal3d_cmf_fixture_test.cpp reads the real files).
#include <gtest/gtest.h>

#include <tuple>

#include "cal3d_cmf_test_util.h"
#include "formats/cal3d/cal3d.h"

namespace marrow::formats::cal3d {
namespace {

using namespace testing;
using namespace testing::cmf;

// ---- invalid input ----

TEST(Cal3dCmf, RejectsBadMagicAndVersions) {
  const Reader read;
  auto f = build();
  f.bytes[1] = std::byte{'A'};
  expectError(read(f.bytes), 0, "magic", kFile);
  for (int v : {1, 698, 1302}) {
    f = build();
    put<std::int32_t>(f.bytes, 4, v);
    expectError(read(f.bytes), 4, "version", kFile);
  }
}

TEST(Cal3dCmf, RejectsEveryTruncationInEveryLayout) {
  const Reader read;
  for (int version : {700, 1300, 1301}) {
    const auto f = build({quad()}, version);
    for (std::size_t n = 0; n < f.bytes.size(); ++n)
      EXPECT_FALSE(read({f.bytes.begin(), f.bytes.begin() + static_cast<long>(n)}).ok())
          << version << ": " << n;
  }
}

TEST(Cal3dCmf, RejectsTrailingBytes) {
  const Reader read;
  auto f = build();
  f.bytes.resize(f.bytes.size() + 4);
  EXPECT_FALSE(read(f.bytes).ok());
}

TEST(Cal3dCmf, RejectsNegativeCounts) {
  const Reader read;
  const auto f0 = build({quad()}, 1301);
  const SubmeshAt& a = f0.at[0];
  for (auto [at, field] : std::vector<std::pair<std::size_t, std::string>>{
           {8, "submeshCount"},
           {a.vertexCount, "submesh 0: vertexCount"},
           {a.faceCount, "submesh 0: faceCount"},
           {a.lodCount, "submesh 0: lodCount"},
           {a.springCount, "submesh 0: springCount"},
           {a.mapCount, "submesh 0: mapCount"},
           {a.morphCount, "submesh 0: morphCount"},
           {a.influenceCount(1, CmfLayout::CountPrefixed), "submesh 0: vertex 1: influenceCount"},
           {a.morph[0] + 10, "submesh 0: morph 0: blendCount"},
           {a.morph[0], "submesh 0: morph 0: name"}}) {
    auto f = f0;
    put<std::int32_t>(f.bytes, at, -2);
    expectError(read(f.bytes), at, field, kFile);
  }
}

TEST(Cal3dCmf, RejectsHugeCountsBeforeAllocating) {
  const Reader read;
  const auto f0 = build();
  const SubmeshAt& a = f0.at[0];
  for (auto [at, field] : std::vector<std::pair<std::size_t, std::string>>{
           {8, "submeshCount"},
           {a.vertexCount, "submesh 0: vertexCount"},
           {a.faceCount, "submesh 0: faceCount"},
           {a.springCount, "submesh 0: springCount"},
           {a.mapCount, "submesh 0: mapCount"},
           {a.influenceCount(0, CmfLayout::Plain), "submesh 0: vertex 0: influenceCount"}}) {
    for (std::int32_t n : {0x7fffffff, 5000}) {
      auto f = f0;
      put<std::int32_t>(f.bytes, at, n);
      expectError(read(f.bytes), at, field, kFile);
    }
  }
}

TEST(Cal3dCmf, RejectsCountsOverTheContextLimits) {
  const Reader read;
  const auto f = build();
  auto ctx = context(kFile);
  ctx.limits.maxVertices = 3;
  expectError(read(f.bytes, ctx), f.at[0].vertexCount, "vertexCount", kFile);
  ctx = context(kFile);
  ctx.limits.maxInfluencesPerVertex = 1;
  expectError(read(f.bytes, ctx), f.at[0].influenceCount(1, CmfLayout::Plain),
              "vertex 1: influenceCount", kFile);
}

TEST(Cal3dCmf, RejectsWhatOutgrowsTheMemoryBudget) {
  const Reader read;
  // Morph targets of no vertices still hold their uv sets: 64 sets for 8 bytes each.
  auto s = quad();
  s.vertices.clear();
  s.faces.clear();
  s.springs.clear();
  s.lod = 0;
  s.maps = 64;
  s.morphs.assign(2000, MorphSpec{"", {}});
  const auto f = build({s}, 1301);
  auto ctx = context(kFile);
  ctx.limits.allocationSlack = 0;
  expectError(read(f.bytes, ctx), f.at[0].morphCount, "submesh 0: morphCount", kFile);
  ctx.limits.allocationFactor = 0;
  expectError(read(build().bytes, ctx), build().at[0].vertexCount, "submesh 0: vertexCount", kFile);
  s.morphs.resize(100);
  EXPECT_TRUE(read(build({s}, 1301).bytes).ok());  // within the default slack
}

TEST(Cal3dCmf, RejectsLodCountOverTheVertexCount) {
  const Reader read;
  auto f = build();
  put<std::int32_t>(f.bytes, f.at[0].lodCount, 5);
  expectError(read(f.bytes), f.at[0].lodCount, "submesh 0: lodCount", kFile);
}

TEST(Cal3dCmf, RejectsFaceIndexOutsideTheSubmesh) {
  const Reader read;
  for (std::int32_t i : {4, -1, 0x7fffffff}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.at[0].face[1] + 8, i);
    expectError(read(f.bytes), f.at[0].face[1] + 8, "submesh 0: face 1: vertexId", kFile);
  }
}

TEST(Cal3dCmf, RejectsCollapseIdsOutsideTheSubmesh) {
  const Reader read;
  for (std::int32_t c : {4, -2}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.at[0].vertex[2] + 24, c);
    expectError(read(f.bytes), f.at[0].vertex[2] + 24, "submesh 0: vertex 2: collapseId", kFile);
  }
  auto f = build();
  put<std::int32_t>(f.bytes, f.at[0].vertex[2] + 28, -1);
  expectError(read(f.bytes), f.at[0].vertex[2] + 28, "vertex 2: faceCollapseCount", kFile);
}

TEST(Cal3dCmf, RejectsSpringVertexOutsideTheSubmesh) {
  const Reader read;
  auto f = build();
  put<std::int32_t>(f.bytes, f.at[0].spring[0] + 4, 4);
  expectError(read(f.bytes), f.at[0].spring[0] + 4, "submesh 0: spring 0: vertexB", kFile);
}

TEST(Cal3dCmf, RejectsInfluenceOfABoneTheSkeletonDoesNotHave) {
  const Reader read;
  auto f = build();
  const std::size_t at = f.at[0].influenceCount(1, CmfLayout::Plain) + 4 + 8;  // influence 1
  put<std::int32_t>(f.bytes, at, 3);
  expectError(read(f.bytes), at, "submesh 0: vertex 1: influence 1: boneId", kFile);
}

TEST(Cal3dCmf, RejectsNaNValues) {
  const Reader read;
  const auto f0 = build();
  const SubmeshAt& a = f0.at[0];
  for (auto [at, field] : std::vector<std::pair<std::size_t, std::string>>{
           {a.vertex[1] + 4, "vertex 1: position"},
           {a.vertex[2] + 20, "vertex 2: normal"},
           {a.vertex[3] + 36, "vertex 3: uv"},
           {a.influenceCount(0, CmfLayout::Plain) + 8, "vertex 0: influence 0: weight"},
           {a.spring[0] + 12, "spring 0: idleLength"}}) {
    auto f = f0;
    put<float>(f.bytes, at, kNaN);
    expectError(read(f.bytes), at, field, kFile);
  }
}

TEST(Cal3dCmf, RejectsMorphIdsThatDoNotIncrease) {
  const Reader read;
  auto s = quad();
  s.morphs[0].blends = {{2, {}}, {1, {}}};
  const auto sentinel = build({s}, 1300);
  const std::size_t second = sentinel.at[0].morph[0] + 10 + 4 + 24 + 8;
  expectError(read(sentinel.bytes), second, "submesh 0: morph 0: vertexId", kFile);
  const auto counted = build({s}, 1301);
  expectError(read(counted.bytes), counted.at[0].morph[0] + 10 + 4 + 4 + 24 + 8,
              "submesh 0: morph 0: vertexId", kFile);
}

TEST(Cal3dCmf, RejectsCountedMorphIdPastTheVertices) {
  const Reader read;
  auto s = quad();
  s.morphs[0].blends = {{4, {}}};
  const auto f = build({s}, 1301);
  expectError(read(f.bytes), f.at[0].morph[0] + 14, "morph 0: vertexId", kFile);
}

TEST(Cal3dCmf, FlippedBytesGiveAnErrorOrAValidMesh) {
  const Reader read;
  for (int version : {700, 1300, 1301}) {
    auto bytes = build({quad()}, version).bytes;
    std::size_t accepted = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      bytes[i] ^= std::byte{0xFF};
      const auto r = read(bytes);
      if (r.ok()) {
        ++accepted;
        Scene s;
        s.skeleton = read.skeleton;
        s.meshes = r->meshes;
        const auto problems = validate(s);
        EXPECT_TRUE(problems.empty()) << version << " byte " << i << ": " << problems.front();
      }
      bytes[i] ^= std::byte{0xFF};
    }
    EXPECT_GT(accepted, 0u);
  }
}

// ---- reading ----

TEST(Cal3dCmf, ReadsAPlainSubmesh) {
  const auto part = readOk(build().bytes);
  ASSERT_EQ(part.meshes.size(), 1u);
  const Mesh& m = part.meshes[0];
  EXPECT_EQ(m.name, "body");
  EXPECT_EQ(m.material, -1);
  EXPECT_EQ(part.materialThreads, (std::vector<int>{2}));
  EXPECT_EQ(m.positions[3], glm::vec3(1, 1, 0));
  EXPECT_EQ(m.normals[0], glm::vec3(0, 0, 1));
  EXPECT_TRUE(m.colors.empty());
  ASSERT_EQ(m.uvSets.size(), 1u);
  EXPECT_EQ(m.uvSets[0][1], glm::vec2(1, 0));
  EXPECT_EQ(m.indices, (std::vector<std::uint32_t>{0, 1, 2, 1, 3, 2}));
  ASSERT_TRUE(m.skinned());
  EXPECT_EQ(m.influencesOf(1).size(), 2u);
  EXPECT_EQ(m.influencesOf(1)[1], (Influence{1, 0.5f}));
  EXPECT_TRUE(m.influencesOf(3).empty());
  EXPECT_EQ(m.lod.collapsible, 1u);
  EXPECT_EQ(m.lod.collapseTo, (std::vector<std::int32_t>{-1, -1, -1, 1}));
  EXPECT_EQ(m.lod.faceCollapseCount, (std::vector<std::int32_t>{0, 0, 0, 1}));
  ASSERT_EQ(m.springs.size(), 1u);
  EXPECT_EQ(m.springs[0].b, 3u);
  EXPECT_EQ(m.springs[0].idleLength, 1.5f);
  EXPECT_EQ(m.physicalWeights, (std::vector<float>{0, 0.25f, 0.5f, 0.75f}));
  EXPECT_TRUE(m.morphs.empty());
  EXPECT_EQ(part.format, "cal3d CMF 700");
  EXPECT_TRUE(part.diagnostics.empty());
}

TEST(Cal3dCmf, NamesSeveralSubmeshesAfterTheFile) {
  const auto part = readOk(build({quad(), quad()}).bytes);
  ASSERT_EQ(part.meshes.size(), 2u);
  EXPECT_EQ(part.meshes[0].name, "body#0");
  EXPECT_EQ(part.meshes[1].name, "body#1");
}

TEST(Cal3dCmf, ReadsTwoUvSetsAndNoPhysicalWeightsWithoutSprings) {
  auto s = quad();
  s.maps = 2;
  s.springs.clear();
  const Mesh m = readOk(build({s}).bytes).meshes[0];
  ASSERT_EQ(m.uvSets.size(), 2u);
  EXPECT_EQ(m.uvSets[1][1], glm::vec2(2, 0));
  EXPECT_TRUE(m.physicalWeights.empty());
}

TEST(Cal3dCmf, LeavesSubmeshWithoutInfluencesUnskinnedAndWithoutLodEmpty) {
  auto s = quad();
  for (auto& v : s.vertices) {
    v.influences.clear();
    v.collapse = -1;
    v.faceCollapse = 0;
  }
  s.lod = 0;
  const Mesh m = readOk(build({s}).bytes).meshes[0];
  EXPECT_FALSE(m.skinned());
  EXPECT_TRUE(m.lod.empty());
}

TEST(Cal3dCmf, MapsInfluenceBoneIdsThroughTheSkeletonsReordering) {
  Skeleton s = threeBones();
  const BoneMap reordered{&s, {2, 0, 1}};
  const Mesh m = readOk(build().bytes, reordered).meshes[0];
  EXPECT_EQ(m.influencesOf(0)[0].bone, 2u);
  EXPECT_EQ(m.influencesOf(2)[0].bone, 1u);
}

TEST(Cal3dCmf, KeepsTheFileBoneIdsWithoutASkeleton) {
  const auto withSkeleton = readOk(build({quad(), quad()}).bytes);
  const auto without = readOk(build({quad(), quad()}).bytes, BoneMap{});
  ASSERT_TRUE(without.meshes[0].skinned());
  // The reader's test skeleton maps file ids to themselves: the ids are what the file says.
  EXPECT_EQ(without.meshes[0].influences, withSkeleton.meshes[0].influences);
  EXPECT_EQ(without.meshes[1].influences, withSkeleton.meshes[1].influences);
  EXPECT_TRUE(without.diagnostics.empty());
}

TEST(Cal3dCmf, FlipsEveryFaceWhenTheFirstIsClockwise) {
  auto s = quad();
  s.faces = {{0, 2, 1}, {1, 2, 3}};  // clockwise seen from the normals' side
  EXPECT_EQ(readOk(build({s}).bytes).meshes[0].indices,
            (std::vector<std::uint32_t>{0, 1, 2, 1, 3, 2}));
  // §5: only the first face decides; a clockwise second face stays as it is.
  s.faces = {{0, 1, 2}, {1, 2, 3}};
  EXPECT_EQ(readOk(build({s}).bytes).meshes[0].indices,
            (std::vector<std::uint32_t>{0, 1, 2, 1, 2, 3}));
}

TEST(Cal3dCmf, LeavesTheWindingOfImvuMeshesAsStored) {
  // §5: IMVU's loader never flips; its files are 911–999.
  auto s = quad();
  s.faces = {{0, 2, 1}, {1, 2, 3}};  // clockwise seen from the normals' side
  for (int version : {911, 919, 999}) {
    SCOPED_TRACE(version);
    EXPECT_EQ(readOk(build({s}, version).bytes).meshes[0].indices,
              (std::vector<std::uint32_t>{0, 2, 1, 1, 2, 3}));
  }
  // The 0.13 trunk's 1300, which shares IMVU's layout, keeps the official loader's rule.
  EXPECT_EQ(readOk(build({s}, 1300).bytes).meshes[0].indices,
            (std::vector<std::uint32_t>{0, 1, 2, 1, 3, 2}));
}

TEST(Cal3dCmf, ReadsColoursAndSentinelEndedMorphsAt1300) {
  const auto part = readOk(build({quad()}, 1300).bytes);
  EXPECT_EQ(part.format, "cal3d CMF 1300 (vertex colours, sentinel-ended morphs)");
  const Mesh& m = part.meshes[0];
  EXPECT_EQ(m.colors, std::vector<glm::vec4>(4, glm::vec4(0.5f, 0.25f, 1.0f, 1.0f)));
  ASSERT_EQ(m.morphs.size(), 1u);
  const MorphTarget& t = m.morphs[0];
  EXPECT_EQ(t.name, "smile");
  EXPECT_EQ(t.vertices, (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(t.positions, (std::vector<glm::vec3>{{1, 0, 2}, {1, 1, 2}}));  // absolute
  EXPECT_EQ(t.normals[1], glm::vec3(0, 1, 0));
  ASSERT_EQ(t.uvSets.size(), 1u);
  EXPECT_EQ(t.uvSets[0][0], glm::vec2(9, 8));
}

// §5: the exporters write (0, 0, 0) at every vertex of a mesh without colours (a real v1300
// character drew as a black silhouette): such a submesh has none, and the reader says so once.
TEST(Cal3dCmf, ReadsColoursThatAreAllZeroAsNoColours) {
  SubmeshSpec black = quad(), red = quad(), nearly = quad();
  for (auto& v : black.vertices) v.color = {0, 0, 0};
  for (auto& v : red.vertices) v.color = {1, 0, 0};
  for (auto& v : nearly.vertices) v.color = {0, 0, 0};
  nearly.vertices[2].color = {0, 0, 1e-6f};  // one vertex not quite black: colours are kept
  for (const auto& [subs, dropped, message] :
       {std::tuple{std::vector<SubmeshSpec>{black}, std::vector<bool>{true},
                   "the submesh's vertex colours are all (0, 0, 0)"},
        std::tuple{std::vector<SubmeshSpec>{black, red, nearly, black},
                   std::vector<bool>{true, false, false, true},
                   "2 of 4 submeshes' vertex colours are all (0, 0, 0)"},
        std::tuple{std::vector<SubmeshSpec>{black, black}, std::vector<bool>{true, true},
                   "every submesh's vertex colours are all (0, 0, 0)"}}) {
    const auto part = readOk(build(subs, 1300).bytes);
    ASSERT_EQ(part.meshes.size(), dropped.size());
    for (std::size_t i = 0; i < dropped.size(); ++i)
      EXPECT_EQ(part.meshes[i].colors.empty(), dropped[i]) << "submesh " << i;
    if (dropped.size() > 1 && !dropped[1]) {
      EXPECT_EQ(part.meshes[1].colors[0], glm::vec4(1, 0, 0, 1));
    }
    ASSERT_EQ(part.diagnostics.items.size(), 1u) << message;
    const Diagnostic& d = part.diagnostics.items[0];
    EXPECT_EQ(d.severity, Severity::Info);
    EXPECT_EQ(d.file, kFile);
    EXPECT_EQ(d.field, "vertexColor");
    EXPECT_NE(d.message.find(message), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("no colours"), std::string::npos) << d.message;
  }
  // Colours that are not all zero say nothing.
  EXPECT_TRUE(readOk(build({red}, 1300).bytes).diagnostics.empty());
}

TEST(Cal3dCmf, EndsSentinelMorphsAtAnyIdFromTheVertexCountOn) {
  auto f = build({quad()}, 1300);
  const std::size_t sentinel = f.bytes.size() - 2 * 12 - 4;
  put<std::int32_t>(f.bytes, sentinel, 4);  // vertexCount itself
  EXPECT_EQ(readOk(f.bytes).meshes[0].morphs[0].vertices.size(), 2u);
  put<std::int32_t>(f.bytes, sentinel, -1);
  expectError(Reader{}(f.bytes), sentinel, "morph 0: vertexId", kFile);
}

TEST(Cal3dCmf, ReadsCountPrefixedMorphsAt1301) {
  const auto part = readOk(build({quad()}, 1301).bytes);
  EXPECT_EQ(part.format, "cal3d CMF 1301 (count-prefixed morphs)");
  EXPECT_TRUE(part.meshes[0].colors.empty());
  EXPECT_EQ(part.meshes[0].morphs[0].vertices, (std::vector<std::uint32_t>{1, 3}));
}

TEST(Cal3dCmf, PicksTheLayoutThatConsumesTheFileExactly) {
  // §1: version 1300 also holds the 2017 exporter's count-prefixed layout…
  EXPECT_EQ(readOk(build({quad()}, 1300, CmfLayout::CountPrefixed).bytes).format,
            "cal3d CMF 1300 (count-prefixed morphs)");
  // …and the other layouts are tried for any version.
  EXPECT_EQ(readOk(build({quad()}, 1300, CmfLayout::Plain).bytes).format, "cal3d CMF 1300 (plain)");
  EXPECT_EQ(readOk(build({quad()}, 910, CmfLayout::ColourSentinel).bytes).format,
            "cal3d CMF 910 (vertex colours, sentinel-ended morphs)");
}

TEST(Cal3dCmf, KeepsAMorphThatMovesNothingAsAnEmptyTarget) {
  auto s = quad();
  s.morphs.push_back({"blank", {}});
  const auto part = readOk(build({s}, 1301).bytes);
  const MorphTarget& t = part.meshes[0].morphs[1];
  EXPECT_EQ(t.name, "blank");
  EXPECT_TRUE(t.vertices.empty());
  EXPECT_TRUE(t.positions.empty());
  EXPECT_EQ(t.movedCount(part.meshes[0].vertexCount()), 0u);
  EXPECT_TRUE(part.diagnostics.empty());
}

TEST(Cal3dCmf, AcceptsAFileWithoutSubmeshesWithAWarning) {
  const auto part = readOk(build({}).bytes);
  EXPECT_TRUE(part.meshes.empty());
  EXPECT_EQ(part.diagnostics.count(Severity::Warning), 1u);
}

}  // namespace
}  // namespace marrow::formats::cal3d
