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

QImage decodeTexture(const formats::Texture& t, formats::Diagnostics& diag) {
  QImage img;
  if (t.data.empty()) return img;  // the reader said it was not found
  const auto* bytes = reinterpret_cast<const uchar*>(t.data.data());
  const int size = static_cast<int>(t.data.size());
  // Some formats (TGA) have no magic Qt can sniff: the file name's suffix says what they are.
  const QString name = QString::fromStdString(t.path.empty() ? t.name : t.path);
  const QByteArray suffix = QFileInfo(name).suffix().toLower().toLatin1();
  if (suffix.isEmpty() || !img.loadFromData(bytes, size, suffix.constData()))
    img.loadFromData(bytes, size);
  if (img.isNull())
    diag.warn("", "texture '" + (t.path.empty() ? t.name : t.path) + "'", formats::kNoOffset,
              "found, but not in an image format this build decodes; drawn without it");
  return img;
}

}  // namespace

formats::Result<Document> loadDocument(const QStringList& paths, Textures textures) {
  if (paths.isEmpty()) return formats::FormatError{"", "", formats::kNoOffset, "no file given"};
  std::vector<formats::Input> inputs;
  for (const QString& path : paths) {
    auto bytes = readAll(path);
    if (!bytes) return bytes.error();
    formats::ReadContext ctx;
    ctx.name = path.toStdString();
    ctx.resolve = resolverFor(path);
    ctx.fetchTextures = textures != Textures::Skip;
    inputs.push_back({std::move(bytes).value(), std::move(ctx)});
  }
  auto scene = formats::readInputs(std::move(inputs));
  if (!scene) return scene.error();
  Document doc;
  doc.paths = paths;
  if (textures == Textures::Decode)
    for (const auto& t : scene->textures) doc.textures.push_back(decodeTexture(t, scene->diagnostics));
  doc.scene = std::make_shared<const formats::Scene>(std::move(scene).value());
  return doc;
}

}  // namespace marrow::app
