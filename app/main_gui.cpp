#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "app/gui/main_window.h"
#include "app/huge_pages.h"
#include "render/gl/offscreen.h"

int main(int argc, char** argv) {
  marrow::app::restartWithHugePages(argv);  // first: it may start the program again
  marrow::render::setDefaultSurfaceFormat();  // before QApplication, as Qt asks
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Marrow"));
  QApplication::setApplicationName(QStringLiteral("Marrow"));
  QApplication::setApplicationVersion(QStringLiteral(MARROW_VERSION));
  // The window belongs to the installed .desktop entry (resources/desktop/): its icon and name.
  QGuiApplication::setDesktopFileName(QStringLiteral("org.marrow.Marrow"));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Viewer for legacy skinned models. Several files open as one model "
                     "(a skeleton, its meshes, its clips); none opens the demo character."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Model files to open."),
                               QStringLiteral("[FILE...]"));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QStringLiteral("Save a picture of the whole window to FILE once the model has played for "
                     "--after seconds, then quit."),
      QStringLiteral("FILE"));
  const QCommandLineOption after(QStringLiteral("after"),
                                 QStringLiteral("Seconds to wait before --screenshot (default 1)."),
                                 QStringLiteral("SECONDS"), QStringLiteral("1"));
  parser.addOption(screenshot);
  parser.addOption(after);
  parser.process(app);

  marrow::app::MainWindow window;
  window.show();
  if (parser.isSet(screenshot)) {
    const QString file = parser.value(screenshot);
    const int delayMs = static_cast<int>(parser.value(after).toDouble() * 1000.0);
    auto grab = [&window, file, delayMs] {
      QTimer::singleShot(delayMs, &window, [&window, file] {
        const bool ok = window.grab().save(file);
        QApplication::exit(ok ? 0 : 1);
      });
    };
    QObject::connect(&window, &marrow::app::MainWindow::documentLoaded, &window, grab);
    QObject::connect(&window, &marrow::app::MainWindow::loadFailed, &window, grab);
  }
  const QStringList files = parser.positionalArguments();
  window.openFiles(files.isEmpty() ? QStringList{marrow::app::kDemoPath} : files);
  return app.exec();
}
