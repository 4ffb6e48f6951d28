// Binary cal3d skeleton (.csf) reader: files built here byte by byte, then the real fixtures.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cal3d_binary_test_util.h"
#include "formats/model/validate.h"

namespace marrow::formats::cal3d {
namespace {

using namespace testing;

constexpr float kS = 0.70710678f;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct BoneSpec {
  std::string name;
  int parent = -1;
  std::vector<int> children;
  glm::vec3 t{0.0f};
  std::array<float, 4> r{0.0f, 0.0f, 0.0f, 1.0f};
  glm::vec3 tbs{0.0f};
  std::array<float, 4> rbs{0.0f, 0.0f, 0.0f, 1.0f};
  int lightType = 0;
};

struct FieldsAt {
  std::size_t name, translation, rotation, tbs, rbs, parent, childCount;
};

struct Csf {
  std::vector<std::byte> bytes;
  std::size_t boneCount = 8;
  std::vector<FieldsAt> at;
};

// root (0,0,1) ─ arm (1,0,0), rotated 90° about z in file convention ─ hand (1,0,0)
std::vector<BoneSpec> threeBones() {
  return {{"root", -1, {1}, {0, 0, 1}, {0, 0, 0, 1}, {0, 0, -1}, {0, 0, 0, 1}},
          {"arm", 0, {2}, {1, 0, 0}, {0, 0, kS, kS}, {0.5f, 0.25f, -1}, {0, 0, -kS, kS}},
          {"hand", 1, {}, {1, 0, 0}, {0, 0, 0, 1}, {0, 1, 2}, {kS, 0, 0, kS}}};
}

Csf build(const std::vector<BoneSpec>& bones = threeBones(), int version = 700,
          bool lights = false) {
  Csf f;
  ByteWriter w;
  header(w, "CSF", version);
  w.i32(static_cast<std::int32_t>(bones.size()));
  if (lights) vec3(w, {0.1f, 0.2f, 0.3f});
  for (const auto& b : bones) {
    FieldsAt a{};
    a.name = w.offset();
    string(w, b.name);
    a.translation = w.offset();
    vec3(w, b.t);
    a.rotation = w.offset();
    quat4(w, b.r[0], b.r[1], b.r[2], b.r[3]);
    a.tbs = w.offset();
    vec3(w, b.tbs);
    a.rbs = w.offset();
    quat4(w, b.rbs[0], b.rbs[1], b.rbs[2], b.rbs[3]);
    a.parent = w.offset();
    w.i32(b.parent);
    if (lights) {
      w.i32(b.lightType);
      vec3(w, {1, 1, 1});
    }
    a.childCount = w.offset();
    w.i32(static_cast<std::int32_t>(b.children.size()));
    for (int c : b.children) w.i32(c);
    f.at.push_back(a);
  }
  f.bytes = w.take();
  return f;
}

const std::string kFile = "test.csf";

Result<SkeletonPart> read(const std::vector<std::byte>& bytes,
                          const ReadContext& ctx = context(kFile)) {
  return readCsf(bytes, ctx);
}

SkeletonPart readOk(const Csf& f) {
  auto r = read(f.bytes);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  if (!r.ok()) return {};
  Scene s;
  s.skeleton = r->skeleton;
  EXPECT_TRUE(validate(s).empty());
  return std::move(r).value();
}

// ---- invalid input ----

TEST(Cal3dCsf, RejectsBadMagic) {
  auto f = build();
  f.bytes[2] = std::byte{'X'};
  expectError(read(f.bytes), 0, "magic", kFile);
  expectError(read({}), 0, "magic", kFile);
}

TEST(Cal3dCsf, RejectsVersionsOutsideTheKnownRange) {
  for (int v : {0, 698, 1302, -1, 100000}) {
    auto f = build();
    put<std::int32_t>(f.bytes, 4, v);
    expectError(read(f.bytes), 4, "version", kFile);
  }
}

TEST(Cal3dCsf, RejectsEveryTruncation) {
  const auto f = build();
  for (std::size_t n = 0; n < f.bytes.size(); ++n)
    EXPECT_FALSE(read({f.bytes.begin(), f.bytes.begin() + static_cast<long>(n)}).ok()) << n;
}

TEST(Cal3dCsf, RejectsTrailingBytes) {
  auto f = build();
  f.bytes.push_back(std::byte{0});
  const auto r = read(f.bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().describe().find("left after"), std::string::npos) << r.error().describe();
}

TEST(Cal3dCsf, RejectsZeroAndNegativeBoneCounts) {
  for (std::int32_t n : {0, -1, std::numeric_limits<std::int32_t>::min()}) {
    auto f = build();
    put<std::int32_t>(f.bytes, 8, n);
    expectError(read(f.bytes), 8, "boneCount", kFile);
  }
}

TEST(Cal3dCsf, RejectsHugeBoneCountBeforeAllocating) {
  auto f = build();
  put<std::int32_t>(f.bytes, 8, 0x7fffffff);
  expectError(read(f.bytes), 8, "boneCount", kFile);
  put<std::int32_t>(f.bytes, 8, 1000);  // under the limit, over the file
  expectError(read(f.bytes), 8, "boneCount", kFile);
}

TEST(Cal3dCsf, RejectsBoneCountOverTheContextLimit) {
  auto ctx = context(kFile);
  ctx.limits.maxBones = 2;
  expectError(read(build().bytes, ctx), 8, "boneCount", kFile);
}

TEST(Cal3dCsf, RejectsNegativeAndHugeNameLengths) {
  auto f = build();
  put<std::int32_t>(f.bytes, f.at[1].name, -5);
  expectError(read(f.bytes), f.at[1].name, "bone 1: name", kFile);
  put<std::int32_t>(f.bytes, f.at[1].name, 0x7fffffff);
  expectError(read(f.bytes), f.at[1].name, "bone 1: name", kFile);
}

TEST(Cal3dCsf, RejectsParentOutsideTheSkeleton) {
  for (std::int32_t p : {3, -2, 0x7fffffff}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.at[2].parent, p);
    expectError(read(f.bytes), f.at[2].parent, "bone 2: parentId", kFile);
  }
}

TEST(Cal3dCsf, RejectsCycleOfParents) {
  auto bones = threeBones();
  bones[0].parent = 2;  // 0 → 2 → 1 → 0
  const auto f = build(bones);
  const auto r = read(f.bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().field.find("parentId"), std::string::npos) << r.error().describe();
  EXPECT_NE(r.error().message.find("cycle"), std::string::npos) << r.error().describe();
}

TEST(Cal3dCsf, RejectsNestingDeeperThanTheLimit) {
  ReadContext ctx = context(kFile);
  ctx.limits.maxHierarchyDepth = 2;  // root ─ arm ─ hand is 3 deep
  const auto f = build();
  const auto r = read(f.bytes, ctx);
  expectError(r, f.at[2].parent, "bone 2", kFile);
  EXPECT_NE(r.error().message.find("3 bones deep"), std::string::npos) << r.error().describe();
  ctx.limits.maxHierarchyDepth = 3;
  EXPECT_TRUE(read(f.bytes, ctx).ok());
}

TEST(Cal3dCsf, RejectsBoneThatIsItsOwnParent) {
  auto bones = threeBones();
  bones[1].parent = 1;
  const auto f = build(bones);
  expectError(read(f.bytes), f.at[1].parent, "bone 1: parentId", kFile);
}

TEST(Cal3dCsf, RejectsNegativeAndHugeChildCounts) {
  for (std::int32_t n : {-1, 0x7fffffff}) {
    auto f = build();
    put<std::int32_t>(f.bytes, f.at[0].childCount, n);
    expectError(read(f.bytes), f.at[0].childCount, "bone 0: childCount", kFile);
  }
}

TEST(Cal3dCsf, RejectsNaNTranslationAndRotation) {
  auto f = build();
  put<float>(f.bytes, f.at[1].translation + 4, kNaN);
  expectError(read(f.bytes), f.at[1].translation + 4, "bone 1: translation", kFile);
  f = build();
  put<float>(f.bytes, f.at[2].rbs + 12, std::numeric_limits<float>::infinity());
  expectError(read(f.bytes), f.at[2].rbs + 12, "bone 2: rotationBoneSpace", kFile);
}

TEST(Cal3dCsf, RejectsZeroQuaternion) {
  auto f = build();
  put<float>(f.bytes, f.at[0].rotation + 12, 0.0f);  // (0, 0, 0, 0)
  expectError(read(f.bytes), f.at[0].rotation, "bone 0: rotation", kFile);
}

TEST(Cal3dCsf, FlippedBytesGiveAnErrorOrAValidSkeleton) {
  auto bytes = build().bytes;
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] ^= std::byte{0xFF};
    const auto r = read(bytes);
    if (r.ok()) {
      ++accepted;
      Scene s;
      s.skeleton = r->skeleton;
      const auto problems = validate(s);
      EXPECT_TRUE(problems.empty()) << "byte " << i << ": " << problems.front();
    }
    bytes[i] ^= std::byte{0xFF};
  }
  EXPECT_GT(accepted, 0u);
}

// ---- reading ----

TEST(Cal3dCsf, ReadsBonesWithConjugatedRotations) {
  const auto part = readOk(build());
  ASSERT_EQ(part.skeleton.bones.size(), 3u);
  const Bone& arm = part.skeleton.bones[1];
  EXPECT_EQ(arm.name, "arm");
  EXPECT_EQ(arm.parent, 0);
  EXPECT_EQ(arm.translation, glm::vec3(1, 0, 0));
  // §10.1: the file's (0, 0, s, s) rotates by its conjugate: −90° about z.
  EXPECT_EQ(arm.rotation, glm::quat(kS, 0, 0, -kS));
  EXPECT_EQ(part.format, "cal3d CSF 700");
  EXPECT_EQ(part.modelIndexOfFileBone, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(part.diagnostics.empty());
}

TEST(Cal3dCsf, ReadsBoneSpaceAsInverseBind) {
  const auto part = readOk(build());
  const auto bones = threeBones();
  ASSERT_EQ(part.skeleton.inverseBind.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(part.skeleton.inverseBind[i], inverseBindFromFile(bones[i].tbs, bones[i].rbs)) << i;
}

TEST(Cal3dCsf, KeepsSeveralRoots) {
  auto bones = threeBones();
  bones[0].children = {};
  bones[1].parent = -1;
  const auto part = readOk(build(bones));
  EXPECT_EQ(part.skeleton.rootCount(), 2u);
}

TEST(Cal3dCsf, ReordersBonesWhoseParentFollowsThemStably) {
  // File: 0 hand (parent 2), 1 prop (root), 2 arm (parent 3), 3 root.
  std::vector<BoneSpec> bones(4);
  bones[0] = {"hand", 2, {}};
  bones[1] = {"prop", -1, {}};
  bones[2] = {"arm", 3, {0}};
  bones[3] = {"root", -1, {2}};
  const auto part = readOk(build(bones));
  std::vector<std::string> names;
  for (const auto& b : part.skeleton.bones) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"prop", "root", "arm", "hand"}));
  EXPECT_EQ(part.modelIndexOfFileBone, (std::vector<int>{3, 0, 2, 1}));
  EXPECT_EQ(part.skeleton.bones[3].parent, 2);
  EXPECT_EQ(part.skeleton.bones[2].parent, 1);
  EXPECT_EQ(part.diagnostics.count(Severity::Info), 1u);
}

TEST(Cal3dCsf, WarnsOnceWhenChildListsDisagreeWithParents) {
  auto bones = threeBones();
  bones[0].children = {2};      // should be {1}
  bones[2].children = {0, 77};  // should be {}
  const auto part = readOk(build(bones));
  EXPECT_EQ(part.skeleton.bones[1].parent, 0);  // the parent ids decide
  ASSERT_EQ(part.diagnostics.count(Severity::Warning), 1u);
  EXPECT_NE(part.diagnostics.items[0].message.find("2 bone(s)"), std::string::npos);
  EXPECT_EQ(part.diagnostics.items[0].field, "bone 0: childIds");
}

TEST(Cal3dCsf, MakesRepeatedNamesUniqueKeepingTheFirst) {
  auto bones = threeBones();
  bones[1].name = "root";
  bones[2].name = "root";
  const auto part = readOk(build(bones));
  EXPECT_EQ(part.skeleton.bones[0].name, "root");
  EXPECT_EQ(part.skeleton.bones[1].name, "root#2");
  EXPECT_EQ(part.skeleton.bones[2].name, "root#3");
  EXPECT_EQ(part.diagnostics.count(Severity::Warning), 1u);
}

TEST(Cal3dCsf, ReadsEmptyAndUnterminatedNames) {
  auto bones = threeBones();
  bones[0].name = "";
  auto f = build(bones);
  put<std::int32_t>(f.bytes, f.at[0].name, 0);  // n = 0 instead of 1: no bytes at all
  f.bytes.erase(f.bytes.begin() + static_cast<long>(f.at[0].name) + 4);
  const auto r = read(f.bytes);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->skeleton.bones[0].name, "");
}

TEST(Cal3dCsf, ReadsLightsLayoutByDefaultAt1300) {
  auto bones = threeBones();
  bones[1].lightType = 1;
  const auto part = readOk(build(bones, 1300, true));
  EXPECT_EQ(part.format, "cal3d CSF 1300 (lights)");
  EXPECT_EQ(part.skeleton.bones.size(), 3u);
  EXPECT_EQ(part.skeleton.bones[2].translation, glm::vec3(1, 0, 0));
  EXPECT_EQ(part.diagnostics.count(Severity::Info), 1u);  // lights are not kept
}

TEST(Cal3dCsf, FallsBackToTheLayoutThatConsumesTheFile) {
  EXPECT_EQ(readOk(build(threeBones(), 1300, false)).format, "cal3d CSF 1300");
  EXPECT_EQ(readOk(build(threeBones(), 1301, false)).format, "cal3d CSF 1301");
  EXPECT_EQ(readOk(build(threeBones(), 912, true)).format, "cal3d CSF 912 (lights)");
  EXPECT_EQ(readOk(build(threeBones(), 700, true)).format, "cal3d CSF 700 (lights)");
}

TEST(Cal3dCsf, ErrorOfTheDefaultLayoutWhenNoneFits) {
  auto f = build(threeBones(), 1300, true);
  put<std::int32_t>(f.bytes, f.at[2].parent, 9);
  expectError(read(f.bytes), f.at[2].parent, "bone 2: parentId", kFile);
}

// ---- fixtures ----

struct SkeletonFixture {
  const char* file;
  std::size_t bones;
};

TEST(Cal3dCsf, FixturesParseWithTheirBoneCountsAndBindPoses) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  for (const SkeletonFixture& fx :
       {SkeletonFixture{"cally/cally.csf", 37}, SkeletonFixture{"paladin/paladin.csf", 58},
        SkeletonFixture{"dokurochan_v1300/DokuroChan.csf", 99}}) {
    SCOPED_TRACE(fx.file);
    const auto r = readCsf(fixture(fx.file), context(fx.file));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const Skeleton& s = r->skeleton;
    EXPECT_EQ(s.bones.size(), fx.bones);
    EXPECT_EQ(s.rootCount(), 1u);
    EXPECT_TRUE(r->diagnostics.empty());
    // §10.3: with the conjugation, rest pose · inverse bind is the identity for every bone.
    const auto rest = s.restModelMatrices();
    float worst = 0.0f;
    for (std::size_t i = 0; i < s.bones.size(); ++i) {
      const glm::mat4 m = rest[i] * s.inverseBind[i];
      for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 3; ++k)
          worst = std::max(worst, std::abs(m[c][k] - (c == k ? 1.0f : 0.0f)));
    }
    EXPECT_LT(worst, 1e-4f);
  }
  const auto cally = readCsf(fixture("cally/cally.csf"), context("cally.csf"));
  EXPECT_EQ(cally->format, "cal3d CSF 700");
}

TEST(Cal3dCsf, FixtureTruncationsAreAllRejected) {
  MARROW_SKIP_WITHOUT_CAL3D_FIXTURES();
  const auto bytes = fixture("cally/cally.csf");
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(readCsf(std::span(bytes.data(), n), context("cally.csf")).ok()) << n;
}

}  // namespace
}  // namespace marrow::formats::cal3d
