// The viewer never runs assimp on a user's file in its own process (app/document.h,
// AssimpImport): such a file is read by `marrow-cli import-child`, and what comes back is the
// scene in-process loading gives, member for member; a child that crashes, hangs or fails is an
// error in the Log, and the model open before stays. MARROW_CLI names the marrow-cli to use
// (tests/gui/CMakeLists.txt); the tests put scripts around it or in its place.
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cstdio>
#include <cstdlib>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "render/gl/offscreen.h"
#include "tests/support/gui_fixture.h"
#include "tests/support/scene_compare.h"

using marrow::app::AssimpImport;
using marrow::app::LoadOptions;
using marrow::app::MainWindow;
using marrow::testing::openAndWait;

namespace {

const QString kModel = QStringLiteral(MARROW_ASSIMP_MODELS_DIR "/X/Testwuson.X");
constexpr int kImportTimeoutMs = 60000;  // how long a load through the child may take here

// An executable shell script in `dir`.
QString script(const QTemporaryDir& dir, const QString& name, const QByteArray& body) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write("#!/bin/sh\n" + body);
  f.close();
  f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  return path;
}

// Sets MARROW_CLI for the scope of a test, and puts the real one back.
class ImportProgram {
 public:
  explicit ImportProgram(const QString& path) : saved_(qgetenv("MARROW_CLI")) {
    qputenv("MARROW_CLI", path.toLocal8Bit());
  }
  ~ImportProgram() { qputenv("MARROW_CLI", saved_); }
  ImportProgram(const ImportProgram&) = delete;
  ImportProgram& operator=(const ImportProgram&) = delete;

 private:
  QByteArray saved_;
};

// The rows of the Log: severity and message.
QStringList logRows(MainWindow& w) {
  QStringList rows;
  const auto* tree = w.log()->findChild<QTreeWidget*>();
  for (int i = 0; tree && i < tree->topLevelItemCount(); ++i)
    rows << tree->topLevelItem(i)->text(1) + QStringLiteral(": ") + tree->topLevelItem(i)->text(5);
  return rows;
}

}  // namespace

class AssimpImportTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    marrow::testing::useTestSettings("MarrowAssimpImportTest");
    if (qEnvironmentVariableIsEmpty("MARROW_CLI"))
      QFAIL("MARROW_CLI does not name marrow-cli (tests/gui/CMakeLists.txt sets it)");
    if (!QFile::exists(kModel)) MARROW_QSKIP("assimp-testmodels absent");
  }

  void theViewerImportsThroughTheChildAndGetsTheInProcessScene() {
    // A wrapper that notes each call, then runs the real marrow-cli.
    QTemporaryDir dir;
    const QString calls = dir.filePath(QStringLiteral("calls.txt"));
    const QString wrapper = script(dir, QStringLiteral("wrap.sh"),
                                   "echo \"$@\" >> '" + calls.toLocal8Bit() + "'\nexec '" +
                                       qgetenv("MARROW_CLI") + "' \"$@\"\n");
    const auto inProcess =
        marrow::app::loadDocument({kModel}, LoadOptions{marrow::app::Textures::Decode, AssimpImport::InProcess, {}, 600000});
    QVERIFY2(inProcess.ok(), inProcess.ok() ? "" : inProcess.error().describe().c_str());

    ImportProgram program(wrapper);
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {kModel}, kImportTimeoutMs));
    QFile f(calls);
    QVERIFY2(f.open(QIODevice::ReadOnly), "the viewer did not start the import process");
    const QString called = QString::fromLocal8Bit(f.readAll()).trimmed();
    QCOMPARE(called, QStringLiteral("import-child -- ") + kModel);

    const auto& viewer = *w.document()->scene;
    QVERIFY(!viewer.meshes.empty() && !viewer.skeleton.bones.empty() && !viewer.clips.empty());
    const std::string difference = marrow::testing::sceneDifference(*inProcess->scene, viewer);
    QVERIFY2(difference.empty(), difference.c_str());
    QCOMPARE(w.document()->textures.size(), inProcess->textures.size());
    for (std::size_t i = 0; i < inProcess->textures.size(); ++i)
      QCOMPARE(w.document()->textures[i], inProcess->textures[i]);
  }

  void aCrashingImporterIsAnErrorInTheLogAndTheOpenModelStays() {
    QTemporaryDir dir;
    const QString crash = script(dir, QStringLiteral("crash.sh"), "kill -SEGV $$\n");
    ImportProgram program(crash);
    MainWindow w;
    w.show();
    // The demo is built into the program: read here, the import process is not asked.
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}, kImportTimeoutMs));
    const auto demo = w.document()->scene;
    const int before = static_cast<int>(logRows(w).size());

    QString failure;
    QVERIFY(!openAndWait(w, {kModel}, kImportTimeoutMs, &failure));
    QVERIFY2(failure.contains(QStringLiteral("the assimp importer crashed (signal 11, SIGSEGV) while reading ")) &&
                 failure.contains(kModel),
             qPrintable(failure));
    const QStringList rows = logRows(w);
    QVERIFY(rows.size() > before);
    QVERIFY2(rows.back().startsWith(QStringLiteral("error: the assimp importer crashed (signal 11")),
             qPrintable(rows.back()));
    QCOMPARE(w.document()->paths, QStringList{marrow::app::kDemoPath});
    QVERIFY(w.document()->scene == demo);
    QVERIFY(w.isVisible());
  }

  void anImporterErrorComesBackWithItsFileAndField() {
    // A file assimp refuses: the reader's own error, carried back from the import process.
    QTemporaryDir dir;
    const QString broken = dir.filePath(QStringLiteral("broken.x"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("xof 0303txt 0032\nFrame {\n  Mesh { 99999; 1.0;");
    f.close();
    const auto doc = marrow::app::loadDocument({broken}, LoadOptions{marrow::app::Textures::Skip, AssimpImport::Child, {}, 600000});
    QVERIFY(!doc.ok());
    QCOMPARE(QString::fromStdString(doc.error().file), broken);
    QVERIFY2(!doc.error().message.empty() &&
                 doc.error().message.find("import process") == std::string::npos,
             doc.error().describe().c_str());
    // The same error as reading it here.
    const auto here = marrow::app::loadDocument({broken}, LoadOptions{marrow::app::Textures::Skip, AssimpImport::InProcess, {}, 600000});
    QVERIFY(!here.ok());
    QCOMPARE(QString::fromStdString(doc.error().describe()),
             QString::fromStdString(here.error().describe()));
  }

  void aHangingImporterIsStoppedAndSoIsACancelledOne() {
    QTemporaryDir dir;
    const QString hang = script(dir, QStringLiteral("hang.sh"), "exec sleep 60\n");
    ImportProgram program(hang);
    QElapsedTimer clock;
    clock.start();
    auto doc = marrow::app::loadDocument({kModel}, LoadOptions{marrow::app::Textures::Skip, AssimpImport::Child, {}, 300});
    QVERIFY(!doc.ok());
    QVERIFY2(doc.error().message.find("had not finished reading") != std::string::npos,
             doc.error().describe().c_str());
    QVERIFY(clock.elapsed() < 10000);

    int polls = 0;
    doc = marrow::app::loadDocument(
        {kModel}, LoadOptions{marrow::app::Textures::Skip, AssimpImport::Child, [&] { return ++polls > 2; }, 600000});
    QVERIFY(!doc.ok());
    QCOMPARE(QString::fromStdString(doc.error().message), QStringLiteral("cancelled"));
  }

  void cancellingALoadFreesTheWindowAndKeepsTheModel() {
    QTemporaryDir dir;
    const QString started = dir.filePath(QStringLiteral("started"));
    ImportProgram program(script(dir, QStringLiteral("hang.sh"),
                                 "touch '" + started.toLocal8Bit() + "'\nexec sleep 60\n"));
    MainWindow w;
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}, kImportTimeoutMs));
    const auto demo = w.document()->scene;

    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openFiles({kModel});
    QVERIFY(w.loading());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(started), 10000);  // the importer hangs now
    QElapsedTimer clock;
    clock.start();
    QTest::keyClick(&w, Qt::Key_Escape);  // File › Cancel Loading
    QVERIFY(!w.loading());
    QVERIFY(clock.elapsed() < 1000);
    QCOMPARE(failed.count(), 1);
    QVERIFY(w.document() && w.document()->scene == demo);  // what was shown stays
    QVERIFY2(logRows(w).join('\n').contains(QStringLiteral("loading cancelled")),
             qPrintable(logRows(w).join('\n')));
    // The window takes the next file at once, while the cancelled import is being stopped.
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}, kImportTimeoutMs));
    QVERIFY(w.document()->scene != demo);
  }

  void aMissingImportProgramIsAnError() {
    ImportProgram program(QStringLiteral("/nonexistent/marrow-cli"));
    const auto doc = marrow::app::loadDocument({kModel}, LoadOptions{marrow::app::Textures::Skip, AssimpImport::Child, {}, 600000});
    QVERIFY(!doc.ok());
    QCOMPARE(QString::fromStdString(doc.error().file), kModel);
    QVERIFY2(doc.error().message.find("did not start") != std::string::npos,
             doc.error().describe().c_str());
  }

  void theCommandLineKeepsReadingInItsOwnProcess() {
    // Outside a QApplication (marrow-cli, the libraries' tests) Auto means in-process: here it
    // is the viewer, so only an explicit InProcess skips the child.
    QTemporaryDir dir;
    ImportProgram program(script(dir, QStringLiteral("crash.sh"), "kill -SEGV $$\n"));
    QVERIFY(!marrow::app::loadDocument({kModel}, marrow::app::Textures::Skip).ok());
    QVERIFY(marrow::app::loadDocument({kModel}, LoadOptions{marrow::app::Textures::Skip, AssimpImport::InProcess, {}, 600000}).ok());
  }
};

MARROW_QTEST_MAIN(AssimpImportTest)

#include "assimp_import_test.moc"
