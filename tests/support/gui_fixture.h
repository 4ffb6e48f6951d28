// What every GUI test of the viewer shares: settings kept apart from the user's, opening files
// and waiting for the model, the Log's text, and main() (MARROW_QTEST_MAIN), which needs a
// display (test.sh runs the tests under xvfb-run) and reports skipped slots to ctest (qskip.h).
#pragma once

#include <QApplication>
#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStringList>
#include <QTest>
#include <QTreeWidget>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/huge_pages.h"
#include "render/gl/offscreen.h"
#include "tests/support/ci.h"
#include "tests/support/qskip.h"

namespace marrow::testing {

// For initTestCase(): settings go to a test location under `application`'s name, emptied, never
// into the user's own.
inline void useTestSettings(const char* application) {
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName(QStringLiteral("MarrowTests"));
  QCoreApplication::setApplicationName(QString::fromUtf8(application));
  QSettings().clear();
}

// Runs `start` (an open, a reload, an attach) and waits up to `timeoutMs` for the window to load
// the model or fail; whether it loaded. A failure's message goes to `failure` when given.
inline bool waitLoaded(app::MainWindow& w, const std::function<void()>& start,
                       int timeoutMs = 20000, QString* failure = nullptr) {
  QSignalSpy loaded(&w, &app::MainWindow::documentLoaded);
  QSignalSpy failed(&w, &app::MainWindow::loadFailed);
  start();
  if (!QTest::qWaitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, timeoutMs))
    return false;
  if (failure && !failed.isEmpty()) *failure = failed.first().first().toString();
  return !loaded.isEmpty();
}

// Opens `files` as one model, as File › Open does, and waits for it.
inline bool openAndWait(app::MainWindow& w, const QStringList& files, int timeoutMs = 20000,
                        QString* failure = nullptr) {
  return waitLoaded(
      w, [&] { w.openFiles(files); }, timeoutMs, failure);
}

// Every cell of the first tree under `widget` (a dock), row by row, a line each.
inline QString treeText(const QWidget& widget) {
  QString all;
  const auto* tree = widget.findChild<QTreeWidget*>();
  for (int i = 0; tree && i < tree->topLevelItemCount(); ++i)
    for (int c = 0; c < tree->columnCount(); ++c)
      all += tree->topLevelItem(i)->text(c) + QLatin1Char('\n');
  return all;
}

// Every cell of the Log, row by row, a line each.
inline QString logText(app::MainWindow& w) { return treeText(*w.log()); }

// For main(): -1 where there is a display; else says why not and gives the exit code, 77
// ("skipped" to ctest), or 1 under CI=true, where the GUI tests must run.
inline int exitCodeWithoutDisplay() {
  if (std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || std::getenv("QT_QPA_PLATFORM"))
    return -1;
  if (underCi()) {
    std::fprintf(stderr, "%s no display (run under xvfb-run, as test.sh does)\n", kFailedSkip);
    return 1;
  }
  std::fprintf(stderr, "skipped: no display (run under xvfb-run, as test.sh does)\n");
  return 77;
}

}  // namespace marrow::testing

// main() of a GUI test: a QApplication with the viewer's surface format (GL 3.3 core, 4×
// multisampling) and test settings; 77 without a display or when a slot skipped.
#define MARROW_QTEST_MAIN(TestClass)                                                          \
  int main(int argc, char** argv) {                                                           \
    ::marrow::app::restartWithHugePages(argv); /* as the viewer starts (app/main_gui.cpp) */  \
    if (const int code = ::marrow::testing::exitCodeWithoutDisplay(); code >= 0) return code; \
    QStandardPaths::setTestModeEnabled(true);                                                 \
    ::marrow::render::setDefaultSurfaceFormat();                                              \
    QApplication app(argc, argv);                                                             \
    TestClass test;                                                                           \
    return ::marrow::testing::qtestExitCode(QTest::qExec(&test, argc, argv));                 \
  }
