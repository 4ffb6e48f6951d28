// Files and bytes in the Qt tests: reading and writing whole files, the two byte containers, and
// sample contents that compress well yet check every byte.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <cstddef>
#include <span>
#include <vector>

namespace marrow::testing {

// The file's bytes, or "(missing)" (which no test writes) when it cannot be read.
inline QByteArray readBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing)");
}

// Writes `bytes` to `path`, making its folder.
inline bool writeBytes(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).path());
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

inline QByteArray toQByteArray(std::span<const std::byte> bytes) {
  return QByteArray(reinterpret_cast<const char*>(bytes.data()),
                    static_cast<qsizetype>(bytes.size()));
}

inline bool writeBytes(const QString& path, std::span<const std::byte> bytes) {
  return writeBytes(path, toQByteArray(bytes));
}

inline std::vector<std::byte> toBytes(const QByteArray& b) {
  const auto* p = reinterpret_cast<const std::byte*>(b.constData());
  return {p, p + b.size()};
}

// `n` bytes of repetitive but not trivial text, different for each `seed`.
inline QByteArray sample(int n, int seed) {
  QByteArray out(n, '\0');
  for (int i = 0; i < n; ++i)
    out[i] = static_cast<char>("pqrstuvw"[(i * 5 + seed) % 8] + (i % 37 == 0));
  return out;
}

}  // namespace marrow::testing
