// cal3d XML material (.xrf, spec §7.4): documents written here, every real .xrf fixture, and the
// cally materials against their binary twins.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/io/file.h"

#include "tests/support/read_context.h"
#include "tests/support/skip.h"

namespace marrow::formats::cal3d {
namespace {

using ::marrow::testing::bytes;
using ::marrow::testing::named;

// The name readers are given where a test names no file.
const std::string kXrfName = "skin.xrf";

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/cal3d/";

std::string material(std::string_view maps = "", std::string_view ambient = "22 16 46 0") {
  return "<HEADER MAGIC=\"XRF\" VERSION=\"900\" />\n<MATERIAL NUMMAPS=\"0\">\n<AMBIENT>" +
         std::string(ambient) +
         "</AMBIENT>\n<DIFFUSE>49 49 49 0</DIFFUSE>\n<SPECULAR>229 229 229 255</SPECULAR>\n"
         "<SHININESS>0.8</SHININESS>\n" +
         std::string(maps) + "</MATERIAL>\n";
}

bool mentions(const Diagnostics& d, std::string_view field, std::string_view text) {
  for (const auto& item : d.items)
    if (item.field.find(field) != std::string::npos && item.message.find(text) != std::string::npos)
      return true;
  return false;
}

// ---- invalid input ----

TEST(Cal3dXrf, RejectsEveryTruncation) {
  const std::string xml = material("<MAP>a.png</MAP>\n");
  ASSERT_TRUE(readXrf(bytes(xml), named(kXrfName)).ok());
  const std::size_t end = xml.rfind('>') + 1;
  for (std::size_t n = 0; n < end; ++n)
    EXPECT_FALSE(readXrf(bytes(std::string_view(xml).substr(0, n)), named(kXrfName)).ok())
        << "prefix of " << n << " bytes was accepted";
}

TEST(Cal3dXrf, RejectsWrongMagic) {
  std::string xml = material();
  xml.replace(xml.find("XRF"), 3, "XMF");
  const auto r = readXrf(bytes(xml), named(kXrfName));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "HEADER MAGIC");
}

TEST(Cal3dXrf, RejectsFloatColours) {
  const std::string xml = material("", "0.5 0.5 0.5 1");
  const auto r = readXrf(bytes(xml), named(kXrfName));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "AMBIENT");
  EXPECT_EQ(r.error().offset, xml.find("<AMBIENT>"));
}

TEST(Cal3dXrf, RejectsThreeComponentColours) {
  EXPECT_FALSE(readXrf(bytes(material("", "1 2 3")), named(kXrfName)).ok());
}

TEST(Cal3dXrf, RejectsAMissingShininess) {
  std::string xml = material();
  xml.erase(xml.find("<SHININESS>"), std::string("<SHININESS>0.8</SHININESS>\n").size());
  const auto r = readXrf(bytes(xml), named(kXrfName));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "MATERIAL");
}

TEST(Cal3dXrf, RejectsAnElementAfterTheMaps) {
  const auto r = readXrf(bytes(material("<MAP>a.png</MAP><SHININESS>1</SHININESS>")), named(kXrfName));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "MATERIAL / SHININESS");
}

// ---- what it reads ----

TEST(Cal3dXrf, ReadsColoursAsBytesOver255) {
  const auto r = readXrf(bytes(material()), named("dir/cally_chest.xrf"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Material& m = r->material;
  EXPECT_EQ(m.name, "cally_chest");
  EXPECT_EQ(m.ambient, colorFromBytes(22, 16, 46, 0));
  EXPECT_EQ(m.diffuse, colorFromBytes(49, 49, 49, 0));
  EXPECT_EQ(m.specular, colorFromBytes(229, 229, 229, 255));
  EXPECT_EQ(m.shininess, 0.8f);
  EXPECT_TRUE(m.maps.empty());
  EXPECT_EQ(r->format, "cal3d XRF 900");
  EXPECT_TRUE(r->diagnostics.empty());
}

TEST(Cal3dXrf, ClampsColoursOutsideTheByteRange) {
  const auto r = readXrf(bytes(material("", "300 -1 0 0")), named(kXrfName));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->material.ambient, colorFromBytes(255, 0, 0, 0));
  EXPECT_TRUE(mentions(r->diagnostics, "AMBIENT", "clamped"));
}

TEST(Cal3dXrf, HoldsEachImageOnceHoweverManyMapsNameIt) {
  const std::vector<std::byte> big(1 << 20, std::byte{'x'});
  ReadContext ctx = named(kXrfName);
  ctx.resolve = [&](const std::string& name) -> std::optional<std::vector<std::byte>> {
    if (name == "big.png" || name == "copy.png") return big;
    return std::nullopt;
  };
  std::string maps;
  for (int i = 0; i < 1000; ++i) maps += "<MAP>big.png</MAP>";
  maps += "<MAP>copy.png</MAP><MAP>gone.png</MAP><MAP>gone.png</MAP>";
  const auto r = readXrf(bytes(material(maps)), ctx);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->material.maps.size(), 1003u);
  ASSERT_EQ(r->textures.size(), 2u);
  EXPECT_EQ(r->textures[0].data, big);
  EXPECT_TRUE(r->textures[1].data.empty());
  EXPECT_EQ(r->material.maps[1000].texture, 0);  // copy.png: the same bytes
  EXPECT_EQ(r->material.maps[1002].texture, 1);
}

TEST(Cal3dXrf, ReadsMapsWithTheirTypeUvSetAndTexture) {
  std::map<std::string, std::vector<std::byte>> files{{"skin.png", bytes("PNG!")},
                                                      {"alpha.tga", bytes("TGA!")}};
  ReadContext ctx = named(kXrfName);
  ctx.resolve = [&](const std::string& name) -> std::optional<std::vector<std::byte>> {
    const auto it = files.find(name);
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
  const auto r =
      readXrf(bytes(material("<MAP>skin.png</MAP>\n<MAP TYPE=\"Opacity\">C:\\max\\alpha.tga</MAP>\n"
                             "<MAP>\n  missing.dds\n</MAP>\n")),
              ctx);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Material& m = r->material;
  ASSERT_EQ(m.maps.size(), 3u);
  ASSERT_EQ(r->textures.size(), 3u);
  EXPECT_EQ(m.maps[0].kind, "diffuse");
  EXPECT_EQ(m.maps[0].label, "");
  EXPECT_EQ(m.maps[0].uvSet, 0);
  EXPECT_EQ(m.maps[0].texture, 0);
  EXPECT_EQ(r->textures[0].name, "skin.png");
  EXPECT_EQ(r->textures[0].path, "skin.png");
  EXPECT_EQ(r->textures[0].data, bytes("PNG!"));
  EXPECT_EQ(m.maps[1].kind, "opacity");
  EXPECT_EQ(m.maps[1].label, "Opacity");
  EXPECT_EQ(m.maps[1].uvSet, 1);
  // An absolute exporter path: found by its base name.
  EXPECT_EQ(r->textures[1].name, "C:\\max\\alpha.tga");
  EXPECT_EQ(r->textures[1].path, "alpha.tga");
  EXPECT_EQ(r->textures[1].data, bytes("TGA!"));
  EXPECT_EQ(r->textures[2].name, "missing.dds");
  EXPECT_TRUE(r->textures[2].data.empty());
  EXPECT_TRUE(mentions(r->diagnostics, "MAP 2", "'missing.dds' was not found"));
  EXPECT_EQ(m.diffuseTexture(), 0);
}

TEST(Cal3dXrf, ReadsASingleRootWithMagicAndLowerCaseNames) {
  const auto r =
      readXrf(bytes("<material magic=\"xrf\" version=\"1100\" nummaps=\"1\"><ambient>1 2 3 4"
                    "</ambient><diffuse>5 6 7 8</diffuse><specular>9 10 11 12</specular>"
                    "<shininess>2</shininess><map type=\"Bump\">n.png</map></material>"),
              named(kXrfName));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->material.specular, colorFromBytes(9, 10, 11, 12));
  EXPECT_EQ(r->material.maps[0].label, "Bump");
  EXPECT_EQ(r->format, "cal3d XRF 1100");
}

TEST(Cal3dXrf, WarnsWhenNummapsLies) {
  const auto r = readXrf(bytes(material("<MAP>a.png</MAP>")), named(kXrfName));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(mentions(r->diagnostics, "NUMMAPS", "declares 0"));
}

// ---- the fixtures ----

std::vector<std::filesystem::path> xrfFixtures() {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const char* dir : {"cally", "paladin", "dokurochan_v1300", "xml_tests"})
    for (const auto& e : std::filesystem::directory_iterator(kFixtures + dir, ec))
      if (e.path().extension() == ".xrf") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Cal3dXrf, ReadsEveryFixture) {
  const auto files = xrfFixtures();
  if (files.empty()) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  // SOURCES.md: 4 cally, 19 paladin, 32 DokuroChan, base.xrf.
  EXPECT_EQ(files.size(), 56u);
  std::size_t maps = 0, found = 0;
  for (const auto& path : files) {
    const auto data = readFile(path.string());
    ASSERT_TRUE(data.ok());
    const auto r = readXrf(*data, contextForFile(path.string()));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    maps += r->material.maps.size();
    for (const auto& t : r->textures) found += !t.data.empty();
    // No diagnostics but missing textures (DokuroChan's .tga and base's texture.tga were not kept).
    for (const auto& d : r->diagnostics.items)
      EXPECT_NE(d.message.find("was not found"), std::string::npos) << describe(d);
  }
  // paladin: 18 materials of one map and edge's two, all PNGs present; DokuroChan 34; base 1.
  EXPECT_EQ(maps, 20u + 34u + 1u);
  EXPECT_EQ(found, 20u);
}

TEST(Cal3dXrf, ReadsTheTexturedPaladinEdge) {
  const std::string path = kFixtures + "paladin/paladin_edge.xrf";
  const auto data = readFile(path);
  if (!data.ok()) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  const auto r = readXrf(*data, contextForFile(path));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Material& m = r->material;
  EXPECT_EQ(r->format, "cal3d XRF 1100");
  EXPECT_EQ(m.ambient, colorFromBytes(255, 255, 255, 0));
  EXPECT_EQ(m.shininess, 0.05f);
  ASSERT_EQ(m.maps.size(), 2u);
  EXPECT_EQ(r->textures[0].name, "edge.png");
  EXPECT_EQ(r->textures[1].name, "edgealpha.png");
  EXPECT_EQ(r->textures[0].data.size(), 45200u);
  EXPECT_EQ(m.maps[1].uvSet, 1);
  EXPECT_TRUE(r->diagnostics.empty());
}

TEST(Cal3dXrf, ReadsDokuroChanMaterials) {
  const auto data = readFile(kFixtures + "dokurochan_v1300/DokuroChan_12.xrf");
  if (!data.ok()) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  const auto r = readXrf(*data, named("DokuroChan_12.xrf"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->material.diffuse, colorFromBytes(168, 168, 168, 255));
  EXPECT_EQ(r->material.shininess, 96.078431f);
  ASSERT_EQ(r->textures.size(), 2u);
  EXPECT_EQ(r->textures[0].name, "dokuhair.bmp.tga");
  EXPECT_EQ(r->textures[1].name, "s.spa.tga");
}

// §7.4: the cally XRF files carry exactly the bytes of the 700 binary CRF files.
TEST(Cal3dXrf, CallyMaterialsAgreeWithTheBinaryOnes) {
  std::size_t compared = 0;
  for (const char* stem : {"cally_skin", "cally_chest", "cally_pelvis", "cally_ponytail"}) {
    const auto xml = readFile(kFixtures + "cally/" + stem + ".xrf");
    const auto bin = readFile(kFixtures + "cally/" + stem + ".crf");
    if (!xml.ok() || !bin.ok()) continue;
    const auto a = readXrf(*xml, named(std::string(stem) + ".xrf"));
    const auto b = readCrf(*bin, named(std::string(stem) + ".crf"));
    ASSERT_TRUE(a.ok()) << a.error().describe();
    ASSERT_TRUE(b.ok()) << b.error().describe();
    SCOPED_TRACE(stem);
    EXPECT_EQ(a->material.name, b->material.name);
    EXPECT_EQ(a->material.ambient, b->material.ambient);
    EXPECT_EQ(a->material.diffuse, b->material.diffuse);
    EXPECT_EQ(a->material.specular, b->material.specular);
    // The bytes differ in the last bit: cally_chest.crf holds 0.79999995, the float below 0.8,
    // and its XRF says "0.8" (SOURCES.md prints both as 0.8).
    EXPECT_NEAR(a->material.shininess, b->material.shininess, 1e-7f);
    EXPECT_EQ(a->material.maps.size(), b->material.maps.size());
    EXPECT_EQ(a->textures.size(), b->textures.size());
    EXPECT_EQ(a->material.properties.size(), b->material.properties.size());
    ++compared;
  }
  if (compared == 0) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  EXPECT_EQ(compared, 4u);
}

}  // namespace
}  // namespace marrow::formats::cal3d
