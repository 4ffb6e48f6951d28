// cal3d XML skeleton (.xsf, spec §7.1): documents written here, then the real fixture.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/io/file.h"
#include "formats/model/validate.h"

#include "tests/support/read_context.h"
#include "tests/support/skip.h"

namespace marrow::formats::cal3d {
namespace {

using ::marrow::testing::bytes;
using ::marrow::testing::named;

// The name readers are given where a test names no file.
const std::string kXsfName = "test.xsf";

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/cal3d/";

Result<SkeletonPart> read(std::string_view xml, const ReadContext& ctx = named(kXsfName)) {
  return readXsf(bytes(xml), ctx);
}

std::string bone(int id, std::string_view name, int parent, std::vector<int> children = {},
                 std::string_view translation = "1 2 3") {
  std::string s = "<BONE ID=\"" + std::to_string(id) + "\" NAME=\"" + std::string(name) +
                  "\" NUMCHILD=\"" + std::to_string(children.size()) + "\">\n";
  s += "  <TRANSLATION>" + std::string(translation) + "</TRANSLATION>\n";
  s += "  <ROTATION>0 0 0.7071068 0.7071068</ROTATION>\n";
  s += "  <LOCALTRANSLATION>-1 -2 -3</LOCALTRANSLATION>\n";
  s += "  <LOCALROTATION>0 0 0 1</LOCALROTATION>\n";
  s += "  <PARENTID>" + std::to_string(parent) + "</PARENTID>\n";
  for (int c : children) s += "  <CHILDID>" + std::to_string(c) + "</CHILDID>\n";
  return s + "</BONE>\n";
}

std::string skeleton(const std::string& bones, int declared = 2) {
  return "<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n<SKELETON NUMBONES=\"" +
         std::to_string(declared) + "\">\n" + bones + "</SKELETON>\n";
}

const std::string kTwoBones = skeleton(bone(0, "root", -1, {1}) + bone(1, "child", 0));

bool mentions(const Diagnostics& d, std::string_view field, std::string_view text) {
  for (const auto& item : d.items)
    if (item.field.find(field) != std::string::npos && item.message.find(text) != std::string::npos)
      return true;
  return false;
}

// ---- invalid input ----

TEST(Cal3dXsf, RejectsMalformedXmlNamingTheOffset) {
  const auto r = read("<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n<SKELETON><BONE></SKELETON>");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "test.xsf");
  EXPECT_EQ(r.error().field, "XML");
  EXPECT_NE(r.error().offset, kNoOffset);
  EXPECT_NE(r.error().message.find("not well-formed"), std::string::npos);
}

TEST(Cal3dXsf, RejectsEveryTruncation) {
  const std::size_t end = kTwoBones.rfind('>') + 1;
  ASSERT_TRUE(read(kTwoBones).ok());
  for (std::size_t n = 0; n < end; ++n) {
    const auto r = read(std::string_view(kTwoBones).substr(0, n));
    EXPECT_FALSE(r.ok()) << "prefix of " << n << " bytes was accepted";
    if (!r.ok()) {
      EXPECT_EQ(r.error().file, "test.xsf");
    }
  }
}

TEST(Cal3dXsf, RejectsWrongHeaderMagic) {
  std::string xml = kTwoBones;
  xml.replace(xml.find("XSF"), 3, "XAF");
  const auto r = read(xml);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "HEADER MAGIC");
  EXPECT_EQ(r.error().offset, 0u);
}

TEST(Cal3dXsf, RejectsWrongBodyMagic) {
  const auto r = read("<SKELETON MAGIC=\"XMF\">" + bone(0, "a", -1) + "</SKELETON>");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "SKELETON MAGIC");
}

TEST(Cal3dXsf, RejectsAVersionBefore699) {
  std::string xml = kTwoBones;
  xml.replace(xml.find("1000"), 4, "600");
  const auto r = read(xml);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "HEADER VERSION");
}

TEST(Cal3dXsf, RejectsANonNumericVersion) {
  EXPECT_FALSE(read("<SKELETON VERSION=\"1.1\">" + bone(0, "a", -1) + "</SKELETON>").ok());
}

TEST(Cal3dXsf, RejectsAHeaderWithoutBody) {
  const auto r = read("<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no <SKELETON>"), std::string::npos);
}

TEST(Cal3dXsf, RejectsAnotherBodyElement) {
  const auto r = read("<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/><MESH/>");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "MESH");
}

TEST(Cal3dXsf, RejectsASkeletonWithoutBones) {
  EXPECT_FALSE(read("<SKELETON NUMBONES=\"0\"></SKELETON>").ok());
}

TEST(Cal3dXsf, RejectsNaNNamingTheElementAndItsOffset) {
  const std::string xml = skeleton(bone(0, "root", -1, {1}) + bone(1, "child", 0, {}, "nan 0 0"));
  const auto r = read(xml);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "BONE 1 / TRANSLATION");
  EXPECT_EQ(r.error().offset, xml.find("<TRANSLATION>nan"));
}

TEST(Cal3dXsf, RejectsTextThatIsNotANumber) {
  const auto r = read(skeleton(bone(0, "root", -1, {}, "1 2 x")));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'x'"), std::string::npos);
}

// §8: the zero quaternion is no rotation; the binary reader rejects it too.
TEST(Cal3dXsf, RejectsAZeroRotationQuaternion) {
  std::string xml = kTwoBones;
  const std::string rotation = "<ROTATION>0 0 0.7071068 0.7071068";
  xml.replace(xml.find(rotation), rotation.size(), "<ROTATION>0 0 0 0");
  const auto r = read(xml);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "BONE 0 / ROTATION");
  EXPECT_EQ(r.error().offset, xml.find("<ROTATION>0 0 0 0"));
  EXPECT_NE(r.error().message.find("zero quaternion"), std::string::npos);
}

TEST(Cal3dXsf, RejectsAZeroBoneSpaceQuaternion) {
  std::string xml = kTwoBones;
  const std::string second = "<LOCALROTATION>0 0 0 1";
  xml.replace(xml.find(second, xml.find(second) + 1), second.size(), "<LOCALROTATION>0 0 0 0");
  const auto r = read(xml);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "BONE 1 / LOCALROTATION");
  EXPECT_NE(r.error().message.find("zero quaternion"), std::string::npos);
}

TEST(Cal3dXsf, RejectsTooFewAndTooManyNumbers) {
  EXPECT_FALSE(read(skeleton(bone(0, "root", -1, {}, "1 2"))).ok());
  EXPECT_FALSE(read(skeleton(bone(0, "root", -1, {}, "1 2 3 4"))).ok());
}

TEST(Cal3dXsf, RejectsChildrenOutOfOrder) {
  std::string xml = kTwoBones;
  const std::string rot = "  <ROTATION>0 0 0.7071068 0.7071068</ROTATION>\n";
  xml.erase(xml.find(rot), rot.size());
  xml.insert(xml.find("  <TRANSLATION>"), rot);
  const auto r = read(xml);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "BONE 0 / ROTATION");
  EXPECT_NE(r.error().message.find("<TRANSLATION>"), std::string::npos);
}

TEST(Cal3dXsf, RejectsAParentOutsideTheSkeleton) {
  const auto r = read(skeleton(bone(0, "root", -1) + bone(1, "child", 7)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "BONE 1 / PARENTID");
}

TEST(Cal3dXsf, RejectsACycleOfParents) {
  const auto r = read(skeleton(bone(0, "root", -1) + bone(1, "a", 2, {2}) + bone(2, "b", 1, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("cycle"), std::string::npos);
}

TEST(Cal3dXsf, RejectsMoreBonesThanTheLimit) {
  ReadContext ctx = named(kXsfName);
  ctx.limits.maxBones = 1;
  EXPECT_FALSE(read(kTwoBones, ctx).ok());
}

TEST(Cal3dXsf, RejectsANameOverTheLimit) {
  ReadContext ctx = named(kXsfName);
  ctx.limits.maxStringLength = 4;
  const auto r = read(kTwoBones, ctx);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "BONE 1 / NAME");
}

TEST(Cal3dXsf, RejectsNestingDeeperThanTheLimit) {
  ReadContext ctx = named(kXsfName);
  ctx.limits.maxHierarchyDepth = 1;
  EXPECT_FALSE(read(kTwoBones, ctx).ok());
}

// ---- what it reads ----

TEST(Cal3dXsf, ReadsBonesWithConjugatedRotationsAndBoneSpace) {
  const auto r = read(kTwoBones);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Skeleton& s = r->skeleton;
  ASSERT_EQ(s.bones.size(), 2u);
  EXPECT_EQ(s.bones[0].name, "root");
  EXPECT_EQ(s.bones[0].parent, -1);
  EXPECT_EQ(s.bones[1].parent, 0);
  EXPECT_EQ(s.bones[1].translation, glm::vec3(1, 2, 3));
  // §10.1: the model holds the conjugate of the stored quaternion.
  EXPECT_EQ(s.bones[1].rotation, quatFromFile(0, 0, 0.7071068f, 0.7071068f));
  ASSERT_EQ(s.inverseBind.size(), 2u);
  EXPECT_EQ(s.inverseBind[1], inverseBindFromFile({-1, -2, -3}, {0, 0, 0, 1}));
  EXPECT_EQ(r->format, "cal3d XSF 1000");
  EXPECT_EQ(r->modelIndexOfFileBone, (std::vector<int>{0, 1}));
  EXPECT_TRUE(r->diagnostics.empty());
  Scene scene;
  scene.skeleton = s;
  EXPECT_TRUE(validate(scene).empty());
}

TEST(Cal3dXsf, ReadsLowerCaseNamesAndAttributes) {
  const auto r = read(
      "<header magic=\"xsf\" version=\"919\"/>\n<skeleton numbones=\"1\">\n<bone id=\"0\" "
      "name=\"b\" numchilds=\"0\"><translation>1 2 3</translation><rotation>0 0 0 1</rotation>"
      "<localtranslation>0 0 0</localtranslation><localrotation>0 0 0 1</localrotation>"
      "<parentid>-1</parentid></bone></skeleton>");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->skeleton.bones.size(), 1u);
  EXPECT_EQ(r->skeleton.bones[0].name, "b");
  EXPECT_EQ(r->format, "cal3d XSF 919");
  EXPECT_TRUE(r->diagnostics.empty());
}

TEST(Cal3dXsf, ReadsASingleRootWithMagicAndVersion) {
  const auto r =
      read("<SKELETON MAGIC=\"XSF\" VERSION=\"1100\">" + bone(0, "a", -1) + "</SKELETON>");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->format, "cal3d XSF 1100");
}

TEST(Cal3dXsf, ReadsAFileThatStatesNoVersion) {
  const auto r = read("<SKELETON>" + bone(0, "a", -1) + "</SKELETON>");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->format, "cal3d XSF");
}

TEST(Cal3dXsf, ReadsPrologBomCommentsAndCrlf) {
  std::string xml = "\xEF\xBB\xBF<?xml version=\"1.0\"?>\r\n<!-- exported -->\r\n" + kTwoBones;
  for (std::size_t at = xml.find('\n', 30); at != std::string::npos; at = xml.find('\n', at + 2))
    if (xml[at - 1] != '\r') xml.insert(at, 1, '\r');
  const auto r = read(xml);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->skeleton.bones.size(), 2u);
}

TEST(Cal3dXsf, ReadsMsvcExponentsAndPlusSigns) {
  const auto r = read(skeleton(bone(0, "root", -1, {}, "1.17815e-005 +2 -3E+002")));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->skeleton.bones[0].translation, glm::vec3(1.17815e-5f, 2.0f, -300.0f));
}

TEST(Cal3dXsf, CountsBonesWhenNumbonesLies) {
  const auto r = read(skeleton(bone(0, "root", -1, {1}) + bone(1, "child", 0), 12));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->skeleton.bones.size(), 2u);
  EXPECT_TRUE(mentions(r->diagnostics, "SKELETON / NUMBONES", "declares 12"));
}

TEST(Cal3dXsf, ReordersBonesWhoseParentComesLater) {
  const auto r = read(skeleton(bone(0, "child", 1) + bone(1, "root", -1, {0})));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->skeleton.bones.size(), 2u);
  EXPECT_EQ(r->skeleton.bones[0].name, "root");
  EXPECT_EQ(r->skeleton.bones[1].name, "child");
  EXPECT_EQ(r->skeleton.bones[1].parent, 0);
  EXPECT_EQ(r->modelIndexOfFileBone, (std::vector<int>{1, 0}));
}

TEST(Cal3dXsf, WarnsWhenChildListsDisagreeWithParents) {
  const auto r = read(skeleton(bone(0, "root", -1) + bone(1, "child", 0)));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(mentions(r->diagnostics, "BONE 1", "missing from its parent's CHILDID"));
}

TEST(Cal3dXsf, MakesRepeatedNamesUnique) {
  const auto r = read(skeleton(bone(0, "b", -1, {1}) + bone(1, "b", 0)));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->skeleton.bones[1].name, "b#2");
  EXPECT_TRUE(mentions(r->diagnostics, "SKELETON", "made unique"));
}

// ---- the fixture ----

TEST(Cal3dXsf, ReadsBaseXsfWithItsLyingBoneCount) {
  const auto data = readFile(kFixtures + "xml_tests/base.xsf");
  if (!data.ok()) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  const auto r = readXsf(*data, named("base.xsf"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  // SOURCES.md: NUMBONES="12", 19 bones, one root.
  EXPECT_EQ(r->skeleton.bones.size(), 19u);
  EXPECT_EQ(r->skeleton.rootCount(), 1u);
  EXPECT_EQ(r->format, "cal3d XSF 1000");
  EXPECT_TRUE(mentions(r->diagnostics, "NUMBONES", "there are 19 BONE elements"));
  EXPECT_EQ(r->diagnostics.items.size(), 1u);
  EXPECT_EQ(r->skeleton.bones[0].name, "Base");
  EXPECT_EQ(r->skeleton.bones[18].name, "FootL");
  Scene scene;
  scene.skeleton = r->skeleton;
  EXPECT_TRUE(validate(scene).empty());
}

}  // namespace
}  // namespace marrow::formats::cal3d
