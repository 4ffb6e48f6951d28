// Binary cal3d animation (.caf) reader: float-track files built here byte by byte, then the real
// fixtures (cal3d_caf_compressed_test.cpp: header words by version and compressed tracks).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cal3d_caf_test_util.h"

namespace marrow::formats::cal3d {
namespace {

using namespace testing;
using namespace testing::caf;

// ---- invalid input ----

TEST(Cal3dCaf, RejectsBadMagicAndVersions) {
  const Reader read;
  auto f = build();
  f.bytes[0] = std::byte{'Z'};
  expectError(read(f.bytes), 0, "magic", kFile);
  for (int v : {698, 1302, -700}) {
    f = build();
    put<std::int32_t>(f.bytes, 4, v);
    expectError(read(f.bytes), 4, "version", kFile);
  }
}

TEST(Cal3dCaf, RejectsEveryTruncationAndTrailingBytes) {
  const Reader read;
  auto f = build();
  for (std::size_t n = 0; n < f.bytes.size(); ++n)
    EXPECT_FALSE(read({f.bytes.begin(), f.bytes.begin() + static_cast<long>(n)}).ok()) << n;
  f.bytes.push_back(std::byte{1});
  EXPECT_FALSE(read(f.bytes).ok());
}

TEST(Cal3dCaf, RejectsDurationThatIsNotPositiveAndFinite) {
  const Reader read;
  for (float d : {0.0f, -1.0f, kNaN, std::numeric_limits<float>::infinity()}) {
    auto f = build();
    put<float>(f.bytes, f.duration, d);
    expectError(read(f.bytes), f.duration, "duration", kFile);
  }
}

TEST(Cal3dCaf, RejectsZeroNegativeAndHugeTrackCounts) {
  const Reader read;
  for (std::int32_t n : {0, -1, 0x7fffffff, 1000}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.trackCount, n);
    expectError(read(f.bytes), f.trackCount, "trackCount", kFile);
  }
}

TEST(Cal3dCaf, RejectsZeroNegativeAndHugeKeyframeCounts) {
  const Reader read;
  for (std::int32_t n : {0, -3, 0x7fffffff}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.track[1] + 4, n);
    expectError(read(f.bytes), f.track[1] + 4, "track 1: keyframeCount", kFile);
  }
}

TEST(Cal3dCaf, RejectsKeyCountOverTheContextLimit) {
  const Reader read;
  auto ctx = context(kFile);
  ctx.limits.maxKeys = 2;
  const auto f = build();
  expectError(read(f.bytes, ctx), f.track[1] + 4, "track 1: keyframeCount", kFile);
}

TEST(Cal3dCaf, RejectsBoneIdTheSkeletonDoesNotHave) {
  const Reader read;
  for (std::int32_t id : {3, -1, 0x7fffffff}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.track[1], id);
    const auto r = read(f.bytes);
    expectError(r, f.track[1], "track 1: boneId", kFile);
  }
  // Through the file → model table of a reordered skeleton, too.
  Skeleton s = threeBones();
  const BoneMap partial{&s, {2, 0}};  // the file's skeleton had two bones
  auto f = build({{2, {{0.0f, {}, {0, 0, 0, 1}}}}});
  expectError(readCaf(f.bytes, context(kFile), partial), f.track[0], "track 0: boneId", kFile);
}

TEST(Cal3dCaf, RejectsNaNTimeTranslationAndRotation) {
  const Reader read;
  auto f = build();
  put<float>(f.bytes, f.key(0, 1), kNaN);
  expectError(read(f.bytes), f.key(0, 1), "track 0: keyframe 1: time", kFile);
  f = build();
  put<float>(f.bytes, f.key(0, 0) + 8, kNaN);
  expectError(read(f.bytes), f.key(0, 0) + 8, "track 0: keyframe 0: translation", kFile);
  f = build();
  put<float>(f.bytes, f.key(1, 0) + 16 + 12, kNaN);
  expectError(read(f.bytes), f.key(1, 0) + 28, "track 1: keyframe 0: rotation", kFile);
}

TEST(Cal3dCaf, RejectsZeroQuaternion) {
  const Reader read;
  auto f = build();
  put<float>(f.bytes, f.key(1, 0) + 28, 0.0f);
  expectError(read(f.bytes), f.key(1, 0) + 16, "track 1: keyframe 0: rotation", kFile);
}

TEST(Cal3dCaf, FlippedBytesGiveAnErrorOrAValidClip) {
  const Reader read;
  auto bytes = build().bytes;
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] ^= std::byte{0xFF};
    const auto r = read(bytes);
    if (r.ok()) {
      ++accepted;
      Scene s;
      s.skeleton = read.skeleton;
      s.clips.push_back(r->clip);
      const auto problems = validate(s);
      EXPECT_TRUE(problems.empty()) << "byte " << i << ": " << problems.front();
    }
    bytes[i] ^= std::byte{0xFF};
  }
  EXPECT_GT(accepted, 0u);
}

// ---- float tracks ----

TEST(Cal3dCaf, ReadsFloatTracksNamedAfterTheirBones) {
  const auto part = readOk(build().bytes);
  const Clip& c = part.clip;
  EXPECT_EQ(c.name, "walk");
  EXPECT_EQ(c.duration, 1.0f);
  ASSERT_EQ(c.tracks.size(), 2u);
  EXPECT_EQ(c.tracks[0].bone, "arm");
  EXPECT_EQ(c.tracks[0].sourceIndex, 1);
  EXPECT_EQ(c.tracks[1].bone, "root");
  EXPECT_EQ(c.tracks[0].translation.times, (std::vector<float>{0.0f, 0.5f}));
  EXPECT_EQ(c.tracks[0].rotation.times, c.tracks[0].translation.times);
  EXPECT_EQ(c.tracks[0].translation.values[1], glm::vec3(2, 0, 0));
  // §10.1: stored (0, 0, s, s) is the model's conjugate.
  EXPECT_EQ(c.tracks[0].rotation.values[1], glm::quat(kS, 0, 0, -kS));
  EXPECT_EQ(part.format, "cal3d CAF 700");
  EXPECT_TRUE(part.diagnostics.empty());
}

TEST(Cal3dCaf, MapsBoneIdsThroughTheSkeletonsReordering) {
  Skeleton s = threeBones();
  const BoneMap reordered{&s, {2, 0, 1}};  // file bone 1 is model bone 0
  const auto part = readOk(build().bytes, reordered);
  EXPECT_EQ(part.clip.tracks[0].bone, "root");
  EXPECT_EQ(part.clip.tracks[0].sourceIndex, 1);
  EXPECT_EQ(part.clip.tracks[1].bone, "hand");
}

TEST(Cal3dCaf, NamesTracksByIdWithoutASkeleton) {
  // readModel stands in placeholder bones of these names (and says so once for the model).
  const auto part = readOk(build().bytes, BoneMap{});
  EXPECT_EQ(part.clip.tracks[0].bone, "#1");
  EXPECT_EQ(part.clip.tracks[0].sourceIndex, 1);
  EXPECT_EQ(part.clip.tracks[1].bone, "#0");
  EXPECT_TRUE(part.diagnostics.empty());
}

TEST(Cal3dCaf, SortsKeyframesByTime) {
  auto tracks = twoTracks();
  std::swap(tracks[0].keys[0], tracks[0].keys[1]);
  const auto part = readOk(build(tracks).bytes);
  EXPECT_EQ(part.clip.tracks[0].rotation.times, (std::vector<float>{0.0f, 0.5f}));
  EXPECT_EQ(part.clip.tracks[0].translation.values[0], glm::vec3(1, 0, 0));
}

TEST(Cal3dCaf, KeepsTheLastOfKeyframesAtOneTimeWithOneWarning) {
  auto tracks = twoTracks();
  tracks[0].keys.push_back({0.5f, {9, 9, 9}, {0, 0, 0, 1}});
  tracks[1].keys.push_back({0.0f, {7, 7, 7}, {0, 0, 0, 1}});
  const auto part = readOk(build(tracks).bytes);
  EXPECT_EQ(part.clip.tracks[0].translation.values, (std::vector<glm::vec3>{{1, 0, 0}, {9, 9, 9}}));
  EXPECT_EQ(part.clip.tracks[1].translation.values, (std::vector<glm::vec3>{{7, 7, 7}}));
  ASSERT_EQ(part.diagnostics.count(Severity::Warning), 1u);
  EXPECT_NE(part.diagnostics.items[0].message.find("2 keyframe(s)"), std::string::npos);
}

TEST(Cal3dCaf, KeepsTheFirstOfTwoTracksForOneBone) {
  auto tracks = twoTracks();
  tracks.push_back({1, {{0.0f, {5, 5, 5}, {0, 0, 0, 1}}}});
  const auto part = readOk(build(tracks).bytes);
  ASSERT_EQ(part.clip.tracks.size(), 2u);
  EXPECT_EQ(part.clip.tracks[0].translation.values[0], glm::vec3(1, 0, 0));
  EXPECT_EQ(part.diagnostics.count(Severity::Warning), 1u);
}

TEST(Cal3dCaf, ReplacesTheNoTranslationMarkerWithTheRestTranslation) {
  auto tracks = twoTracks();
  tracks[1].keys[0].t = glm::vec3(1e10f);
  const auto part = readOk(build(tracks, 1.0f, 1300).bytes);
  EXPECT_EQ(part.clip.tracks[1].translation.values[0], glm::vec3(0, 0, 5));
  // Without a skeleton the rest translation is unknown: the channel stays empty (= rest).
  const auto unbound = readOk(build(tracks, 1.0f, 1300).bytes, BoneMap{});
  EXPECT_TRUE(unbound.clip.tracks[1].translation.empty());
  EXPECT_EQ(unbound.clip.tracks[1].rotation.size(), 1u);
}

TEST(Cal3dCaf, WrapsToTheFirstKeyWhenTheFirstTrackEndsBeforeTheDuration) {
  EXPECT_TRUE(readOk(build(twoTracks(), 1.0f).bytes).clip.wrapsToFirstKey);
  EXPECT_FALSE(readOk(build(twoTracks(), 0.5f).bytes).clip.wrapsToFirstKey);
  // Only the first track decides (§11): the second ends at 0 < 0.5.
  EXPECT_FALSE(readOk(build(twoTracks(), 0.25f).bytes).clip.wrapsToFirstKey);
}

TEST(Cal3dCaf, EstimatesTheFrameRateFromKeySpacing) {
  const auto at = [](std::initializer_list<float> times) {
    TrackSpec t{0, {}};
    for (float s : times) t.keys.push_back({s, {}, {0, 0, 0, 1}});
    return std::vector<TrackSpec>{t};
  };
  EXPECT_EQ(readOk(build(at({0.0f, 1 / 24.0f, 2 / 24.0f, 5 / 24.0f})).bytes).clip.frameRate, 24.0f);
  EXPECT_EQ(readOk(build(at({0.0f, 1 / 60.0f, 0.5f})).bytes).clip.frameRate, 60.0f);
  EXPECT_EQ(readOk(build(at({0.0f, 0.1234f, 0.3f})).bytes).clip.frameRate, 30.0f);  // no grid
  EXPECT_EQ(readOk(build(at({0.0f})).bytes).clip.frameRate, 30.0f);
}

// ---- fixtures ----

struct AnimationFixture {
  const char* file;
  const char* skeleton;
  std::size_t tracks, keys;
  float duration;
};

const AnimationFixture kAnimations[] = {
    {"cally/cally_idle.caf", "cally/cally.csf", 37, 74, 0.06667f},
    {"cally/cally_jog.caf", "cally/cally.csf", 37, 888, 0.8f},
    {"cally/cally_shoot_arrow.caf", "cally/cally.csf", 24, 5664, 7.867f},
    {"cally/cally_strut.caf", "cally/cally.csf", 37, 1554, 1.4f},
    {"cally/cally_tornado_kick.caf", "cally/cally.csf", 37, 4551, 4.1f},
    {"cally/cally_walk.caf", "cally/cally.csf", 37, 1147, 1.033f},
    {"cally/cally_wave.caf", "cally/cally.csf", 14, 1414, 3.367f},
    {"dokurochan_v1300/DokuroChan_test_bone.caf", "dokurochan_v1300/DokuroChan.csf", 97, 28218,
     162.9f},
    {"paladin/paladin_idle.caf", "paladin/paladin.csf", 58, 116, 0.06667f},
    {"paladin/paladin_jog.caf", "paladin/paladin.csf", 58, 1392, 0.8f},
    {"paladin/paladin_shoot_arrow.caf", "paladin/paladin.csf", 42, 9912, 7.867f},
    {"paladin/paladin_sneak.caf", "paladin/paladin.csf", 58, 5104, 2.933f},
    {"paladin/paladin_strut.caf", "paladin/paladin.csf", 58, 2436, 1.4f},
    {"paladin/paladin_walk.caf", "paladin/paladin.csf", 58, 1798, 1.033f},
    {"paladin/paladin_wave.caf", "paladin/paladin.csf", 20, 2020, 3.367f},
};

TEST(Cal3dCaf, FixturesParseWithTheirTrackAndKeyCounts) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const auto& fx : kAnimations) {
    SCOPED_TRACE(fx.file);
    const auto skel = readCsf(fixture(fx.skeleton), context(fx.skeleton));
    ASSERT_TRUE(skel.ok());
    const BoneMap bones{&skel->skeleton, skel->modelIndexOfFileBone};
    const auto part = readOk(fixture(fx.file), bones);
    const Clip& c = part.clip;
    EXPECT_EQ(c.tracks.size(), fx.tracks);
    std::size_t keys = 0;
    for (const auto& t : c.tracks) {
      keys += t.rotation.size();
      EXPECT_EQ(t.translation.times, t.rotation.times);
    }
    EXPECT_EQ(keys, fx.keys);
    EXPECT_NEAR(c.duration, fx.duration, 5e-4f * fx.duration);  // SOURCES.md: 4 digits
    EXPECT_EQ(c.frameRate, 30.0f);
    EXPECT_TRUE(part.diagnostics.empty());
    EXPECT_EQ(part.format.rfind("cal3d CAF ", 0), 0u);
  }
}

TEST(Cal3dCaf, CallyAnimationsLoopBackToTheirFirstKeys) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto skel = readCsf(fixture("cally/cally.csf"), context("cally.csf"));
  const BoneMap bones{&skel->skeleton, skel->modelIndexOfFileBone};
  // §11: cally's keys end one frame before the duration.
  EXPECT_TRUE(readOk(fixture("cally/cally_walk.caf"), bones).clip.wrapsToFirstKey);
}

TEST(Cal3dCaf, IdleFirstKeysAreTheRestPose) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto skel = readCsf(fixture("cally/cally.csf"), context("cally.csf"));
  const BoneMap bones{&skel->skeleton, skel->modelIndexOfFileBone};
  const auto part = readOk(fixture("cally/cally_idle.caf"), bones);
  for (const Track& t : part.clip.tracks) {
    const Bone& b = skel->skeleton.bones[static_cast<std::size_t>(skel->skeleton.find(t.bone))];
    EXPECT_LT(glm::length(t.translation.values[0] - b.translation), 1e-3f) << t.bone;
    EXPECT_GT(std::abs(glm::dot(t.rotation.values[0], b.rotation)), 0.9999f) << t.bone;
  }
}

TEST(Cal3dCaf, FixtureFromAnotherSkeletonIsRejected) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto skel = readCsf(fixture("cally/cally.csf"), context("cally.csf"));
  const BoneMap bones{&skel->skeleton, skel->modelIndexOfFileBone};
  const auto r = readCaf(fixture("paladin/paladin_walk.caf"), context("paladin_walk.caf"), bones);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().field.find("boneId"), std::string::npos) << r.error().describe();
}

TEST(Cal3dCaf, FixtureTruncationsAreAllRejected) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto bytes = fixture("cally/cally_idle.caf");
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(readCaf(std::span(bytes.data(), n), context(kFile), BoneMap{}).ok()) << n;
}

}  // namespace
}  // namespace marrow::formats::cal3d
