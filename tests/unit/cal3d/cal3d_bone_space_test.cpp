// Skeletons keep every value through a round trip: the bone space as the file stored it is
// written back bit for bit, binary and XML alike (Skeleton::inverseBindParts).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <glm/gtc/quaternion.hpp>
#include <iterator>
#include <random>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/cal3d/writers_internal.h"

#include "tests/support/skip.h"

namespace marrow::formats::cal3d {
namespace {

std::vector<std::byte> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto* b = reinterpret_cast<const std::byte*>(c.data());
  return std::vector<std::byte>(b, b + c.size());
}

Scene sceneOf(const SkeletonPart& part) {
  Scene s;
  s.basis = cal3dBasis();
  s.skeleton = part.skeleton;
  return s;
}

void expectSameBits(const Skeleton& a, const Skeleton& b) {
  ASSERT_EQ(a.bones.size(), b.bones.size());
  ASSERT_EQ(b.inverseBindParts.size(), b.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    EXPECT_EQ(a.bones[i].translation, b.bones[i].translation) << a.bones[i].name;
    EXPECT_EQ(a.bones[i].rotation, b.bones[i].rotation) << a.bones[i].name;
    EXPECT_EQ(a.inverseBind[i], b.inverseBind[i]) << a.bones[i].name;
    EXPECT_EQ(a.inverseBindParts[i].translation, b.inverseBindParts[i].translation);
    EXPECT_EQ(a.inverseBindParts[i].rotation, b.inverseBindParts[i].rotation) << a.bones[i].name;
  }
}

class Cal3dBoneSpace : public ::testing::TestWithParam<const char*> {};

TEST_P(Cal3dBoneSpace, SkeletonKeepsEveryValueThroughBinaryAndXml) {
  const std::filesystem::path path = std::filesystem::path(MARROW_FIXTURES_DIR) / "cal3d" / GetParam();
  if (!std::filesystem::exists(path)) MARROW_SKIP() << path << " is absent (../shared/fixtures)";
  const auto bytes = slurp(path);
  auto first = readSkeleton(bytes, ReadContext{path.string(), {}, {}});
  ASSERT_TRUE(first) << first.error().describe();
  for (const bool xml : {false, true}) {
    Diagnostics d;
    const Scene s = sceneOf(*first);
    auto written = xml ? writeXsf(s, 1100, d) : writeCsf(s, 1100, d);
    ASSERT_TRUE(written) << written.error().describe();
    auto again = readSkeleton(*written, ReadContext{xml ? "again.xsf" : "again.csf", {}, {}});
    ASSERT_TRUE(again) << again.error().describe();
    expectSameBits(first->skeleton, again->skeleton);
    auto rewritten = xml ? writeXsf(sceneOf(*again), 1100, d) : writeCsf(sceneOf(*again), 1100, d);
    ASSERT_TRUE(rewritten);
    EXPECT_EQ(*rewritten, *written) << (xml ? "XML" : "binary") << " second write differs";
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Cal3dBoneSpace,
                         ::testing::Values("cally/cally.csf", "paladin/paladin.csf",
                                           "dokurochan_v1300/DokuroChan.csf", "xml_tests/base.xsf"));

TEST(Cal3dBoneSpaceFor, UsesTheStoredPartsOnlyWhileTheyStillGiveTheMatrix) {
  Skeleton s;
  s.bones.push_back(Bone{"b", -1, {}, {1, 0, 0, 0}, {1, 1, 1}});
  const glm::vec3 t(1, 2, 3);
  const std::array<float, 4> r = {0.1f, 0.2f, 0.3f, 0.92736185f};
  s.inverseBind = {inverseBindFromFile(t, r)};
  s.inverseBindParts = {{t, quatFromFile(r[0], r[1], r[2], r[3])}};
  const BoneSpace kept = boneSpaceFor(s, 0, s.inverseBind[0]);
  EXPECT_EQ(kept.rotation, r);
  EXPECT_EQ(kept.translation, t);
  // A changed matrix is written from the matrix, not from the stale parts.
  glm::mat4 moved = s.inverseBind[0];
  moved[3] += glm::vec4(1, 0, 0, 0);
  EXPECT_EQ(boneSpaceFor(s, 0, moved).translation, glm::vec3(moved[3]));
}

// A skeleton of `n` bones with random rest poses and no stored bone space: inverse binds that
// did not come from a cal3d file.
Skeleton randomSkeleton(std::size_t n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f), offset(-50.0f, 50.0f);
  Skeleton s;
  for (std::size_t i = 0; i < n; ++i) {
    Bone b;
    b.name = "b" + std::to_string(i);
    b.parent = i == 0 ? -1 : static_cast<int>(rng() % i);
    b.translation = {offset(rng), offset(rng), offset(rng)};
    b.rotation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
    s.bones.push_back(b);
  }
  return s;
}

// The rotation of `m` in double precision, as the file stores it.
std::array<float, 4> nearestRotation(const glm::mat4& m) {
  glm::dmat3 r{glm::mat3(m)};
  for (int c = 0; c < 3; ++c) r[c] /= glm::length(r[c]);
  const glm::dquat q = glm::normalize(glm::quat_cast(r));
  return {static_cast<float>(-q.x), static_cast<float>(-q.y), static_cast<float>(-q.z),
          static_cast<float>(q.w)};
}

TEST(Cal3dBoneSpaceFor, WritesTheNearestValueForSkeletonsOfManyBones) {
  // The search for a value the reader turns back into the matrix exactly costs about 0.2 ms a
  // bone: skeletons of more than a few hundred bones are not searched (bone_space.cpp).
  const Skeleton s = randomSkeleton(300);
  const std::vector<glm::mat4> binds = s.inverseBindMatrices();
  for (std::size_t i = 0; i < binds.size(); ++i) {
    const BoneSpace b = boneSpaceFor(s, i, binds[i]);
    EXPECT_EQ(b.translation, glm::vec3(binds[i][3])) << i;
    ASSERT_EQ(b.rotation, nearestRotation(binds[i])) << i;
  }
}

TEST(Cal3dBoneSpaceFor, ASkeletonOfManyBonesIsStillRewrittenToTheSameBytes) {
  Scene scene;
  scene.basis = cal3dBasis();
  scene.skeleton = randomSkeleton(300);
  for (const bool xml : {false, true}) {
    Diagnostics d;
    auto written = xml ? writeXsf(scene, 1100, d) : writeCsf(scene, 1100, d);
    ASSERT_TRUE(written) << written.error().describe();
    auto again = readSkeleton(*written, ReadContext{xml ? "again.xsf" : "again.csf", {}, {}});
    ASSERT_TRUE(again) << again.error().describe();
    auto rewritten = xml ? writeXsf(sceneOf(*again), 1100, d) : writeCsf(sceneOf(*again), 1100, d);
    ASSERT_TRUE(rewritten);
    EXPECT_EQ(*rewritten, *written) << (xml ? "XML" : "binary") << " second write differs";
  }
}

}  // namespace
}  // namespace marrow::formats::cal3d
