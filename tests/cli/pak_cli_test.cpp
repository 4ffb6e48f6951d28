// marrow-cli on Dragon Nest paks (specs/dragonnest.md §2): paks made by an independent packer
// (written here from the spec, byte by byte with zlib's compress) are listed and extracted
// byte-exactly; names that would leave the target folder are refused and reported; a stream
// that inflates past its size is stopped; pack builds paks the other commands read back.
#include <zlib.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <cstring>
#include <set>
#include <string>

#include "cli_util.h"

namespace {

QByteArray zlibOf(const QByteArray& data) {
  uLongf n = compressBound(static_cast<uLong>(data.size()));
  QByteArray out(static_cast<int>(n), '\0');
  compress2(reinterpret_cast<Bytef*>(out.data()), &n,
            reinterpret_cast<const Bytef*>(data.constData()), static_cast<uLong>(data.size()), 1);
  out.resize(static_cast<int>(n));
  return out;
}

// The layout of §2.1/§2.2 written field by field: a 1024-byte header, the streams, the table.
struct Packer {
  struct Row {
    QByteArray name;
    quint32 packed, size, offset;
  };
  QByteArray data;
  std::vector<Row> rows;

  Row& add(const char* name, const QByteArray& content) {
    const QByteArray stream = zlibOf(content);
    rows.push_back({name, static_cast<quint32>(stream.size()), static_cast<quint32>(content.size()),
                    static_cast<quint32>(1024 + data.size())});
    data += stream;
    return rows.back();
  }
  void addDeleted(const char* name) { rows.push_back({name, 0, 0, 0}); }
  static void u32(QByteArray& b, int at, quint32 v) {
    for (int k = 0; k < 4; ++k) b[at + k] = static_cast<char>((v >> (8 * k)) & 0xFF);
  }
  QByteArray bytes() const {
    QByteArray out(1024, '\0');
    std::memcpy(out.data(), "EyedentityGames Packing File 0.1", 32);
    out += data;
    u32(out, 256, 11);
    u32(out, 260, static_cast<quint32>(rows.size()));
    u32(out, 264, static_cast<quint32>(out.size()));
    for (const Row& r : rows) {
      QByteArray row(316, '\0');
      std::memcpy(row.data(), r.name.constData(), static_cast<std::size_t>(r.name.size()));
      u32(row, 256, r.packed);
      u32(row, 260, r.size);
      u32(row, 264, r.packed);
      u32(row, 268, r.offset);
      out += row;
    }
    return out;
  }
};

QByteArray sample(int n, int seed) {
  QByteArray out(n, '\0');
  for (int i = 0; i < n; ++i)
    out[i] = static_cast<char>("pqrstuvw"[(i * 5 + seed) % 8] + (i % 37 == 0));
  return out;
}

bool writeBytes(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).path());
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing)");
}

std::set<QString> treeOf(const QString& root) {
  std::set<QString> out;
  QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                  QDirIterator::Subdirectories);
  while (it.hasNext()) out.insert(QDir(root).relativeFilePath(it.next()));
  return out;
}

const QByteArray kSkin = sample(2000, 1), kTable = sample(777, 2), kText = "unseen text";

// Entries no one here has written: mixed case, nested, deleted, hostile names.
QByteArray independentPak() {
  Packer p;
  p.add("\\Resource\\Char\\Hero.SKN", kSkin);
  p.add("\\resource\\ext\\unseen.dnt", kTable);
  p.addDeleted("\\resource\\gone.dds");
  p.add("..\\..\\evil.txt", "evil");
  p.add("C:\\evil.txt", "evil");
  p.add("\\resource\\notes\\readme.txt", kText);
  return p.bytes();
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
  Packer p;
  p.add("\\bomb.bin", QByteArray(200000, 'x')).size = 100;
  p.add("\\fine.txt", kText);
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
  Packer::u32(bytes, 260, 0xFFFFFFF0u);
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
  Packer::u32(bytes, 256, 11);
  Packer::u32(bytes, 260, kEntries + 1);
  Packer::u32(bytes, 264, tableOffset);
  bytes.reserve(bytes.size() + (kEntries + 1) * 316);
  QByteArray row(316, '\0');
  auto addRow = [&](const QByteArray& name, quint32 offset) {
    row.fill('\0');
    std::memcpy(row.data(), name.constData(), static_cast<std::size_t>(name.size()));
    Packer::u32(row, 256, static_cast<quint32>(stream.size()));
    Packer::u32(row, 260, static_cast<quint32>(kText.size()));
    Packer::u32(row, 264, static_cast<quint32>(stream.size()));
    Packer::u32(row, 268, offset);
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
  EXPECT_GE(listed.out.count('\n'), kEntries);
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
  ASSERT_TRUE(writeBytes(tmp.filePath("in/empty.txt"), {}));
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

TEST(PakCli, SeveralPaksFollowTheOverrideOrder) {
  QTemporaryDir tmp;
  const QString stock = tmp.filePath("Resource00.pak"), mod = tmp.filePath("00Resource.pak");
  ASSERT_TRUE(writeBytes(stock, independentPak()));
  Packer m;
  m.add("\\resource\\ext\\unseen.dnt", "modded");
  ASSERT_TRUE(writeBytes(mod, m.bytes()));
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
    GTEST_SKIP() << "Dragon Nest fixtures not found under " MARROW_FIXTURES_DIR "/dragonnest";
  QTemporaryDir tmp;
  const QString skins = tmp.filePath("Resource00.pak"), meshes = tmp.filePath("Resource01.pak");
  Packer a;
  a.add("\\resource\\char\\freeze.skn", readBytes(skn));
  ASSERT_TRUE(writeBytes(skins, a.bytes()));
  Packer b;
  b.add("\\resource\\mesh\\freeze.msh", readBytes(msh));
  ASSERT_TRUE(writeBytes(meshes, b.bytes()));
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

}  // namespace
