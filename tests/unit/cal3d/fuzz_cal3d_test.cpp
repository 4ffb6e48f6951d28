// cal3d inputs the fuzz targets (tests/fuzz) found mishandled.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "formats/cal3d/cal3d.h"
#include "formats/cal3d/parts.h"
#include "formats/io/byte_writer.h"

#include "tests/support/read_context.h"

namespace marrow::formats::cal3d {
namespace {

using ::marrow::testing::named;
using ::marrow::testing::namedWithFiles;

std::span<const std::byte> bytesOf(std::string_view s) {
  return std::as_bytes(std::span(s.data(), s.size()));
}

// pugixml reports a document that ends inside a tag one byte past its end; an error's offset is
// a byte of the file (or its end), never past it.
TEST(Cal3dFuzzFinding, ErrorOffsetOfATruncatedTagIsWithinTheFile) {
  constexpr std::string_view kText =
      "<RRRF\xbc\x0d"
      "C";  // an attribute cut off by the end
  auto r = readXrf(bytesOf(kText), named("cut.xrf"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, "cut.xrf");
  EXPECT_LE(r.error().offset, kText.size()) << r.error().describe();
}

TEST(Cal3dFuzzFinding, ErrorOffsetOfATruncatedHeaderIsWithinTheFile) {
  constexpr std::string_view kText = "<?xml version=\"1.0\"?>\n<HEADER M";
  auto r = readXsf(bytesOf(kText), named("cut.xsf"));
  ASSERT_FALSE(r);
  EXPECT_LE(r.error().offset, kText.size()) << r.error().describe();
}

// UTF-16 files are converted before parsing: pugixml's offsets are then not the file's bytes,
// so none is given.
TEST(Cal3dFuzzFinding, Utf16ErrorsGiveNoOffset) {
  constexpr std::string_view kText("\xff\xfe<\0M\0", 6);
  auto r = readXmf(bytesOf(kText), named("wide.xmf"), BoneMap{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, kNoOffset) << r.error().describe();
}

// Without a skeleton, readModel stands in a placeholder bone for every bone id up to the highest
// an animation names. A CAF naming bone 2^30 made it allocate a billion bones (the registry
// target ran out of memory); animation bone ids are bounded by Limits::maxBones as mesh
// influence ids already were.
std::vector<std::byte> cafNamingBone(std::int32_t bone) {
  ByteWriter w;
  for (char c : {'C', 'A', 'F', '\0'}) w.u8(static_cast<std::uint8_t>(c));
  w.i32(700);
  w.f32(1.0f);  // duration
  w.i32(1);     // tracks
  w.i32(bone);
  w.i32(1);                                                                   // keyframes
  for (float v : {0.0f, 1.0f, 2.0f, 3.0f, 0.0f, 0.0f, 0.0f, 1.0f}) w.f32(v);  // time, t, r
  return w.take();
}

TEST(Cal3dFuzzFinding, AnAnimationAloneNamesNoBoneIdOverTheLimit) {
  const auto caf = cafNamingBone(1 << 30);
  const Input in{caf, named("walk.caf")};
  auto r = readModel(std::span(&in, 1));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "track 0: boneId") << r.error().describe();
  EXPECT_EQ(r.error().offset, 16u);  // after magic, version, duration and track count
}

TEST(Cal3dFuzzFinding, AnAnimationAloneGetsPlaceholderBonesUpToItsBoneId) {
  const auto caf = cafNamingBone(99);
  const Input in{caf, named("walk.caf")};
  auto r = readModel(std::span(&in, 1));
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->skeleton.bones.size(), 100u);
  EXPECT_EQ(r->clips.at(0).tracks.at(0).bone, "#99");
}

TEST(Cal3dFuzzFinding, AnXmlAnimationAloneNamesNoBoneIdOverTheLimit) {
  constexpr std::string_view kText =
      "<HEADER MAGIC=\"XAF\" VERSION=\"1000\"/>"
      "<ANIMATION DURATION=\"1\" NUMTRACKS=\"1\">"
      "<TRACK BONEID=\"1000000000\" NUMKEYFRAMES=\"1\"><KEYFRAME TIME=\"0\">"
      "<TRANSLATION>0 0 0</TRANSLATION><ROTATION>0 0 0 1</ROTATION></KEYFRAME></TRACK>"
      "</ANIMATION>";
  const Input in{bytesOf(kText), named("walk.xaf")};
  auto r = readModel(std::span(&in, 1));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("BONEID"), std::string::npos) << r.error().describe();
}

// A .cfg naming the same file again and again made one copy of it per line: 69 mesh= lines
// naming three small files held 1.98 MB for 14 KB of input (the cfg target's allocation watch).
// A file named again, under any name, is read once; a material keeps its slot as a copy.
constexpr std::string_view kMesh =
    "<HEADER MAGIC=\"XMF\" VERSION=\"1000\"/>"
    "<MESH NUMSUBMESH=\"1\"><SUBMESH NUMVERTICES=\"3\" NUMFACES=\"1\" MATERIAL=\"1\" "
    "NUMLODSTEPS=\"0\" NUMSPRINGS=\"0\" NUMTEXCOORDS=\"0\">"
    "<VERTEX ID=\"0\" NUMINFLUENCES=\"0\"><POS>0 0 0</POS><NORM>0 0 1</NORM></VERTEX>"
    "<VERTEX ID=\"1\" NUMINFLUENCES=\"0\"><POS>1 0 0</POS><NORM>0 0 1</NORM></VERTEX>"
    "<VERTEX ID=\"2\" NUMINFLUENCES=\"0\"><POS>0 1 0</POS><NORM>0 0 1</NORM></VERTEX>"
    "<FACE VERTEXID=\"0 1 2\"/></SUBMESH></MESH>";

std::string material(int red) {
  const std::string c = std::to_string(red) + " 0 0 255";
  return "<HEADER MAGIC=\"XRF\" VERSION=\"1000\"/><MATERIAL NUMMAPS=\"0\"><AMBIENT>" + c +
         "</AMBIENT><DIFFUSE>" + c + "</DIFFUSE><SPECULAR>" + c +
         "</SPECULAR><SHININESS>0</SHININESS></MATERIAL>";
}

TEST(Cal3dFuzzFinding, AConfigReadsAMeshNamedAgainOnce) {
  const auto ctx = namedWithFiles("model.cfg", {{"body.xmf", std::string(kMesh)},
                              {"copy.xmf", std::string(kMesh)},
                              {"red.xrf", material(255)}});
  constexpr std::string_view kCfg =
      "material=red.xrf\nmesh=body.xmf\nmesh=body.xmf\nmesh=copy.xmf\n";
  auto r = readConfig(bytesOf(kCfg), ctx);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->meshes.size(), 1u);
  std::vector<std::string> repeated;
  for (const auto& d : r->diagnostics.items)
    if (d.message.find("read once") != std::string::npos) repeated.push_back(d.field);
  EXPECT_EQ(repeated, (std::vector<std::string>{"line 3", "line 4"}));
}

TEST(Cal3dFuzzFinding, AMaterialNamedAgainKeepsItsSlotAsACopy) {
  const auto ctx = namedWithFiles("model.cfg", {{"body.xmf", std::string(kMesh)},  // thread 1
                              {"red.xrf", material(255)},
                              {"blue.xrf", material(0)}});
  constexpr std::string_view kCfg = "material=blue.xrf\nmaterial=red.xrf\nmaterial=blue.xrf\n"
                                    "mesh=body.xmf\n";
  auto r = readConfig(bytesOf(kCfg), ctx);
  ASSERT_TRUE(r) << r.error().describe();
  ASSERT_EQ(r->materials.size(), 3u);
  EXPECT_EQ(r->materials[0].name, "blue");
  EXPECT_EQ(r->materials[1].name, "red");
  EXPECT_EQ(r->materials[2].name, "blue");
  EXPECT_EQ(r->materials[2].diffuse, r->materials[0].diffuse);
  EXPECT_NE(r->materials[1].diffuse, r->materials[0].diffuse);
  ASSERT_EQ(r->meshes.size(), 1u);
  EXPECT_EQ(r->meshes[0].material, 1);
}

// The .cfg's resolver was copied into the context of every file it names (for texture maps
// relative to the file): 97 material= lines held 97 copies of a resolver that served files from
// memory, 2 MB for 15 KB of input (the cfg target's allocation watch, after the fix above). It
// is shared.
struct CountingResolver {
  std::shared_ptr<int> copies = std::make_shared<int>(0);
  std::string material;
  CountingResolver(std::string m) : material(std::move(m)) {}
  CountingResolver(const CountingResolver& o) : copies(o.copies), material(o.material) {
    ++*copies;
  }
  CountingResolver(CountingResolver&&) = default;
  std::optional<std::vector<std::byte>> operator()(const std::string& name) const {
    if (!name.ends_with(".xrf")) return std::nullopt;
    const auto b = bytesOf(material);
    return std::vector<std::byte>(b.begin(), b.end());
  }
};

TEST(Cal3dFuzzFinding, AConfigSharesItsResolverAcrossTheFilesItNames) {
  auto copiesFor = [](int lines) {
    CountingResolver resolver(material(7));
    const auto copies = resolver.copies;
    ReadContext ctx = named("model.cfg");
    ctx.resolve = std::move(resolver);
    const int before = *copies;
    std::string cfg;
    for (int i = 0; i < lines; ++i) cfg += "material=m" + std::to_string(i) + ".xrf\n";
    auto r = readConfig(bytesOf(cfg), ctx);
    EXPECT_TRUE(r) << r.error().describe();
    if (r) {
      EXPECT_EQ(r->materials.size(), static_cast<std::size_t>(lines));
    }
    return *copies - before;
  };
  EXPECT_EQ(copiesFor(100), copiesFor(1));
}

// Materials naming the same image share one texture in the model.
TEST(Cal3dFuzzFinding, MaterialsNamingOneImageShareItsTexture) {
  const std::string withMap =
      "<HEADER MAGIC=\"XRF\" VERSION=\"1000\"/><MATERIAL NUMMAPS=\"1\"><AMBIENT>0 0 0 0"
      "</AMBIENT><DIFFUSE>0 0 0 0</DIFFUSE><SPECULAR>0 0 0 0</SPECULAR><SHININESS>0</SHININESS>"
      "<MAP>skin.png</MAP></MATERIAL>";
  const auto ctx = namedWithFiles("model.cfg", {{"a.xrf", withMap},
                              {"b.xrf", withMap + " "},
                              {"sub/c.xrf", withMap + "  "},
                              {"skin.png", std::string(4096, 'p')},
                              {"sub/skin.png", std::string(4096, 'p')}});
  constexpr std::string_view kCfg = "material=a.xrf\nmaterial=b.xrf\nmaterial=sub/c.xrf\n";
  auto r = readConfig(bytesOf(kCfg), ctx);
  ASSERT_TRUE(r) << r.error().describe();
  ASSERT_EQ(r->materials.size(), 3u);
  ASSERT_EQ(r->textures.size(), 1u);
  for (const auto& m : r->materials) EXPECT_EQ(m.maps.at(0).texture, 0);
}

TEST(Cal3dFuzzFinding, AConfigNamingAFileOverAndOverIsRefusedWithItsLine) {
  // 8 KB of mesh named 1000 times: 8 MB to read again for a 12 KB .cfg (its budget is
  // 64 bytes per byte plus 1 MiB).
  const std::string mesh = std::string(kMesh) + "<!--" + std::string(8192, '-') + "-->";
  const auto ctx = namedWithFiles("model.cfg", {{"body.xmf", mesh}});
  std::string cfg;
  for (int i = 0; i < 1000; ++i) cfg += "mesh=body.xmf\n";
  auto r = readConfig(bytesOf(cfg), ctx);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, "model.cfg");
  EXPECT_EQ(r.error().field.rfind("line ", 0), 0u) << r.error().describe();
  EXPECT_NE(r.error().message.find("again and again"), std::string::npos) << r.error().describe();
}

}  // namespace
}  // namespace marrow::formats::cal3d
