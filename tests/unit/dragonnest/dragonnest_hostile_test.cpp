// Dragon Nest readers on damaged input: every prefix, flipped bytes and huge counts give an
// error naming field and offset, or a valid model; never a crash, a hang or a huge allocation.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/support/dragonnest_test_character.h"
#include "tests/support/skip.h"
#include "formats/io/byte_writer.h"
#include "formats/model/validate.h"
#include "formats/registry.h"

namespace marrow::formats::dragonnest {
namespace {

std::vector<std::byte> fixture(const std::string& relative) {
  std::ifstream in(std::string(MARROW_FIXTURES_DIR) + "/dragonnest/" + relative, std::ios::binary);
  if (!in) return {};
  std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(c.size());
  std::memcpy(out.data(), c.data(), c.size());
  return out;
}

// Reads through the registry (detection, conversion, validation) as the application does.
void expectErrorOrValid(std::span<const std::byte> bytes, const std::string& name,
                        const Resolver& resolve = {}) {
  ReadContext ctx;
  ctx.name = name;
  ctx.resolve = resolve;
  auto r = readScene(bytes, ctx);
  if (r) {
    EXPECT_TRUE(validate(*r).empty()) << name;
  } else {
    EXPECT_FALSE(r.error().message.empty()) << name;
  }
}

struct Sample {
  std::string name;
  std::vector<std::byte> bytes;
};

std::vector<Sample> samples() {
  std::vector<Sample> out;
  for (int v : {10, 11, 13}) {
    const auto f = testing::writeCharacter(v);
    out.push_back({"c" + std::to_string(v) + ".msh", f.msh});
    if (v < 13) {
      out.push_back({"c" + std::to_string(v) + ".skn", f.skn});
      out.push_back({"c" + std::to_string(v) + ".ani", f.ani});
    }
  }
  for (const char* f : {"dnpak_py_tests/freeze.msh", "dnpak_py_tests/freeze.skn"})
    if (auto b = fixture(f); !b.empty()) out.push_back({std::filesystem::path(f).filename(), b});
  Table t;
  t.columns = {{"_Name", 1}, {"_On", 2}, {"_Count", 3}, {"_Rate", 4}};
  t.rowIds = {1, 2, 3};
  t.rows = {{std::string("a"), 1, 2, 0.5f},
            {std::string("bb"), 0, 3, 1.5f},
            {std::string(""), 1, 4, 2.5f}};
  out.push_back({"t.dnt", writeDnt(t).value()});
  return out;
}

Resolver meshBeside() {
  return testing::memoryResolver({{"Character.msh", testing::writeCharacter(11).msh},
                                  {"freeze.msh", fixture("dnpak_py_tests/freeze.msh")}});
}

TEST(DragonNestHostile, EveryPrefixIsAnErrorOrAValidModel) {
  const Resolver resolve = meshBeside();
  for (const auto& s : samples())
    for (std::size_t n = 0; n < s.bytes.size(); ++n)
      expectErrorOrValid(std::span(s.bytes).first(n), s.name, resolve);
}

TEST(DragonNestHostile, EveryPrefixOfAFixtureTableIsAnErrorOrAValidModel) {
  const auto bytes = fixture("maze_static_ext/jobtable.dnt");
  if (bytes.empty()) MARROW_SKIP() << "jobtable.dnt fixture not found";
  for (std::size_t n = 0; n < bytes.size(); n += 7)
    expectErrorOrValid(std::span(bytes).first(n), "jobtable.dnt");
}

TEST(DragonNestHostile, EveryFlippedByteIsAnErrorOrAValidModel) {
  const Resolver resolve = meshBeside();
  for (const auto& s : samples()) {
    auto bytes = s.bytes;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      bytes[i] ^= std::byte{0x81};  // the top bit makes counts huge or negative
      expectErrorOrValid(bytes, s.name, resolve);
      bytes[i] ^= std::byte{0x81};
    }
  }
}

void setI32(std::vector<std::byte>& b, std::size_t at, std::int32_t v) {
  std::memcpy(b.data() + at, &v, 4);
}

// An error that names `field` at `offset`.
void expectError(const std::vector<std::byte>& bytes, const std::string& name,
                 const std::string& field, std::uint64_t offset) {
  ReadContext ctx;
  ctx.name = name;
  auto r = readScene(bytes, ctx);
  ASSERT_FALSE(r) << name;
  EXPECT_NE(r.error().field.find(field), std::string::npos) << r.error().describe();
  EXPECT_EQ(r.error().offset, offset) << r.error().describe();
  EXPECT_EQ(r.error().file, name);
}

TEST(DragonNestHostile, HugeMshCountsNameTheirField) {
  const auto msh = testing::writeCharacter(13).msh;
  for (auto [at, field] : {std::pair{260, "submesh count"},
                           {296, "bone count"},
                           {300, "collision count"},
                           {304, "dummy count"}}) {
    for (std::int32_t v : {0x7FFFFFFF, -1}) {
      auto b = msh;
      setI32(b, static_cast<std::size_t>(at), v);
      expectError(b, "c.msh", field, static_cast<std::uint64_t>(at));
    }
  }
  auto b = msh;
  setI32(b, 1024 + 3 * 320 + 516, 0x7FFFFFFF);  // the first submesh's index count
  expectError(b, "c.msh", "index count", 1024 + 3 * 320 + 516);
}

TEST(DragonNestHostile, HugeAniAndSknCountsNameTheirField) {
  const auto f = testing::writeCharacter(10);
  auto ani = f.ani;
  setI32(ani, 260, 0x7FFFFFFF);
  expectError(ani, "c.ani", "bone count", 260);
  ani = f.ani;
  setI32(ani, 264, 1 << 20);
  expectError(ani, "c.ani", "animation count", 264);
  auto skn = f.skn;
  setI32(skn, 516, 0x7FFFFFFF);
  expectError(skn, "c.skn", "material count", 516);
  auto v11 = testing::writeCharacter(11).skn;
  setI32(v11, 520, 0x7FFFFFFF);
  expectError(v11, "c.skn", "body size", 520);
}

TEST(DragonNestHostile, HugeTableCountsNameTheirField) {
  Table t;
  t.columns = {{"_A", 3}};
  t.rows = {{1}};
  auto b = writeDnt(t).value();
  setI32(b, 6, 0x7FFFFFFF);
  expectError(b, "t.dnt", "row count", 6);
}

TEST(DragonNestHostile, TrailingBytesAreAnError) {
  auto msh = testing::writeCharacter(12).msh;
  msh.push_back(std::byte{0});
  expectError(msh, "c.msh", "end of file", msh.size() - 1);
}

TEST(DragonNestHostile, AListNamingAListIsAnErrorNotARecursion) {
  const std::string list = "self.ani\n";
  const auto bytes = std::as_bytes(std::span(list.data(), list.size()));
  ReadContext ctx;
  ctx.name = "self.ani";
  ctx.resolve = testing::memoryResolver({{"self.ani", {bytes.begin(), bytes.end()}}});
  auto r = readScene(bytes, ctx);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "magic");
}

// §7: a legacy table made by hand, byte by byte.
TEST(ExtTable, ReadsColumnsRowsAndTrailer) {
  ByteWriter w;
  w.u32(43);
  w.u32(2);
  w.u32(2);
  w.fixedString("_Name", 64);
  w.u32(1);
  w.fixedString("_Level", 64);
  w.u32(3);
  for (auto [id, name, level] : {std::tuple{5, "ab", 7}, {2, "", -1}}) {
    w.u32(static_cast<std::uint32_t>(id));
    w.u16(static_cast<std::uint16_t>(std::strlen(name)));
    w.raw(std::as_bytes(std::span(name, std::strlen(name))));
    w.i32(level);
  }
  w.raw(std::as_bytes(std::span("\x05THEND", 6)));
  ReadContext ctx;
  ctx.name = "enchant.ext";
  auto s = readScene(w.bytes(), ctx);
  ASSERT_TRUE(s) << s.error().describe();
  ASSERT_EQ(s->tables.size(), 1u);
  const Table& t = s->tables[0];
  EXPECT_EQ(t.name, "enchant");
  ASSERT_EQ(t.columns.size(), 2u);
  EXPECT_EQ(t.columns[1].name, "_Level");
  EXPECT_EQ(t.rowIds, (std::vector<std::int32_t>{5, 2}));
  EXPECT_EQ(std::get<std::string>(t.rows[0][0]), "ab");
  EXPECT_EQ(std::get<std::int32_t>(t.rows[1][1]), -1);
}

}  // namespace
}  // namespace marrow::formats::dragonnest
