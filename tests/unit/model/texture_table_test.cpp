// TextureTable: a model's textures, each image held once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/model/texture_table.h"

namespace marrow::formats {
namespace {

Texture texture(std::string name, std::string bytes) {
  Texture t;
  t.name = name;
  t.path = std::move(name);
  for (char c : bytes) t.data.push_back(static_cast<std::byte>(c));
  return t;
}

TEST(TextureTable, KeepsDifferentImagesApart) {
  std::vector<Texture> list;
  TextureTable table(list);
  EXPECT_EQ(table.add(texture("a.png", "AAAA")), 0);
  EXPECT_EQ(table.add(texture("b.png", "BBBB")), 1);
  EXPECT_EQ(table.add(texture("c.png", "AAAB")), 2);
  EXPECT_EQ(list.size(), 3u);
}

TEST(TextureTable, HoldsTheSameBytesOnceWhateverTheName) {
  std::vector<Texture> list;
  TextureTable table(list);
  EXPECT_EQ(table.add(texture("skin.png", "PNG!")), 0);
  EXPECT_EQ(table.add(texture("SKIN.PNG", "PNG!")), 0);
  EXPECT_EQ(table.add(texture("dir/../skin.png", "PNG!")), 0);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].name, "skin.png");  // the first name it was found under
  // Every name it was added under now finds it before fetching again.
  EXPECT_EQ(table.named("SKIN.PNG"), 0);
  EXPECT_EQ(table.named("other.png"), -1);
}

TEST(TextureTable, KeepsOneEntryPerNameNotFound) {
  std::vector<Texture> list;
  TextureTable table(list);
  EXPECT_EQ(table.add(texture("gone.png", "")), 0);
  EXPECT_EQ(table.add(texture("gone.png", "")), 0);
  EXPECT_EQ(table.add(texture("lost.png", "")), 1);  // another name: its own, for writers
  EXPECT_EQ(table.add(texture("found.png", "PNG!")), 2);
  EXPECT_EQ(list.size(), 3u);
}

TEST(TextureTable, AddsToTheListItWasGiven) {
  std::vector<Texture> list{texture("already.png", "OLD!")};
  TextureTable table(list);
  // What was there before the table is not looked at: indices continue after it.
  EXPECT_EQ(table.add(texture("new.png", "OLD!")), 1);
  EXPECT_EQ(table.add(texture("again.png", "OLD!")), 1);
}

}  // namespace
}  // namespace marrow::formats
