#include "app/document.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <span>

#include "formats/image/dds.h"
#include "formats/image/tga.h"
#include "formats/io/file.h"
#include "formats/load.h"
#include "formats/registry.h"
#include "formats/snapshot/snapshot.h"

namespace marrow::app {

QString Document::title() const {
  if (paths.isEmpty()) return QStringLiteral("(nothing)");
  QString first = paths.front() == kDemoPath ? QStringLiteral("Demo character")
                                             : QFileInfo(paths.front()).fileName();
  if (paths.size() > 1) first += QStringLiteral(" + %1 more").arg(paths.size() - 1);
  if (!rig.isEmpty()) {
    const formats::Address on = formats::Address::parse(rig.toStdString());
    first += QStringLiteral(" on ") + QString::fromStdString(std::string(on.leafName()));
  }
  return first;
}

namespace {

// A file built into the program (":/…", the demo character) through Qt's resources.
formats::Result<std::vector<std::byte>> readResource(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly))
    return formats::FormatError{path.toStdString(), "", formats::kNoOffset, "no such resource"};
  const QByteArray b = f.readAll();
  const auto* p = reinterpret_cast<const std::byte*>(b.constData());
  return std::vector<std::byte>(p, p + b.size());
}

formats::Resolver resourceResolver(const QString& path) {
  const QString dir = QFileInfo(path).path();
  return [dir](const std::string& rel) -> std::optional<std::vector<std::byte>> {
    auto r = readResource(dir + QLatin1Char('/') + QString::fromStdString(rel));
    if (!r) return std::nullopt;
    return std::move(r).value();
  };
}

// Qt 6 reads no DDS: the project's decoder gives level 0 as RGBA8, top row first like any
// QImage. (The renderer uploads DXT levels from the scene's bytes as they are where it can.)
QImage decodeDds(const formats::Texture& t, formats::Diagnostics& diag) {
  const std::string name = t.path.empty() ? t.name : t.path;
  auto dds = formats::readDds(t.data, name);
  auto pixels = dds ? formats::decodeDdsLevel(*dds, 0)
                    : formats::Result<std::vector<std::uint8_t>>(dds.error());
  if (!pixels) {
    const formats::FormatError& e = pixels.error();
    diag.warn(name, e.field, e.offset, e.message + "; the texture is drawn without its image");
    return {};
  }
  diag.append(dds->diagnostics);
  const int w = static_cast<int>(dds->width), h = static_cast<int>(dds->height);
  QImage img(w, h, QImage::Format_RGBA8888);
  if (img.isNull()) return img;  // out of memory
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < h; ++y) std::memcpy(img.scanLine(y), pixels->data() + row * y, row);
  return img;
}

}  // namespace

QImage decodeTexture(const formats::Texture& t, formats::Diagnostics& diag) {
  QImage img;
  if (t.data.empty()) return img;  // the reader said it was not found
  if (formats::isDds(t.data)) return decodeDds(t, diag);
  const std::string path = t.path.empty() ? t.name : t.path;
  // TGA: the project's decoder. Qt's plugin may be missing, and reads only uncompressed
  // true-colour files that end with the 2.0 footer, mirrors right-to-left ones and leaves 16-bit
  // channels unscaled.
  if (formats::isTga(t.data, path)) {
    auto tga = formats::decodeTga(t.data, path);
    if (!tga) {
      const formats::FormatError& e = tga.error();
      diag.warn(path, e.field, e.offset, e.message + "; the texture is drawn without its image");
      return img;
    }
    diag.append(tga->diagnostics);
    img = QImage(static_cast<int>(tga->width), static_cast<int>(tga->height),
                 QImage::Format_RGBA8888);
    const std::size_t row = std::size_t{tga->width} * 4;
    for (int y = 0; y < img.height(); ++y)  // a null (out of memory) image has no rows
      std::memcpy(img.scanLine(y), tga->rgba.data() + row * y, row);
    return img;
  }
  const auto* bytes = reinterpret_cast<const uchar*>(t.data.data());
  const int size = static_cast<int>(t.data.size());
  // Some formats have no magic Qt can sniff: the file name's suffix says what they are.
  const QString name = QString::fromStdString(path);
  const QByteArray suffix = QFileInfo(name).suffix().toLower().toLatin1();
  if (suffix.isEmpty() || !img.loadFromData(bytes, size, suffix.constData()))
    img.loadFromData(bytes, size);
  if (img.isNull())
    diag.warn("", "texture '" + path + "'", formats::kNoOffset,
              "found, but not in an image format this build decodes; drawn without it");
  return img;
}

std::vector<QImage> decodeTextures(formats::Scene& scene) {
  std::vector<QImage> images;
  images.reserve(scene.textures.size());
  for (const auto& t : scene.textures) images.push_back(decodeTexture(t, scene.diagnostics));
  return images;
}

namespace {

bool importsInChild(AssimpImport mode) {
  if (mode != AssimpImport::Auto) return mode == AssimpImport::Child;
  const QCoreApplication* app = QCoreApplication::instance();
  return app && app->inherits("QApplication");
}

const char* signalName(int signal) {
  switch (signal) {
    case SIGSEGV: return ", SIGSEGV";
    case SIGABRT: return ", SIGABRT";
    case SIGBUS: return ", SIGBUS";
    case SIGFPE: return ", SIGFPE";
    case SIGILL: return ", SIGILL";
    case SIGKILL: return ", SIGKILL: killed, perhaps for running out of memory";
    default: return "";
  }
}

// Reads one file through `marrow-cli import-child` (app/cli/cli.cpp): the scene comes back as a
// snapshot on its standard output; a crash, a hang or a failure becomes an error naming `file`.
formats::Result<formats::Scene> importInChild(const QStringList& args, const std::string& file,
                                              const LoadOptions& options) {
  const auto fail = [&](const std::string& message) {
    return formats::FormatError{file, "", formats::kNoOffset, message};
  };
  const QString program = importProgram();
  if (program.isEmpty())
    return fail("not read: files in assimp's formats are read by marrow-cli in a process of its "
                "own, and no marrow-cli was found beside this program or on PATH (MARROW_CLI "
                "may name it)");
  QStringList arguments{QStringLiteral("import-child")};
  if (options.textures == Textures::Skip) arguments << QStringLiteral("--no-textures");
  arguments << QStringLiteral("--") << args;
  QProcess process;
  process.setProgram(program);
  process.setArguments(arguments);
  process.setStandardInputFile(QProcess::nullDevice());
  process.start();
  if (!process.waitForStarted(60000))
    return fail("not read: the import process " + program.toStdString() + " did not start (" +
                process.errorString().toStdString() + ")");
  QElapsedTimer clock;
  clock.start();
  while (process.state() != QProcess::NotRunning) {
    if (process.waitForFinished(100)) break;
    const bool cancelled = options.cancelled && options.cancelled();
    const bool late = clock.elapsed() > options.importTimeoutMs;
    if (!cancelled && !late) continue;
    process.kill();
    process.waitForFinished(-1);
    if (cancelled) return fail("cancelled");
    const int ms = options.importTimeoutMs;
    return fail("the assimp importer had not finished reading " + file + " after " +
                (ms % 1000 ? std::to_string(ms) + " ms" : std::to_string(ms / 1000) + " s") +
                " and was stopped");
  }
  const QByteArray out = process.readAllStandardOutput();
  if (process.exitStatus() == QProcess::CrashExit) {
    // For a process a signal ended, Qt gives the signal as the exit code.
    const int signal = process.exitCode();
    return fail("the assimp importer crashed (signal " + std::to_string(signal) +
                signalName(signal) + ") while reading " + file + "; nothing was loaded");
  }
  const auto bytes =
      std::as_bytes(std::span(out.constData(), static_cast<std::size_t>(out.size())));
  if (!formats::isSnapshot(bytes)) {
    QList<QByteArray> lines = process.readAllStandardError().trimmed().split('\n');
    const std::string last = lines.isEmpty() ? std::string() : lines.back().trimmed().toStdString();
    return fail("the import process " + program.toStdString() + " ended with exit code " +
                std::to_string(process.exitCode()) + " and no model" +
                (last.empty() ? std::string() : ": " + last));
  }
  // A failure comes back as the reader's own error (file, field, offset), carried as it was.
  formats::ReadContext ctx;
  ctx.name = file + " (the import process's snapshot)";
  return formats::readSnapshot(bytes, ctx);
}

}  // namespace

QString importProgram() {
  const QString named = qEnvironmentVariable("MARROW_CLI");
  if (!named.isEmpty()) return named;
  if (QCoreApplication::instance()) {
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/marrow-cli");
    if (QFileInfo(beside).isExecutable()) return beside;
  }
  return QStandardPaths::findExecutable(QStringLiteral("marrow-cli"));
}

namespace {

// How the formats read the program's own resources: ":/…" paths through Qt, the rest from disk.
formats::LoadOptions loadOptions(Textures textures) {
  formats::LoadOptions o;
  o.fetchTextures = textures != Textures::Skip;
  o.readOther = [](const std::string& path) -> std::optional<formats::Result<std::vector<std::byte>>> {
    if (!path.starts_with(":/")) return std::nullopt;
    return readResource(QString::fromStdString(path));
  };
  o.resolverFor = [](const std::string& path) -> formats::Resolver {
    if (!path.starts_with(":/")) return {};
    return resourceResolver(QString::fromStdString(path));
  };
  return o;
}

std::vector<std::string> stdStrings(const QStringList& list) {
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(list.size()));
  for (const QString& s : list) out.push_back(s.toStdString());
  return out;
}

}  // namespace

formats::WriteSource Document::writeSource() const {
  // A rigged model, or files joined as frames, is made from the files: no record of them is it.
  if (!rig.isEmpty() || asFrames) return {scene.get(), nullptr, {}};
  return {scene.get(), &archives, stdStrings(paths)};
}

formats::Result<formats::Scene> readImportInput(const QStringList& paths, Textures textures) {
  const auto addresses = stdStrings(paths);
  auto gathered = formats::gather(addresses, loadOptions(textures));
  if (!gathered) return gathered.error();
  if (gathered->inputs.size() != 1)
    return formats::FormatError{paths.join(QStringLiteral(", ")).toStdString(), "", formats::kNoOffset,
                                "the import process reads one model file, not " +
                                    std::to_string(gathered->inputs.size())};
  const formats::Input& in = gathered->inputs.front();
  return formats::readScene(in.bytes, in.ctx);
}

formats::Result<Document> loadDocument(const QStringList& paths, Textures textures) {
  LoadOptions options;
  options.textures = textures;
  return loadDocument(paths, options);
}

namespace {

// The formats' options for loading as `options` say, with the child process where it is used.
formats::LoadOptions formatOptions(const LoadOptions& options) {
  formats::LoadOptions o = loadOptions(options.textures);
  o.codepage = options.codepage;
  o.partial = options.partial;
  o.asFrames = options.asFrames;
  o.framesPerSecond = options.framesPerSecond;
  if (importsInChild(options.assimp))
    o.readElsewhere = [&options](const std::string& address, const std::vector<std::string>& archives) {
      QStringList args{QString::fromStdString(address)};
      for (const auto& a : archives) args << QString::fromStdString(a);
      return importInChild(args, address, options);
    };
  return o;
}

}  // namespace

formats::Result<formats::Scene> readNode(const formats::vfs::FileSystem& archives, std::size_t archive,
                                         const std::string& path, const LoadOptions& options) {
  return formats::readNode(archives, archive, path, formatOptions(options));
}

formats::Result<Document> loadDocument(const QStringList& paths, const LoadOptions& options) {
  const formats::LoadOptions o = formatOptions(options);
  const auto addresses = stdStrings(paths);
  auto loaded = formats::load(addresses, o);
  if (!loaded) return loaded.error();
  Document doc;
  doc.paths = paths;
  doc.archives = std::move(loaded->archives);
  doc.asFrames = options.asFrames;
  if (options.textures == Textures::Decode) doc.textures = decodeTextures(loaded->scene);
  doc.scene = std::make_shared<const formats::Scene>(std::move(loaded->scene));
  if (options.packInfluences) doc.packed = anim::packScene(doc.scene);
  return doc;
}

}  // namespace marrow::app
