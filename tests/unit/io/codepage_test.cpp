// Names in legacy code pages (formats/io/codepage.h): names of Korean, simplified and traditional
// Chinese and Japanese clients, encoded here by the C library's iconv from UTF-8 (the reference),
// are told apart and decoded; a pak of CP949 and of GBK names lists, finds and extracts them as
// UTF-8 and keeps the stored bytes for lookups.
#include "formats/io/codepage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "formats/dragonnest/extract.h"
#include "formats/dragonnest/pak.h"
#include "formats/dragonnest/pak_archive.h"
#include "formats/dragonnest/pak_writer.h"
#include "tests/support/encode.h"
#include "tests/support/pak_builder.h"
#include "tests/support/temp_dir.h"
#include "formats/io/vfs.h"

namespace marrow::formats {
namespace {

namespace dn = dragonnest;
namespace fs = std::filesystem;

std::string encode(const std::string& utf8, const char* codepage) { return testing::encodeIn(utf8, codepage); }

struct Language {
  const char* codepage;
  std::vector<std::string> names;  // UTF-8, as a client of that language names its files
};

const Language kLanguages[] = {
    {"CP949", {"전사", "궁수_활.dds", "마법사/지팡이.msh", "성직자_기본_갑옷.skn", "warrior_전투.ani"}},
    {"GB18030", {"战士", "弓箭手_弓.dds", "魔法师/法杖.msh", "牧师_基本_盔甲.skn", "warrior_战斗.ani"}},
    {"BIG5", {"戰士", "弓箭手_弓.dds", "魔法師/法杖.msh", "牧師_基本_盔甲.skn", "warrior_戰鬥.ani"}},
    {"CP932", {"せんし", "アーチャー_ゆみ.dds", "まほうつかい/つえ.msh", "戦士_基本.skn", "warrior_たたかい.ani"}},
};

TEST(Codepage, EachClientsNamesAreToldApartAndDecoded) {
  for (const Language& l : kLanguages) {
    std::vector<std::string> stored;
    for (const auto& n : l.names) stored.push_back(encode(n, l.codepage));
    const std::vector<std::string_view> views(stored.begin(), stored.end());
    EXPECT_EQ(detectCodepage(views), l.codepage);
    for (std::size_t i = 0; i < stored.size(); ++i) {
      EXPECT_EQ(nameAsUtf8(stored[i], l.codepage), l.names[i]);
    }
  }
}

TEST(Codepage, Utf8StaysAndWhatDecodesNowhereIsEscaped) {
  const std::vector<std::string_view> ascii = {"resource/char/warrior.skn", "a.dds"};
  EXPECT_EQ(detectCodepage(ascii), "UTF-8");
  const std::vector<std::string_view> utf8 = {"전사.skn", "戰士.msh"};
  EXPECT_EQ(detectCodepage(utf8), "UTF-8");
  EXPECT_EQ(nameAsUtf8("전사.skn", "CP949"), "전사.skn");
  // 0xFF is a lead byte in none of them, and no UTF-8.
  const std::string junk = "bad\xFF\xFF\xFF.dds";
  const std::vector<std::string_view> one = {junk};
  EXPECT_EQ(detectCodepage(one), "");
  EXPECT_EQ(nameAsUtf8(junk, ""), "bad%FF%FF%FF.dds");
  EXPECT_EQ(nameAsUtf8(junk, "CP949"), "bad%FF%FF%FF.dds");
  EXPECT_FALSE(decodeCodepage("a", "NO-SUCH-CODEPAGE"));
  // Encoding back is the stored form; what the code page cannot hold, or text that is not
  // UTF-8, has none.
  for (const Language& l : kLanguages)
    for (const auto& n : l.names) EXPECT_EQ(encodeCodepage(n, l.codepage), encode(n, l.codepage));
  EXPECT_FALSE(encodeCodepage("전사", "CP932"));
  EXPECT_FALSE(encodeCodepage(junk, "CP949"));
  EXPECT_EQ(encodeCodepage("plain.dds", "UTF-8"), "plain.dds");
  // Overlong forms and surrogates are not UTF-8.
  EXPECT_FALSE(isValidUtf8("\xC0\xAF"));
  EXPECT_FALSE(isValidUtf8("\xED\xA0\x80"));
  EXPECT_FALSE(isValidUtf8("\xF5\x80\x80\x80"));
  EXPECT_TRUE(isValidUtf8("\xF0\x9F\x98\x80"));
}

// A pak of a Korean and one of a Chinese client: names shown, found and extracted as UTF-8.
TEST(Codepage, PakNamesAreShownFoundAndExtractedDecoded) {
  const fs::path tmp = fs::temp_directory_path() / "marrow_codepage_pak";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  struct Case {
    const char* codepage;
    std::string folder, file;  // UTF-8
  };
  // 上人 in Big5 is A4 57 A4 48: trail bytes in ASCII's upper case, which the lower-cased
  // (normalised) path changes; the folder's name is decoded from the stored bytes.
  for (const Case& c : {Case{"CP949", "전사", "전사_갑옷.skn"}, Case{"GB18030", "战士", "战士_盔甲.skn"},
                        Case{"BIG5", "上人", "上人_盔甲.skn"}}) {
    SCOPED_TRACE(c.codepage);
    const std::string storedFolder = encode(c.folder, c.codepage), storedFile = encode(c.file, c.codepage);
    const fs::path pakPath = tmp / (std::string(c.codepage) + ".pak");
    {
      std::ofstream out(pakPath, std::ios::binary);
      const auto bytes = testing::PakBuilder()
                             .addStored("\\resource\\" + storedFolder + "\\" + storedFile, "skin bytes")
                             .addStored("\\resource\\readme.txt", "ascii")
                             .addStored("\\resource\\" + storedFolder + "\\junk\xFF\xFE.txt", "junk")
                             .bytes();
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    auto set = dn::PakSet::open({pakPath.string()});
    ASSERT_TRUE(set.ok());
    EXPECT_EQ(set->codepage(), c.codepage);
    const auto paks = std::make_shared<const dn::PakSet>(*set);
    const dn::PakArchive archive(paks);
    // The tree shows decoded names; their paths still open the entry.
    const auto top = archive.children("resource");
    const auto folder = std::find_if(top.begin(), top.end(), [](const vfs::Node& n) { return n.container; });
    ASSERT_NE(folder, top.end());
    EXPECT_EQ(folder->name, c.folder);
    auto inside = archive.children(folder->path);
    ASSERT_EQ(inside.size(), 2u);  // the skin, and a name in no code page (which does not spoil the others)
    std::partition(inside.begin(), inside.end(), [&](const vfs::Node& n) { return n.name == c.file; });
    EXPECT_EQ(inside[0].name, c.file);
    EXPECT_EQ(inside[1].name, "junk%FF%FE.txt");
    auto bytes = archive.read(inside[0].path, {});
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(bytes->size(), 10u);
    // The path as shown (UTF-8) finds the entry, whole or by its name: what `list` prints opens.
    EXPECT_EQ(paks->find("resource/" + c.folder + "/" + c.file).entry, paks->find(inside[0].path).entry);
    EXPECT_TRUE(paks->find(c.file));
    EXPECT_TRUE(archive.find("resource/" + c.folder + "/" + c.file));
    EXPECT_FALSE(paks->find("resource/" + c.folder + "/other.skn"));
    // A name no code page explains is shown escaped, alone (the rest of its path decoded), and
    // the escaped path opens it too.
    const auto junk = std::find_if(paks->resolvedEntries().begin(), paks->resolvedEntries().end(),
                                   [](const dn::PakRef& r) { return r.pak->path(*r.entry).find("junk") != std::string_view::npos; });
    ASSERT_NE(junk, paks->resolvedEntries().end());
    const std::string shownJunk = paks->displayName(junk->pak->storedPath(*junk->entry));
    EXPECT_EQ(shownJunk, "\\resource\\" + c.folder + "\\junk%FF%FE.txt");
    EXPECT_EQ(paks->find("resource/" + c.folder + "/junk%FF%FE.txt").entry, junk->entry);
    // Searching by the decoded text finds it, by name and by path; the folder node says its name.
    const auto found = archive.search(c.file.substr(0, c.file.find('_')), 10);
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found[0].name, c.file);
    const auto byPath = archive.search(c.folder + "/" + c.file, 10);
    ASSERT_EQ(byPath.size(), 1u);
    const auto folderNode = archive.node(folder->path);
    ASSERT_TRUE(folderNode);
    EXPECT_EQ(folderNode->name, c.folder);
    // Extraction writes UTF-8 names.
    const fs::path target = tmp / (std::string(c.codepage) + "_out");
    const auto report = dn::extractEntries(*set, dn::selectEntries(*set, {}), target);
    EXPECT_EQ(report.written, 3u);
    EXPECT_TRUE(fs::exists(target / "resource" / c.folder / c.file));
  }
  fs::remove_all(tmp);
}


// Double-byte characters whose trail byte is ASCII: a backslash (Big5 許 B3 5C, Shift-JIS ソ 83 5C
// and 表 95 5C, GBK 乗 81 5C) or a capital letter (CP949 갂 81 41, beside 갵 81 61). Such a byte
// is part of its character: no folder separator, no letter to lower-case, no match for an ASCII
// search; and Shift-JIS half-width katakana (ｱｲ B1 B2) are characters of one byte, after which
// a backslash does separate (the folder ソフトｱ ends in one).
TEST(Codepage, TrailBytesInAsciiRangeStayInTheirCharacters) {
  const testing::TempDir tmp("marrow-trail");
  struct Case {
    const char* codepage;
    std::string folder, file, other;  // UTF-8; `other` sits beside `file`
  };
  for (const Case& c : {Case{"BIG5", "許可", "許功蓋.skn", "上人.ani"},
                        Case{"CP932", "ソフトｱ", "表示.skn", "ｱｲ.ani"},
                        Case{"GB18030", "乗客战士", "战士乗.skn", "盔甲.ani"},
                        Case{"CP949", "전사갂", "갂옷.skn", "갵옷.skn"}}) {
    SCOPED_TRACE(c.codepage);
    const std::string folder = encode(c.folder, c.codepage), file = encode(c.file, c.codepage),
                      other = encode(c.other, c.codepage);
    // The bytes under test are really there.
    const bool trailBackslash = (folder + file).find('\\') != std::string::npos;
    EXPECT_TRUE(trailBackslash || std::string(c.codepage) == "CP949");
    const std::string pakPath =
        tmp.write(std::string(c.codepage) + ".pak",
                  testing::PakBuilder()
                      .addStored("\\Resource\\" + folder + "\\" + file, "the skin")
                      .addStored("\\Resource\\" + folder + "\\" + other, "the other one")
                      .addStored("\\Resource\\readme.txt", "ascii")
                      .bytes());
    auto set = dn::PakSet::open({pakPath});
    ASSERT_TRUE(set.ok());
    EXPECT_EQ(set->codepage(), c.codepage);
    const auto paks = std::make_shared<const dn::PakSet>(*set);
    const dn::PakArchive archive(paks);
    // One folder of the decoded name, holding both files by their decoded names; no duplicates.
    auto top = archive.children("resource");
    top.erase(std::remove_if(top.begin(), top.end(), [&](const vfs::Node& n) { return n.name != c.folder; }), top.end());
    ASSERT_EQ(top.size(), 1u);
    EXPECT_TRUE(top[0].container);
    const auto inside = archive.children(top[0].path);
    ASSERT_EQ(inside.size(), 2u);
    std::vector<std::string> names{inside[0].name, inside[1].name};
    std::sort(names.begin(), names.end());
    std::vector<std::string> expected{c.file, c.other};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(names, expected);
    for (const auto& d : paks->pak(0).diagnostics().items) EXPECT_EQ(d.message.find("also entry"), std::string::npos) << d.message;
    // Each opens its own bytes, by its tree path, by the path as shown and by its bare name.
    for (const auto& entry : {std::pair{c.file, std::string("the skin")}, std::pair{c.other, std::string("the other one")}}) {
      const std::string& name = entry.first;  // (clang 14 cannot capture a structured binding)
      const std::string& text = entry.second;
      const auto node = std::find_if(inside.begin(), inside.end(), [&](const vfs::Node& n) { return n.name == name; });
      ASSERT_NE(node, inside.end());
      const auto bytes = archive.read(node->path, {});
      ASSERT_TRUE(bytes.ok());
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size()), text);
      const dn::PakRef byShown = paks->find("resource/" + c.folder + "/" + name);
      ASSERT_TRUE(byShown);
      EXPECT_EQ(byShown.entry, paks->findPath(node->path).entry);
      EXPECT_EQ(paks->find(name).entry, byShown.entry);
      EXPECT_EQ(paks->shownPath(*byShown.entry, *byShown.pak), vfs::lowerAscii("resource/" + c.folder + "/" + name));
      EXPECT_EQ(paks->displayName(byShown.pak->storedPath(*byShown.entry)), "\\Resource\\" + c.folder + "\\" + name);
    }
    // The decoded folder as a path lists and extracts (what `list` prints is what `extract` takes).
    EXPECT_EQ(archive.files("resource/" + c.folder).size(), 2u);
    std::vector<std::string> unmatched;
    const std::vector<std::string> selectors{"resource/" + c.folder};
    EXPECT_EQ(dn::selectEntries(*set, selectors, &unmatched).size(), 2u);
    EXPECT_TRUE(unmatched.empty());
    // An ASCII search does not match inside a character (Big5 許 ends in '\\', CP949 갂 in 'A').
    EXPECT_TRUE(archive.search("\\", 10).empty());
    std::size_t withA = 0;
    for (const std::string& n : {c.file, c.other, std::string("readme.txt")}) withA += vfs::lowerAscii(n).find('a') != std::string::npos;
    EXPECT_EQ(archive.search("a", 10).size(), withA);
    // Extraction writes each file under its decoded folder.
    const fs::path target = tmp.path / (std::string(c.codepage) + "_out");
    const auto report = dn::extractEntries(*set, dn::selectEntries(*set, {}), target);
    EXPECT_EQ(report.written, 3u);
    EXPECT_TRUE(fs::exists(target / "Resource" / c.folder / c.file));
    EXPECT_TRUE(fs::exists(target / "Resource" / c.folder / c.other));
  }
}

// Packing a copy of a pak in its code page replaces an entry whose name has a trail byte 0x5C
// (Big5 許) under its stored name, instead of adding a second one.
TEST(Codepage, APakCopyReplacesEntriesWhoseNamesHaveTrailBackslashes) {
  const std::string stored = "\\resource\\" + encode("許可", "BIG5") + "\\" + encode("上人.skn", "BIG5");
  const auto baseBytes = testing::PakBuilder().addStored(stored, "old").addStored("\\resource\\x.txt", "x").bytes();
  auto base = dn::Pak::parse(baseBytes, "base.pak");
  ASSERT_TRUE(base.ok());
  base->setCodepage("BIG5");
  const std::vector<dn::PakFile> files{{"resource/許可/上人.skn", testing::bytes("new"), stored}};
  auto copy = dn::writePakCopy(*base, files);
  ASSERT_TRUE(copy.ok());
  auto pak = dn::Pak::parse(*copy, "copy.pak");
  ASSERT_TRUE(pak.ok());
  pak->setCodepage("BIG5");
  ASSERT_EQ(pak->entries().size(), 2u);
  EXPECT_EQ(pak->storedPath(pak->entries()[0]), stored);
  const dn::PakEntry* e = pak->find(stored);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(*pak->read(*e), testing::bytes("new"));
}

// The characters of each layout, as the normaliser and searches walk them.
TEST(Codepage, CharacterLengthsFollowEachLayout) {
  EXPECT_EQ(byteLayout("cp949"), ByteLayout::DoubleByte);
  EXPECT_EQ(byteLayout("GBK"), ByteLayout::DoubleByte);
  EXPECT_EQ(byteLayout("Big5"), ByteLayout::DoubleByte);
  EXPECT_EQ(byteLayout("GB18030"), ByteLayout::Gb18030);
  EXPECT_EQ(byteLayout("Shift_JIS"), ByteLayout::ShiftJis);
  EXPECT_EQ(byteLayout("UTF-8"), ByteLayout::Single);
  EXPECT_EQ(byteLayout(""), ByteLayout::Single);
  const std::string sjis = encode("ｱソ", "CP932");  // B1, 83 5C
  EXPECT_EQ(characterLength(sjis, 0, ByteLayout::ShiftJis), 1u);
  EXPECT_EQ(characterLength(sjis, 1, ByteLayout::ShiftJis), 2u);
  EXPECT_EQ(characterLength(sjis, 0, ByteLayout::DoubleByte), 2u);
  const std::string four = encode("ÿ", "GB18030");  // a four-byte sequence: 81 30 8B 37
  ASSERT_EQ(four.size(), 4u);
  EXPECT_EQ(characterLength(four, 0, ByteLayout::Gb18030), 4u);
  EXPECT_EQ(characterLength(four, 0, ByteLayout::DoubleByte), 2u);
  EXPECT_EQ(characterLength("\x81", 0, ByteLayout::DoubleByte), 1u);  // a lead byte at the end
  EXPECT_EQ(findCharacters(encode("許A", "BIG5") + "\\a", "\\", ByteLayout::DoubleByte), 3u);
  EXPECT_EQ(findCharacters(encode("갂", "CP949") + "xA", "A", ByteLayout::DoubleByte), 3u);
  EXPECT_EQ(findCharacters(encode("갂", "CP949"), "A", ByteLayout::DoubleByte), std::string::npos);
  EXPECT_EQ(dn::normalizePakPath("\\X\\" + encode("ソ", "CP932") + "\\Y", "CP932"), "x/" + encode("ソ", "CP932") + "/y");
  EXPECT_EQ(dn::normalizePakPath("\\X\\" + encode("갂", "CP949"), "CP949"), "x/" + encode("갂", "CP949"));
}

}  // namespace
}  // namespace marrow::formats
