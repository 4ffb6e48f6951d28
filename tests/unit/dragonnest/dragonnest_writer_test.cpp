// Dragon Nest writers: every file they write reads back to the same records, in every version.
#include <gtest/gtest.h>

#include "tests/support/dragonnest_test_character.h"
#include "tests/support/read_context.h"

namespace marrow::formats::dragonnest {
namespace {

using testing::characterAni;
using testing::characterMsh;
using testing::characterSkn;
using ::marrow::testing::named;

void expectSame(const MshSubmesh& a, const MshSubmesh& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.parent, b.parent);
  EXPECT_EQ(a.strip, b.strip);
  EXPECT_EQ(a.skinned, b.skinned);
  EXPECT_EQ(a.hasColors, b.hasColors);
  EXPECT_EQ(a.indices, b.indices);
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.normals, b.normals);
  EXPECT_EQ(a.uvSets, b.uvSets);
  EXPECT_EQ(a.colors, b.colors);
  EXPECT_EQ(a.boneIndices, b.boneIndices);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.palette.size(), b.palette.size());
}

class MshVersions : public ::testing::TestWithParam<int> {};

TEST_P(MshVersions, RoundTripKeepsEveryRecord) {
  const Msh m = characterMsh(GetParam());
  auto bytes = writeMsh(m);
  ASSERT_TRUE(bytes);
  auto back = parseMsh(*bytes, named("c.msh"));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->version, GetParam());
  ASSERT_EQ(back->bones.size(), m.bones.size());
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    EXPECT_EQ(back->bones[i].name, m.bones[i].name);
    EXPECT_EQ(back->bones[i].inverseBind, m.bones[i].inverseBind);
  }
  ASSERT_EQ(back->submeshes.size(), m.submeshes.size());
  for (std::size_t i = 0; i < m.submeshes.size(); ++i)
    expectSame(back->submeshes[i], m.submeshes[i]);
  ASSERT_EQ(back->collisions.size(), 2u);
  EXPECT_EQ(back->collisions[0].type, MshCollision::Sphere);
  EXPECT_EQ(back->collisions[0].radius, 2.0f);
  EXPECT_EQ(back->collisions[0].parent, GetParam() > 10 ? "Spine" : "");  // §3.6
  EXPECT_EQ(back->collisions[1].extent, glm::vec3(1, 5, 1));
  ASSERT_EQ(back->dummies.size(), 1u);
  EXPECT_EQ(back->dummies[0].name, "Weapon");
  EXPECT_EQ(back->dummies[0].parent, "Arm");
  EXPECT_EQ(back->dummies[0].matrix, m.dummies[0].matrix);  // a translation: v10–12 keep it too
  auto again = writeMsh(*back);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *bytes);
}

TEST_P(MshVersions, OldDummyNamedWithLKeepsItsNameWithoutAParent) {
  Msh m = characterMsh(GetParam());
  m.dummies[0].name = "Lantern";
  m.dummies[0].parent.clear();
  auto back = parseMsh(writeMsh(m).value(), named("c.msh"));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->dummies[0].name, "Lantern");
  EXPECT_EQ(back->dummies[0].parent, "");
}

INSTANTIATE_TEST_SUITE_P(V10toV13, MshVersions, ::testing::Values(10, 11, 12, 13));

TEST(MshWriter, RefusesVersionsOutside10To13) {
  Msh m = characterMsh(13);
  m.version = 14;
  EXPECT_FALSE(writeMsh(m));
}

TEST(MshWriter, StripsExpandWithTheOddSwapAndWithoutStitches) {
  const MshSubmesh strip = characterMsh(13).submeshes[1];
  EXPECT_EQ(triangleList(strip), (std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3}));
}

class SknVersions : public ::testing::TestWithParam<int> {};

TEST_P(SknVersions, RoundTripKeepsParametersOfEveryType) {
  const Skn s = characterSkn(GetParam());
  auto bytes = writeSkn(s);
  ASSERT_TRUE(bytes);
  auto back = parseSkn(*bytes, named("c.skn"));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->version, GetParam());
  EXPECT_EQ(back->mesh, "Character.msh");
  ASSERT_EQ(back->materials.size(), 3u);
  const auto& p = back->materials[1].parameters;
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].vector, glm::vec4(0.2f, 0.2f, 0.2f, 1));
  EXPECT_EQ(p[2].texture, "character.dds");
  EXPECT_EQ(p[3].floatValue, 0.5f);
  EXPECT_EQ(p[4].intValue, 7);
  EXPECT_EQ(back->materials[1].alpha, 0.99f);
  EXPECT_EQ(*writeSkn(*back), *bytes);
}

INSTANTIATE_TEST_SUITE_P(V10andV11, SknVersions, ::testing::Values(10, 11));

TEST(SknWriter, V11BodyIsScrambledNotStoredPlain) {
  const auto v10 = writeSkn(characterSkn(10)).value();
  const auto v11 = writeSkn(characterSkn(11)).value();
  ASSERT_EQ(v10.size(), v11.size());
  EXPECT_FALSE(std::equal(v10.begin() + 1024, v10.end(), v11.begin() + 1024));
}

TEST(SknScramble, EveryOrderIsUndoneForOddAndEvenSizes) {
  for (std::size_t size : {0u, 1u, 9u, 10u, 11u, 1037u, 4096u}) {
    std::vector<std::byte> body(size);
    for (std::size_t i = 0; i < size; ++i) body[i] = std::byte(i * 7 + 3);
    for (int order = 0; order < 5; ++order)
      EXPECT_EQ(unscrambleSknBody(scrambleSknBody(body, order), order), body)
          << "size " << size << " order " << order;
  }
}

TEST(SknScramble, Order0StoresLogicalFragments23041) {
  std::vector<std::byte> body(10);  // f = 2: fragments 0..3 of 2 bytes, 4 of 2
  for (std::size_t i = 0; i < body.size(); ++i) body[i] = std::byte(i);
  const auto stored = scrambleSknBody(body, 0);
  const std::vector<int> expect = {4, 5, 6, 7, 0, 1, 8, 9, 2, 3};
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(static_cast<int>(stored[i]), expect[i]);
}

class AniVersions : public ::testing::TestWithParam<int> {};

TEST_P(AniVersions, RoundTripKeepsKeysWithinTheStoredPrecision) {
  const Ani a = characterAni(GetParam());
  auto bytes = writeAni(a);
  ASSERT_TRUE(bytes);
  auto back = parseAni(*bytes, named("c.ani"));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->version, GetParam());
  EXPECT_EQ(back->names, a.names);
  EXPECT_EQ(back->lengths, a.lengths);
  ASSERT_EQ(back->bones.size(), a.bones.size());
  const float tolerance = GetParam() == 11 ? 1.0f / 32767 : 0.0f;  // §5.2: short / 32767
  for (std::size_t b = 0; b < a.bones.size(); ++b) {
    EXPECT_EQ(back->bones[b].parent, a.bones[b].parent);
    for (std::size_t t = 0; t < 2; ++t) {
      const AniTrack &x = a.bones[b].tracks[t], &y = back->bones[b].tracks[t];
      ASSERT_EQ(x.rotations.size(), y.rotations.size());
      for (std::size_t k = 0; k < x.rotations.size(); ++k) {
        EXPECT_EQ(x.rotations[k].frame, y.rotations[k].frame);
        for (int c = 0; c < 4; ++c)
          EXPECT_NEAR(x.rotations[k].value[c], y.rotations[k].value[c], tolerance);
      }
      ASSERT_EQ(x.positions.size(), y.positions.size());
      for (std::size_t k = 0; k < x.positions.size(); ++k)
        EXPECT_EQ(x.positions[k].value, y.positions[k].value);
      ASSERT_EQ(x.scales.size(), y.scales.size());
      EXPECT_EQ(x.baseRotation, y.baseRotation);  // floats in both versions
    }
  }
  EXPECT_EQ(*writeAni(*back), *bytes);
}

INSTANTIATE_TEST_SUITE_P(V10andV11, AniVersions, ::testing::Values(10, 11));

TEST(AniWriter, V11KeysAre14And10Bytes) {
  Ani a = characterAni(10);
  const auto v10 = writeAni(a).value();
  a.version = 11;
  const auto v11 = writeAni(a).value();
  std::size_t pos = 0, rot = 0, scl = 0;
  for (const auto& b : a.bones)
    for (const auto& t : b.tracks) {
      pos += t.positions.size();
      rot += t.rotations.size();
      scl += t.scales.size();
    }
  EXPECT_EQ(v10.size() - v11.size(), pos * 2 + rot * 10 + scl * 2);
}

TEST(AniWriter, V11RefusesFramesOutsideInt16) {
  Ani a = characterAni(11);
  a.bones[0].tracks[0].rotations[2].frame = 40000;
  EXPECT_FALSE(writeAni(a));
}

TEST(AniList, NamesOneFilePerLineWithCrLf) {
  const std::string text = "a.ani\r\n\r\n  b.ani \nc.ani";
  const auto names = aniListNames(std::as_bytes(std::span(text.data(), text.size())));
  EXPECT_EQ(names, (std::vector<std::string>{"a.ani", "b.ani", "c.ani"}));
  EXPECT_TRUE(isAniList(std::as_bytes(std::span(text.data(), text.size()))));
}

TEST(DntWriter, RoundTripKeepsEveryCellType) {
  Table t;
  t.name = "demo";
  t.columns = {{"_Name", 1}, {"_On", 2}, {"_Count", 3}, {"_Rate", 4}, {"_Speed", 5}};
  t.rowIds = {7, 3};
  t.rows = {{std::string("Warrior"), 1, -5, 0.25f, 1.5f},
            {std::string("a,\"b\""), 0, 9, 1.0f, -2.0f}};
  auto bytes = writeDnt(t);
  ASSERT_TRUE(bytes);
  auto back = readDnt(*bytes, named("demo.dnt"));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->name, "demo");
  EXPECT_EQ(back->rowIds, t.rowIds);
  EXPECT_EQ(back->rows, t.rows);
  ASSERT_EQ(back->columns.size(), 5u);
  EXPECT_EQ(back->columns[4].name, "_Speed");
  EXPECT_EQ(back->columns[4].type, 5);
  EXPECT_EQ(tableCsv(*back),
            "_RowID,_Name,_On,_Count,_Rate,_Speed\r\n7,Warrior,1,-5,0.25,1.5\r\n"
            "3,\"a,\"\"b\"\"\",0,9,1,-2\r\n");
}

TEST(DntWriter, RefusesACellOfTheWrongType) {
  Table t;
  t.columns = {{"_Count", 3}};
  t.rows = {{std::string("x")}};
  EXPECT_FALSE(writeDnt(t));
}

}  // namespace
}  // namespace marrow::formats::dragonnest
