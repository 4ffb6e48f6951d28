// Binary cal3d animation (.caf) reader: the compressed encodings' test vectors from the spec,
// files built here byte by byte, then the real fixtures.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>

#include "cal3d_binary_test_util.h"
#include "formats/cal3d/caf_compressed.h"
#include "formats/model/validate.h"

namespace marrow::formats::cal3d {
namespace {

using namespace testing;

constexpr float kS = 0.70710678f;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
const std::string kFile = "walk.caf";

std::vector<std::byte> bytesOf(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int b : v) out.push_back(static_cast<std::byte>(b));
  return out;
}

// Bits least-significant first, as §4.4's streams are.
struct BitWriter {
  std::vector<std::byte> bytes;
  unsigned used = 0;  // bits used in the last byte
  void put(std::uint64_t value, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      if (used == 0) bytes.push_back(std::byte{0});
      if ((value >> i) & 1u) bytes.back() |= static_cast<std::byte>(1u << used);
      used = (used + 1) % 8;
    }
  }
};

// ---- compressed encodings: the spec's test vectors ----

TEST(Cal3dCafCompressed, DecodesTheQuantisedQuaternionTestVector) {
  // §4.3: bytes 19 12 33 24 4D 36 = (4633, 9267, 13901), which = 3.
  const auto q = decodeQuantisedQuat(0x1219, 0x2433, 0x364D);
  EXPECT_NEAR(q[0], 0.1f, 1e-4f);
  EXPECT_NEAR(q[1], 0.2f, 1e-4f);
  EXPECT_NEAR(q[2], 0.3f, 1e-4f);
  EXPECT_NEAR(q[3], 0.9274f, 1e-4f);
}

TEST(Cal3dCafCompressed, PutsTheImpliedQuantisedComponentWhereTheLowBitsSay) {
  const std::int16_t a = 4632, b = 9266, c = 13900;  // low bits clear
  const float k = 1.0f / (32767.0f * 1.41421f);
  const auto w = decodeQuantisedQuat(a, b, c);  // which 0: stored y, z, w
  EXPECT_NEAR(w[1], a * k, 1e-6f);
  EXPECT_NEAR(w[3], c * k, 1e-6f);
  EXPECT_GT(w[0], 0.9f);
  const auto y = decodeQuantisedQuat(a, b, c | 1);  // which 1: stored x, z, w
  EXPECT_GT(y[1], 0.9f);
  const auto z = decodeQuantisedQuat(a, b | 1, c);  // which 2: stored x, y, w
  EXPECT_GT(z[2], 0.9f);
  EXPECT_NEAR(z[3], c * k, 1e-6f);
  // A remainder at or under FLT_EPSILON gives 0, not the square root of a negative number.
  const auto over = decodeQuantisedQuat(32767, 32767, 257);  // which 3, Σ² just over 1
  EXPECT_EQ(over[3], 0.0f);
}

TEST(Cal3dCafCompressed, UnpacksTheQuantisedTranslationTestVector) {
  EXPECT_EQ(unpackQuantisedTranslation(0xFFE007FFu), glm::uvec3(2047, 1024, 1023));
  EXPECT_EQ(decodeQuantisedTranslation(0xFFE007FFu, {1, 2, 3}, {0.5f, 1, 2}),
            glm::vec3(1024.5f, 1026, 2049));
}

TEST(Cal3dCafCompressed, DecodesTheImvuRotationTestVector) {
  const auto b = bytesOf({0x02, 0x00, 0x00, 0x38, 0x6D, 0x0B});
  const auto r = decodeImvuRotation(std::span<const std::byte, 6>(b.data(), 6));
  EXPECT_EQ(r.rotation[0], 0.0f);
  EXPECT_EQ(r.rotation[1], 0.0f);
  EXPECT_NEAR(r.rotation[2], 0.70733f, 1e-5f);
  EXPECT_NEAR(r.rotation[3], 1447.0f / 2047.0f, 1e-7f);
  EXPECT_EQ(r.steps, 45u);
}

TEST(Cal3dCafCompressed, DecodesTheImvuLowRangeTranslationTestVector) {
  const auto b = bytesOf({0x06, 0x24, 0xF8, 0x18});
  const glm::vec3 t = decodeImvuTranslation(b, false);
  EXPECT_NEAR(t.x, 1.5029f, 1e-4f);
  EXPECT_NEAR(t.y, -2.2544f, 1e-4f);
  EXPECT_NEAR(t.z, 99.9452f, 1e-4f);
}

TEST(Cal3dCafCompressed, DecodesHighRangeTranslationAcrossTheSixtyFourthBit) {
  BitWriter bw;
  bw.put(33554431, 25);  // x: full magnitude, positive
  bw.put(0, 1);
  bw.put(1, 25);  // y: smallest step, negative
  bw.put(1, 1);
  bw.put(0x1555555, 25);  // z: spans bits 52–76
  bw.put(1, 1);
  bw.put(0, 2);
  ASSERT_EQ(bw.bytes.size(), kImvuHighRangeBytes);
  const glm::vec3 t = decodeImvuTranslation(bw.bytes, true);
  const double step = 8388608.0 / 33554431.0;
  EXPECT_FLOAT_EQ(t.x, 8388608.0f);
  EXPECT_FLOAT_EQ(t.y, static_cast<float>(-step));
  EXPECT_FLOAT_EQ(t.z, static_cast<float>(-0x1555555 * step));
}

TEST(Cal3dCafCompressed, DecodesTheImvuTrackHeader) {
  const auto b = bytesOf({0x34, 0xF2, 0x05, 0x01});
  const auto h = decodeImvuTrackHeader(std::span<const std::byte, 4>(b.data(), 4));
  EXPECT_EQ(h.boneId, 0x1234u);
  EXPECT_TRUE(h.translationRequired);
  EXPECT_TRUE(h.highRangeRequired);
  EXPECT_TRUE(h.translationIsDynamic);
  EXPECT_EQ(h.keyframeCount, 261);
}

// ---- files built here ----

struct Key {
  float time;
  glm::vec3 t;
  std::array<float, 4> r;
};
struct TrackSpec {
  int bone;
  std::vector<Key> keys;
};

struct Caf {
  std::vector<std::byte> bytes;
  std::size_t duration = 0, trackCount = 0;
  std::vector<std::size_t> track;  // offset of each track (its boneId)
  std::size_t key(std::size_t t, std::size_t k) const { return track[t] + 8 + 32 * k; }
};

std::vector<TrackSpec> twoTracks() {
  return {{1, {{0.0f, {1, 0, 0}, {0, 0, 0, 1}}, {0.5f, {2, 0, 0}, {0, 0, kS, kS}}}},
          {0, {{0.0f, {0, 0, 1}, {0, 0, 0, 1}}}}};
}

Caf build(const std::vector<TrackSpec>& tracks = twoTracks(), float duration = 1.0f,
          int version = 700, int compression = 0, int flags = 0, bool flagsWord = true) {
  Caf f;
  ByteWriter w;
  header(w, "CAF", version);
  if ((version >= 919 && version <= 999) || version >= 1300) w.i32(compression);
  f.duration = w.offset();
  w.f32(duration);
  f.trackCount = w.offset();
  w.i32(static_cast<std::int32_t>(tracks.size()));
  if (flagsWord && (version == 1200 || version >= 1300)) w.i32(flags);
  for (const auto& t : tracks) {
    f.track.push_back(w.offset());
    w.i32(t.bone);
    w.i32(static_cast<std::int32_t>(t.keys.size()));
    for (const auto& k : t.keys) {
      w.f32(k.time);
      vec3(w, k.t);
      quat4(w, k.r[0], k.r[1], k.r[2], k.r[3]);
    }
  }
  f.bytes = w.take();
  return f;
}

Skeleton threeBones() {
  Skeleton s;
  s.bones = {{"root", -1, {0, 0, 5}}, {"arm", 0, {1, 0, 0}}, {"hand", 1, {0, 2, 0}}};
  return s;
}

struct Reader {
  Skeleton skeleton = threeBones();
  BoneMap bones{&skeleton, {0, 1, 2}};
  Result<AnimationPart> operator()(const std::vector<std::byte>& b,
                                   const ReadContext& ctx = context(kFile)) const {
    return readCaf(b, ctx, bones);
  }
};

AnimationPart readOk(const std::vector<std::byte>& bytes, const BoneMap& bones) {
  auto r = readCaf(bytes, context(kFile), bones);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  if (!r.ok()) return {};
  Scene s;
  s.clips.push_back(r->clip);
  if (bones.skeleton) s.skeleton = *bones.skeleton;
  const auto problems = validate(s);
  EXPECT_TRUE(problems.empty()) << problems.front();
  return std::move(r).value();
}
AnimationPart readOk(const std::vector<std::byte>& bytes) {
  static const Reader reader;
  return readOk(bytes, reader.bones);
}

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

// ---- versions and header words ----

TEST(Cal3dCaf, ReadsCompressionFlagAndFlagsWordsOf1300And1301) {
  for (int v : {1300, 1301}) {
    const auto part = readOk(build(twoTracks(), 1.0f, v).bytes);
    EXPECT_EQ(part.format, "cal3d CAF " + std::to_string(v));
    EXPECT_EQ(part.clip.tracks.size(), 2u);
  }
  // §4.1: a 1300 file without the flags word (as the fork's loader expects) still reads.
  EXPECT_EQ(readOk(build(twoTracks(), 1.0f, 1300, 0, 0, false).bytes).clip.tracks.size(), 2u);
}

TEST(Cal3dCaf, Reads1200WithAFlagsWordAndNoCompressionFlag) {
  const auto f = build(twoTracks(), 1.0f, 1200);
  EXPECT_EQ(f.bytes.size(), build().bytes.size() + 4);
  EXPECT_EQ(readOk(f.bytes).clip.tracks[0].translation.values[1], glm::vec3(2, 0, 0));
}

TEST(Cal3dCaf, Reads919FloatTracksWhenTheCompressionFlagIsClear) {
  EXPECT_EQ(readOk(build(twoTracks(), 1.0f, 919).bytes).format, "cal3d CAF 919");
}

TEST(Cal3dCaf, Reads1200QuantisedTracks) {
  ByteWriter w;
  header(w, "CAF", 1200);
  w.f32(2.0f);  // duration
  w.i32(1);
  w.i32(1);                   // flags: bit 0, quantised
  w.i32(2);                   // bone
  w.i32(2);                   // keys
  vec3(w, {-1, 0, 10});       // min
  vec3(w, {0.5f, 0.25f, 2});  // scale
  w.u16(0);
  w.u32(0xFFE007FFu);  // (2047, 1024, 1023)
  for (int s : {0x1219, 0x2433, 0x364D}) w.u16(static_cast<std::uint16_t>(s));
  w.u16(65535);
  w.u32(0);
  for (int s : {0, 0, 1}) w.u16(static_cast<std::uint16_t>(s));  // which 1: y implied = 1
  const auto part = readOk(w.take());
  EXPECT_EQ(part.format, "cal3d CAF 1200 (0.12 quantised)");
  const Track& t = part.clip.tracks[0];
  EXPECT_EQ(t.bone, "hand");
  EXPECT_EQ(t.rotation.times, (std::vector<float>{0.0f, 2.0f}));
  EXPECT_EQ(t.translation.values[0], glm::vec3(1022.5f, 256, 2056));
  EXPECT_EQ(t.translation.values[1], glm::vec3(-1, 0, 10));
  const glm::quat q = t.rotation.values[0];
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);  // renormalised
  EXPECT_NEAR(q.x, -0.1f, 1e-3f);            // conjugated
  EXPECT_NEAR(q.w, 0.9274f, 1e-3f);
  EXPECT_NEAR(t.rotation.values[1].y, -1.0f, 1e-6f);
}

// One IMVU track: header, then per key an optional translation block and a rotation block.
struct ImvuKey {
  std::optional<std::array<unsigned, 3>> lowRange;  // magnitudes (signs positive)
  unsigned steps;
  unsigned wMagnitude;  // z dropped; x = y = 0
};
std::vector<std::byte> imvuTrack(unsigned bone, bool required, bool dynamic,
                                 const std::vector<ImvuKey>& keys) {
  std::vector<std::byte> out;
  out.push_back(static_cast<std::byte>(bone & 0xFF));
  out.push_back(static_cast<std::byte>(((bone >> 8) & 0x1F) | (dynamic << 5) | (required << 7)));
  out.push_back(static_cast<std::byte>(keys.size() & 0xFF));
  out.push_back(static_cast<std::byte>(keys.size() >> 8));
  for (const auto& k : keys) {
    if (k.lowRange) {
      BitWriter t;
      for (unsigned m : *k.lowRange) {
        t.put(m, 9);
        t.put(0, 1);
      }
      t.put(0, 2);
      out.insert(out.end(), t.bytes.begin(), t.bytes.end());
    }
    BitWriter r;
    r.put(2, 2);  // z dropped
    r.put(0, 12);
    r.put(0, 12);
    r.put(0, 1);
    r.put(k.wMagnitude, 11);
    r.put(k.steps, 10);
    out.insert(out.end(), r.bytes.begin(), r.bytes.end());
  }
  return out;
}

std::vector<std::byte> imvuFile(int version, const std::vector<std::vector<std::byte>>& tracks,
                                int compression = 1, int flags = 0) {
  ByteWriter w;
  header(w, "CAF", version);
  if (version >= 919) w.i32(compression);
  w.f32(2.0f);
  w.i32(static_cast<std::int32_t>(tracks.size()));
  if (version >= 1300) w.i32(flags);
  for (const auto& t : tracks) w.raw(t);
  return w.take();
}

TEST(Cal3dCaf, ReadsImvuBitPackedTracks) {
  const auto track = imvuTrack(
      1, true, true,
      {{std::array<unsigned, 3>{511, 0, 2}, 0, 2047}, {std::array<unsigned, 3>{0, 511, 0}, 45, 0}});
  const auto part = readOk(imvuFile(913, {track}));
  EXPECT_EQ(part.format, "cal3d CAF 913 (IMVU bit-packed)");
  const Track& t = part.clip.tracks[0];
  EXPECT_EQ(t.bone, "arm");
  EXPECT_EQ(t.rotation.times, (std::vector<float>{0.0f, 1.5f}));
  EXPECT_EQ(t.translation.values[0].x, 128.0f);
  EXPECT_EQ(t.translation.values[0].y, 0.0f);
  EXPECT_NEAR(t.translation.values[0].z, 2 * 128.0f / 511, 1e-6f);
  EXPECT_EQ(t.translation.values[1], glm::vec3(0, 128, 0));
  EXPECT_EQ(t.rotation.values[0], glm::quat(1, 0, 0, 0));   // w = 1, z = 0
  EXPECT_EQ(t.rotation.values[1], glm::quat(0, 0, 0, -1));  // z = 1, conjugated
}

TEST(Cal3dCaf, ImvuStaticTranslationRepeatsTheFirstKeys) {
  const auto track = imvuTrack(
      0, true, false, {{std::array<unsigned, 3>{511, 0, 0}, 0, 2047}, {std::nullopt, 30, 2047}});
  const auto part = readOk(imvuFile(919, {track}));
  EXPECT_EQ(part.clip.tracks[0].translation.values,
            (std::vector<glm::vec3>{{128, 0, 0}, {128, 0, 0}}));
}

TEST(Cal3dCaf, ImvuTracksWithoutTranslationUseTheRestTranslation) {
  const auto track = imvuTrack(2, false, false, {{std::nullopt, 0, 2047}, {std::nullopt, 3, 2047}});
  const auto part = readOk(imvuFile(1300, {track}));
  EXPECT_EQ(part.clip.tracks[0].translation.values, (std::vector<glm::vec3>{{0, 2, 0}, {0, 2, 0}}));
  EXPECT_TRUE(readOk(imvuFile(1300, {track}), BoneMap{}).clip.tracks[0].translation.empty());
}

TEST(Cal3dCaf, Reads1300CompressedTracksFlaggedInTheFlagsWord) {
  // §4.1: the 2012 saver wrote compressionFlag 0 and flags bit 0 for IMVU-style tracks.
  const auto track = imvuTrack(1, false, false, {{std::nullopt, 0, 2047}});
  EXPECT_EQ(readOk(imvuFile(1300, {track}, 0, 1)).format, "cal3d CAF 1300 (IMVU bit-packed)");
}

TEST(Cal3dCaf, ReplacesDecodedValuesWithThe917FloatCopies) {
  auto track = imvuTrack(1, true, false, {{std::array<unsigned, 3>{1, 1, 1}, 0, 2047}});
  ByteWriter extra;
  vec3(extra, {3, 4, 5});
  quat4(extra, 0, 0, kS, kS);
  const auto floats = extra.take();
  track.insert(track.end(), floats.begin(), floats.end());
  const auto part = readOk(imvuFile(917, {track}));
  EXPECT_EQ(part.clip.tracks[0].translation.values[0], glm::vec3(3, 4, 5));
  EXPECT_NEAR(part.clip.tracks[0].rotation.values[0].z, -kS, 1e-6f);
}

TEST(Cal3dCaf, RejectsImvuTrackWithoutKeys) {
  auto track = imvuTrack(1, false, false, {});
  track.resize(track.size() + kImvuRotationBytes);  // room for the key it should have
  expectError(Reader{}(imvuFile(913, {track})), 16 + 2, "track 0: keyframeCount", kFile);
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
