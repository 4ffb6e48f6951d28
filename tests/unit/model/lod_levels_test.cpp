// Level meshes by name (formats/model/lod.h): BRF's NAME.lod1 … beside NAME, and which are drawn
// at a level (issue 19: opened as a file, a jerkin and its three levels were drawn on top of each
// other).
#include <gtest/gtest.h>

#include "formats/model/lod.h"

namespace marrow::formats {
namespace {

Scene named(std::initializer_list<const char*> names) {
  Scene s;
  for (const char* n : names) {
    Mesh m;
    m.name = n;
    s.meshes.push_back(m);
  }
  return s;
}

TEST(MeshLevels, NameDotLodNBesideNameIsItsLevelN) {
  const Scene s = named({"jerkin.lod2", "jerkin", "jerkin.lod1", "boots", "jerkin.lod3", "helmet.lod1",
                         "boots.lod10", "boots.lod0", "boots.LOD1", "belt.lodx"});
  const MeshLevels l = meshLevels(s);
  EXPECT_EQ(l.level, (std::vector<int>{2, 0, 1, 0, 3, 0, 0, 0, 0, 0}));
  EXPECT_EQ(l.of, (std::vector<int>{1, 1, 1, 3, 1, 5, 6, 7, 8, 9}));  // helmet.lod1 has no helmet
  EXPECT_EQ(l.deepest, 3);
}

TEST(MeshLevels, ALevelDrawsEachMeshAtItOrItsDeepestAbove) {
  const Scene s = named({"jerkin", "jerkin.lod1", "jerkin.lod2", "jerkin.lod3", "boots", "boots.lod1", "sword"});
  const MeshLevels l = meshLevels(s);
  EXPECT_EQ(drawnAtLevel(l, 0), (std::vector<bool>{true, false, false, false, true, false, true}));
  EXPECT_EQ(drawnAtLevel(l, 2), (std::vector<bool>{false, false, true, false, false, true, true}));
  EXPECT_EQ(drawnAtLevel(l, 9), (std::vector<bool>{false, false, false, true, false, true, true}));
  EXPECT_EQ(drawnAtLevel(meshLevels(named({"a", "b"})), 0), (std::vector<bool>{true, true}));
}

}  // namespace
}  // namespace marrow::formats
