#include "app/document.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "formats/io/file.h"
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

// A texture named by the file: embedded bytes, or the path beside the file, or (files made on
// other machines name absolute paths) the bare file name beside it.
QImage decodeTexture(const formats::Texture& t, const formats::Resolver& resolve,
                     formats::Diagnostics& diag, const std::string& fileName) {
  QImage img;
  if (!t.data.empty()) {
    img.loadFromData(reinterpret_cast<const uchar*>(t.data.data()), static_cast<int>(t.data.size()));
    if (img.isNull())
      diag.warn(fileName, "texture '" + t.name + "'", formats::kNoOffset,
                "the embedded image could not be decoded");
    return img;
  }
  if (t.path.empty() || !resolve) return img;
  std::optional<std::vector<std::byte>> bytes = resolve(t.path);
  if (!bytes) {
    std::string base = t.path;
    const auto slash = base.find_last_of("/\\");
    if (slash != std::string::npos) base.erase(0, slash + 1);
    if (base != t.path) bytes = resolve(base);
  }
  if (!bytes) {
    diag.warn(fileName, "texture '" + t.path + "'", formats::kNoOffset,
              "not found beside the file; drawn without it");
    return img;
  }
  img.loadFromData(reinterpret_cast<const uchar*>(bytes->data()), static_cast<int>(bytes->size()));
  if (img.isNull())
    diag.warn(fileName, "texture '" + t.path + "'", formats::kNoOffset,
              "found, but not in an image format this build decodes");
  return img;
}

}  // namespace

formats::Result<Document> loadDocument(const QStringList& paths, bool decodeTextures) {
  if (paths.isEmpty()) return formats::FormatError{"", "", formats::kNoOffset, "no file given"};
  std::vector<formats::Part> parts;
  std::vector<std::vector<QImage>> images;
  for (const QString& path : paths) {
    auto bytes = readAll(path);
    if (!bytes) return bytes.error();
    formats::ReadContext ctx;
    ctx.name = path.toStdString();
    ctx.resolve = resolverFor(path);
    auto scene = formats::readScene(*bytes, ctx);
    if (!scene) return scene.error();
    std::vector<QImage> decoded;
    for (const auto& t : scene->textures)
      if (decodeTextures) decoded.push_back(decodeTexture(t, ctx.resolve, scene->diagnostics, ctx.name));
    images.push_back(std::move(decoded));
    parts.push_back({ctx.name, std::move(scene).value()});
  }
  std::vector<std::size_t> order;
  auto merged = formats::combine(std::move(parts), &order);
  if (!merged) return merged.error();
  Document doc;
  doc.paths = paths;
  for (std::size_t i : order)
    for (auto& img : images[i]) doc.textures.push_back(std::move(img));
  if (!decodeTextures) doc.textures.clear();
  doc.scene = std::make_shared<const formats::Scene>(std::move(merged).value());
  return doc;
}

}  // namespace marrow::app
