// Bone-name matching for retargeting: the user's map file, loose names, and the order in which
// a track finds its bone.
#include "render/anim/bone_names.h"

#include <gtest/gtest.h>

namespace marrow::anim {
namespace {

using formats::Bone;
using formats::Clip;
using formats::Skeleton;

Skeleton named(std::initializer_list<const char*> names) {
  Skeleton s;
  int parent = -1;
  for (const char* n : names) {
    Bone b;
    b.name = n;
    b.parent = parent++;
    s.bones.push_back(b);
  }
  return s;
}

Clip tracks(std::initializer_list<const char*> names) {
  Clip c;
  for (const char* n : names) {
    formats::Track t;
    t.bone = n;
    c.tracks.push_back(t);
  }
  return c;
}

// ---- the map file: invalid input first ----------------------------------------------------

TEST(BoneNameMapFile, RejectsALineWithoutEqualsNamingItsLineAndOffset) {
  const auto r = parseBoneNameMap("Bip01 Spine = spine\nBip01 Head head\n", "map.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "map.txt");
  EXPECT_EQ(r.error().field, "line 2");
  EXPECT_EQ(r.error().offset, 20u);  // the byte the second line starts at
  EXPECT_NE(r.error().message.find("no '='"), std::string::npos);
}

TEST(BoneNameMapFile, RejectsAnEmptyName) {
  auto r = parseBoneNameMap(" = spine\n", "m");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("source"), std::string::npos);
  r = parseBoneNameMap("spine =   \t\n", "m");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("target"), std::string::npos);
}

TEST(BoneNameMapFile, RejectsASourceMappedTwice) {
  const auto r = parseBoneNameMap("a = b\n# c\na = c\n", "m");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "line 3");
  EXPECT_NE(r.error().message.find("first on line 1"), std::string::npos);
}

TEST(BoneNameMapFile, ReadsPairsTrimmedSkippingCommentsAndBlankLines) {
  const auto r = parseBoneNameMap(
      "# biped to game rig\r\n\r\n  Bip01 L Thigh\t=  thigh.L \r\nBip01 Spine=spine\nx = a = b",
      "m");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->pairs.size(), 3u);
  EXPECT_EQ(r->pairs.at("Bip01 L Thigh"), "thigh.L");
  EXPECT_EQ(r->pairs.at("Bip01 Spine"), "spine");
  EXPECT_EQ(r->pairs.at("x"), "a = b");  // split at the first '='
}

TEST(BoneNameMapFile, AnEmptyFileIsAnEmptyMap) {
  const auto r = parseBoneNameMap("", "m");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

// ---- loose names --------------------------------------------------------------------------

TEST(LooseBoneName, IgnoresCaseAndSeparators) {
  EXPECT_EQ(looseBoneName("L_Thigh"), "l_thigh");
  EXPECT_EQ(looseBoneName("l thigh"), "l_thigh");
  EXPECT_EQ(looseBoneName("L-Thigh"), "l_thigh");
  EXPECT_EQ(looseBoneName("thigh.L"), "thigh_l");
  EXPECT_EQ(looseBoneName("  Spine  "), "spine");
}

TEST(LooseBoneName, StripsKnownPrefixes) {
  EXPECT_EQ(looseBoneName("Bip01 Spine"), "spine");
  EXPECT_EQ(looseBoneName("Bip01_Spine"), "spine");
  EXPECT_EQ(looseBoneName("Bip001 Spine"), "spine");
  EXPECT_EQ(looseBoneName("mixamorig:Spine"), "spine");
  EXPECT_EQ(looseBoneName("mixamorig_Spine"), "spine");
  EXPECT_EQ(looseBoneName("Bone_Spine"), "spine");
  EXPECT_EQ(looseBoneName("ValveBiped.Bip01_Spine"), "spine");
  EXPECT_EQ(looseBoneName("DEF-spine"), "spine");
  EXPECT_EQ(looseBoneName("Character1:Hips"), "hips");
  EXPECT_EQ(looseBoneName("Armature|Hips"), "hips");
}

TEST(LooseBoneName, KeepsAPrefixThatIsTheWholeName) {
  EXPECT_EQ(looseBoneName("Bip01"), "bip01");
  EXPECT_EQ(looseBoneName("Bone"), "bone");
  EXPECT_EQ(looseBoneName("Bone_"), "bone");
  EXPECT_EQ(looseBoneName("mixamorig:"), "mixamorig");
}

// ---- matching -----------------------------------------------------------------------------

TEST(BoneMatcher, FindsExactNamesOnlyWhenNotLoose) {
  const Skeleton s = named({"pelvis", "Spine"});
  const BoneMatcher m(s, nullptr, false);
  EXPECT_EQ(m.find("Spine").bone, 1);
  EXPECT_EQ(m.find("Spine").how, MatchKind::Exact);
  EXPECT_EQ(m.find("spine").bone, -1);
  EXPECT_EQ(m.find("Bip01 Pelvis").bone, -1);
}

TEST(BoneMatcher, FindsLooseNames) {
  const Skeleton s = named({"pelvis", "Spine", "l_thigh"});
  const BoneMatcher m(s, nullptr, true);
  EXPECT_EQ(m.find("Bip01 Pelvis").bone, 0);
  EXPECT_EQ(m.find("Bip01 Pelvis").how, MatchKind::Loose);
  EXPECT_EQ(m.find("mixamorig:spine").bone, 1);
  EXPECT_EQ(m.find("Bip01 L Thigh").bone, 2);
  EXPECT_EQ(m.find("Bip01 R Thigh").bone, -1);
}

TEST(BoneMatcher, AnAmbiguousLooseNameMatchesNothing) {
  const Skeleton s = named({"Bip01 Spine", "Bip02 Spine", "bip01 head", "HEAD"});
  const BoneMatcher m(s, nullptr, true);
  EXPECT_EQ(m.find("spine").bone, -1);  // Bip01 Spine and Bip02 Spine are both "spine"
  EXPECT_EQ(m.find("Head").bone, -1);   // bip01 head and HEAD are both "head"
  EXPECT_EQ(m.find("HEAD").bone, 3);    // the exact name still finds its bone
}

TEST(BoneMatcher, TheMapComesFirstThenExactThenLoose) {
  const Skeleton s = named({"spine", "chest", "neck"});
  BoneNameMap map;
  map.pairs["spine"] = "chest";        // overrides the exact name
  map.pairs["Bip01 Neck1"] = "Neck";   // a target found loosely
  map.pairs["tail"] = "no such bone";  // does not apply
  const BoneMatcher m(s, &map, true);
  EXPECT_EQ(m.find("spine").bone, 1);
  EXPECT_EQ(m.find("spine").how, MatchKind::Mapped);
  EXPECT_EQ(m.find("Bip01 Neck1").bone, 2);
  EXPECT_EQ(m.find("Bip01 Neck1").how, MatchKind::Mapped);
  EXPECT_EQ(m.find("chest").bone, 1);
  EXPECT_EQ(m.find("chest").how, MatchKind::Exact);
  EXPECT_EQ(m.find("tail").bone, -1);
}

TEST(MatchTracks, ABoneGoesToOneTrackByPriorityThenOrder) {
  const Skeleton s = named({"spine", "head"});
  BoneNameMap map;
  map.pairs["Spine1"] = "spine";
  const BoneMatcher m(s, &map, true);
  // "Bip01 Spine" (loose) and "spine" (exact) and "Spine1" (map) all want bone 0: the map wins;
  // "head" (exact) beats "Bip01 Head" (loose) though it comes later.
  const Clip c = tracks({"Bip01 Spine", "spine", "Spine1", "Bip01 Head", "head"});
  const auto r = matchTracks(c, m);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].bone, -1);
  EXPECT_EQ(r[1].bone, -1);
  EXPECT_EQ(r[2].bone, 0);
  EXPECT_EQ(r[3].bone, -1);
  EXPECT_EQ(r[4].bone, 1);
}

}  // namespace
}  // namespace marrow::anim
