// Binary cal3d animation (.caf) reader: the header words each version has and the compressed
// encodings (§4.3 0.12 quantised, §4.4 IMVU bit-packed), from the spec's test vectors to
// whole files.
#include <gtest/gtest.h>

#include <array>
#include <optional>

#include "cal3d_caf_test_util.h"
#include "formats/cal3d/caf_compressed.h"

namespace marrow::formats::cal3d {
namespace {

using namespace testing;
using namespace testing::caf;

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

}  // namespace
}  // namespace marrow::formats::cal3d
