// Dragon Nest readers on the real files of shared/fixtures/dragonnest (SOURCES.md counts): each
// is read to its last byte, and the writers give the same bytes back.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "formats/dragonnest/dragonnest.h"
#include "formats/dragonnest/dragonnest_internal.h"
#include "formats/model/validate.h"
#include "formats/registry.h"

#include "tests/support/skip.h"

namespace marrow::formats::dragonnest {
namespace {

const std::string kDir = std::string(MARROW_FIXTURES_DIR) + "/dragonnest/";

std::vector<std::byte> load(const std::string& relative) {
  std::ifstream in(kDir + relative, std::ios::binary);
  if (!in) return {};
  std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(c.size());
  std::memcpy(out.data(), c.data(), c.size());
  return out;
}

#define LOAD_OR_SKIP(var, path)                                                 \
  const auto var = load(path);                                                  \
  if (var.empty())                                                              \
  MARROW_SKIP() << "Dragon Nest fixture " << path << " not found under " << kDir \
               << " (see shared/fixtures/dragonnest/SOURCES.md)"

ReadContext contextFor(const std::string& name) {
  ReadContext ctx;
  ctx.name = name;
  ctx.resolve = [](const std::string& n) -> std::optional<std::vector<std::byte>> {
    auto b = load("dnpak_py_tests/" + n);
    if (b.empty()) return std::nullopt;
    return b;
  };
  return ctx;
}

TEST(DragonNestFixture, FreezeMshIsV13WithOneStaticList) {
  LOAD_OR_SKIP(bytes, "dnpak_py_tests/freeze.msh");
  ASSERT_EQ(bytes.size(), 3104u);
  auto msh = parseMsh(bytes, contextFor("freeze.msh"));
  ASSERT_TRUE(msh) << msh.error().describe();
  EXPECT_EQ(msh->version, 13);
  EXPECT_TRUE(msh->bones.empty());
  ASSERT_EQ(msh->submeshes.size(), 1u);
  const MshSubmesh& s = msh->submeshes[0];
  EXPECT_FALSE(s.strip);
  EXPECT_FALSE(s.skinned);
  EXPECT_EQ(s.positions.size(), 27u);
  EXPECT_EQ(triangleList(s).size(), 32u * 3);
  EXPECT_TRUE(msh->collisions.empty());
  EXPECT_TRUE(msh->dummies.empty());
}

TEST(DragonNestFixture, FreezeMshWindingAgreesWithItsNormals) {
  LOAD_OR_SKIP(bytes, "dnpak_py_tests/freeze.msh");
  auto msh = parseMsh(bytes, contextFor("freeze.msh"));
  ASSERT_TRUE(msh);
  const MshSubmesh& s = msh->submeshes[0];
  const auto tris = triangleList(s);
  std::size_t agree = 0;
  for (std::size_t t = 0; t < tris.size(); t += 3) {
    const glm::vec3 a = s.positions[tris[t]], b = s.positions[tris[t + 1]],
                    c = s.positions[tris[t + 2]];
    const glm::vec3 n = s.normals[tris[t]] + s.normals[tris[t + 1]] + s.normals[tris[t + 2]];
    agree += glm::dot(glm::cross(b - a, c - a), n) > 0 ? 1 : 0;
  }
  EXPECT_EQ(agree, tris.size() / 3);  // §1: (b−a)×(c−a) along the stored normal
}

TEST(DragonNestFixture, FreezeMshWritesBackByteForByte) {
  LOAD_OR_SKIP(bytes, "dnpak_py_tests/freeze.msh");
  auto msh = parseMsh(bytes, contextFor("freeze.msh"));
  ASSERT_TRUE(msh);
  auto out = writeMsh(*msh);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, bytes);
}

TEST(DragonNestFixture, FreezeSknIsV10WithOneMaterialOfThreeParameters) {
  LOAD_OR_SKIP(bytes, "dnpak_py_tests/freeze.skn");
  ASSERT_EQ(bytes.size(), 2191u);
  auto skn = parseSkn(bytes, contextFor("freeze.skn"));
  ASSERT_TRUE(skn) << skn.error().describe();
  EXPECT_EQ(skn->version, 10);
  EXPECT_EQ(detail::lower(skn->mesh), "freeze.msh");
  ASSERT_EQ(skn->materials.size(), 1u);
  EXPECT_FLOAT_EQ(skn->materials[0].alpha, 0.99f);
  EXPECT_EQ(skn->materials[0].alphaBlend, 1);
  EXPECT_EQ(skn->materials[0].parameters.size(), 3u);
  auto out = writeSkn(*skn);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, bytes);
}

TEST(DragonNestFixture, FreezeSknBringsItsMeshAndMaterial) {
  LOAD_OR_SKIP(bytes, "dnpak_py_tests/freeze.skn");
  auto scene = readScene(bytes, contextFor("freeze.skn"));
  ASSERT_TRUE(scene) << scene.error().describe();
  ASSERT_EQ(scene->meshes.size(), 1u);
  EXPECT_EQ(scene->meshes[0].vertexCount(), 27u);
  EXPECT_EQ(scene->meshes[0].triangleCount(), 32u);
  ASSERT_EQ(scene->materials.size(), 1u);
  EXPECT_EQ(scene->meshes[0].material, 0);
  EXPECT_EQ(scene->basis, dragonNestBasis());
  EXPECT_TRUE(flipsWinding(scene->basis));
  EXPECT_TRUE(validate(*scene).empty());
}

// Issue 19: a skin opened without its mesh said "format: " and nothing more.
TEST(DragonNestFixture, ASkinWithoutItsMeshSaysWhatItIsAndWhatIsMissing) {
  LOAD_OR_SKIP(bytes, "dnpak_py_tests/freeze.skn");
  ReadContext alone;
  alone.name = "freeze.skn";
  auto scene = readScene(bytes, alone);
  ASSERT_TRUE(scene) << scene.error().describe();
  EXPECT_EQ(scene->format, "Dragon Nest SKN v10 (its mesh not found)");
  EXPECT_TRUE(scene->meshes.empty());
  EXPECT_EQ(scene->materials.size(), 1u);
  ASSERT_EQ(scene->diagnostics.items.size(), 1u);
  EXPECT_NE(scene->diagnostics.items[0].message.find("'freeze.msh' was not found beside the skin"), std::string::npos);
}

struct TableCase {
  const char* file;
  std::size_t columns, rows;
  std::set<int> types;
};

class DragonNestTable : public ::testing::TestWithParam<TableCase> {};

TEST_P(DragonNestTable, ReadsSourcesCountsAndWritesBackTheSameBytes) {
  const TableCase& c = GetParam();
  LOAD_OR_SKIP(bytes, std::string("maze_static_ext/") + c.file);
  auto table = readDnt(bytes, contextFor(c.file));
  ASSERT_TRUE(table) << table.error().describe();
  EXPECT_EQ(table->columns.size(), c.columns);
  EXPECT_EQ(table->rows.size(), c.rows);
  std::set<int> types;
  for (const auto& col : table->columns) types.insert(col.type);
  EXPECT_EQ(types, c.types);
  std::set<std::int32_t> ids(table->rowIds.begin(), table->rowIds.end());
  EXPECT_EQ(ids.size(), c.rows);  // §8: row ids are unique
  auto out = writeDnt(*table);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, bytes);
  auto scene = readScene(bytes, contextFor(c.file));
  ASSERT_TRUE(scene) << scene.error().describe();
  ASSERT_EQ(scene->tables.size(), 1u);
  EXPECT_EQ(scene->tables[0].name, std::filesystem::path(c.file).stem().string());
}

INSTANTIATE_TEST_SUITE_P(
    SourcesMd, DragonNestTable,
    ::testing::Values(TableCase{"jobtable.dnt", 35, 73, {1, 2, 3, 5}},
                      TableCase{"itemtable_themepark.dnt", 93, 30, {1, 2, 3, 4}},
                      TableCase{"skilltable_characterlencea.dnt", 57, 60, {1, 2, 3}},
                      TableCase{"skilltreetable.dnt", 23, 1467, {1, 2, 3}},
                      TableCase{"weapontable.dnt", 65, 2908, {2, 3, 4, 5}},
                      TableCase{"playerleveltable.dnt", 22, 7400, {3, 4, 5}}),
    [](const auto& param) {
      std::string n = param.param.file;
      return n.substr(0, n.find('.'));
    });

TEST(DragonNestFixture, JobTableCsvHasAHeaderAndOneLinePerRow) {
  LOAD_OR_SKIP(bytes, "maze_static_ext/jobtable.dnt");
  auto table = readDnt(bytes, contextFor("jobtable.dnt"));
  ASSERT_TRUE(table);
  const std::string csv = tableCsv(*table);
  EXPECT_EQ(csv.rfind("_RowID,_", 0), 0u);
  std::size_t lines = 0;
  for (std::size_t p = 0; (p = csv.find("\r\n", p)) != std::string::npos; p += 2) ++lines;
  EXPECT_EQ(lines, 74u);
}

}  // namespace
}  // namespace marrow::formats::dragonnest
