// The skeleton families (render/anim/bone_families.h): each family's own names are told apart,
// and a bone of one family finds its joint's bone in another, ahead of names that look alike but
// are other joints (Rigify's pelvis is called "spine", Warband's middle spine is).
#include "render/anim/bone_families.h"

#include <gtest/gtest.h>

#include <set>

#include "render/anim/bone_names.h"

namespace marrow::anim {
namespace {

formats::Skeleton skeletonOf(const BoneFamily& f, std::string_view root = "") {
  formats::Skeleton s;
  if (!root.empty()) s.bones.push_back({std::string(root), -1, {}, {1, 0, 0, 0}, glm::vec3(1.0f)});
  for (std::string_view n : f.joints)
    if (!n.empty()) s.bones.push_back({std::string(n), s.bones.empty() ? -1 : 0, {}, {1, 0, 0, 0}, glm::vec3(1.0f)});
  return s;
}

const BoneFamily& family(std::string_view name) {
  for (const BoneFamily& f : boneFamilies())
    if (f.name == name) return f;
  ADD_FAILURE() << "no family " << name;
  return boneFamilies().front();
}

TEST(BoneFamilies, EveryFamilyNamesTheSameJointsAndIsToldApartByItsNames) {
  ASSERT_GE(boneFamilies().size(), 6u);
  for (const BoneFamily& f : boneFamilies()) {
    EXPECT_EQ(f.joints.size(), boneFamilies().front().joints.size()) << f.name;
    EXPECT_EQ(familyOf(skeletonOf(f)), &f) << f.name;
  }
  // Mixamo's names come with their namespace; Biped's under its Bip01 root.
  formats::Skeleton mixamo = skeletonOf(family("Mixamo"));
  for (auto& b : mixamo.bones) b.name = "mixamorig:" + b.name;
  EXPECT_EQ(familyOf(mixamo), &family("Mixamo"));
  EXPECT_EQ(familyOf(skeletonOf(family("3ds Max Biped"), "Bip01")), &family("3ds Max Biped"));
  // Too few names of any family: none.
  formats::Skeleton few;
  for (const char* n : {"root", "Bip01 Pelvis", "Bip01 Head", "tail1", "tail2"}) few.bones.push_back({n, -1, {}, {1, 0, 0, 0}, glm::vec3(1.0f)});
  EXPECT_EQ(familyOf(few), nullptr);
}

// A 3ds Max Biped onto Warband's skel_human: every bone of skel_human that has a Biped joint finds
// it (18 of 20: the item bones have none), and the Biped's neck, toes and root, which skel_human
// lacks, find nothing (their vertices follow the nearest bone above that has a partner).
TEST(BoneFamilies, ABipedFindsEveryJointOfWarbandsSkeletonThatItHas) {
  const formats::Skeleton human = [] {
    formats::Skeleton s;
    for (const char* n : {"abdomen", "thigh.L", "calf.L", "foot.L", "thigh.R", "calf.R", "foot.R", "spine", "thorax",
                          "head", "shoulder.L", "upperarm.L", "forearm.L", "hand.L", "item.L", "shoulder.R",
                          "upperarm.R", "forearm.R", "hand.R", "item.R"})
      s.bones.push_back({n, s.bones.empty() ? -1 : 0, {}, {1, 0, 0, 0}, glm::vec3(1.0f)});
    return s;
  }();
  const formats::Skeleton biped = skeletonOf(family("3ds Max Biped"), "Bip01");
  std::vector<std::string> names;
  for (const auto& b : biped.bones) names.push_back(b.name);
  const BoneMatcher m(human, nullptr, true, &names);
  ASSERT_NE(m.sourceFamily(), nullptr);
  EXPECT_EQ(m.sourceFamily()->name, "3ds Max Biped");
  EXPECT_EQ(m.targetFamily()->name, "Warband skel_human");
  std::set<int> found;
  for (const auto& b : biped.bones) {
    const NameMatch match = m.find(b.name);
    if (match.bone >= 0) {
      EXPECT_EQ(match.how, MatchKind::Family) << b.name;
      EXPECT_TRUE(found.insert(match.bone).second) << "two bones found " << human.bones[static_cast<std::size_t>(match.bone)].name;
    }
  }
  EXPECT_EQ(found.size(), 18u);
  EXPECT_EQ(m.find("Bip01 L Thigh").bone, human.find("thigh.L"));
  EXPECT_EQ(m.find("Bip01 R Calf").bone, human.find("calf.R"));
  EXPECT_EQ(m.find("Bip01 Spine2").bone, human.find("thorax"));
  EXPECT_EQ(m.find("Bip01 Neck").bone, -1);
  EXPECT_EQ(m.find("Bip01").bone, -1);
}

// Rigify's "spine" is its pelvis: onto Warband it is "abdomen", not Warband's "spine" of the same
// name; the exact name would pair the wrong joints.
TEST(BoneFamilies, TheJointWinsOverAnExactNameOfAnotherJoint) {
  const formats::Skeleton human = skeletonOf(family("Warband skel_human"));
  const formats::Skeleton rigify = skeletonOf(family("Blender Rigify metarig"));
  std::vector<std::string> names;
  for (const auto& b : rigify.bones) names.push_back(b.name);
  const BoneMatcher m(human, nullptr, true, &names);
  EXPECT_EQ(m.find("spine").bone, human.find("abdomen"));
  EXPECT_EQ(m.find("spine.001").bone, human.find("spine"));
  EXPECT_EQ(m.find("shin.L").bone, human.find("calf.L"));
  // Without the other skeleton's names, names alone: the exact "spine".
  const BoneMatcher plain(human, nullptr, true);
  EXPECT_EQ(plain.find("spine").bone, human.find("spine"));
  // One family on both sides: exact names, as before.
  std::vector<std::string> same;
  for (const auto& b : human.bones) same.push_back(b.name);
  const BoneMatcher itself(human, nullptr, true, &same);
  EXPECT_EQ(itself.sourceFamily(), nullptr);
  EXPECT_EQ(itself.find("spine").how, MatchKind::Exact);
}

}  // namespace
}  // namespace marrow::anim
