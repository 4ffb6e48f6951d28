#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

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

  const QStringList files = parser.positionalArguments();
  marrow::app::MainWindow window(files.isEmpty() ? QStringList{marrow::app::kDemoPath} : files);
  window.show();
  if (parser.isSet(screenshot)) {
    const QString file = parser.value(screenshot);
    const int delayMs = static_cast<int>(parser.value(after).toDouble() * 1000.0);
    auto shoot = [&window, file](bool opened) {
      // Layouts the load changed (a dock shown, a title) settle first; grab() draws the window
      // as it is then.
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
      const bool ok = window.grab().save(file);
      // The picture was the work. The program ends here, its settings (recent files) written:
      // returning through the event loop would draw another frame (on llvmpipe a million
      // triangles take 150 ms), and taking the window, the GL context and the model apart is
      // another 50 ms that the system does at once.
      QSettings().sync();
      std::fflush(nullptr);
      std::_Exit(ok && opened ? 0 : 1);
    };
    // A file that does not open is pictured too (the Log says why), and the exit code is 1.
    auto loaded = [&window, shoot, delayMs](bool opened) {
      // --after 0: the picture is the model's first frame, drawn at once by grab().
      if (delayMs <= 0) shoot(opened);
      else QTimer::singleShot(delayMs, &window, [shoot, opened] { shoot(opened); });
    };
    QObject::connect(&window, &marrow::app::MainWindow::documentLoaded, &window, [loaded] { loaded(true); });
    QObject::connect(&window, &marrow::app::MainWindow::loadFailed, &window, [loaded] { loaded(false); });
  }
  return app.exec();
}
