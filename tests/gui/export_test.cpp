// Export in the viewer: File › Export… writes the model shown in the format its name says, off
// the GUI thread, and the file reads back with the same bones and vertices; a failure says why
// and leaves no file; Export… on a BRF record or a pak entry writes that record or entry as the
// viewer would show it, and the viewer goes on showing what it showed.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QAbstractButton>
#include <QTest>
#include <QTreeWidget>
#include <cstdio>
#include <cstdlib>

#include "app/gui/archive_dock.h"
#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_dock.h"
#include "formats/registry.h"
#include "formats/write.h"
#include "render/gl/offscreen.h"
#include "tests/support/gui_fixture.h"
#include "tests/support/pak_builder.h"
#include "tests/support/qt_bytes.h"

using marrow::app::MainWindow;
using marrow::testing::openAndWait;
using marrow::formats::Scene;

namespace {

const QString kFixtures = QStringLiteral(MARROW_FIXTURES_DIR "/");

// Runs `start` and waits for the export it begins; the (ok, message) it ended with.
template <class Fn>
std::pair<bool, QString> exportAndWait(MainWindow& w, Fn&& start) {
  QSignalSpy done(&w, &MainWindow::exportFinished);
  start();
  if (!QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000)) return {false, "timed out"};
  return {done.front().at(0).toBool(), done.front().at(1).toString()};
}

QAction* actionNamed(QMenu& menu, const QString& text) {
  for (QAction* a : menu.actions())
    if (a->text() == text) return a;
  return nullptr;
}

std::size_t vertexCount(const Scene& s) {
  std::size_t n = 0;
  for (const auto& m : s.meshes) n += m.vertexCount();
  return n;
}

std::size_t triangleCount(const Scene& s) {
  std::size_t n = 0;
  for (const auto& m : s.meshes) n += m.triangleCount();
  return n;
}

QString readBack(const QString& path, Scene& out) {
  auto r = marrow::formats::loadFile(path.toStdString());
  if (!r) return QString::fromStdString(r.error().describe());
  out = std::move(r).value();
  return {};
}

QByteArray fileBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// What a glTF file declares, read from its JSON (glTF 2.0 §4.4 for the GLB container): the
// vertices of every primitive and the joints of its first skin. assimp, which reads it back,
// joins identical vertices and makes bones of every node, so these are the exact counts.
struct GltfCounts {
  qint64 vertices = -1, joints = 0;
};
GltfCounts gltfCounts(const QString& path) {
  QByteArray json = fileBytes(path);
  if (path.endsWith(".glb")) {
    if (json.size() < 20 || !json.startsWith("glTF")) return {};
    const auto u32 = [&](int at) {
      return static_cast<qint64>(static_cast<quint8>(json[at])) |
             static_cast<qint64>(static_cast<quint8>(json[at + 1])) << 8 |
             static_cast<qint64>(static_cast<quint8>(json[at + 2])) << 16 |
             static_cast<qint64>(static_cast<quint8>(json[at + 3])) << 24;
    };
    json = json.mid(20, u32(12));  // the first chunk, JSON
  }
  const QJsonObject root = QJsonDocument::fromJson(json).object();
  const QJsonArray accessors = root["accessors"].toArray();
  GltfCounts c;
  c.vertices = 0;
  for (const auto& mesh : root["meshes"].toArray())
    for (const auto& p : mesh.toObject()["primitives"].toArray())
      c.vertices += accessors[p.toObject()["attributes"].toObject()["POSITION"].toInt()]
                        .toObject()["count"]
                        .toInteger();
  if (!root["skins"].toArray().isEmpty())
    c.joints = root["skins"].toArray()[0].toObject()["joints"].toArray().size();
  return c;
}

// Every bone of `want` is a bone of `got`, under the parent of the same name.
bool sameBones(const Scene& want, const Scene& got) {
  for (const auto& b : want.skeleton.bones) {
    const int i = got.skeleton.find(b.name);
    if (i < 0) return false;
    const int parent = got.skeleton.bones[static_cast<std::size_t>(i)].parent;
    const std::string gotParent =
        parent < 0 ? "" : got.skeleton.bones[static_cast<std::size_t>(parent)].name;
    const std::string wantParent =
        b.parent < 0 ? "" : want.skeleton.bones[static_cast<std::size_t>(b.parent)].name;
    if (b.parent >= 0 && gotParent != wantParent) return false;
  }
  return true;
}

// A glTF export read back: the bones by name, the triangles, and the counts it declares.
void checkGltf(const QString& path, const Scene& want) {
  Scene back;
  const QString error = readBack(path, back);
  QVERIFY2(error.isEmpty(), qPrintable(error));
  QVERIFY(sameBones(want, back));
  QCOMPARE(triangleCount(back), triangleCount(want));
  QCOMPARE(back.meshes.size(), want.meshes.size());
  const GltfCounts declared = gltfCounts(path);
  QCOMPARE(declared.vertices, static_cast<qint64>(vertexCount(want)));
  QCOMPARE(declared.joints, static_cast<qint64>(want.skeleton.bones.size()));
}

// Everything the Log shows, one row a line.
QString logText(MainWindow& w) {
  QString out;
  for (QTreeWidget* tree : w.log()->findChildren<QTreeWidget*>())
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
      for (int c = 0; c < tree->columnCount(); ++c) out += tree->topLevelItem(i)->text(c) + QLatin1Char(' ');
      out += QLatin1Char('\n');
    }
  return out;
}

// An OMF model Warband refuses: five influences on a vertex, a mesh named with a space.
QString writeHostileOmf(const QString& path) {
  Scene s;
  for (int b = 0; b < 6; ++b) {
    marrow::formats::Bone bone;
    bone.name = "bone" + std::to_string(b);
    bone.parent = b - 1;
    bone.translation = {0.0f, b == 0 ? 0.0f : 0.2f, 0.0f};
    s.skeleton.bones.push_back(bone);
  }
  marrow::formats::Mesh m;
  m.name = "my cape";
  for (int i = 0; i < 8; ++i) {
    m.positions.push_back({static_cast<float>(i % 2), 0.2f * static_cast<float>(i / 2), 0.0f});
    m.normals.push_back({0.0f, 0.0f, 1.0f});
    std::vector<marrow::formats::Influence> inf;
    for (std::uint32_t k = 0; k < 5; ++k) inf.push_back({(static_cast<std::uint32_t>(i / 2) + k) % 6, 0.2f});
    m.addInfluences(inf);
  }
  for (std::uint32_t i = 0; i + 3 < 8; i += 2) m.indices.insert(m.indices.end(), {i, i + 1, i + 2, i + 1, i + 3, i + 2});
  s.meshes.push_back(std::move(m));
  marrow::formats::WriteSource source;
  source.scene = &s;
  const auto r = marrow::formats::writeModel(source, path.toStdString());
  if (!r.ok()) return QString::fromStdString(r.why());
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return QStringLiteral("cannot write ") + path;
  f.write(reinterpret_cast<const char*>(r.files[0].bytes.data()), static_cast<qint64>(r.files[0].bytes.size()));
  return {};
}

}  // namespace

class ExportTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    marrow::testing::useTestSettings("MarrowExportTest");
    QVERIFY(tmp_.isValid());
  }

  // ---- failures first ----

  void aFailedExportSaysWhyInTheLogAndTheStatusBarAndLeavesNoFile() {
    MainWindow w;
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    const int logged = w.log()->count();
    const QString out = tmp_.filePath("no/such/folder/demo.glb");
    const auto [ok, message] = exportAndWait(w, [&] { w.exportTo(out); });
    QVERIFY(!ok);
    QVERIFY2(message.contains("could not be written"), qPrintable(message));
    QVERIFY(w.statusBar()->currentMessage().contains(out));
    QVERIFY(w.log()->count() > logged);
    QVERIFY(!QFile::exists(out));
    QVERIFY(!w.exporting());

    const auto [ok2, why] = exportAndWait(w, [&] { w.exportTo(tmp_.filePath("demo.png")); });
    QVERIFY(!ok2);
    QVERIFY2(why.contains(".glb"), qPrintable(why));  // the formats there are
  }

  void aPakEntryThatIsNoModelSaysSoWithoutCrashing() {
    MainWindow w;
    QVERIFY(openAndWait(w, {makePak()}));
    QTreeWidgetItem* readme = w.archive()->reveal(0, "resource/readme.txt");
    QVERIFY(readme);
    const QString out = tmp_.filePath("readme.glb");
    const auto [ok, message] =
        exportAndWait(w, [&] { w.exportEntryTo(w.archive()->openAddresses(readme), out); });
    QVERIFY(!ok);
    QVERIFY2(message.contains("readme.txt"), qPrintable(message));
    QVERIFY(!QFile::exists(out));
    if (auto* box = w.findChild<QMessageBox*>()) box->close();  // said in a message too
  }

  // ---- File › Export… ----

  void fileExportWritesAGlbThatReadsBackWithTheSameBonesAndVertices() {
    MainWindow w;
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    auto* action = w.findChild<QAction*>(QStringLiteral("exportAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
    const QString out = tmp_.filePath("demo.glb");
    bool offeredBrf = true;
    w.setExportPathChooser([&](const QString&, const QString& name, bool brf) {
      offeredBrf = brf;
      return tmp_.filePath(name + QStringLiteral(".glb"));
    });
    const auto [ok, message] = exportAndWait(w, [&] { action->trigger(); });
    QVERIFY2(ok, qPrintable(message));
    QVERIFY(!offeredBrf);  // the demo is no BRF file
    QVERIFY2(message.contains(out), qPrintable(message));
    QVERIFY(w.statusBar()->currentMessage().contains(out));
    checkGltf(out, *w.document()->scene);
  }

  void everyModelFormatReadsBackWithTheSameBonesAndVertices() {
    MainWindow w;
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    const Scene& shown = *w.document()->scene;
    for (const char* name : {"demo.omf", "demo.gltf", "cfg/demo.cfg", "xml/demo.xmf"}) {
      const QString out = tmp_.filePath(QString::fromLatin1(name));
      QDir().mkpath(QFileInfo(out).path());
      const auto [ok, message] = exportAndWait(w, [&] { w.exportTo(out); });
      QVERIFY2(ok, qPrintable(message));
      if (out.endsWith(".gltf")) {
        checkGltf(out, shown);
        continue;
      }
      Scene back;
      const QString error = readBack(out, back);
      QVERIFY2(error.isEmpty(), qPrintable(error));
      if (!out.endsWith(".xmf")) {
        QCOMPARE(back.skeleton.bones.size(), shown.skeleton.bones.size());
        QCOMPARE(back.clips.size(), shown.clips.size());
      }
      QCOMPARE(vertexCount(back), vertexCount(shown));
      QCOMPARE(triangleCount(back), triangleCount(shown));
    }
    QVERIFY(QFile::exists(tmp_.filePath("demo.bin")));  // beside the .gltf
    QVERIFY(QFile::exists(tmp_.filePath("cfg/demo.csf")));
  }

  // Export for a game: what the game refuses holds the export for a choice (fix, as it is,
  // cancel); fixed, the file has no error; exported without asking, the problems are logged.
  void anExportForAGameShowsItsProblemsAndFixesThemWhenAsked() {
    const QString omf = tmp_.filePath("cape.omf");
    const QString made = writeHostileOmf(omf);
    QVERIFY2(made.isEmpty(), qPrintable(made));
    MainWindow w;
    QVERIFY(openAndWait(w, {omf}));
    const QString out = tmp_.filePath("cape.brf");
    w.setExportPathChooser([&](const QString&, const QString&, bool) { return out; });
    QString shown;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
      auto* box = w.findChild<QMessageBox*>(QStringLiteral("exportCheck"));
      if (!box || !box->isVisible()) return;
      shown = box->text();
      for (QAbstractButton* b : box->buttons())
        if (b->text() == QStringLiteral("Fix and Export")) b->click();
    });
    poll.start(50);
    auto* action = w.findChild<QAction*>(QStringLiteral("exportAction"));
    QVERIFY(action);
    const auto [ok, message] = exportAndWait(w, [&] { action->trigger(); });
    poll.stop();
    QVERIFY2(ok, qPrintable(message));
    QVERIFY2(shown.contains("my cape"), qPrintable(shown));
    const QString log = logText(w);
    QVERIFY2(log.contains("Fixed for"), qPrintable(log));
    Scene back;
    const QString error = readBack(out, back);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(back.meshes.at(0).name, std::string("my_cape"));
    QVERIFY(back.meshes[0].maxInfluences() <= 4);

    // Without asking (exportTo): written as it is, the problems in the Log.
    const QString plain = tmp_.filePath("plain.brf");
    const auto [ok2, message2] = exportAndWait(w, [&] { w.exportTo(plain); });
    QVERIFY2(ok2, qPrintable(message2));
    QVERIFY2(logText(w).contains("influences.count"), qPrintable(logText(w)));
    QVERIFY(QFile::exists(plain));
  }

  void aClipFileHoldsTheClipPlaying() {
    MainWindow w;
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    const auto& clips = w.document()->scene->clips;
    QCOMPARE(clips.size(), std::size_t{3});  // the demo's
    w.timeline()->setClip(1);
    const QString out = tmp_.filePath("second.caf");
    const auto [ok, message] = exportAndWait(w, [&] { w.exportTo(out); });
    QVERIFY2(ok, qPrintable(message));
    Scene back;
    const QString error = readBack(out, back);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(back.clips.size(), std::size_t{1});
    QCOMPARE(back.clips[0].duration, clips[1].duration);
    QCOMPARE(back.clips[0].tracks.size(), clips[1].tracks.size());
    QVERIFY(clips[0].duration != clips[1].duration ||
            clips[0].tracks.size() != clips[1].tracks.size());
  }

  // ---- the tree browsers ----

  void exportOfABrfRecordWritesItAsTheViewerShowsItAndLeavesTheViewAlone() {
    const QString ref = kFixtures + "brf/openbrf_redux_reference.brf";
    if (!QFile::exists(ref)) MARROW_QSKIP("fixture brf/openbrf_redux_reference.brf is absent");
    MainWindow w;
    QVERIFY(openAndWait(w, {ref}));
    const auto before = w.document()->scene;
    QTreeWidgetItem* boots = nullptr;
    for (QTreeWidgetItemIterator it(w.archive()->tree()); *it && !boots; ++it)
      if ((*it)->text(0) == QStringLiteral("SkinA.light_leather_boots")) boots = *it;
    QVERIFY(boots);
    QMenu menu;
    w.archive()->fillMenu(menu, w.archive()->tree(), boots);  // a right-click on a record not selected
    QAction* exportAction = actionNamed(menu, QStringLiteral("Export…"));
    QVERIFY(exportAction);
    QVERIFY(exportAction->isEnabled());
    bool offeredBrf = false;
    QString suggested;
    w.setExportPathChooser([&](const QString&, const QString& name, bool brf) {
      offeredBrf = brf;
      suggested = name;
      return tmp_.filePath(QStringLiteral("boots.glb"));
    });
    const auto [ok, message] = exportAndWait(w, [&] { exportAction->trigger(); });
    QVERIFY2(ok, qPrintable(message));
    QVERIFY(offeredBrf);
    QCOMPARE(suggested, QStringLiteral("SkinA.light_leather_boots"));
    QCOMPARE(w.document()->scene, before);  // the viewer shows what it showed

    // What the viewer shows for that record, picked.
    w.archive()->selectNodes(0, {marrow::app::ArchiveDock::rowPath(boots)});
    const Scene& shown = *w.document()->scene;
    QCOMPARE(shown.meshes.size(), std::size_t{1});
    QCOMPARE(shown.skeleton.bones.size(), std::size_t{20});  // skel_human
    checkGltf(tmp_.filePath("boots.glb"), shown);
  }

  void exportOfBrfRecordsAsBrfWritesThoseRecords() {
    const QString ref = kFixtures + "brf/openbrf_redux_reference.brf";
    if (!QFile::exists(ref)) MARROW_QSKIP("fixture brf/openbrf_redux_reference.brf is absent");
    MainWindow w;
    QVERIFY(openAndWait(w, {ref}));
    std::vector<std::string> picked;
    for (QTreeWidgetItemIterator it(w.archive()->tree()); *it; ++it)
      if ((*it)->text(0) == QStringLiteral("SkinA.light_leather_boots") ||
          (*it)->text(0) == QStringLiteral("skel_human"))
        picked.push_back(marrow::app::ArchiveDock::rowPath(*it));
    QCOMPARE(picked.size(), std::size_t{2});
    const QString out = tmp_.filePath("boots.brf");
    const auto [ok, message] = exportAndWait(w, [&] { w.exportNodesTo(0, picked, out); });
    QVERIFY2(ok, qPrintable(message));
    auto back = marrow::formats::loadFiles({out.toStdString()}, false);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().describe().c_str());
    QCOMPARE(back->meshes.size(), std::size_t{1});
    QCOMPARE(back->skeleton.bones.size(), std::size_t{20});
  }

  void exportOfAPakEntryWritesItAsTheViewerWouldOpenIt() {
    if (!QFile::exists(kFixtures + "dragonnest/dnpak_py_tests/freeze.skn"))
      MARROW_QSKIP("the Dragon Nest fixtures freeze.skn / freeze.msh are absent");
    MainWindow w;
    QVERIFY(openAndWait(w, {makePak()}));
    const auto before = w.document()->scene;
    QVERIFY(before->meshes.empty());  // the pak is open, no model
    QTreeWidgetItem* skin = w.archive()->reveal(0, "resource/char/freeze.skn");
    QVERIFY(skin);
    QMenu menu;
    w.archive()->fillMenu(menu, w.archive()->tree(), skin);
    QAction* exportAction = actionNamed(menu, QStringLiteral("Export…"));
    QVERIFY(exportAction);
    bool offeredBrf = true;
    w.setExportPathChooser([&](const QString&, const QString& name, bool brf) {
      offeredBrf = brf;
      return tmp_.filePath(name + QStringLiteral(".glb"));
    });
    const auto [ok, message] = exportAndWait(w, [&] { exportAction->trigger(); });
    QVERIFY2(ok, qPrintable(message));
    QVERIFY(!offeredBrf);
    QCOMPARE(w.document()->scene, before);
    // As the viewer opens the entry (double-click: the same addresses).
    auto opened = marrow::app::loadDocument(w.archive()->openAddresses(skin));
    QVERIFY(opened.ok());
    QCOMPARE(vertexCount(*opened->scene), std::size_t{27});
    checkGltf(tmp_.filePath("freeze.glb"), *opened->scene);
  }

 private:
  // A pak with the Dragon Nest skin and its mesh in other folders, and a file that is no model.
  QString makePak() {
    const QString path = tmp_.filePath("paks/resource00.pak");
    if (QFile::exists(path)) return path;
    const QString dir = kFixtures + "dragonnest/dnpak_py_tests/";
    marrow::testing::PakBuilder pak;
    pak.add("resource/readme.txt", "read me");
    if (QFile::exists(dir + "freeze.skn")) {
      pak.add("resource/char/freeze.skn", marrow::testing::toBytes(fileBytes(dir + "freeze.skn")));
      pak.add("resource/mesh/freeze.msh", marrow::testing::toBytes(fileBytes(dir + "freeze.msh")));
    }
    return marrow::testing::writeBytes(path, pak.bytes()) ? path : QString();
  }

  QTemporaryDir tmp_;
};

MARROW_QTEST_MAIN(ExportTest)

#include "export_test.moc"
