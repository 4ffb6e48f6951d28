// cal3d XML animation (.xaf, spec §7.2): documents written here, then the real fixture.
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
const std::string kXafName = "walk.xaf";

const std::string kFixtures = std::string(MARROW_FIXTURES_DIR) + "/cal3d/";

// Three bones: "hips" (rest translation 0 0 90), "thigh", "shin".
Skeleton threeBones() {
  Skeleton s;
  s.bones.resize(3);
  s.bones[0].name = "hips";
  s.bones[0].translation = {0, 0, 90};
  s.bones[1].name = "thigh";
  s.bones[1].parent = 0;
  s.bones[1].translation = {10, 0, 0};
  s.bones[2].name = "shin";
  s.bones[2].parent = 1;
  s.bones[2].translation = {0, 0, -40};
  return s;
}

struct Fixture {
  Skeleton skeleton = threeBones();
  BoneMap map() const { return BoneMap{&skeleton, {0, 1, 2}}; }
};

std::string key(std::string_view time, std::string_view translation = "1 2 3",
                std::string_view rotation = "0 0 0 1") {
  std::string s = "<KEYFRAME TIME=\"" + std::string(time) + "\">";
  if (!translation.empty()) s += "<TRANSLATION>" + std::string(translation) + "</TRANSLATION>";
  return s + "<ROTATION>" + std::string(rotation) + "</ROTATION></KEYFRAME>\n";
}

std::string track(int bone, const std::string& keys, std::string_view extra = "") {
  return "<TRACK BONEID=\"" + std::to_string(bone) + "\" NUMKEYFRAMES=\"2\"" + std::string(extra) +
         ">\n" + keys + "</TRACK>\n";
}

std::string animation(const std::string& tracks, std::string_view duration = "1",
                      std::string_view version = "1000") {
  return "<HEADER MAGIC=\"XAF\" VERSION=\"" + std::string(version) +
         "\"/>\n<ANIMATION DURATION=\"" + std::string(duration) + "\" NUMTRACKS=\"1\">\n" + tracks +
         "</ANIMATION>\n";
}

const std::string kSimple =
    animation(track(1, key("0") + key("0.5", "4 5 6", "0 0 0.7071068 0.7071068")));

bool mentions(const Diagnostics& d, std::string_view field, std::string_view text) {
  for (const auto& item : d.items)
    if (item.field.find(field) != std::string::npos && item.message.find(text) != std::string::npos)
      return true;
  return false;
}

// ---- invalid input ----

TEST(Cal3dXaf, RejectsEveryTruncation) {
  Fixture f;
  ASSERT_TRUE(readXaf(bytes(kSimple), named(kXafName), f.map()).ok());
  const std::size_t end = kSimple.rfind('>') + 1;
  for (std::size_t n = 0; n < end; ++n)
    EXPECT_FALSE(readXaf(bytes(std::string_view(kSimple).substr(0, n)), named(kXafName), f.map()).ok())
        << "prefix of " << n << " bytes was accepted";
}

TEST(Cal3dXaf, RejectsWrongMagic) {
  Fixture f;
  std::string xml = kSimple;
  xml.replace(xml.find("XAF"), 3, "XSF");
  const auto r = readXaf(bytes(xml), named(kXafName), f.map());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "HEADER MAGIC");
}

TEST(Cal3dXaf, RejectsABoneTheSkeletonDoesNotHave) {
  Fixture f;
  const std::string xml = animation(track(7, key("0")));
  const auto r = readXaf(bytes(xml), named(kXafName), f.map());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "TRACK 0 / BONEID");
  EXPECT_EQ(r.error().offset, xml.find("<TRACK"));
  EXPECT_EQ(r.error().file, "walk.xaf");
}

TEST(Cal3dXaf, RejectsANegativeBoneIdWithoutASkeleton) {
  EXPECT_FALSE(readXaf(bytes(animation(track(-1, key("0")))), named(kXafName), BoneMap{}).ok());
}

TEST(Cal3dXaf, RejectsNaNTimes) {
  Fixture f;
  const std::string xml = animation(track(1, key("0") + key("nan")));
  const auto r = readXaf(bytes(xml), named(kXafName), f.map());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "TRACK 0 / KEYFRAME 1 / TIME");
  EXPECT_EQ(r.error().offset, xml.find("<KEYFRAME TIME=\"nan"));
}

TEST(Cal3dXaf, RejectsNaNAndInfiniteValues) {
  Fixture f;
  EXPECT_FALSE(readXaf(bytes(animation(track(1, key("0", "1 nan 3")))), named(kXafName), f.map()).ok());
  EXPECT_FALSE(
      readXaf(bytes(animation(track(1, key("0", "1 2 3", "0 0 inf 1")))), named(kXafName), f.map()).ok());
  EXPECT_FALSE(readXaf(bytes(animation(track(1, key("0", "1 2 1e39")))), named(kXafName), f.map()).ok());
}

// §8: the zero quaternion is no rotation; the binary reader rejects it too.
TEST(Cal3dXaf, RejectsAZeroQuaternion) {
  Fixture f;
  const std::string xml = animation(track(1, key("0") + key("0.5", "1 2 3", "0 0 0 0")));
  const auto r = readXaf(bytes(xml), named(kXafName), f.map());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "TRACK 0 / KEYFRAME 1 / ROTATION");
  EXPECT_EQ(r.error().offset, xml.find("<ROTATION>0 0 0 0"));
  EXPECT_NE(r.error().message.find("zero quaternion"), std::string::npos);
}

TEST(Cal3dXaf, RejectsADurationThatIsNotPositive) {
  Fixture f;
  for (const char* d : {"0", "-1", "nan", "x"}) {
    const auto r = readXaf(bytes(animation(track(1, key("0")), d)), named(kXafName), f.map());
    ASSERT_FALSE(r.ok()) << d;
    EXPECT_NE(r.error().field.find("DURATION"), std::string::npos);
  }
}

TEST(Cal3dXaf, RejectsAKeyframeWithoutRotation) {
  Fixture f;
  const auto r = readXaf(
      bytes(
          animation(track(1, "<KEYFRAME TIME=\"0\"><TRANSLATION>1 2 3</TRANSLATION></KEYFRAME>"))),
      named(kXafName), f.map());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "TRACK 0 / KEYFRAME 0");
}

TEST(Cal3dXaf, RejectsMoreKeysThanTheLimit) {
  Fixture f;
  ReadContext ctx = named(kXafName);
  ctx.limits.maxKeys = 1;
  EXPECT_FALSE(readXaf(bytes(kSimple), ctx, f.map()).ok());
}

// ---- what it reads ----

TEST(Cal3dXaf, ReadsTracksNamedAfterTheirBones) {
  Fixture f;
  const auto r = readXaf(bytes(kSimple), named("anims/walk.xaf"), f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Clip& c = r->clip;
  EXPECT_EQ(c.name, "walk");
  EXPECT_EQ(c.duration, 1.0f);
  EXPECT_EQ(r->format, "cal3d XAF 1000");
  ASSERT_EQ(c.tracks.size(), 1u);
  EXPECT_EQ(c.tracks[0].bone, "thigh");
  EXPECT_EQ(c.tracks[0].sourceIndex, 1);
  EXPECT_EQ(c.tracks[0].translation.times, (std::vector<float>{0.0f, 0.5f}));
  EXPECT_EQ(c.tracks[0].translation.values[1], glm::vec3(4, 5, 6));
  EXPECT_EQ(c.tracks[0].rotation.values[1], quatFromFile(0, 0, 0.7071068f, 0.7071068f));
  // §11: the last key (0.5) is before the duration: cal3d loops back to the first key.
  EXPECT_TRUE(c.wrapsToFirstKey);
  EXPECT_TRUE(r->diagnostics.empty());
}

TEST(Cal3dXaf, ALastKeyAtTheDurationDoesNotWrap) {
  Fixture f;
  const auto r = readXaf(bytes(animation(track(1, key("0") + key("1")))), named(kXafName), f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_FALSE(r->clip.wrapsToFirstKey);
}

TEST(Cal3dXaf, InfersTheFrameRateFromKeyTimes) {
  Fixture f;
  const auto r =
      readXaf(bytes(animation(track(1, key("0") + key("0.04") + key("0.08")))), named(kXafName), f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->clip.frameRate, 25.0f);
}

TEST(Cal3dXaf, WithoutSkeletonNamesTracksById) {
  const auto r = readXaf(bytes(kSimple), named(kXafName), BoneMap{});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->clip.tracks.size(), 1u);
  EXPECT_EQ(r->clip.tracks[0].bone, "#1");
  EXPECT_EQ(r->clip.tracks[0].sourceIndex, 1);
  EXPECT_TRUE(r->diagnostics.empty());
}

TEST(Cal3dXaf, MapsFileBoneIdsThroughTheBoneMap) {
  Fixture f;
  const BoneMap reordered{&f.skeleton, {2, 0, 1}};
  const auto r = readXaf(bytes(kSimple), named(kXafName), reordered);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->clip.tracks[0].bone, "hips");
  EXPECT_EQ(r->clip.tracks[0].sourceIndex, 1);
}

TEST(Cal3dXaf, SortsKeyframesAndKeepsTheLaterOfEqualTimes) {
  Fixture f;
  const auto r = readXaf(
      bytes(animation(track(1, key("0.5", "5 5 5") + key("0", "0 0 0") + key("0.5", "6 6 6")))),
      named(kXafName), f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Track& t = r->clip.tracks[0];
  EXPECT_EQ(t.translation.times, (std::vector<float>{0.0f, 0.5f}));
  EXPECT_EQ(t.translation.values[1], glm::vec3(6, 6, 6));
  EXPECT_TRUE(mentions(r->diagnostics, "TRACK 0", "out of time order"));
  EXPECT_TRUE(mentions(r->diagnostics, "TRACK 0", "the later keyframe is kept"));
  Scene s;
  s.skeleton = f.skeleton;
  s.clips.push_back(r->clip);
  EXPECT_TRUE(validate(s).empty());
}

TEST(Cal3dXaf, MissingTranslationIsTheRestTranslationByDefault) {
  Fixture f;
  const auto r =
      readXaf(bytes(animation(track(2, key("0", "") + key("0.5", "7 7 7")), "1", "1300")), named(kXafName),
              f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->clip.tracks[0].translation.values[0], glm::vec3(0, 0, -40));
  EXPECT_TRUE(r->diagnostics.empty());
}

TEST(Cal3dXaf, MissingTranslationOfAStaticTrackRepeatsThePreviousOne) {
  Fixture f;
  const auto r =
      readXaf(bytes(animation(track(2, key("0", "7 7 7") + key("0.5", ""),
                                    " TRANSLATIONREQUIRED=\"1\" TRANSLATIONISDYNAMIC=\"0\""),
                              "1", "919")),
              named(kXafName), f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->clip.tracks[0].translation.values[1], glm::vec3(7, 7, 7));
}

TEST(Cal3dXaf, MissingTranslationBefore1300IsReported) {
  Fixture f;
  const auto r = readXaf(bytes(animation(track(2, key("0", "")))), named(kXafName), f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(mentions(r->diagnostics, "KEYFRAME 0", "version 1000"));
}

TEST(Cal3dXaf, MissingTranslationWithoutSkeletonLeavesTheChannelToTheRestPose) {
  const auto r = readXaf(bytes(animation(track(2, key("0", "") + key("0.5", "")), "1", "1300")),
                         named(kXafName), BoneMap{});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_TRUE(r->clip.tracks[0].translation.empty());
  EXPECT_EQ(r->clip.tracks[0].rotation.size(), 2u);
}

TEST(Cal3dXaf, ReadsImvuStyleLowerCaseFilesWithoutTranslation) {
  Fixture f;
  const auto r = readXaf(
      bytes("<header magic=\"XAF\" version=\"919\"/>\n<animation duration=\"2\" numtracks=\"1\">"
            "<track boneid=\"0\" numkeyframes=\"1\" translationrequired=\"0\"><keyframe time=\"0\">"
            "<rotation>0 0 0 1</rotation></keyframe></track></animation>"),
      named(kXafName), f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->format, "cal3d XAF 919");
  ASSERT_EQ(r->clip.tracks.size(), 1u);
  EXPECT_EQ(r->clip.tracks[0].bone, "hips");
  EXPECT_EQ(r->clip.tracks[0].translation.values[0], glm::vec3(0, 0, 90));
  EXPECT_TRUE(mentions(r->diagnostics, "KEYFRAME 0", "version 919"));
}

TEST(Cal3dXaf, CountsElementsWhenDeclaredCountsLie) {
  Fixture f;
  std::string xml = kSimple;
  xml.replace(xml.find("NUMKEYFRAMES=\"2\""), 16, "NUMKEYFRAMES=\"2000000000\"");
  xml.replace(xml.find("NUMTRACKS=\"1\""), 13, "NUMTRACKS=\"99999999\"");
  const auto r = readXaf(bytes(xml), named(kXafName), f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->clip.tracks[0].rotation.size(), 2u);
  EXPECT_TRUE(mentions(r->diagnostics, "NUMKEYFRAMES", "declares 2000000000"));
  EXPECT_TRUE(mentions(r->diagnostics, "NUMTRACKS", "declares 99999999"));
}

TEST(Cal3dXaf, KeepsTheFirstOfTwoTracksForOneBone) {
  Fixture f;
  const auto r =
      readXaf(bytes(animation(track(1, key("0", "1 1 1")) + track(1, key("0", "2 2 2")))), named(kXafName),
              f.map());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->clip.tracks.size(), 1u);
  EXPECT_EQ(r->clip.tracks[0].translation.values[0], glm::vec3(1, 1, 1));
  EXPECT_TRUE(mentions(r->diagnostics, "TRACK 1", "earlier track"));
}

// ---- the fixture ----

TEST(Cal3dXaf, ReadsBaseXafWithItsSkeleton) {
  const auto skel = readFile(kFixtures + "xml_tests/base.xsf");
  const auto anim = readFile(kFixtures + "xml_tests/base.xaf");
  if (!skel.ok() || !anim.ok()) MARROW_SKIP() << "cal3d fixtures not found under " << kFixtures;
  const auto s = readXsf(*skel, named("base.xsf"));
  ASSERT_TRUE(s.ok()) << s.error().describe();
  const auto r = readXaf(*anim, named("base.xaf"), BoneMap{&s->skeleton, s->modelIndexOfFileBone});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  // SOURCES.md: 2 tracks of 1 keyframe, duration 1 s.
  ASSERT_EQ(r->clip.tracks.size(), 2u);
  EXPECT_EQ(r->clip.duration, 1.0f);
  EXPECT_EQ(r->clip.tracks[0].bone, "UpLegR");
  EXPECT_EQ(r->clip.tracks[1].bone, "LegR");
  EXPECT_EQ(r->clip.tracks[0].translation.values[0], glm::vec3(4.15516f, -9.03382f, 3.81361f));
  EXPECT_EQ(r->clip.tracks[0].rotation.values[0],
            quatFromFile(0.0340203f, 1.69563e-12f, 1.42111e-11f, 0.999421f));
  EXPECT_TRUE(r->diagnostics.empty());
  Scene scene;
  scene.skeleton = s->skeleton;
  scene.clips.push_back(r->clip);
  EXPECT_TRUE(validate(scene).empty());
}

}  // namespace
}  // namespace marrow::formats::cal3d
