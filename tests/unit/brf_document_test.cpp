// BRF record layer (formats/brf/document.h, ../shared/specs/brf.md): damaged input first, then
// documents built here, then the real fixtures: byte-exact round trips and the golden values of
// fixtures/brf/SOURCES.md.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "formats/brf/document.h"
#include "formats/io/file.h"

namespace marrow::formats::brf {
namespace {

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/brf/";

const char* const kAllFixtures[] = {
    "m1866_command_cursor.brf",     "m1866_object_bodies.brf",
    "openbrf_cfcohen_reference.brf", "openbrf_redux_reference.brf",
    "osp_animations.brf",            "wfas_ani_walk_backward.brf",
    "wfas_barrier_primitives.brf",   "wfas_boots_a.brf",
    "wfas_core_pictures.brf",        "wfas_core_shaders.brf",
    "wfas_horse_skeleton.brf",       "wfas_map_icons_c.brf",
    "wfas_object_bodies.brf",        "wfas_oim_flora_materials.brf",
    "wfas_skeletons.brf",            "wfas_test.brf",
};

ReadContext named(std::string name = "test.brf") {
  ReadContext ctx;
  ctx.name = std::move(name);
  return ctx;
}

std::vector<std::byte> fixture(const std::string& name) {
  auto data = readFile(kFixtures + name);
  return data.ok() ? std::move(data).value() : std::vector<std::byte>{};
}

#define LOAD_FIXTURE(var, name)                                                          \
  const std::vector<std::byte> var = fixture(name);                                      \
  if (var.empty()) GTEST_SKIP() << "BRF fixture " << name << " not found under " << kFixtures

Document parsed(const std::vector<std::byte>& bytes, const std::string& name = "test.brf") {
  auto doc = parse(bytes, named(name));
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().describe());
  return doc.ok() ? std::move(doc).value() : Document{};
}

// "" when equal, else where the bytes first differ.
std::string firstDifference(const std::vector<std::byte>& a, const std::vector<std::byte>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return "first difference at offset " + std::to_string(i) + ": " +
             std::to_string(static_cast<int>(a[i])) + " vs " +
             std::to_string(static_cast<int>(b[i]));
  if (a.size() != b.size())
    return "sizes differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  return "";
}

// --- little builders for hand-made files --------------------------------------------------

struct Bytes {
  std::vector<std::byte> b;
  Bytes& u32(std::uint32_t v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    b.insert(b.end(), p, p + 4);
    return *this;
  }
  Bytes& i32(std::int32_t v) { return u32(static_cast<std::uint32_t>(v)); }
  Bytes& f32(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u32(u);
  }
  Bytes& str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    for (char c : s) b.push_back(static_cast<std::byte>(c));
    return *this;
  }
};

float bitsToFloat(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// A document with every record kind and every variant the header describes.
Document syntheticDocument(int version) {
  Document d;
  d.version = version;
  d.hasVersionToken = version != 0;
  d.textures = {{"a.dds", 0xaa000}, {"anim.dds", 0x2000000}};
  Shader sh;
  sh.name = "def_shader";
  sh.flags = 0x20000000;
  sh.requirements = 0x1000;
  sh.technique = "notexture";
  sh.fallback = "def_shader_ffp";
  sh.stages = {{-1, 1, 2, 3}, {0, 4, 5, 6}};
  Shader plain = sh;
  plain.name = "plain";
  plain.fallback.reset();
  plain.stages.clear();
  d.shaders = {sh, plain};
  Material withSpec{"mat", 0x8000000, "bump_static", "diff", "none", "bump", "none",
                    std::string("spec"), 12.5f, {4.0f, 1.0f, 0.5f}};
  Material noSpec = withSpec;
  noSpec.name = "old_mat";
  noSpec.spec.reset();
  noSpec.specularCoefficient = 0.0f;  // bits 0: not a length, so the string reads as absent
  d.materials = {withSpec, noSpec};

  auto makeMesh = [](std::string name, std::uint32_t flags) {
    Mesh m;
    m.name = std::move(name);
    m.flags = flags;
    m.material = "mat";
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, std::nanf("")}};
    m.rigging = {{3, {{0, 1.0f}, {1, 0.5f}}}, {1, {{2, 0.25f}}}};
    VertexFrame f;
    f.time = 10;
    f.positions = m.positions;
    f.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    m.frames = {f};
    for (int i = 0; i < 3; ++i) {
      Vertex v;
      v.position = i;
      v.color = 0xFFE69200u + static_cast<std::uint32_t>(i);
      v.normal = {0, 0, 1};
      v.uv = {0.25f * i, 1e30f};
      if (flags & (1u << 16)) {
        v.tangent = {1, 0, 0};
        v.bitangentSign = static_cast<std::uint8_t>(i & 1);
      }
      m.vertices.push_back(v);
    }
    m.faces = {{0, 1, 2}};
    return m;
  };
  if (version == 0) {
    Mesh a = makeMesh("m_a", 0x0);
    for (Vertex& v : a.vertices) v.uv2 = {v.uv.y, -1.0f};
    d.meshes = {a};
  } else {
    d.meshes = {makeMesh("m_b", 0x30000), makeMesh("m_c", 0x20000)};
  }

  Skeleton sk;
  sk.name = "skel";
  Bone root;
  root.name = "abdomen";
  root.m = {-1, 0, 0, 0, 0, 1, 0, 1, 0, 0, -0.005f, 0.91f};
  Bone nameless;
  nameless.parent = 0;
  nameless.hasName = false;
  nameless.m = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.465f, 0};
  sk.bones = {root, nameless};
  d.skeletons = {sk};

  Animation an;
  an.name = "walk";
  an.tracks = {{{0, {1, 0, 0, 0}}, {5, {0.5f, 0.5f, 0.5f, 0.5f}}}, {{0, {0, 0, 0, 1}}}};
  an.translations = {{0, {0, 0, 0}}, {5, {0.1f, 0.2f, 0.3f}}};
  d.animations = {an};

  BodyPart manifold;
  manifold.kind = "manifold";
  manifold.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  manifold.polygons = {{-1, 0, {0, 1, 2}}, {1, 0, {0, 1, 3, 2}}};
  BodyPart face;
  face.kind = "face";
  face.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}};
  face.flags = 4;
  BodyPart sphere;
  sphere.kind = "sphere";
  sphere.radius = 0.5f;
  sphere.a = {1, 2, 3};
  sphere.flags = 6;
  BodyPart capsule;
  capsule.kind = "capsule";
  capsule.radius = 0.25f;
  capsule.a = {0, 0, 1};
  capsule.b = {0, 0, -1};
  Body single{"bo_single", false, {capsule}};
  Body composite{"bo_comp", true, {manifold, face, sphere, capsule}};
  Body lonelyComposite{"bo_one", true, {sphere}};  // a composite with one part stays one
  d.bodies = {single, composite, lonelyComposite};

  // Every section, one of them twice (§2: appended, not replaced).
  d.order = {{Section::Texture, 2},  {Section::Shader, 2},   {Section::Material, 2},
             {Section::Mesh, static_cast<std::uint32_t>(d.meshes.size())},
             {Section::Skeleton, 1}, {Section::Animation, 1}, {Section::Body, 1},
             {Section::Texture, 0},  {Section::Body, 2}};
  return d;
}

// --- damaged input ------------------------------------------------------------------------

TEST(BrfDocument, RejectsEmptyInput) {
  const auto r = parse({}, named("empty.brf"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "empty.brf");
  EXPECT_EQ(r.error().offset, 0u);
}

TEST(BrfDocument, RejectsFileWithoutEnd) {
  const auto r = parse(Bytes{}.str("rfver ").i32(1).b, named());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 14u);  // where the next token would start
}

TEST(BrfDocument, RejectsUnknownTokenNamingItAndItsOffset) {
  const auto r = parse(Bytes{}.str("rfver ").i32(1).str("meshes").u32(0).str("end").b, named());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 14u);
  EXPECT_NE(r.error().message.find("'meshes'"), std::string::npos) << r.error().describe();
}

TEST(BrfDocument, RejectsSecondVersionToken) {
  const auto r = parse(Bytes{}.str("rfver ").i32(1).str("rfver ").i32(1).str("end").b, named());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 14u);
}

TEST(BrfDocument, RejectsVersionTokenAfterMeshes) {
  const auto r = parse(Bytes{}.str("mesh").u32(0).str("rfver ").i32(1).str("end").b, named());
  ASSERT_FALSE(r.ok());
}

TEST(BrfDocument, RejectsHugeRecordCountWithoutAllocating) {
  for (std::uint32_t n : {0xFFFFFFFFu, 0x7FFFFFFFu, 1000u}) {
    const auto r = parse(Bytes{}.str("mesh").u32(n).str("end").b, named());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().offset, 8u);
    EXPECT_NE(r.error().field.find("mesh"), std::string::npos) << r.error().describe();
  }
}

TEST(BrfDocument, RejectsFallbackCountOtherThanZeroOrOne) {
  const auto b =
      Bytes{}.str("shader").u32(1).str("s").u32(0).u32(0).str("t").u32(2).str("f").u32(0).str(
          "end");
  const auto r = parse(b.b, named());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().field.find("shader 0 's' fallback count"), std::string::npos)
      << r.error().describe();
}

TEST(BrfDocument, RejectsUnknownBodyPartKind) {
  const auto b = Bytes{}.str("body").u32(1).str("bo_x").str("cylinder").f32(1).str("end");
  const auto r = parse(b.b, named());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 20u);  // the kind string
  EXPECT_NE(r.error().message.find("'cylinder'"), std::string::npos);
}

TEST(BrfDocument, RejectsNestedComposite) {
  const auto b =
      Bytes{}.str("body").u32(1).str("bo_x").str("composite").u32(2).str("composite").u32(0).str(
          "end");
  EXPECT_FALSE(parse(b.b, named()).ok());
}

TEST(BrfDocument, ErrorNamesRecordAndElement) {
  // A mesh whose second rig bone claims more pairs than there are bytes.
  const auto b = Bytes{}
                     .str("mesh")
                     .u32(1)
                     .str("boot_nomad_a")
                     .u32(0)
                     .str("mat")
                     .u32(0)    // positions
                     .u32(2)    // rig bones
                     .i32(0)
                     .u32(0)
                     .i32(1)
                     .u32(1000)
                     .str("end");
  const auto r = parse(b.b, named("boots.brf"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "mesh 0 'boot_nomad_a' rigging bone 1 pair count");
  EXPECT_NE(r.error().describe().find("boots.brf"), std::string::npos);
}

// --- hand-made documents --------------------------------------------------------------------

TEST(BrfDocument, LayoutFollowsVersionAndTangentBit) {
  Mesh m;
  EXPECT_EQ(layoutOf(m, 0), VertexLayout::A_1011);
  m.flags = 0x30000;
  EXPECT_EQ(layoutOf(m, 0), VertexLayout::A_1011);
  EXPECT_EQ(layoutOf(m, 1), VertexLayout::B_WarbandTangent);
  m.flags = 0x20000;
  EXPECT_EQ(layoutOf(m, 1), VertexLayout::C_Warband);
  EXPECT_EQ(vertexBytes(VertexLayout::A_1011), 36u);
  EXPECT_EQ(vertexBytes(VertexLayout::B_WarbandTangent), 41u);
  EXPECT_EQ(vertexBytes(VertexLayout::C_Warband), 28u);
}

TEST(BrfDocument, SyntheticDocumentsRoundTrip) {
  for (int version : {0, 1}) {
    SCOPED_TRACE(version);
    const Document d = syntheticDocument(version);
    EXPECT_FALSE(checkWritable(d).has_value());
    const auto bytes = write(d);
    const Document back = parsed(bytes);
    EXPECT_EQ(back.version, version);
    EXPECT_EQ(back.hasVersionToken, version != 0);
    EXPECT_EQ(back.order, d.order);
    ASSERT_EQ(back.bodies.size(), 3u);
    EXPECT_EQ(back.bodies[1].parts.size(), 4u);
    EXPECT_TRUE(back.bodies[2].composite);
    EXPECT_FALSE(back.materials[1].spec.has_value());
    EXPECT_EQ(back.materials[0].spec, "spec");
    ASSERT_EQ(back.skeletons[0].bones.size(), 2u);
    EXPECT_FALSE(back.skeletons[0].bones[1].hasName);
    EXPECT_TRUE(std::isnan(back.meshes[0].positions[2].z));
    EXPECT_EQ(back.meshes[0].vertices[1].uv.y, 1e30f);
    EXPECT_EQ(firstDifference(write(back), bytes), "");
  }
}

TEST(BrfDocument, RepeatedSectionAppendsRecords) {
  const auto b = Bytes{}
                     .str("texture")
                     .u32(1)
                     .str("a.dds")
                     .u32(1)
                     .str("mesh")
                     .u32(0)
                     .str("texture")
                     .u32(2)
                     .str("b.dds")
                     .u32(2)
                     .str("c.dds")
                     .u32(3)
                     .str("end");
  const Document d = parsed(b.b);
  ASSERT_EQ(d.textures.size(), 3u);
  EXPECT_EQ(d.textures[2].name, "c.dds");
  const std::vector<SectionSpan> order{{Section::Texture, 1}, {Section::Mesh, 0},
                                       {Section::Texture, 2}};
  EXPECT_EQ(d.order, order);
  EXPECT_EQ(firstDifference(write(d), b.b), "");
}

TEST(BrfDocument, KeepsBytesAfterEnd) {
  auto b = Bytes{}.str("end").u32(0xDEADBEEF);
  const Document d = parsed(b.b);
  EXPECT_EQ(d.trailing.size(), 4u);
  EXPECT_EQ(firstDifference(write(d), b.b), "");
}

TEST(BrfDocument, FloatsKeepTheirBits) {
  Document d;
  Animation a;
  a.name = "nan";
  const float quiet = bitsToFloat(0x7FC01234u), signalling = bitsToFloat(0x7F800001u);
  a.translations = {{0, {quiet, signalling, -0.0f}}};
  d.animations = {a};
  const auto bytes = write(d);
  const Document back = parsed(bytes);
  EXPECT_EQ(firstDifference(write(back), bytes), "");
}

TEST(BrfDocument, HandBuiltDocumentWithoutOrderIsWrittenInOpenBrfOrder) {
  Document d = syntheticDocument(1);
  d.order.clear();
  const Document back = parsed(write(d));
  const std::vector<SectionSpan> order{{Section::Texture, 2},  {Section::Shader, 2},
                                       {Section::Material, 2}, {Section::Mesh, 2},
                                       {Section::Skeleton, 1}, {Section::Animation, 1},
                                       {Section::Body, 3}};
  EXPECT_EQ(back.order, order);
}

TEST(BrfDocument, CheckWritableReportsUnreadableOptionalStrings) {
  Document d = syntheticDocument(1);
  d.materials[1].specularCoefficient = bitsToFloat(5);  // would read as a 5-byte string
  EXPECT_TRUE(checkWritable(d).has_value());
  d = syntheticDocument(1);
  d.skeletons[0].bones[0].name = "";
  EXPECT_TRUE(checkWritable(d).has_value());
  d = syntheticDocument(1);
  d.bodies[0].parts.clear();
  EXPECT_TRUE(checkWritable(d).has_value());
}

// --- real files -----------------------------------------------------------------------------

TEST(BrfDocument, EveryFixtureWritesBackItsOwnBytes) {
  for (const char* name : kAllFixtures) {
    SCOPED_TRACE(name);
    LOAD_FIXTURE(bytes, name);
    const auto doc = parse(bytes, named(name));
    ASSERT_TRUE(doc.ok()) << doc.error().describe();
    EXPECT_TRUE(doc->trailing.empty());
    EXPECT_FALSE(checkWritable(*doc).has_value());
    EXPECT_EQ(firstDifference(write(*doc), bytes), "");
  }
}

}  // namespace
}  // namespace marrow::formats::brf
