// The viewer as a user meets it: the demo opens, plays on the GPU and moves; a bad file leaves
// the model open and shows its error; the transport controls drive the clock.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "render/gl/offscreen.h"

using marrow::app::MainWindow;

namespace {

// Pixels that are neither the background nor the grey grid: the character's coloured surface.
int colouredPixels(const QImage& img) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      const int spread = std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()});
      n += spread > 30;
    }
  return n;
}

int differingPixels(const QImage& a, const QImage& b) {
  if (a.size() != b.size()) return a.width() * a.height();
  int n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      const QColor p = a.pixelColor(x, y), q = b.pixelColor(x, y);
      n += std::abs(p.red() - q.red()) + std::abs(p.green() - q.green()) + std::abs(p.blue() - q.blue()) > 30;
    }
  return n;
}

bool openAndWait(MainWindow& w, const QStringList& files) {
  QSignalSpy loaded(&w, &MainWindow::documentLoaded);
  QSignalSpy failed(&w, &MainWindow::loadFailed);
  w.openFiles(files);
  return QTest::qWaitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 20000) &&
         !loaded.isEmpty();
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("MarrowTests"));
    QCoreApplication::setApplicationName(QStringLiteral("MarrowGuiTest"));
  }

  void demoOpensDrawsAndMovesWhilePlaying() {
    MainWindow w;
    w.resize(1100, 750);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    if (!w.viewport()->glReady()) QSKIP("no OpenGL 3.3 core here");
    QVERIFY(w.document()->scene->skeleton.bones.size() >= 20);
    QVERIFY(w.player().playing());  // a model with clips starts playing

    QTest::qWait(200);
    const QImage first = w.viewport()->grabFramebuffer();
    const int drawn = colouredPixels(first);
    QVERIFY2(drawn > first.width() * first.height() / 200,
             qPrintable(QStringLiteral("only %1 coloured pixels").arg(drawn)));
    const double t0 = w.player().time();
    QTest::qWait(400);
    const QImage second = w.viewport()->grabFramebuffer();
    QVERIFY(w.player().time() != t0);
    const int moved = differingPixels(first, second);
    QVERIFY2(moved > 200, qPrintable(QStringLiteral("only %1 pixels changed").arg(moved)));
  }

  void badFileShowsItsErrorAndKeepsTheModelOpen() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    const auto* before = w.document();
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("broken.omf"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("OMF1 this is not a model");
    f.close();
    const int logged = w.log()->count();
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openFiles({bad});
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("broken.omf")));
    QCOMPARE(w.document(), before);
    QVERIFY(w.log()->count() > logged);
  }

  void transportControlsStepAndStop() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    auto* tl = w.timeline();
    tl->pause();
    tl->firstFrame();
    QCOMPARE(w.player().frame(), 0);
    tl->stepForward();
    tl->stepForward();
    QCOMPARE(w.player().frame(), 2);
    tl->stepBackward();
    QCOMPARE(w.player().frame(), 1);
    tl->lastFrame();
    QCOMPARE(w.player().frame(), w.player().frameCount() - 1);
    tl->togglePlay();
    QVERIFY(w.player().playing());
    tl->stop();
    QVERIFY(!w.player().playing());
    QCOMPARE(w.player().time(), 0.0);
    // Space toggles play anywhere in the window.
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(w.viewport(), Qt::Key_Space);
    QVERIFY(w.player().playing());
    QTest::keyClick(w.viewport(), Qt::Key_Space);
    QVERIFY(!w.player().playing());
  }

  void selectingABoneShowsItsTransforms() {
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, {marrow::app::kDemoPath}));
    w.bones()->selectBone(3);
    QCOMPARE(w.bones()->selectedBone(), 3);
    QCOMPARE(w.viewport()->options().selectedBone, 3);
  }
};

int main(int argc, char** argv) {
  marrow::render::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  MainWindowTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "main_window_test.moc"
