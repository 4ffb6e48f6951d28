// What every cal3d reader and writer shares (common.h): errors from a reader, the zero-quaternion
// check, the versions that are written.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <vector>

#include "formats/cal3d/common.h"

#include "tests/support/read_context.h"

namespace marrow::formats::cal3d {
namespace {

using ::marrow::testing::named;

TEST(Cal3dGuarded, ReturnsTheFormatErrorAReaderThrows) {
  const auto r = guarded<int>(named("a.csf"), []() -> int {
    throw FormatException(FormatError{"a.csf", "boneCount", 8, "is bad"});
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "boneCount");
  EXPECT_EQ(r.error().offset, 8u);
}

TEST(Cal3dGuarded, TurnsRunningOutOfMemoryIntoAnErrorNamingTheFile) {
  const auto oom = guarded<int>(named("a.cmf"), []() -> int { throw std::bad_alloc(); });
  ASSERT_FALSE(oom.ok());
  EXPECT_EQ(oom.error().file, "a.cmf");
  const auto tooLong = guarded<int>(named("a.xmf"), []() -> int {
    std::vector<int> v;
    v.reserve(v.max_size() + 1);  // throws std::length_error
    return 0;
  });
  ASSERT_FALSE(tooLong.ok());
  EXPECT_EQ(tooLong.error().file, "a.xmf");
}

TEST(Cal3dGuarded, PassesAResultThrough) {
  const auto r = guarded<int>(named("a.caf"), [] { return 7; });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 7);
}

TEST(Cal3dZeroQuaternion, IsTheQuaternionOfNoLength) {
  EXPECT_TRUE(isZeroQuaternion({0, 0, 0, 0}));
  EXPECT_TRUE(isZeroQuaternion({1e-7f, 0, 0, 0}));
  EXPECT_TRUE(isZeroQuaternion({-0.0f, 0, 0, 0}));
  EXPECT_FALSE(isZeroQuaternion({0, 0, 0, 1}));
  EXPECT_FALSE(isZeroQuaternion({0, 0, 0, 1e-5f}));  // short, but renormalisable
}

TEST(Cal3dWritableVersion, IsThePlainVersions1300And1301) {
  for (int v : {699, 700, 910, 1000, 1100, 1300, 1301}) EXPECT_TRUE(writableVersion(v)) << v;
  for (int v : {698, 911, 919, 999, 1101, 1200, 1302}) EXPECT_FALSE(writableVersion(v)) << v;
  EXPECT_EQ(versionError(919).field, "version");
}

}  // namespace
}  // namespace marrow::formats::cal3d
