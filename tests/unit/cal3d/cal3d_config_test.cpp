// cal3d .cfg model files (spec §9): lines written here, then the cally and paladin files.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "formats/cal3d/parts.h"
#include "formats/io/file.h"

#include "tests/support/read_context.h"
#include "tests/support/skip.h"

namespace marrow::formats::cal3d {
namespace {

using ::marrow::testing::bytes;
using ::marrow::testing::named;

// The name readers are given where a test names no file.
const std::string kCfgName = "model.cfg";

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/cal3d/";

Result<ConfigFile> parse(std::string_view text, const ReadContext& ctx = named(kCfgName)) {
  return parseConfig(bytes(text), ctx);
}

std::vector<std::string> files(const std::vector<ConfigEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.file);
  return out;
}

// ---- invalid input ----

TEST(Cal3dConfig, RejectsABinaryFile) {
  const auto r = parse(std::string_view("CSF\0\xbc\x02\0\0", 8));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 3u);
  EXPECT_EQ(r.error().file, "model.cfg");
}

TEST(Cal3dConfig, RejectsMoreFilesThanTheLimit) {
  ReadContext ctx = named(kCfgName);
  ctx.limits.maxMeshes = 1;
  const auto r = parse("mesh=a.cmf\nmesh=b.cmf\n", ctx);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "line 2");
}

TEST(Cal3dConfig, ReportsABadScaleAndKeepsTheDefault) {
  for (const char* value : {"big", "0", "-1", "nan", "1.5x", ""}) {
    const auto r = parse(std::string("scale=") + value + "\n");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->scale, 1.0f) << value;
    ASSERT_EQ(r->diagnostics.items.size(), 1u) << value;
    EXPECT_EQ(r->diagnostics.items[0].field, "line 1");
  }
}

TEST(Cal3dConfig, ReportsUnknownKeysNamingTheLine) {
  const auto r = parse("skeleton=a.csf\n\ncolour=red\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->diagnostics.items.size(), 1u);
  const Diagnostic& d = r->diagnostics.items[0];
  EXPECT_EQ(d.field, "line 3");
  EXPECT_EQ(d.offset, 16u);
  EXPECT_NE(d.message.find("'colour'"), std::string::npos);
  EXPECT_EQ(files(r->skeletons), (std::vector<std::string>{"a.csf"}));
}

TEST(Cal3dConfig, ReadsTheForksMorphAnimationsAndReportsItsBlendMeshes) {
  const auto r = parse("mesh=face.cmf\nblendmesh=face_smile.cmf\nmorphanim=smile.cpf\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->diagnostics.items.size(), 1u);
  EXPECT_EQ(r->diagnostics.items[0].field, "line 2");
  EXPECT_EQ(r->meshes.size(), 1u);
  EXPECT_EQ(files(r->morphAnimations), (std::vector<std::string>{"smile.cpf"}));
}

TEST(Cal3dConfig, ReportsLinesWithoutEqualsSign) {
  const auto r = parse("mesh a.cmf\nmesh=\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->meshes.empty());
  ASSERT_EQ(r->diagnostics.items.size(), 2u);
  EXPECT_EQ(r->diagnostics.items[0].field, "line 1");
  EXPECT_EQ(r->diagnostics.items[1].field, "line 2");
}

// ---- what it reads ----

TEST(Cal3dConfig, SkipsCommentsAndBlankLines) {
  const auto r = parse("# model\n   # indented comment\n\n \t\nmesh=a.cmf # not a comment\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->diagnostics.empty());
  EXPECT_EQ(files(r->meshes), (std::vector<std::string>{"a.cmf # not a comment"}));
  EXPECT_EQ(r->meshes[0].line, 5);
}

TEST(Cal3dConfig, KeepsSpacesInsideValues) {
  const auto r = parse("mesh = DokuroChan ver.1.1_mesh.001.cmf\nmaterial\t=\tskin 2.xrf");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(files(r->meshes), (std::vector<std::string>{"DokuroChan ver.1.1_mesh.001.cmf"}));
  EXPECT_EQ(files(r->materials), (std::vector<std::string>{"skin 2.xrf"}));
}

TEST(Cal3dConfig, StripsTrailingBlanksFromValues) {
  const auto r =
      parse("mesh=cally_neck.cmf   \nmaterial = skin 2.xrf \t\r\npath=data/ \nscale=2 \n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->diagnostics.empty());
  EXPECT_EQ(files(r->meshes), (std::vector<std::string>{"cally_neck.cmf"}));
  EXPECT_EQ(files(r->materials), (std::vector<std::string>{"skin 2.xrf"}));
  EXPECT_EQ(r->scale, 2.0f);
}

TEST(Cal3dConfig, EndsAPathWithASlash) {
  const auto r =
      parse("path=data\nmesh=a.cmf\npath=data/paladin/\nmesh=b.cmf\npath=x \nmesh=c.cmf\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->meshes.size(), 3u);
  EXPECT_EQ(r->meshes[0].path, "data/");
  EXPECT_EQ(r->meshes[1].path, "data/paladin/");
  EXPECT_EQ(r->meshes[2].path, "x/");
}

TEST(Cal3dConfig, TurnsBackslashesIntoSlashes) {
  const auto r = parse("path=data\\paladin\nmesh=meshes\\body.cmf\npath=win\\\nmesh=c.cmf\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->meshes.size(), 2u);
  EXPECT_EQ(r->meshes[0].path, "data/paladin/");
  EXPECT_EQ(r->meshes[0].file, "meshes/body.cmf");
  EXPECT_EQ(r->meshes[1].path, "win/");
}

TEST(Cal3dConfig, StripsCarriageReturnsAndABom) {
  const auto r = parse("\xEF\xBB\xBFscale=0.01\r\nskeleton=a.csf\r\nanimation=walk.caf\r\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->diagnostics.empty());
  EXPECT_EQ(r->scale, 0.01f);
  EXPECT_EQ(files(r->skeletons), (std::vector<std::string>{"a.csf"}));
  EXPECT_EQ(files(r->animations), (std::vector<std::string>{"walk.caf"}));
  EXPECT_EQ(r->animations[0].line, 3);
}

TEST(Cal3dConfig, EachEntryCarriesThePathInForce) {
  const auto r = parse("mesh=a.cmf\npath=data/\nmesh=b.cmf\npath=\nmesh=c.cmf\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->meshes.size(), 3u);
  EXPECT_EQ(r->meshes[0].path, "");
  EXPECT_EQ(r->meshes[1].path, "data/");
  EXPECT_EQ(r->meshes[2].path, "");
}

TEST(Cal3dConfig, KeepsEverySkeletonForReadConfigToReport) {
  const auto r = parse("skeleton=a.csf\nskeleton=b.csf\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->skeletons.size(), 2u);
}

TEST(Cal3dConfig, ReadsAnEmptyFile) {
  const auto r = parse("");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->meshes.empty());
  EXPECT_TRUE(r->diagnostics.empty());
}

// ---- the fixtures ----

TEST(Cal3dConfig, ReadsCallyCfg) {
  const auto data = readFile(kFixtures + "cally/cally.cfg");
  if (!data.ok()) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  const auto r = parseConfig(*data, named("cally.cfg"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(r->diagnostics.empty());
  EXPECT_EQ(r->scale, 1.0f);
  EXPECT_EQ(files(r->skeletons), (std::vector<std::string>{"cally.csf"}));
  EXPECT_EQ(files(r->animations), (std::vector<std::string>{"cally_walk.caf"}));
  ASSERT_EQ(r->meshes.size(), 17u);
  EXPECT_EQ(r->meshes.front().file, "cally_calf_left.cmf");
  EXPECT_EQ(r->meshes.back().file, "cally_upperarm_right.cmf");
  EXPECT_EQ(files(r->materials), (std::vector<std::string>{"cally_skin.xrf", "cally_ponytail.xrf",
                                                           "cally_chest.xrf", "cally_pelvis.xrf"}));
  for (const auto& e : r->meshes) EXPECT_EQ(e.path, "");
  EXPECT_EQ(r->skeletons[0].line, 9);
}

TEST(Cal3dConfig, ReadsPaladinCfgWithItsPath) {
  const auto data = readFile(kFixtures + "paladin/paladin.cfg");
  if (!data.ok()) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  const auto r = parseConfig(*data, named("paladin.cfg"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(r->diagnostics.empty());
  EXPECT_EQ(r->scale, 0.5f);
  EXPECT_EQ(r->skeletons.size(), 1u);
  EXPECT_EQ(r->animations.size(), 7u);
  EXPECT_EQ(files(r->meshes), (std::vector<std::string>{"paladin_body.xmf", "paladin_cape.xmf",
                                                        "paladin_loincloth.xmf"}));
  EXPECT_EQ(r->materials.size(), 19u);
  for (const auto* list : {&r->skeletons, &r->animations, &r->meshes, &r->materials})
    for (const auto& e : *list) EXPECT_EQ(e.path, "data/paladin/");
}

}  // namespace
}  // namespace marrow::formats::cal3d
