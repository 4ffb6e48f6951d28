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

#include "formats/cal3d/cal3d.h"
#include "formats/cal3d/parts.h"
#include "formats/image/dds.h"
#include "formats/image/tga.h"
#include "formats/dragonnest/pak.h"
#include "formats/io/detect.h"
#include "formats/io/file.h"
#include "formats/snapshot/snapshot.h"
#include "formats/registry.h"

namespace marrow::app {

QString Document::title() const {
  if (paths.isEmpty()) return QStringLiteral("(nothing)");
  QString first = paths.front() == kDemoPath ? QStringLiteral("Demo character")
                                             : QFileInfo(paths.front()).fileName();
  if (paths.size() > 1) first += QStringLiteral(" + %1 more").arg(paths.size() - 1);
  return first;
}

namespace {

formats::Result<std::vector<std::byte>> readAll(const QString& path) {
  if (!path.startsWith(QStringLiteral(":/"))) return formats::readFile(path.toStdString());
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly))
    return formats::FormatError{path.toStdString(), "", formats::kNoOffset, "no such resource"};
  const QByteArray b = f.readAll();
  const auto* p = reinterpret_cast<const std::byte*>(b.constData());
  return std::vector<std::byte>(p, p + b.size());
}

formats::Resolver resolverFor(const QString& path) {
  const QString dir = QFileInfo(path).path();
  if (!path.startsWith(QStringLiteral(":/"))) return formats::diskResolver(dir.toStdString());
  return [dir](const std::string& rel) -> std::optional<std::vector<std::byte>> {
    auto r = readAll(dir + QLatin1Char('/') + QString::fromStdString(rel));
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

// cal3d submeshes find their materials by position in the model's material list, which only a
// .cfg gives. When material files are opened on their own, a .cfg beside them that names them
// all says their order; the inputs are put in that order. Without one, a diagnostic says that
// the order given is the order used.
void orderCal3dMaterials(std::vector<formats::Input>& inputs, formats::Diagnostics& notes) {
  std::vector<std::size_t> materials;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto head = std::span(inputs[i].bytes).first(std::min<std::size_t>(inputs[i].bytes.size(), 1024));
    if (formats::cal3d::detectKind(head, inputs[i].ctx.name) == formats::cal3d::FileKind::Material)
      materials.push_back(i);
    else if (formats::cal3d::detectKind(head, inputs[i].ctx.name) == formats::cal3d::FileKind::Config)
      return;  // the .cfg itself is read: it orders them
  }
  if (materials.size() < 2) return;
  const QDir dir = QFileInfo(QString::fromStdString(inputs[materials.front()].ctx.name)).dir();
  const QStringList cfgs = dir.entryList({QStringLiteral("*.cfg"), QStringLiteral("*.CFG")}, QDir::Files);
  for (const QString& cfgName : cfgs) {
    QFile f(dir.filePath(cfgName));
    if (!f.open(QIODevice::ReadOnly) || f.size() > (1 << 20)) continue;
    const QByteArray text = f.readAll();
    formats::ReadContext ctx;
    ctx.name = f.fileName().toStdString();
    const auto cfg = formats::cal3d::parseConfig(
        std::as_bytes(std::span(text.constData(), static_cast<std::size_t>(text.size()))), ctx);
    if (!cfg) continue;
    std::vector<std::size_t> rank(materials.size(), ~std::size_t{0});
    for (std::size_t m = 0; m < materials.size(); ++m) {
      const QString name = QFileInfo(QString::fromStdString(inputs[materials[m]].ctx.name)).fileName();
      for (std::size_t k = 0; k < cfg->materials.size(); ++k)
        if (QFileInfo(QString::fromStdString(cfg->materials[k].file)).fileName().compare(name, Qt::CaseInsensitive) == 0)
          rank[m] = k;
    }
    if (std::find(rank.begin(), rank.end(), ~std::size_t{0}) != rank.end()) continue;
    std::vector<std::size_t> order(materials.size());
    for (std::size_t m = 0; m < order.size(); ++m) order[m] = m;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
    std::vector<formats::Input> sorted;
    for (std::size_t m : order) sorted.push_back(std::move(inputs[materials[m]]));
    for (std::size_t m = 0; m < materials.size(); ++m) inputs[materials[m]] = std::move(sorted[m]);
    notes.info(ctx.name, "material", formats::kNoOffset,
               "the material files were put in the order this .cfg gives them");
    return;
  }
  notes.info(inputs[materials.front()].ctx.name, "materials", formats::kNoOffset,
             std::to_string(materials.size()) +
                 " material files were given without a .cfg naming them: submeshes find them in "
                 "the order they were given (a .cfg fixes that order)");
}

}  // namespace

std::vector<QImage> decodeTextures(formats::Scene& scene) {
  std::vector<QImage> images;
  images.reserve(scene.textures.size());
  for (const auto& t : scene.textures) images.push_back(decodeTexture(t, scene.diagnostics));
  return images;
}

namespace {

// The files of a model, read, with their contexts as the readers get them.
struct Prepared {
  std::vector<formats::Input> inputs;
  // Per input, the arguments that make `marrow-cli import-child` read it the same way: the file,
  // or ARCHIVE.pak::entry and every .pak given. Empty for a Qt resource (built into the program,
  // never a user's file), which is read in this process.
  std::vector<QStringList> importArgs;
  std::shared_ptr<const formats::dragonnest::PakSet> paks;
};

formats::Result<Prepared> prepare(const QStringList& paths, Textures textures) {
  if (paths.isEmpty()) return formats::FormatError{"", "", formats::kNoOffset, "no file given"};
  Prepared out;
  auto& inputs = out.inputs;
  std::vector<QString> files;  // the file of each input
  std::vector<std::string> pakFiles;                         // every .pak given, once
  std::vector<std::pair<std::string, std::string>> pakEntries;  // ARCHIVE.pak::path inputs
  for (const QString& address : paths) {
    // "FILE.brf::RECORD" names records of an archive; the file is read once, with all of them.
    // "ARCHIVE.pak::path/inside" names an entry of a Dragon Nest archive.
    const auto [file, record] = formats::brf::splitAddress(address.toStdString());
    const QString path = QString::fromStdString(file);
    if (path.endsWith(QStringLiteral(".pak"), Qt::CaseInsensitive)) {
      if (std::find(pakFiles.begin(), pakFiles.end(), file) == pakFiles.end()) pakFiles.push_back(file);
      if (!record.empty()) pakEntries.emplace_back(file, record);
      continue;
    }
    const auto same = std::find(files.begin(), files.end(), path);
    if (same != files.end()) {
      auto& in = inputs[static_cast<std::size_t>(same - files.begin())];
      if (!in.records.empty() && !record.empty()) in.records.push_back(record);
      if (record.empty()) in.records.clear();  // the whole file was asked for too
      continue;
    }
    auto bytes = readAll(path);
    if (!bytes) return bytes.error();
    formats::ReadContext ctx;
    ctx.name = file;
    ctx.resolve = resolverFor(path);
    ctx.fetchTextures = textures != Textures::Skip;
    inputs.push_back({std::move(bytes).value(), std::move(ctx), {}});
    if (!record.empty()) inputs.back().records.push_back(record);
    out.importArgs.push_back(path.startsWith(QStringLiteral(":/")) ? QStringList() : QStringList{path});
    files.push_back(path);
  }
  // Paks given together are one file system (spec §2.4): an entry's mesh and textures are
  // found by name in any of them.
  if (!pakFiles.empty()) {
    auto set = formats::dragonnest::PakSet::open(pakFiles);
    if (!set) return set.error();
    out.paks = std::make_shared<const formats::dragonnest::PakSet>(std::move(set).value());
    QStringList allPaks;
    for (const auto& p : pakFiles) allPaks << QString::fromStdString(p);
    for (const auto& [file, inner] : pakEntries) {
      const auto ref = out.paks->find(inner);
      if (!ref)
        return formats::FormatError{file, "entry", formats::kNoOffset,
                                    "no entry '" + inner + "' in the archive"};
      formats::ReadContext ctx;
      ctx.name = file + "::" + std::string(ref.pak->storedPath(*ref.entry));
      auto bytes = formats::dragonnest::PakSet::read(ref, ctx.limits);
      if (!bytes) return bytes.error();
      ctx.resolve = out.paks->resolver(ctx.limits);
      ctx.fetchTextures = textures != Textures::Skip;
      inputs.push_back({std::move(bytes).value(), std::move(ctx), {}});
      out.importArgs.push_back(QStringList{QString::fromStdString(file + "::" + inner)} + allPaks);
    }
  }
  return out;
}

bool readsThroughAssimp(const formats::Input& in) {
  const auto head = std::span(in.bytes).first(std::min<std::size_t>(in.bytes.size(), 1024));
  return formats::detectFormat(head, in.ctx.name) == formats::FormatId::Assimp;
}

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

formats::Result<formats::Scene> readImportInput(const QStringList& paths, Textures textures) {
  auto prepared = prepare(paths, textures);
  if (!prepared) return prepared.error();
  if (prepared->inputs.size() != 1)
    return formats::FormatError{paths.join(QStringLiteral(", ")).toStdString(), "", formats::kNoOffset,
                                "the import process reads one model file, not " +
                                    std::to_string(prepared->inputs.size())};
  const formats::Input& in = prepared->inputs.front();
  return formats::readScene(in.bytes, in.ctx);
}

formats::Result<Document> loadDocument(const QStringList& paths, Textures textures) {
  LoadOptions options;
  options.textures = textures;
  return loadDocument(paths, options);
}

formats::Result<Document> loadDocument(const QStringList& paths, const LoadOptions& options) {
  auto prepared = prepare(paths, options.textures);
  if (!prepared) return prepared.error();
  std::vector<formats::Input> inputs = std::move(prepared->inputs);
  // Files assimp reads come back from their import processes as parts of the model; the rest are
  // read here, as one part where the first of them was.
  std::vector<formats::Part> parts;
  std::size_t othersAt = 0;
  if (importsInChild(options.assimp)) {
    std::vector<formats::Input> others;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (prepared->importArgs[i].isEmpty() || !readsThroughAssimp(inputs[i])) {
        if (others.empty()) othersAt = parts.size();
        others.push_back(std::move(inputs[i]));
        continue;
      }
      auto scene = importInChild(prepared->importArgs[i], inputs[i].ctx.name, options);
      if (!scene) return scene.error();
      parts.push_back({inputs[i].ctx.name, std::move(scene).value()});
    }
    inputs = std::move(others);
  }
  formats::Diagnostics notes;
  orderCal3dMaterials(inputs, notes);
  formats::Archives archives;
  formats::Result<formats::Scene> scene = formats::Scene{};
  if (parts.empty()) {
    scene = formats::readInputs(std::move(inputs), &archives);
  } else {
    if (!inputs.empty()) {
      const std::string name = inputs.front().ctx.name;
      auto rest = formats::readInputs(std::move(inputs), &archives);
      if (!rest) return rest.error();
      parts.insert(parts.begin() + static_cast<std::ptrdiff_t>(othersAt),
                   formats::Part{name, std::move(rest).value()});
    }
    scene = formats::combine(std::move(parts));
  }
  if (!scene) return scene.error();
  notes.append(scene->diagnostics);
  scene->diagnostics = std::move(notes);
  Document doc;
  doc.paths = paths;
  doc.brf = std::move(archives.brf);
  doc.paks = std::move(prepared->paks);
  if (options.textures == Textures::Decode) doc.textures = decodeTextures(*scene);
  doc.scene = std::make_shared<const formats::Scene>(std::move(scene).value());
  return doc;
}

}  // namespace marrow::app
