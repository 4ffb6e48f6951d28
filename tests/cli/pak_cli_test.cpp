// marrow-cli on Dragon Nest paks (specs/dragonnest.md §2): paks holding what a packer may put in
// one (names stored as given, mixed case and hostile, deleted slots; tests/support/pak_builder.h,
// on the project's writer) are listed and extracted byte-exactly; names that would leave the
// target folder are refused and reported; a stream that inflates past its size is stopped; pack
// builds paks the other commands read back. (tests/unit/dragonnest/pak_test.cpp reads paks made
// byte by byte from the spec, independently of the writer.)
#include <zlib.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "cli_util.h"

#include "formats/dragonnest/pak.h"
#include "tests/support/bytes.h"
#include "tests/support/dragonnest_test_character.h"
#include "tests/support/encode.h"
#include "tests/support/pak_builder.h"
#include "tests/support/qt_bytes.h"
#include "tests/support/skip.h"

namespace {

using marrow::testing::PakBuilder;
using marrow::testing::putU32;
using marrow::testing::readBytes;
using marrow::testing::sample;
using marrow::testing::toBytes;
using marrow::testing::toQByteArray;
using marrow::testing::writeBytes;

QByteArray zlibOf(const QByteArray& data) {
  uLongf n = compressBound(static_cast<uLong>(data.size()));
  QByteArray out(static_cast<int>(n), '\0');
  compress2(reinterpret_cast<Bytef*>(out.data()), &n,
            reinterpret_cast<const Bytef*>(data.constData()), static_cast<uLong>(data.size()), 1);
  out.resize(static_cast<int>(n));
  return out;
}

std::set<QString> treeOf(const QString& root) {
  std::set<QString> out;
  QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                  QDirIterator::Subdirectories);
  while (it.hasNext()) out.insert(QDir(root).relativeFilePath(it.next()));
  return out;
}

const QByteArray kSkin = sample(2000, 1), kTable = sample(777, 2), kText = "unseen text";

// Entries as another packer may store them: mixed case, nested, deleted, hostile names.
QByteArray independentPak() {
  PakBuilder p;
  p.addStored("\\Resource\\Char\\Hero.SKN", toBytes(kSkin));
  p.addStored("\\resource\\ext\\unseen.dnt", toBytes(kTable));
  p.addDeleted("\\resource\\gone.dds");
  p.addStored("..\\..\\evil.txt", "evil");
  p.addStored("C:\\evil.txt", "evil");
  p.addStored("\\resource\\notes\\readme.txt", toBytes(kText));
  return toQByteArray(p.bytes());
}

TEST(PakCli, ListsAnIndependentPaksEntries) {
  QTemporaryDir tmp;
  const QString pak = tmp.filePath("Resource00.pak");
  ASSERT_TRUE(writeBytes(pak, independentPak()));
  const CliRun r = cli({"list", pak, "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject j = r.json();
  EXPECT_EQ(j["inputs"].toArray().size(), 1);
  const QJsonArray entries = j["entries"].toArray();
  ASSERT_EQ(entries.size(), 6);
  const QJsonObject hero = entries[0].toObject();
  EXPECT_EQ(hero["path"].toString(), "\\Resource\\Char\\Hero.SKN");
  EXPECT_EQ(hero["normalized_path"].toString(), "resource/char/hero.skn");
  EXPECT_EQ(hero["size"].toInt(), kSkin.size());
  EXPECT_EQ(hero["packed_size"].toInt(), zlibOf(kSkin).size());
  EXPECT_FALSE(hero["deleted"].toBool());
  EXPECT_TRUE(entries[2].toObject()["deleted"].toBool());
  EXPECT_TRUE(j["diagnostics"].isArray());

  const CliRun text = cli({"list", pak});
  ASSERT_EQ(text.code, 0);
  EXPECT_TRUE(text.out.contains("\\resource\\gone.dds  (deleted)")) << text.out.toStdString();
}

TEST(PakCli, ExtractsByteExactlyRefusesEscapesAndWritesNothingOutside) {
  QTemporaryDir tmp;
  const QString pak = tmp.filePath("Resource00.pak");
  ASSERT_TRUE(writeBytes(pak, independentPak()));
  const QString target = tmp.filePath("a/b/out");
  QDir().mkpath(target);
  const auto before = treeOf(tmp.path());
  const CliRun r = cli({"extract", pak, "-o", target, "--quiet"});
  EXPECT_EQ(r.code, 1) << "refused entries make the run fail";
  EXPECT_TRUE(r.err.contains("refused: '..\\..\\evil.txt'")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("refused: 'C:\\evil.txt'")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("3 written")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("2 refused")) << r.err.toStdString();
  EXPECT_EQ(readBytes(target + "/Resource/Char/Hero.SKN"), kSkin);
  EXPECT_EQ(readBytes(target + "/resource/ext/unseen.dnt"), kTable);
  EXPECT_EQ(readBytes(target + "/resource/notes/readme.txt"), kText);
  std::set<QString> outside;
  for (const auto& p : treeOf(tmp.path()))
    if (!p.startsWith("a/b/out/")) outside.insert(p);
  EXPECT_EQ(outside, before);
}

// -j N: how many entries are written at once; the files and the summary do not depend on it.
TEST(PakCli, ExtractsTheSameWithAnyNumberOfThreads) {
  QTemporaryDir tmp;
  const QString pak = tmp.filePath("r.pak");
  ASSERT_TRUE(writeBytes(pak, independentPak()));
  std::set<QString> first;
  for (const char* j : {"1", "3", "-j8"}) {
    const QString out = tmp.filePath(QString("out") + j);
    const CliRun r = std::string(j).starts_with("-j") ? cli({"extract", pak, "-o", out, "--quiet", j})
                                                      : cli({"extract", pak, "-o", out, "--quiet", "-j", j});
    EXPECT_EQ(r.code, 1) << j << ": " << r.err.toStdString();  // two names are refused
    EXPECT_TRUE(r.err.contains("3 written")) << j << ": " << r.err.toStdString();
    EXPECT_TRUE(r.err.contains("2 refused")) << j << ": " << r.err.toStdString();
    EXPECT_EQ(readBytes(out + "/Resource/Char/Hero.SKN"), kSkin) << j;
    EXPECT_EQ(readBytes(out + "/resource/notes/readme.txt"), kText) << j;
    if (first.empty()) first = treeOf(out);
    EXPECT_EQ(treeOf(out), first) << j;
  }
  for (const char* bad : {"0", "65", "two"}) {
    const CliRun r = cli({"extract", pak, "-o", tmp.filePath("bad"), "-j", bad});
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_TRUE(r.err.contains("-j is a number of threads")) << r.err.toStdString();
  }
}

TEST(PakCli, ExtractsTheSelectedFoldersAndPaths) {
  QTemporaryDir tmp;
  const QString pak = tmp.filePath("r.pak");
  ASSERT_TRUE(writeBytes(pak, independentPak()));
  const CliRun r = cli({"extract", pak, "-o", tmp.filePath("out"), "--quiet", "\\resource\\notes",
                        "RESOURCE/EXT/UNSEEN.DNT"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_EQ(treeOf(tmp.filePath("out")),
            (std::set<QString>{"resource", "resource/ext", "resource/ext/unseen.dnt",
                               "resource/notes", "resource/notes/readme.txt"}));
  const CliRun missing = cli({"extract", pak, "-o", tmp.filePath("out2"), "nothing/here"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_TRUE(missing.err.contains("no entry or folder 'nothing/here'"));
}

TEST(PakCli, AStreamInflatingPastItsSizeIsStoppedAndReported) {
  PakBuilder p;
  p.addStored("\\bomb.bin", std::vector<std::byte>(200000, std::byte{'x'}), 100);
  p.addStored("\\fine.txt", toBytes(kText));
  QTemporaryDir tmp;
  const QString pak = tmp.filePath("bomb.pak");
  ASSERT_TRUE(writeBytes(pak, p.bytes()));
  const CliRun r = cli({"extract", pak, "-o", tmp.filePath("out"), "--quiet"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("inflates past its declared size of 100")) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(tmp.filePath("out/bomb.bin")));
  EXPECT_EQ(readBytes(tmp.filePath("out/fine.txt")), kText);
}

TEST(PakCli, ADamagedPakIsAnErrorNamingTheField) {
  QTemporaryDir tmp;
  QByteArray bytes = independentPak();
  putU32(bytes, 260, 0xFFFFFFF0u);  // the entry count
  const QString pak = tmp.filePath("bad.pak");
  ASSERT_TRUE(writeBytes(pak, bytes));
  const CliRun r = cli({"list", pak, "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("entry count")) << r.err.toStdString();
}

// A million entries, all sharing one stream (overlapping entries are legal bytes: a packer that
// deduplicates makes them), plus one whose stream lies past the end of the file. The index opens,
// the listing is whole, a folder of it extracts, and the entry outside the file is reported.
TEST(PakCli, AMillionEntryIndexWithOverlappingAndOutOfFileEntries) {
  constexpr int kEntries = 1000000;
  const QByteArray stream = zlibOf(kText);
  QByteArray bytes(1024, '\0');
  std::memcpy(bytes.data(), "EyedentityGames Packing File 0.1", 32);
  bytes += stream;
  const quint32 tableOffset = static_cast<quint32>(bytes.size());
  putU32(bytes, 256, 11);
  putU32(bytes, 260, kEntries + 1);
  putU32(bytes, 264, tableOffset);
  bytes.reserve(bytes.size() + (kEntries + 1) * 316);
  QByteArray row(316, '\0');
  auto addRow = [&](const QByteArray& name, quint32 offset) {
    row.fill('\0');
    std::memcpy(row.data(), name.constData(), static_cast<std::size_t>(name.size()));
    putU32(row, 256, static_cast<quint32>(stream.size()));
    putU32(row, 260, static_cast<quint32>(kText.size()));
    putU32(row, 264, static_cast<quint32>(stream.size()));
    putU32(row, 268, offset);
    bytes += row;
  };
  for (int i = 0; i < kEntries; ++i)
    addRow("\\d" + QByteArray::number(i / 1000) + "\\" + QByteArray::number(i) + ".txt", 1024);
  addRow("\\outside.txt", 0x7FFFFF00u);
  QTemporaryDir tmp;
  const QString pak = tmp.filePath("million.pak");
  ASSERT_TRUE(writeBytes(pak, bytes));
  bytes.clear();

  const CliRun listed = cli({"list", pak});
  ASSERT_EQ(listed.code, 0) << listed.err.left(2000).toStdString();
  EXPECT_EQ(listed.out.count('\n'), kEntries + 2);  // a heading, then every entry, a line each
  const CliRun some = cli({"extract", pak, "-o", tmp.filePath("out"), "d7", "--quiet"});
  ASSERT_EQ(some.code, 0) << some.err.left(2000).toStdString();
  EXPECT_EQ(QDir(tmp.filePath("out/d7")).entryList(QDir::Files).size(), 1000);
  EXPECT_EQ(readBytes(tmp.filePath("out/d7/7123.txt")), kText);
  const CliRun outside = cli({"extract", pak, "-o", tmp.filePath("out2"), "outside.txt", "--quiet"});
  EXPECT_EQ(outside.code, 1);
  EXPECT_TRUE(outside.err.contains("outside.txt")) << outside.err.toStdString();
  EXPECT_FALSE(QFile::exists(tmp.filePath("out2/outside.txt")));
}

TEST(PakCli, PacksAFolderThatListsAndExtractsBack) {
  QTemporaryDir tmp;
  ASSERT_TRUE(writeBytes(tmp.filePath("in/Char/hero.skn"), kSkin));
  ASSERT_TRUE(writeBytes(tmp.filePath("in/ext/table.dnt"), kTable));
  ASSERT_TRUE(writeBytes(tmp.filePath("in/empty.txt"), QByteArray()));
  const QString pak = tmp.filePath("00Mod.pak");
  const CliRun packed = cli({"pack", tmp.filePath("in"), "-o", pak});
  ASSERT_EQ(packed.code, 0) << packed.err.toStdString();
  const QByteArray bytes = readBytes(pak);
  EXPECT_TRUE(bytes.startsWith("EyedentityGames Packing File 0.1"));

  const CliRun list = cli({"list", pak, "--json"});
  ASSERT_EQ(list.code, 0) << list.err.toStdString();
  std::set<QString> paths;
  for (const auto& e : list.json()["entries"].toArray())
    paths.insert(e.toObject()["path"].toString());
  EXPECT_EQ(paths, (std::set<QString>{"\\char\\hero.skn", "\\empty.txt", "\\ext\\table.dnt"}));

  const CliRun out = cli({"extract", pak, "-o", tmp.filePath("out"), "--quiet"});
  ASSERT_EQ(out.code, 0) << out.err.toStdString();
  EXPECT_EQ(readBytes(tmp.filePath("out/char/hero.skn")), kSkin);
  EXPECT_EQ(readBytes(tmp.filePath("out/ext/table.dnt")), kTable);
  EXPECT_EQ(readBytes(tmp.filePath("out/empty.txt")), QByteArray());
}

TEST(PakCli, PacksAddedAndReplacedEntriesIntoACopyOfABase) {
  QTemporaryDir tmp;
  const QString base = tmp.filePath("Resource00.pak");
  ASSERT_TRUE(writeBytes(base, independentPak()));
  ASSERT_TRUE(writeBytes(tmp.filePath("in/resource/ext/unseen.dnt"), "replaced"));
  ASSERT_TRUE(writeBytes(tmp.filePath("in/resource/new.txt"), "added"));
  const QString copy = tmp.filePath("copy.pak");
  const CliRun r = cli({"pack", tmp.filePath("in"), "-o", copy, "--base", base});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const CliRun x = cli({"extract", copy, "-o", tmp.filePath("out"), "--quiet", "resource"});
  EXPECT_EQ(readBytes(tmp.filePath("out/resource/ext/unseen.dnt")), "replaced");
  EXPECT_EQ(readBytes(tmp.filePath("out/resource/new.txt")), "added");
  EXPECT_EQ(readBytes(tmp.filePath("out/Resource/Char/Hero.SKN")), kSkin);  // copied as stored
  EXPECT_FALSE(QFile::exists(tmp.filePath("out/resource/gone.dds")));
}

// Writing a Korean client's pak back (issue 16): extracted as UTF-8, edited, packed with the
// original as --base: a replaced entry keeps its stored bytes, a new one is spelled in the base's
// code page, and --encoding does the same without a base.
TEST(PakCli, PackingBackKeepsTheStoredBytesOfALegacyCodePage) {
  namespace dn = marrow::formats::dragonnest;
  using marrow::testing::encodeIn;
  const std::string folder = "\\Resource\\" + encodeIn("전사", "CP949") + "\\";
  QTemporaryDir tmp;
  const QString base = tmp.filePath("Resource00.pak");
  ASSERT_TRUE(writeBytes(base, PakBuilder()
                                   .addStored(folder + encodeIn("갑옷.txt", "CP949"), "old armour")
                                   .addStored(folder + encodeIn("무기.txt", "CP949"), "weapon")
                                   .addStored("\\resource\\readme.txt", "ascii")
                                   .bytes()));
  const QString out = tmp.filePath("out");
  ASSERT_EQ(cli({"extract", base, "-o", out, "--quiet"}).code, 0);
  ASSERT_TRUE(QFile::exists(out + QStringLiteral("/Resource/전사/갑옷.txt")));
  ASSERT_TRUE(writeBytes(out + QStringLiteral("/Resource/전사/갑옷.txt"), "new armour"));
  ASSERT_TRUE(writeBytes(out + QStringLiteral("/Resource/전사/새_파일.txt"), "added"));
  const QString copy = tmp.filePath("copy.pak");
  const CliRun packed = cli({"pack", out, "-o", copy, "--base", base});
  ASSERT_EQ(packed.code, 0) << packed.err.toStdString();
  const auto pak = dn::Pak::open(copy.toStdString());
  ASSERT_TRUE(pak.ok()) << pak.error().describe();
  std::map<std::string, std::string> stored;  // stored name → contents
  for (const auto& e : pak->entries()) {
    const auto bytes = pak->read(e);
    ASSERT_TRUE(bytes.ok());
    stored[std::string(pak->storedPath(e))] = std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  }
  EXPECT_EQ(stored[folder + encodeIn("갑옷.txt", "CP949")], "new armour");  // the base's own bytes, case and all
  EXPECT_EQ(stored[folder + encodeIn("무기.txt", "CP949")], "weapon");
  EXPECT_EQ(stored["\\resource\\" + encodeIn("전사", "CP949") + "\\" + encodeIn("새_파일.txt", "CP949")], "added");
  EXPECT_EQ(stored.size(), 4u) << "nothing stored twice, nothing in UTF-8";
  // Without a base, --encoding names the code page.
  const QString fresh = tmp.filePath("fresh.pak");
  ASSERT_EQ(cli({"pack", out, "-o", fresh, "--encoding", "cp949"}).code, 0);
  const auto again = dn::Pak::open(fresh.toStdString());
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->find("resource/" + encodeIn("전사", "CP949") + "/" + encodeIn("새_파일.txt", "CP949")));
}

TEST(PakCli, SeveralPaksFollowTheOverrideOrder) {
  QTemporaryDir tmp;
  const QString stock = tmp.filePath("Resource00.pak"), mod = tmp.filePath("00Resource.pak");
  ASSERT_TRUE(writeBytes(stock, independentPak()));
  ASSERT_TRUE(writeBytes(mod, PakBuilder().add("resource/ext/unseen.dnt", "modded").bytes()));
  const CliRun list = cli({"list", stock, mod, "--json"});
  ASSERT_EQ(list.code, 0) << list.err.toStdString();
  const QJsonArray archives = list.json()["archives"].toArray();
  EXPECT_EQ(archives[0].toObject()["file"].toString(), mod);  // searched first
  for (const auto& e : list.json()["entries"].toArray()) {
    const QJsonObject o = e.toObject();
    if (o["normalized_path"].toString() == "resource/ext/unseen.dnt") {
      EXPECT_EQ(o["active"].toBool(), o["archive"].toString() == mod);
    }
  }
  const CliRun x =
      cli({"extract", stock, mod, "-o", tmp.filePath("out"), "--quiet", "resource/ext"});
  ASSERT_EQ(x.code, 0) << x.err.toStdString();
  EXPECT_EQ(readBytes(tmp.filePath("out/resource/ext/unseen.dnt")), "modded");
}

// ARCHIVE.pak::path opens an entry; a skin's mesh is found by its bare name anywhere in the
// paks given (§2.4), here in another folder of another pak that overrides nothing.
TEST(PakCli, AnEntryOpensWithItsMeshFromAnyPak) {
  const QString skn = fixture("dragonnest/dnpak_py_tests/freeze.skn");
  const QString msh = fixture("dragonnest/dnpak_py_tests/freeze.msh");
  if (skn.isEmpty() || msh.isEmpty())
    MARROW_SKIP() << "Dragon Nest fixtures not found under " MARROW_FIXTURES_DIR "/dragonnest";
  QTemporaryDir tmp;
  const QString skins = tmp.filePath("Resource00.pak"), meshes = tmp.filePath("Resource01.pak");
  ASSERT_TRUE(writeBytes(skins, PakBuilder().add("resource/char/freeze.skn", toBytes(readBytes(skn))).bytes()));
  ASSERT_TRUE(writeBytes(meshes, PakBuilder().add("resource/mesh/freeze.msh", toBytes(readBytes(msh))).bytes()));
  const CliRun r = cli({"info", skins + "::resource/char/freeze.skn", meshes, "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonArray m = r.json()["meshes"].toArray();
  ASSERT_EQ(m.size(), 1);
  EXPECT_EQ(m[0].toObject()["vertices"].toInt(), 27);  // SOURCES.md: 27 verts, 32 tris
  EXPECT_EQ(m[0].toObject()["triangles"].toInt(), 32);
  // By bare name too; and a missing entry is a load error naming it.
  EXPECT_EQ(cli({"info", skins + "::freeze.skn", meshes}).code, 0);
  const CliRun missing = cli({"info", skins + "::resource/char/none.skn"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_TRUE(missing.err.contains("none.skn")) << missing.err.toStdString();
  // Without the pak that holds the mesh: the skin's materials, and a warning.
  const CliRun alone = cli({"info", skins + "::freeze.skn", "--json"});
  ASSERT_EQ(alone.code, 0) << alone.err.toStdString();
  EXPECT_EQ(alone.json()["meshes"].toArray().size(), 0);
  EXPECT_EQ(alone.json()["materials"].toArray().size(), 1);
}

// A Korean client's entry (issue 16): the path `list` prints (UTF-8) opens it in info, pose and
// render's loader; --encoding names the code page, and one iconv does not know is a usage error.
TEST(PakCli, AnEntryWithAKoreanNameOpensByThePathListPrints) {
  namespace dn = marrow::formats::dragonnest;
  using marrow::testing::encodeIn;
  const auto files = dn::testing::writeCharacter(11);
  const std::string folder = "\\resource\\" + encodeIn("전사", "CP949") + "\\";
  QTemporaryDir tmp;
  const QString pak = tmp.filePath("Resource00.pak");
  ASSERT_TRUE(writeBytes(pak, PakBuilder()
                                  .addStored(folder + encodeIn("전사_갑옷.skn", "CP949"), files.skn)
                                  .addStored(folder + "character.msh", files.msh)
                                  .addStored(folder + encodeIn("전사_갑옷.ani", "CP949"), files.ani)
                                  .bytes()));
  const CliRun list = cli({"list", pak, "--json"});
  ASSERT_EQ(list.code, 0) << list.err.toStdString();
  QStringList paths;
  for (const auto& e : list.json()["entries"].toArray()) paths << e.toObject()["normalized_path"].toString();
  EXPECT_TRUE(paths.contains(QStringLiteral("resource/전사/전사_갑옷.skn"))) << paths.join(QStringLiteral(", ")).toStdString();
  const QString entry = pak + QStringLiteral("::resource/전사/전사_갑옷.skn");
  const CliRun info = cli({"info", entry, "--json"});
  ASSERT_EQ(info.code, 0) << info.err.toStdString();
  EXPECT_EQ(info.json()["skeleton"].toObject()["bones"].toArray().size(), 3);
  EXPECT_EQ(info.json()["clips"].toArray().size(), 2) << "the animation beside it, found by its stored name";
  EXPECT_EQ(cli({"pose", entry, "--encoding", "cp949", "--json"}).code, 0);
  const CliRun wrong = cli({"info", entry, "--encoding", "NO-SUCH-PAGE"});
  EXPECT_NE(wrong.code, 0);
  EXPECT_TRUE(wrong.err.contains("NO-SUCH-PAGE")) << wrong.err.toStdString();
}

}  // namespace
