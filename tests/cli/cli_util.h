// Running marrow-cli from the CLI tests.
#pragma once

#include <gtest/gtest.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

#include <fstream>

struct CliRun {
  int code = -1;
  QByteArray out, err;
  QJsonObject json() const {
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(out, &e);
    EXPECT_EQ(e.error, QJsonParseError::NoError)
        << e.errorString().toStdString() << "\n" << out.left(400).toStdString();
    return d.object();
  }
};

inline CliRun cli(const QStringList& args) {
  QProcess p;
  p.start(QStringLiteral(MARROW_CLI), args);
  p.waitForFinished(120000);
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
          p.readAllStandardError()};
}

inline QString assimpModel(const char* rel) {
  const QString path = QStringLiteral(MARROW_ASSIMP_MODELS_DIR "/") + QLatin1String(rel);
  return std::ifstream(path.toStdString()) ? path : QString();
}

// A file of ../shared/fixtures, or "" when the folder is absent.
inline QString fixture(const char* rel) {
  const QString path = QStringLiteral(MARROW_FIXTURES_DIR "/") + QLatin1String(rel);
  return std::ifstream(path.toStdString()) ? path : QString();
}
