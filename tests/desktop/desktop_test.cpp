// The desktop integration as `cmake --install` lays it out: both programs, the .desktop entry,
// the shared-mime-info definitions, the icon and the metainfo. The MIME types are checked the
// way a file manager finds them: Qt's QMimeDatabase over the installed share/ (XDG_DATA_DIRS),
// by file name and, for files whose name says nothing, by content.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMimeDatabase>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <tuple>

#include "tests/support/skip.h"

namespace {

QString prefix;  // the temporary install prefix
QString installLog;

QString run(const QString& program, const QStringList& args, int& code) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(program, args);
  if (!p.waitForFinished(300000)) {
    code = -1;
    return QStringLiteral("did not finish");
  }
  code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  return QString::fromLocal8Bit(p.readAll());
}

bool writeFile(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).path());
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray fixtureHead(const char* rel, int n = 4096) {
  QFile f(QStringLiteral(MARROW_FIXTURES_DIR "/") + QLatin1String(rel));
  return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

QStringList desktopMimeTypes() {
  QFile f(prefix + "/share/applications/org.marrow.Marrow.desktop");
  if (!f.open(QIODevice::ReadOnly)) return {};
  for (const QByteArray& line : f.readAll().split('\n'))
    if (line.startsWith("MimeType="))
      return QString::fromUtf8(line.mid(9)).split(QLatin1Char(';'), Qt::SkipEmptyParts);
  return {};
}

QString typeOfName(const QString& name) {
  return QMimeDatabase().mimeTypeForFile(name, QMimeDatabase::MatchExtension).name();
}

QString typeOfContent(const QByteArray& bytes) {
  return QMimeDatabase().mimeTypeForData(bytes).name();
}

QString typeOf(const QString& name, const QByteArray& bytes) {
  return QMimeDatabase().mimeTypeForFileNameAndData(name, bytes).name();
}

}  // namespace

TEST(Desktop, InstallLaysOutEveryFile) {
  ASSERT_FALSE(prefix.isEmpty()) << installLog.toStdString();
  for (const char* rel : {"bin/marrow", "bin/marrow-cli", "share/applications/org.marrow.Marrow.desktop",
                          "share/mime/packages/org.marrow.Marrow.xml",
                          "share/icons/hicolor/scalable/apps/org.marrow.Marrow.svg",
                          "share/metainfo/org.marrow.Marrow.metainfo.xml"})
    EXPECT_TRUE(QFileInfo::exists(prefix + "/" + rel)) << rel << "\n" << installLog.toStdString();
  EXPECT_TRUE(QFileInfo(prefix + "/bin/marrow").isExecutable());
  // The installed CLI runs (no build-tree paths left in it).
  int code = 0;
  const QString out = run(prefix + "/bin/marrow-cli", {"info", ":demo", "--json"}, code);
  EXPECT_EQ(code, 0) << out.toStdString();
}

TEST(Desktop, EntryAndMetainfoPassTheirValidators) {
  ASSERT_FALSE(prefix.isEmpty());
  int code = 0;
  int ran = 0;
  if (!QStandardPaths::findExecutable("desktop-file-validate").isEmpty()) {
    const QString out = run("desktop-file-validate", {prefix + "/share/applications/org.marrow.Marrow.desktop"}, code);
    EXPECT_EQ(code, 0) << out.toStdString();
    EXPECT_TRUE(out.trimmed().isEmpty()) << out.toStdString();
    ++ran;
  }
  if (!QStandardPaths::findExecutable("appstreamcli").isEmpty()) {
    const QString out = run("appstreamcli", {"validate", "--no-net", prefix + "/share/metainfo/org.marrow.Marrow.metainfo.xml"}, code);
    EXPECT_EQ(code, 0) << out.toStdString();
    ++ran;
  }
  // Both validators (scripts/deps.sh test installs desktop-file-utils and appstream).
  MARROW_EXPECT_ALL_USED(ran, 2);
}

TEST(Desktop, EveryClaimedTypeIsKnownAndOursAreDefined) {
  ASSERT_FALSE(prefix.isEmpty());
  const QStringList types = desktopMimeTypes();
  ASSERT_GT(types.size(), 15);
  for (const QString& t : types)
    EXPECT_TRUE(QMimeDatabase().mimeTypeForName(t).isValid()) << t.toStdString() << " is claimed but unknown";
}

TEST(Desktop, MarrowsFormatsAreFoundByName) {
  ASSERT_FALSE(prefix.isEmpty());
  const QStringList claimed = desktopMimeTypes();
  const std::pair<const char*, const char*> byName[] = {
      {"knight.omf", "model/x-omf"},
      {"a.csf", "model/x-cal3d-skeleton"},           {"a.caf", "model/x-cal3d-animation"},
      {"a.cmf", "model/x-cal3d-mesh"},               {"a.crf", "model/x-cal3d-material"},
      {"a.xsf", "model/x-cal3d-skeleton+xml"},       {"a.xaf", "model/x-cal3d-animation+xml"},
      {"a.xmf", "model/x-cal3d-mesh+xml"},           {"a.xrf", "model/x-cal3d-material+xml"},
      {"a.cpf", "model/x-cal3d-morph-animation"},    {"a.xpf", "model/x-cal3d-morph-animation+xml"},
      {"Boots.BRF", "model/x-mount-and-blade-brf"},  {"warrior.msh", "model/x-dragon-nest-mesh"},
      {"warrior.skn", "model/x-dragon-nest-skin"},   {"jobtable.dnt", "application/x-dragon-nest-table"},
      {"m.fbx", "model/x-fbx"},                      {"m.dae", "model/vnd.collada+xml"},
      {"m.glb", "model/gltf-binary"},                {"m.md5mesh", "model/x-md5mesh"},
  };
  for (const auto& [name, type] : byName) {
    EXPECT_EQ(typeOfName(name).toStdString(), type) << name;
    EXPECT_TRUE(claimed.contains(QString::fromLatin1(type))) << type << " is not in the .desktop entry";
  }
}

TEST(Desktop, ContentSaysWhatAFileWithoutATellingNameIs) {
  ASSERT_FALSE(prefix.isEmpty());
  EXPECT_EQ(typeOfContent(QByteArray("OMF1\x01\x00\x00\x00", 8)), "model/x-omf");
  EXPECT_EQ(typeOfContent(QByteArray("CSF\0\xb0\x04\0\0", 8)), "model/x-cal3d-skeleton");
  EXPECT_EQ(typeOfContent(QByteArray("CAF\0\xb0\x04\0\0", 8)), "model/x-cal3d-animation");
  EXPECT_EQ(typeOfContent("# cal3d model\nscale=1.0\nskeleton=hero.csf\nmesh=hero.cmf\n"), "model/x-cal3d-config");
  EXPECT_EQ(typeOfContent(QByteArray("\x04\0\0\0mesh\x01\0\0\0", 12)), "model/x-mount-and-blade-brf");
  EXPECT_EQ(typeOfContent(QByteArray("\x06\0\0\0rfver \x01\0\0\0", 14)), "model/x-mount-and-blade-brf");
  EXPECT_EQ(typeOfContent("Eternity Engine Mesh File 0.1"), "model/x-dragon-nest-mesh");
  EXPECT_EQ(typeOfContent("Kaydara FBX Binary  \0"), "model/x-fbx");
  EXPECT_EQ(typeOfContent("xof 0303txt 0032\n"), "model/x-directx");
  EXPECT_EQ(typeOf("a.xsf", "<HEADER MAGIC=\"XSF\" VERSION=\"919\" />").toStdString(), "model/x-cal3d-skeleton+xml");
  // A .cfg that is not cal3d's stays what it was.
  EXPECT_NE(typeOf("smb.cfg", "[global]\nworkgroup = HOME\n").toStdString(), "model/x-cal3d-config");
}

// *.pak and *.ani are also Quake archives and Windows cursors, and "<HEADER" looks like HTML:
// shared-mime-info's own implementation (GLib's, what GTK file managers use) lets the content
// decide. (Qt 6.4's QMimeDatabase prefers the first directory's glob over the content there.)
TEST(Desktop, SharedNamesAreToldApartByContentInGio) {
  ASSERT_FALSE(prefix.isEmpty());
  if (QStandardPaths::findExecutable("gio").isEmpty())
    MARROW_SKIP() << "gio is not installed (Debian: libglib2.0-bin; scripts/deps.sh test installs it)";
  QTemporaryDir dir;
  QByteArray dnPak(1024, '\0');
  dnPak.replace(0, 32, "EyedentityGames Packing File 0.1");
  const std::tuple<const char*, QByteArray, const char*> files[] = {
      {"Resource00.pak", dnPak, "application/x-dragon-nest-pak"},
      {"pak0.pak", QByteArray("PACK\x0c\0\0\0\0\0\0\0", 12), "application/x-pak"},
      {"walk.ani", "Eternity Engine Ani File 0.1", "model/x-dragon-nest-animation"},
      {"busy.ani", QByteArray("RIFF\x10\0\0\0ACONanih", 16), "application/x-navi-animation"},
      {"skeleton", "<HEADER MAGIC=\"XSF\" VERSION=\"919\" />\n<SKELETON NUMBONES=\"1\">", "model/x-cal3d-skeleton+xml"},
      {"boots", QByteArray("\x04\0\0\0mesh\x01\0\0\0", 12), "model/x-mount-and-blade-brf"},
  };
  for (const auto& [name, bytes, type] : files) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    ASSERT_TRUE(writeFile(path, bytes));
    int code = 0;
    const QString out = run("gio", {"info", "-a", "standard::content-type", path}, code);
    EXPECT_TRUE(out.contains(QStringLiteral("content-type: ") + QLatin1String(type))) << name << ": " << out.toStdString();
  }
}

TEST(Desktop, RealFixturesResolveByContentAlone) {
  ASSERT_FALSE(prefix.isEmpty());
  const std::pair<const char*, const char*> files[] = {
      {"brf/openbrf_redux_reference.brf", "model/x-mount-and-blade-brf"},
      {"brf/wfas_skeletons.brf", "model/x-mount-and-blade-brf"},
      {"cal3d/paladin/paladin.csf", "model/x-cal3d-skeleton"},
      {"cal3d/paladin/paladin.cfg", "model/x-cal3d-config"},
      {"dragonnest/dnpak_py_tests/freeze.msh", "model/x-dragon-nest-mesh"},
      {"dragonnest/dnpak_py_tests/freeze.skn", "model/x-dragon-nest-skin"},
  };
  std::size_t seen = 0;
  for (const auto& [rel, type] : files) {
    const QByteArray head = fixtureHead(rel);
    if (head.isEmpty()) continue;
    ++seen;
    EXPECT_EQ(typeOfContent(head).toStdString(), type) << rel;
  }
  if (!seen) MARROW_SKIP() << MARROW_FIXTURES_DIR " is absent";
  MARROW_EXPECT_ALL_USED(seen, std::size(files));
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // Install before Qt's MIME database is first used: it reads XDG_DATA_DIRS once.
  QTemporaryDir dir;
  dir.setAutoRemove(true);
  int code = 0;
  installLog = run("cmake", {"--install", MARROW_BUILD_DIR, "--prefix", dir.path()}, code);
  if (code == 0) {
    prefix = dir.path();
    // install(CODE) ran update-mime-database where it is installed; without it Qt reads the XML.
    qputenv("XDG_DATA_DIRS", (prefix + "/share:/usr/share").toLocal8Bit());
    qputenv("XDG_DATA_HOME", (prefix + "/nothing-here").toLocal8Bit());
  }
  QCoreApplication app(argc, argv);
  return RUN_ALL_TESTS();
}
