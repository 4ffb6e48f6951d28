// The bone order and names both skeleton readers (CSF, XSF) take from common.h: parents first,
// stably; cycles and nesting over the limit named; repeated names made unique.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/cal3d/common.h"

namespace marrow::formats::cal3d {
namespace {

// ---- invalid input ----

TEST(Cal3dBoneOrder, NamesABoneOnACycleOfParents) {
  // 0 hangs below the cycle 1 -> 2 -> 3 -> 1.
  const std::vector<std::int64_t> parents{1, 2, 3, 1, -1};
  const BoneOrder order = orderBones(parents, 1024);
  EXPECT_EQ(order.fault, BoneOrder::Fault::Cycle);
  EXPECT_NE(order.faultyBone, 0u);
  EXPECT_NE(order.message.find("cycle of parents"), std::string::npos) << order.message;
}

TEST(Cal3dBoneOrder, NamesOnlyAFewBonesOfALongCycle) {
  std::vector<std::int64_t> parents(1000);
  for (std::size_t i = 0; i < parents.size(); ++i)
    parents[i] = static_cast<std::int64_t>((i + 1) % parents.size());
  const BoneOrder order = orderBones(parents, 1024);
  EXPECT_EQ(order.fault, BoneOrder::Fault::Cycle);
  EXPECT_LT(order.message.size(), 120u) << order.message;
}

TEST(Cal3dBoneOrder, NamesTheFirstBoneNestedDeeperThanTheLimit) {
  // A chain 0 <- 1 <- 2 <- 3, given child first.
  const std::vector<std::int64_t> parents{1, 2, 3, -1};
  const BoneOrder order = orderBones(parents, 3);
  EXPECT_EQ(order.fault, BoneOrder::Fault::TooDeep);
  EXPECT_EQ(order.faultyBone, 0u);
  EXPECT_EQ(order.message, "is nested 4 bones deep, over the limit of 3");
  EXPECT_EQ(orderBones(parents, 4).fault, BoneOrder::Fault::None);
}

// ---- what it gives ----

TEST(Cal3dBoneOrder, KeepsTheFileOrderWhenParentsComeFirst) {
  const std::vector<std::int64_t> parents{-1, 0, 0, 2, -1};
  const BoneOrder order = orderBones(parents, 1024);
  EXPECT_EQ(order.fault, BoneOrder::Fault::None);
  EXPECT_FALSE(order.reordered);
  EXPECT_EQ(order.fileIndexAt, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(order.modelIndexOfFileBone, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(Cal3dBoneOrder, PutsParentsFirstTakingTheSmallestFileIndexReady) {
  // File: 0 hand (parent 2), 1 prop (root), 2 arm (parent 3), 3 root.
  const std::vector<std::int64_t> parents{2, -1, 3, -1};
  const BoneOrder order = orderBones(parents, 1024);
  EXPECT_TRUE(order.reordered);
  EXPECT_EQ(order.fileIndexAt, (std::vector<std::uint32_t>{1, 3, 2, 0}));
  EXPECT_EQ(order.modelIndexOfFileBone, (std::vector<int>{3, 0, 2, 1}));
}

TEST(Cal3dBoneNames, KeepsTheFirstOfARepeatedNameAndNumbersTheOthers) {
  std::vector<std::string> names{"root", "arm", "root", "root#2", "root"};
  const std::string warning = makeBoneNamesUnique(names);
  // "root#2" is taken by a bone of its own: the repeats skip it.
  EXPECT_EQ(names, (std::vector<std::string>{"root", "arm", "root#3", "root#2", "root#4"}));
  EXPECT_NE(warning.find("2 bone name(s)"), std::string::npos) << warning;
}

TEST(Cal3dBoneNames, SaysNothingWhenNamesAreUnique) {
  std::vector<std::string> names{"a", "b", ""};
  EXPECT_TRUE(makeBoneNamesUnique(names).empty());
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", ""}));
}

}  // namespace
}  // namespace marrow::formats::cal3d
