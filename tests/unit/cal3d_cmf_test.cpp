// Binary cal3d mesh (.cmf) reader: files built here byte by byte in all three layouts, then the
// real fixtures.
#include <gtest/gtest.h>

#include <limits>

#include "cal3d_binary_test_util.h"
#include "formats/cal3d/binary_format.h"
#include "formats/cal3d/cal3d.h"
#include "formats/model/validate.h"

namespace marrow::formats::cal3d {
namespace {

using namespace testing;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
const std::string kFile = "body.cmf";

struct VertexSpec {
  glm::vec3 p, n{0, 0, 1};
  int collapse = -1, faceCollapse = 0;
  std::vector<std::pair<int, float>> influences;
  glm::vec3 color{0.5f, 0.25f, 1.0f};
};
struct BlendSpec {
  int id;
  glm::vec3 p;
};
struct MorphSpec {
  std::string name;
  std::vector<BlendSpec> blends;
};
struct SubmeshSpec {
  int material = 2;
  std::vector<VertexSpec> vertices;
  std::vector<std::array<int, 3>> faces;
  int lod = 0;
  std::vector<Spring> springs;
  int maps = 1;
  std::vector<MorphSpec> morphs;
};

// A unit quad in z = 0, counter-clockwise seen from +z, its last vertex collapsible.
SubmeshSpec quad() {
  SubmeshSpec s;
  s.vertices = {{{0, 0, 0}, {0, 0, 1}, -1, 0, {{0, 1.0f}}},
                {{1, 0, 0}, {0, 0, 1}, -1, 0, {{0, 0.5f}, {1, 0.5f}}},
                {{0, 1, 0}, {0, 0, 1}, -1, 0, {{2, 1.0f}}},
                {{1, 1, 0}, {0, 0, 1}, 1, 1, {}}};
  s.faces = {{0, 1, 2}, {1, 3, 2}};
  s.lod = 1;
  s.springs = {{0, 3, 0.5f, 1.5f}};
  s.morphs = {{"smile", {{1, {1, 0, 2}}, {3, {1, 1, 2}}}}};
  return s;
}

struct SubmeshAt {
  std::size_t header = 0, vertexCount = 0, faceCount = 0, lodCount = 0, springCount = 0,
              mapCount = 0, morphCount = 0;
  std::vector<std::size_t> vertex;  // each vertex's position
  std::vector<std::size_t> spring, morph, face;
  std::size_t influenceCount(std::size_t v, CmfLayout l) const {
    return vertex[v] + 24 + (l == CmfLayout::ColourSentinel ? 12 : 0) + 8 + 8;  // 1 uv set
  }
};

struct Cmf {
  std::vector<std::byte> bytes;
  std::vector<SubmeshAt> at;
  CmfLayout layout;
};

Cmf build(const std::vector<SubmeshSpec>& subs = {quad()}, int version = 700,
          std::optional<CmfLayout> forced = std::nullopt) {
  Cmf f;
  f.layout = forced.value_or(cmfDefaultLayout(version));
  const bool morphs = f.layout != CmfLayout::Plain;
  ByteWriter w;
  header(w, "CMF", version);
  w.i32(static_cast<std::int32_t>(subs.size()));
  for (const auto& s : subs) {
    SubmeshAt a;
    a.header = w.offset();
    w.i32(s.material);
    a.vertexCount = w.offset();
    w.i32(static_cast<std::int32_t>(s.vertices.size()));
    a.faceCount = w.offset();
    w.i32(static_cast<std::int32_t>(s.faces.size()));
    a.lodCount = w.offset();
    w.i32(s.lod);
    a.springCount = w.offset();
    w.i32(static_cast<std::int32_t>(s.springs.size()));
    a.mapCount = w.offset();
    w.i32(s.maps);
    a.morphCount = w.offset();
    if (morphs) w.i32(static_cast<std::int32_t>(s.morphs.size()));
    for (std::size_t v = 0; v < s.vertices.size(); ++v) {
      const auto& x = s.vertices[v];
      a.vertex.push_back(w.offset());
      vec3(w, x.p);
      vec3(w, x.n);
      if (f.layout == CmfLayout::ColourSentinel) vec3(w, x.color);
      w.i32(x.collapse);
      w.i32(x.faceCollapse);
      for (int m = 0; m < s.maps; ++m) {
        w.f32(x.p.x + static_cast<float>(m));
        w.f32(x.p.y);
      }
      w.i32(static_cast<std::int32_t>(x.influences.size()));
      for (auto [bone, weight] : x.influences) {
        w.i32(bone);
        w.f32(weight);
      }
      if (!s.springs.empty()) w.f32(0.25f * static_cast<float>(v));
    }
    for (const auto& sp : s.springs) {
      a.spring.push_back(w.offset());
      w.i32(static_cast<std::int32_t>(sp.a));
      w.i32(static_cast<std::int32_t>(sp.b));
      w.f32(sp.coefficient);
      w.f32(sp.idleLength);
    }
    if (morphs)
      for (const auto& m : s.morphs) {
        a.morph.push_back(w.offset());
        string(w, m.name);
        if (f.layout == CmfLayout::CountPrefixed) w.i32(static_cast<std::int32_t>(m.blends.size()));
        for (const auto& b : m.blends) {
          w.i32(b.id);
          vec3(w, b.p);
          vec3(w, {0, 1, 0});
          for (int k = 0; k < s.maps; ++k) {
            w.f32(9.0f);
            w.f32(8.0f);
          }
        }
        if (f.layout == CmfLayout::ColourSentinel)
          w.i32(static_cast<std::int32_t>(s.vertices.size()) + 1);
      }
    for (const auto& face : s.faces) {
      a.face.push_back(w.offset());
      for (int i : face) w.i32(i);
    }
    f.at.push_back(a);
  }
  f.bytes = w.take();
  return f;
}

Skeleton threeBones() {
  Skeleton s;
  s.bones = {{"root", -1}, {"arm", 0}, {"hand", 1}};
  return s;
}

struct Reader {
  Skeleton skeleton = threeBones();
  BoneMap bones{&skeleton, {0, 1, 2}};
  Result<MeshPart> operator()(const std::vector<std::byte>& b,
                              const ReadContext& ctx = context(kFile)) const {
    return readCmf(b, ctx, bones);
  }
};

MeshPart readOk(const std::vector<std::byte>& bytes, const BoneMap& bones,
                const std::string& name = kFile) {
  auto r = readCmf(bytes, context(name), bones);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  if (!r.ok()) return {};
  Scene s;
  if (bones.skeleton) s.skeleton = *bones.skeleton;
  s.meshes = r->meshes;
  if (!bones.skeleton)  // file bone ids kept: as many placeholder bones as readModel adds
    for (const auto& m : s.meshes)
      for (const auto& i : m.influences)
        while (s.skeleton.bones.size() <= i.bone)
          s.skeleton.bones.push_back({"#" + std::to_string(s.skeleton.bones.size()), -1, {}, {1, 0, 0, 0}, {1, 1, 1}});
  const auto problems = validate(s);
  EXPECT_TRUE(problems.empty()) << problems.front();
  return std::move(r).value();
}
MeshPart readOk(const std::vector<std::byte>& bytes) {
  static const Reader reader;
  return readOk(bytes, reader.bones);
}

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

// ---- fixtures ----

struct MeshFixture {
  const char* file;
  const char* skeleton;
  std::size_t submeshes, vertices, faces, maxMaps, lod, springs, morphs;
  bool flipped;  // the winding rule fires (single-submesh files)
};

const MeshFixture kMeshes[] = {
    {"cally/cally_calf_left.cmf", "cally/cally.csf", 1, 93, 164, 0, 71, 0, 0, true},
    {"cally/cally_calf_right.cmf", "cally/cally.csf", 1, 93, 164, 0, 71, 0, 0, false},
    {"cally/cally_chest.cmf", "cally/cally.csf", 1, 243, 442, 0, 195, 0, 0, false},
    {"cally/cally_foot_left.cmf", "cally/cally.csf", 1, 67, 124, 0, 59, 0, 0, true},
    {"cally/cally_foot_right.cmf", "cally/cally.csf", 1, 67, 124, 0, 59, 0, 0, false},
    {"cally/cally_hand_left.cmf", "cally/cally.csf", 1, 151, 290, 0, 145, 0, 0, true},
    {"cally/cally_hand_right.cmf", "cally/cally.csf", 1, 151, 290, 0, 145, 0, 0, false},
    {"cally/cally_head.cmf", "cally/cally.csf", 1, 327, 640, 0, 315, 0, 0, false},
    {"cally/cally_lowerarm_left.cmf", "cally/cally.csf", 1, 51, 86, 0, 35, 0, 0, true},
    {"cally/cally_lowerarm_right.cmf", "cally/cally.csf", 1, 51, 86, 0, 35, 0, 0, false},
    {"cally/cally_neck.cmf", "cally/cally.csf", 1, 36, 44, 0, 8, 0, 0, false},
    {"cally/cally_pelvis.cmf", "cally/cally.csf", 1, 121, 200, 0, 77, 0, 0, false},
    {"cally/cally_ponytail.cmf", "cally/cally.csf", 1, 37, 68, 0, 0, 128, 0, false},
    {"cally/cally_thigh_left.cmf", "cally/cally.csf", 1, 111, 194, 0, 83, 0, 0, true},
    {"cally/cally_thigh_right.cmf", "cally/cally.csf", 1, 111, 194, 0, 83, 0, 0, false},
    {"cally/cally_upperarm_left.cmf", "cally/cally.csf", 1, 67, 116, 0, 49, 0, 0, true},
    {"cally/cally_upperarm_right.cmf", "cally/cally.csf", 1, 67, 116, 0, 49, 0, 0, false},
    {"dokurochan_v1300/DokuroChan_mesh.001.cmf", "dokurochan_v1300/DokuroChan.csf", 11, 6861, 10979,
     1, 0, 0, 44, false},
    {"dokurochan_v1300/DokuroChan_mesh.014.cmf", "dokurochan_v1300/DokuroChan.csf", 1, 49, 31, 1, 0,
     0, 0, false},
    {"paladin/paladin_body.cmf", "paladin/paladin.csf", 17, 2164, 3353, 2, 1294, 0, 0, false},
    {"paladin/paladin_cape.cmf", "paladin/paladin.csf", 1, 25, 32, 1, 0, 129, 0, false},
    {"paladin/paladin_loincloth.cmf", "paladin/paladin.csf", 3, 46, 37, 1, 0, 46, 0, false},
};

TEST(Cal3dCmf, FixturesParseWithTheirCounts) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const auto& fx : kMeshes) {
    SCOPED_TRACE(fx.file);
    const auto skel = readCsf(fixture(fx.skeleton), context(fx.skeleton));
    ASSERT_TRUE(skel.ok());
    const BoneMap bones{&skel->skeleton, skel->modelIndexOfFileBone};
    const auto bytes = fixture(fx.file);
    const auto part = readOk(bytes, bones, fx.file);
    std::size_t vertices = 0, faces = 0, maps = 0, lod = 0, springs = 0, morphs = 0;
    for (const Mesh& m : part.meshes) {
      vertices += m.vertexCount();
      faces += m.triangleCount();
      maps = std::max(maps, m.uvSets.size());
      lod += m.lod.collapsible;
      springs += m.springs.size();
      morphs += m.morphs.size();
      EXPECT_EQ(m.physicalWeights.size(), m.springs.empty() ? 0 : m.vertexCount());
      EXPECT_TRUE(m.skinned());
    }
    EXPECT_EQ(part.meshes.size(), fx.submeshes);
    EXPECT_EQ(vertices, fx.vertices);
    EXPECT_EQ(faces, fx.faces);
    EXPECT_EQ(maps, fx.maxMaps);
    EXPECT_EQ(lod, fx.lod);
    EXPECT_EQ(springs, fx.springs);
    EXPECT_EQ(morphs, fx.morphs);
    EXPECT_TRUE(part.diagnostics.empty());
    if (fx.submeshes == 1) {
      // The file's faces are its last bytes: compare them with what the reader made of them.
      const Mesh& m = part.meshes[0];
      const std::size_t start = bytes.size() - 4 * m.indices.size();
      std::size_t differ = 0;
      for (std::size_t i = 0; i < m.indices.size(); ++i) {
        std::int32_t raw;
        std::memcpy(&raw, bytes.data() + start + 4 * i, 4);
        const std::size_t j = i % 3 == 0 ? i : i % 3 == 1 ? i + 1 : i - 1;  // (a, c, b)
        if (fx.flipped)
          EXPECT_EQ(m.indices[j], static_cast<std::uint32_t>(raw)) << i;
        else
          differ += m.indices[i] != static_cast<std::uint32_t>(raw);
      }
      EXPECT_EQ(differ, 0u);
    }
  }
}

// Faces whose (counter-clockwise) normal points the way their vertex normals do.
double frontFacing(const Mesh& m) {
  std::size_t agree = 0;
  for (std::size_t f = 0; f < m.indices.size(); f += 3) {
    const glm::vec3 a = m.positions[m.indices[f]], b = m.positions[m.indices[f + 1]],
                    c = m.positions[m.indices[f + 2]];
    const glm::vec3 n =
        m.normals[m.indices[f]] + m.normals[m.indices[f + 1]] + m.normals[m.indices[f + 2]];
    agree += glm::dot(glm::cross(b - a, c - a), n) > 0.0f;
  }
  return static_cast<double>(agree) / static_cast<double>(m.triangleCount());
}

TEST(Cal3dCmf, LeftMeshesAreFlippedToFaceTheWayTheirMirrorsDo) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const char* part : {"calf", "foot", "hand", "lowerarm", "thigh", "upperarm"}) {
    SCOPED_TRACE(part);
    const std::string left = std::string("cally/cally_") + part + "_left.cmf";
    const std::string right = std::string("cally/cally_") + part + "_right.cmf";
    const Mesh l = readOk(fixture(left), BoneMap{}, left).meshes[0];
    const Mesh r = readOk(fixture(right), BoneMap{}, right).meshes[0];
    // Mirrored, the left mesh is the right one; after the rule both face outwards.
    EXPECT_GT(frontFacing(l), 0.9);
    EXPECT_GT(frontFacing(r), 0.9);
    Mesh raw = l;  // the file's own winding, undone
    for (std::size_t f = 0; f < raw.indices.size(); f += 3)
      std::swap(raw.indices[f + 1], raw.indices[f + 2]);
    EXPECT_LT(frontFacing(raw), 0.1);
  }
}

TEST(Cal3dCmf, DokuroChanMeshesOf1300PickTheCountLayout) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto part = readOk(fixture("dokurochan_v1300/DokuroChan_mesh.001.cmf"), BoneMap{},
                           "DokuroChan_mesh.001.cmf");
  EXPECT_EQ(part.format, "cal3d CMF 1300 (count-prefixed morphs)");
  std::size_t blend = 0;
  for (const Mesh& m : part.meshes)
    for (const auto& t : m.morphs) blend += t.vertices.size();
  EXPECT_EQ(blend, 20093u);
}

TEST(Cal3dCmf, ErrorInAFileOfTheOtherLayoutComesFromThatLayout) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  // §1: the 1300 default (colour+sentinel) fails early on a count-layout file; the count
  // layout's own error, where the bytes end, is the one reported.
  auto bytes = fixture("dokurochan_v1300/DokuroChan_mesh.001.cmf");
  bytes.resize(bytes.size() / 2);
  const auto r = readCmf(bytes, context("m.cmf"), BoneMap{});
  ASSERT_FALSE(r.ok());
  EXPECT_GT(r.error().offset, bytes.size() * 9 / 10) << r.error().describe();
  EXPECT_NE(r.error().field.find("blendCount"), std::string::npos) << r.error().describe();
}

TEST(Cal3dCmf, SmallFixturesRejectEveryTruncationAndSurviveFlippedBytes) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const char* file : {"dokurochan_v1300/DokuroChan_mesh.014.cmf", "cally/cally_neck.cmf"}) {
    SCOPED_TRACE(file);
    auto bytes = fixture(file);
    for (std::size_t n = 0; n < bytes.size(); ++n)
      EXPECT_FALSE(readCmf(std::span(bytes.data(), n), context(file), BoneMap{}).ok()) << n;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      bytes[i] ^= std::byte{0xFF};
      // Through readModel, which stands in placeholder bones for the file's bone ids.
      const Input in{bytes, context(file)};
      const auto r = readModel(std::span(&in, 1));
      if (r.ok()) {
        const auto problems = validate(*r);
        EXPECT_TRUE(problems.empty()) << i << ": " << problems.front();
      }
      bytes[i] ^= std::byte{0xFF};
    }
  }
}

}  // namespace
}  // namespace marrow::formats::cal3d
