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
#include "tests/support/encode.h"
#include "tests/support/pak_builder.h"

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

}  // namespace
}  // namespace marrow::formats
