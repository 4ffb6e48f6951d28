#include <QApplication>
#include <QCommandLineParser>

#include "app/gui/main_window.h"
#include "render/gl/offscreen.h"

int main(int argc, char** argv) {
  marrow::render::setDefaultSurfaceFormat();  // before QApplication, as Qt asks
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Marrow"));
  QApplication::setApplicationName(QStringLiteral("Marrow"));
  QApplication::setApplicationVersion(QStringLiteral(MARROW_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Viewer for legacy skinned models. Several files open as one model "
                     "(a skeleton, its meshes, its clips); none opens the demo character."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Model files to open."),
                               QStringLiteral("[FILE...]"));
  parser.process(app);

  marrow::app::MainWindow window;
  window.show();
  const QStringList files = parser.positionalArguments();
  window.openFiles(files.isEmpty() ? QStringList{marrow::app::kDemoPath} : files);
  return app.exec();
}
