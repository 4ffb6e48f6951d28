// marrow-cli formats: the format table as scripts read it (the JSON contract), and everything
// that comes from it agrees with it: what it says is written can be written, the README's table
// is the table, --help names every format, the desktop entry claims exactly its MIME types.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSet>
#include <QTemporaryDir>

#include "cli_util.h"

namespace {

QString readText(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QJsonArray table() { return cli({"formats", "--json"}).json().value("formats").toArray(); }

}  // namespace

TEST(FormatsCli, JsonHasTheContractedShape) {
  const CliRun r = cli({"formats", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonArray formats = r.json().value("formats").toArray();
  QStringList ids;
  for (const auto& v : formats) {
    const QJsonObject f = v.toObject();
    ASSERT_TRUE(f.value("name").isString());
    ASSERT_TRUE(f.value("mime").isString());
    ASSERT_TRUE(f.value("read").isBool());
    ASSERT_TRUE(f.value("write").isBool());
    const QJsonArray exts = f.value("extensions").toArray();
    const QJsonArray names = f.value("file_names").toArray();
    // Known by extension, or by whole file names (a Warband module's module.ini, actions.txt).
    ASSERT_FALSE(exts.isEmpty() && names.isEmpty()) << f.value("name").toString().toStdString();
    for (const auto& e : exts) EXPECT_TRUE(e.toString().startsWith('.')) << e.toString().toStdString();
    for (const auto& n : names) EXPECT_FALSE(n.toString().startsWith('.')) << n.toString().toStdString();
    // Its own types claimed; plain text files (module.ini) claim none.
    if (!exts.isEmpty()) EXPECT_TRUE(f.value("mime_types").toArray().contains(f.value("mime")));
    else EXPECT_TRUE(f.value("mime_types").toArray().isEmpty());
    EXPECT_EQ(f.value("write").toBool(), !f.value("outputs").toArray().isEmpty());
    // Animation-only extensions are among the format's extensions.
    for (const auto& e : f.value("animation_extensions").toArray()) EXPECT_TRUE(exts.contains(e)) << e.toString().toStdString();
    if (f.value("id") == QStringLiteral("dragonnest")) {
      EXPECT_EQ(f.value("animation_extensions").toArray(), QJsonArray({QStringLiteral(".ani")}));
    }
    ids << f.value("id").toString();
  }
  EXPECT_EQ(ids, (QStringList{"omf", "cal3d", "brf", "warband", "dragonnest", "gltf", "assimp"}));
}

// What the table says is written is written: each output of a format from the demo (an OMF
// model: .brf records are made from it), read back by `info`; a cal3d morph animation, which
// needs morph target weights the demo does not have, from an IMVU morph animation.
TEST(FormatsCli, EveryOutputTheTableListsIsWritten) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString talk = dir.filePath("talk.xpf");
  {
    QFile f(talk);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"(<HEADER MAGIC="XPF" VERSION="919"/><ANIMATION DURATION="2" NUMTRACKS="1">
<TRACK MORPHNAME="smile" NUMKEYFRAMES="2"><KEYFRAME TIME="0"><WEIGHT>0</WEIGHT></KEYFRAME>
<KEYFRAME TIME="1"><WEIGHT>1</WEIGHT></KEYFRAME></TRACK></ANIMATION>)");
  }
  int written = 0;
  for (const auto& v : table())
    for (const auto& o : v.toObject().value("outputs").toArray()) {
      const QString ext = o.toObject().value("extension").toString();
      const QString out = dir.filePath("demo" + ext);
      const bool morph = ext == QStringLiteral(".cpf") || ext == QStringLiteral(".xpf");
      const CliRun r = cli({"convert", morph ? talk : QStringLiteral(":demo"), "-o", out});
      EXPECT_EQ(r.code, 0) << ext.toStdString() << ": " << r.err.toStdString();
      EXPECT_TRUE(QFile::exists(out)) << out.toStdString();
      if (ext == ".brf") {
        EXPECT_EQ(cli({"info", out}).code, 0);
      }
      ++written;
    }
  EXPECT_EQ(written, 18);  // .omf, cal3d's eleven, .brf, Dragon Nest's three, .glb and .gltf
}

TEST(FormatsCli, TheReadmeTableIsTheTable) {
  const QString readme = readText(QStringLiteral(MARROW_SOURCE_DIR "/README.md"));
  ASSERT_FALSE(readme.isEmpty());
  const QString begin = QStringLiteral("-->\n"), startMark = QStringLiteral("<!-- The table of formats");
  const qsizetype at = readme.indexOf(startMark);
  ASSERT_GE(at, 0) << "the README has no table of formats";
  const qsizetype from = readme.indexOf(begin, at) + begin.size();
  const qsizetype to = readme.indexOf(QStringLiteral("<!-- end of the table of formats -->"), from);
  ASSERT_GT(to, from);
  const CliRun r = cli({"formats", "--markdown"});
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(readme.mid(from, to - from).toStdString(), QString::fromUtf8(r.out).toStdString())
      << "run `marrow-cli formats --markdown` and put its table in the README";
}

TEST(FormatsCli, HelpNamesEveryFormatAndEveryOutput) {
  const CliRun help = cli({"--help"});
  ASSERT_EQ(help.code, 0);
  for (const auto& v : table()) {
    const QJsonObject f = v.toObject();
    EXPECT_TRUE(help.out.contains(f.value("name").toString().toUtf8())) << f.value("name").toString().toStdString();
    for (const auto& o : f.value("outputs").toArray())
      EXPECT_TRUE(help.out.contains(o.toObject().value("extension").toString().mid(1).toUtf8()));
  }
}

TEST(FormatsCli, TheDesktopEntryClaimsTheTablesMimeTypes) {
  const QString entry = readText(QStringLiteral(MARROW_BUILD_DIR "/resources/desktop/org.marrow.Marrow.desktop"));
  ASSERT_FALSE(entry.isEmpty());
  QSet<QString> claimed;
  for (const QString& line : entry.split('\n'))
    if (line.startsWith(QStringLiteral("MimeType=")))
      for (const QString& t : line.mid(9).split(';', Qt::SkipEmptyParts)) claimed.insert(t);
  QSet<QString> expected;
  for (const auto& v : table())
    for (const auto& m : v.toObject().value("mime_types").toArray()) expected.insert(m.toString());
  EXPECT_EQ(claimed, expected);
  EXPECT_EQ(expected.size(), 32);
}
