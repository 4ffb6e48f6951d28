#include "app/thumbnails.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QImageReader>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QSaveFile>
#include <QStandardPaths>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <list>
#include <mutex>
#include <set>
#include <unordered_map>

#include "app/document.h"
#include "formats/folder_models.h"
#include "formats/format_table.h"
#include "formats/io/file.h"
#include "formats/model/lod.h"
#include "render/anim/pose.h"
#include "render/gl/offscreen.h"
#include "render/gl/renderer.h"

namespace marrow::app {

namespace vfs = formats::vfs;

// ---- which nodes ----

namespace {

bool isUnder(const std::string& p, const std::string& folder) {
  return folder.empty() || p == folder ||
         (p.size() > folder.size() && p.compare(0, folder.size(), folder) == 0 && p[folder.size()] == '/');
}

bool listed(const vfs::Node& n) {
  return !n.has(vfs::Node::Deleted) && !n.has(vfs::Node::Overridden);
}

// The files of one folder's listing that are models (formats/folder_models.h): a model of
// several files (cal3d parts) by the file that names it (its skeleton), a file that holds only
// animations not at all.
std::vector<std::size_t> modelFiles(const vfs::Archive& archive, const std::vector<vfs::Node>& nodes) {
  std::vector<std::string> paths;  // on disk where the node is a file on disk: formats may read it
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const vfs::Node& n = nodes[i];
    if (n.container || !listed(n)) continue;
    const formats::Address a = archive.addressOf(n.path);
    paths.push_back(a.whole() ? a.file : n.path);
    index.emplace(paths.back(), i);
  }
  std::vector<std::size_t> out;
  for (const auto& model : formats::modelsInFolder(paths).models) {
    const std::string& first = model.files.front();
    if (std::all_of(model.files.begin(), model.files.end(),
                    [](const std::string& f) { return formats::holdsAnimationsOnly(f); }))
      continue;  // clips alone: nothing to draw
    if (const auto at = index.find(first); at != index.end()) out.push_back(at->second);
  }
  std::sort(out.begin(), out.end());  // the folder's own order
  return out;
}

}  // namespace

std::vector<vfs::Node> galleryNodes(const vfs::Archive& archive, const std::string& path, std::size_t limit) {
  std::vector<vfs::Node> out;
  bool listsModels = false;
  for (vfs::Node& n : archive.models("")) {
    listsModels = true;
    if (out.size() >= limit) break;
    if (isUnder(n.path, path) && listed(n)) out.push_back(std::move(n));
  }
  if (listsModels) return out;
  // Depth first in the tree's order: a folder's models, then its folders'.
  std::size_t walked = 0;
  std::vector<std::string> folders{path};
  while (!folders.empty() && out.size() < limit && walked < kMaxGalleryWalk) {
    const std::string folder = std::move(folders.back());
    folders.pop_back();
    std::vector<vfs::Node> children = archive.children(folder);
    walked += children.size();
    for (std::size_t i : modelFiles(archive, children)) {
      if (out.size() >= limit) break;
      out.push_back(std::move(children[i]));
    }
    for (auto c = children.rbegin(); c != children.rend(); ++c)
      if (c->container && listed(*c)) folders.push_back(c->path);
  }
  return out;
}

// ---- the disk cache ----

ThumbnailCache::ThumbnailCache(QString folder) : folder_(std::move(folder)) {}

QString ThumbnailCache::defaultFolder() {
  const QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
  return base.isEmpty() ? QString() : base + QStringLiteral("/thumbnails");
}

QByteArray ThumbnailCache::keyOf(std::span<const std::byte> bytes, int size, const QByteArray& context) const {
  QCryptographicHash hash(QCryptographicHash::Sha256);
  hash.addData(QByteArrayLiteral("marrow thumbnail "));
  hash.addData(QByteArray::number(kThumbnailVersion) + ' ' + QByteArray::number(size) + ' ');
  hash.addData(QByteArray::number(context.size()) + ' ' + context);
  hash.addData(QByteArrayView(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size())));
  return hash.result().toHex();
}

QString ThumbnailCache::pathOf(const QByteArray& key) const {
  if (folder_.isEmpty()) return {};
  return folder_ + QLatin1Char('/') + QString::fromLatin1(key.left(2)) + QLatin1Char('/') +
         QString::fromLatin1(key) + QStringLiteral(".png");
}

QImage ThumbnailCache::load(const QByteArray& key, int size) const {
  const QString path = pathOf(key);
  if (path.isEmpty() || !QFileInfo::exists(path)) return {};
  // Only a picture of the size asked for: anything else in the folder (damaged, or put there)
  // is removed and drawn again, never decoded at its own size.
  QImageReader reader(path, "PNG");
  QImage image;
  if (reader.size() != QSize(size, size) || !reader.read(&image) || image.size() != QSize(size, size)) {
    QFile::remove(path);
    return {};
  }
  return image;
}

bool ThumbnailCache::store(const QByteArray& key, const QImage& image) const {
  const QString path = pathOf(key);
  if (path.isEmpty() || image.isNull()) return false;
  if (!QDir().mkpath(QFileInfo(path).path())) return false;
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  if (!image.save(&file, "PNG")) {
    file.cancelWriting();
    return false;
  }
  return file.commit();
}

void ThumbnailCache::prune(qint64 bytes) const {
  if (folder_.isEmpty()) return;
  struct Entry {
    QDateTime written;
    qint64 size;
    QString path;
  };
  std::vector<Entry> entries;
  qint64 total = 0;
  QDirIterator it(folder_, {QStringLiteral("*.png")}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    it.next();
    const QFileInfo info = it.fileInfo();
    entries.push_back({info.lastModified(), info.size(), info.filePath()});
    total += info.size();
  }
  if (total <= bytes) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.written < b.written; });
  for (const Entry& e : entries) {
    if (total <= bytes) break;
    if (QFile::remove(e.path)) total -= e.size;
  }
}

// ---- drawing ----

ThumbnailMaker::ThumbnailMaker(ThumbnailCache cache, int size) : cache_(std::move(cache)), size_(size) {}

ThumbnailMaker::~ThumbnailMaker() {
  if (gl_ && renderer_ && gl_->makeCurrent()) renderer_->release();
}

bool ThumbnailMaker::create(std::string* error, QOffscreenSurface* surface) {
  gl_ = std::make_unique<render::OffscreenGL>();
  renderer_ = std::make_unique<render::Renderer>();
  const bool made = surface ? gl_->create(surface, error) : gl_->create(error);
  if (!made || !renderer_->initialize(gl_->context(), error)) {
    renderer_.reset();
    gl_.reset();
    return false;
  }
  return true;
}

std::vector<QImage> ThumbnailMaker::texturesOf(formats::Scene& scene) {
  constexpr int kLargest = 256;  // a side: plenty for a picture of 128
  constexpr std::size_t kKept = 256;
  std::vector<QImage> images;
  images.reserve(scene.textures.size());
  for (const formats::Texture& t : scene.textures) {
    // By its bytes: two textures of one name and size in two folders are two textures.
    const std::string key = t.name + '\n' + std::to_string(t.data.size()) + '\n' +
                            std::to_string(qHashBits(t.data.data(), t.data.size(), 0x6d61726f));
    auto at = textures_.find(key);
    if (at == textures_.end()) {
      if (textures_.size() >= kKept) textures_.clear();
      QImage image = decodeTexture(t, scene.diagnostics);
      if (image.width() > kLargest || image.height() > kLargest)
        image = image.scaled(kLargest, kLargest, Qt::KeepAspectRatio, Qt::SmoothTransformation);
      at = textures_.emplace(key, std::move(image)).first;
    }
    images.push_back(at->second);
  }
  return images;
}

QImage ThumbnailMaker::draw(std::shared_ptr<const formats::Scene> scene, const std::vector<QImage>& textures) {
  if (!gl_ || !renderer_ || !scene || !gl_->makeCurrent()) return {};
  if (scene->meshes.empty() && scene->skeleton.bones.empty() && scene->bodies.empty()) return {};
  renderer_->setScene(scene, textures);
  renderer_->setPose(anim::evaluate(scene->skeleton, nullptr, 0.0f));
  const std::vector<bool> drawn = formats::drawnAtLevel(formats::meshLevels(*scene), 0);
  for (std::size_t m = 0; m < drawn.size(); ++m) renderer_->setMeshVisible(m, drawn[m]);
  const render::Bounds bounds = renderer_->poseBounds();
  QImage image;
  if (bounds.valid) {
    render::Camera camera;
    camera.frame(bounds.center(), bounds.radius());
    render::ViewOptions view;
    view.showGrid = false;
    view.groundContact = false;
    view.showSkeleton = false;  // a model of bones only still shows them
    image = gl_->render(*renderer_, camera, size_, size_, view);
  }
  renderer_->clearScene();
  return image;
}

namespace {

void addFileState(QByteArray& out, const std::filesystem::path& file) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  const auto time = std::filesystem::last_write_time(file, ec).time_since_epoch().count();
  out += QByteArray::fromStdString(file.string()) + '\t' + QByteArray::number(ec ? 0 : size) + '\t' +
         QByteArray::number(static_cast<qint64>(ec ? 0 : time)) + '\n';
}

}  // namespace

formats::Result<QByteArray> ThumbnailMaker::keyFor(const vfs::FileSystem& archives, std::size_t archive,
                                                   const std::string& path) const {
  if (archive >= archives.archives().size())
    return formats::FormatError{path, "archive", formats::kNoOffset, "no archive " + std::to_string(archive) + " is open"};
  const vfs::Archive& source = *archives.archives()[archive];
  if (const auto node = source.node(path); node && node->size > kLargestModel)
    return formats::FormatError{source.addressOf(path).str(), "", formats::kNoOffset,
                                "is " + std::to_string(node->size) + " bytes: too large for a picture"};
  auto bytes = source.read(path, formats::Limits{});
  if (!bytes) return bytes.error();
  // What else the picture depends on, cheaply: the files the archive was opened from (a pak,
  // a module's BRF files) and, for a file on disk, every file of its folder (its model's other
  // parts, its textures), each by path, size and time of change.
  QByteArray context;
  for (const std::string& f : source.openedFrom()) addFileState(context, f);
  if (const formats::Address a = source.addressOf(path); a.whole()) {
    const std::filesystem::path dir = std::filesystem::path(a.file).parent_path();
    // A folder's state is looked at once a second at most: a gallery asks for its files in a row.
    const auto now = std::chrono::steady_clock::now();
    auto& known = folderStates_[dir.string()];
    if (known.second.isEmpty() || now - known.first > std::chrono::seconds(1)) {
      std::vector<std::filesystem::path> files;
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(dir.empty() ? "." : dir, ec)) {
        if (files.size() >= 20000) break;  // a folder of more: its first files say enough
        if (e.is_regular_file(ec)) files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());
      QByteArray state;
      for (const auto& f : files) addFileState(state, f);
      known.second = "folder " + QCryptographicHash::hash(state, QCryptographicHash::Sha256).toHex() + '\n';
      known.first = now;
    }
    context += known.second;
  }
  return cache_.keyOf(*bytes, size_, context);
}

ThumbnailMaker::Prepared ThumbnailMaker::prepare(const vfs::FileSystem& archives, std::size_t archive,
                                                 const std::string& path) {
  Prepared p;
  try {
    auto key = keyFor(archives, archive, path);
    if (!key) {
      p.made.error = QString::fromStdString(key.error().describe());
      return p;
    }
    p.key = *key;
    if (QImage hit = cache_.load(p.key, size_); !hit.isNull()) {
      p.made.image = std::move(hit);
      p.made.cached = true;
      return p;
    }
    LoadOptions options;
    options.textures = Textures::Find;  // fetched here, decoded once per name (texturesOf)
    options.cancelled = cancelled_;
    options.importTimeoutMs = kImportTimeoutMs;
    auto scene = readNode(archives, archive, path, options);
    if (!scene) {
      p.made.error = QString::fromStdString(scene.error().describe());
      return p;
    }
    p.textures = texturesOf(*scene);
    p.scene = std::make_shared<const formats::Scene>(std::move(scene).value());
  } catch (const std::exception& e) {  // out of memory on a model the limits let through
    p = Prepared{};
    p.made.error = QStringLiteral("not drawn: %1").arg(QString::fromLocal8Bit(e.what()));
  }
  return p;
}

ThumbnailMaker::Made ThumbnailMaker::finish(Prepared prepared) {
  if (!prepared.scene) return std::move(prepared.made);
  Made made;
  try {
    made.image = draw(prepared.scene, prepared.textures);
    if (made.image.isNull())
      made.error = QStringLiteral("nothing to draw: no mesh, no bone");
    else
      cache_.store(prepared.key, made.image);
  } catch (const std::exception& e) {
    made.image = QImage();
    made.error = QStringLiteral("not drawn: %1").arg(QString::fromLocal8Bit(e.what()));
  }
  return made;
}

ThumbnailMaker::Made ThumbnailMaker::make(const vfs::FileSystem& archives, std::size_t archive,
                                          const std::string& path) {
  return finish(prepare(archives, archive, path));
}

// ---- the service ----

struct ThumbnailService::Shared {
  struct Request {
    int archive;
    std::string path;
  };
  using Queue = std::list<Request>;

  mutable std::mutex mutex;
  std::condition_variable wake;
  Queue queue;  // newest first
  std::unordered_map<std::string, Queue::iterator> where;  // by key(archive, path)
  vfs::FileSystem archives;
  quint64 generation = 0;
  bool stop = false;
  bool started = false;  // the thread made its context, or could not (then `unavailable` says why)
  std::condition_variable startedWake;
  QString unavailable;
  std::string inflight;  // the request being drawn: asked again meanwhile, it is not queued again

  static std::string key(int archive, const std::string& path) { return std::to_string(archive) + '\n' + path; }

  void clear() {
    queue.clear();
    where.clear();
  }
  // The newest request, with the archives it names; false when there is none.
  bool take(Request& r, vfs::FileSystem& fs, quint64& gen) {
    if (queue.empty()) return false;
    r = std::move(queue.front());
    queue.pop_front();
    where.erase(key(r.archive, r.path));
    inflight = key(r.archive, r.path);
    fs = archives;
    gen = generation;
    return true;
  }
};

ThumbnailService::ThumbnailService(QString cacheFolder, int size, QObject* parent, Drawing drawing)
    : QObject(parent), shared_(std::make_shared<Shared>()), size_(size) {
  ThumbnailCache cache(cacheFolder);
  // Where the platform cannot make GL contexts in threads, the thread reads the models and this
  // thread draws them (a few milliseconds each).
  const bool threaded = drawing == Drawing::Auto && QOpenGLContext::supportsThreadedOpenGL();
  if (!threaded) {
    local_ = std::make_unique<ThumbnailMaker>(cache, size);
    std::string error;
    if (!local_->create(&error)) {
      shared_->unavailable = QString::fromStdString(error);
      local_.reset();
      return;
    }
  } else {
    surface_ = render::OffscreenGL::makeSurface();
  }
  QOffscreenSurface* surface = surface_.get();
  std::shared_ptr<Shared> shared = shared_;
  // The thread ends before this object does (the destructor waits), and a result posted to it
  // after that is dropped with it.
  ThumbnailService* self = this;
  thread_ = QThread::create([shared, surface, cache, size, self, threaded] {
    ThumbnailMaker maker(cache, size);
    maker.setCancelled([shared] {
      const std::lock_guard lock(shared->mutex);
      return shared->stop;
    });
    std::string error;
    const bool created = !threaded || maker.create(&error, surface);
    {
      const std::lock_guard lock(shared->mutex);
      if (!created) {
        shared->unavailable = QString::fromStdString(error);
        shared->clear();
      }
      shared->started = true;
    }
    shared->startedWake.notify_all();
    if (!created) return;
    cache.prune(kCacheBytes);
    quint64 seen = 0;
    for (;;) {
      Shared::Request r;
      vfs::FileSystem archives;
      quint64 generation = 0;
      {
        std::unique_lock lock(shared->mutex);
        shared->wake.wait(lock, [&] { return shared->stop || !shared->queue.empty(); });
        if (shared->stop) break;
        shared->take(r, archives, generation);
      }
      if (generation != seen) maker.forget();  // other archives: other textures
      seen = generation;
      ThumbnailMaker::Prepared prepared = maker.prepare(archives, static_cast<std::size_t>(r.archive), r.path);
      ThumbnailMaker::Made made;
      if (threaded) made = maker.finish(std::move(prepared));
      {
        const std::lock_guard lock(shared->mutex);
        shared->inflight.clear();
      }
      QMetaObject::invokeMethod(
          self,
          [self, shared, generation, r, made, prepared = threaded ? ThumbnailMaker::Prepared{} : std::move(prepared)] {
            {
              const std::lock_guard lock(shared->mutex);
              if (generation != shared->generation) return;  // for archives no longer open
            }
            const ThumbnailMaker::Made result = self->local_ ? self->local_->finish(prepared) : made;
            emit self->ready(r.archive, QByteArray::fromStdString(r.path), result.image, result.error);
          },
          Qt::QueuedConnection);
    }
  });
  thread_->setObjectName(QStringLiteral("thumbnails"));
  thread_->start(QThread::LowPriority);
  // Whether pictures can be drawn is known when the service is made: a context that cannot be
  // made is said at once, not found out tile by tile.
  std::unique_lock lock(shared_->mutex);
  if (!shared_->startedWake.wait_for(lock, std::chrono::seconds(20), [&] { return shared_->started; }))
    shared_->unavailable = QStringLiteral("the thread that draws pictures did not start in 20 s");
}

ThumbnailService::~ThumbnailService() {
  if (thread_) {
    {
      const std::lock_guard lock(shared_->mutex);
      shared_->stop = true;
      shared_->clear();
    }
    shared_->wake.notify_all();
    thread_->wait();
    delete thread_;
  }
  surface_.reset();  // after the context that used it, in the GUI thread
}

void ThumbnailService::setArchives(const vfs::FileSystem& archives) {
  const std::lock_guard lock(shared_->mutex);
  shared_->archives = archives;
  ++shared_->generation;
  shared_->clear();
  shared_->inflight.clear();  // its picture is for the archives before: asked again, it is drawn again
}

void ThumbnailService::request(int archive, const std::string& path) {
  {
    const std::lock_guard lock(shared_->mutex);
    if (!shared_->unavailable.isEmpty()) return;
    const std::string key = Shared::key(archive, path);
    if (key == shared_->inflight) return;  // being drawn now
    if (auto at = shared_->where.find(key); at != shared_->where.end()) {
      shared_->queue.splice(shared_->queue.begin(), shared_->queue, at->second);  // to the front
      return;
    }
    shared_->queue.push_front({archive, path});
    shared_->where.emplace(key, shared_->queue.begin());
    while (shared_->queue.size() > kMaxQueued) {
      shared_->where.erase(Shared::key(shared_->queue.back().archive, shared_->queue.back().path));
      shared_->queue.pop_back();
    }
  }
  shared_->wake.notify_one();
}

void ThumbnailService::clearRequests() {
  const std::lock_guard lock(shared_->mutex);
  shared_->clear();
}

QString ThumbnailService::unavailable() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->unavailable;
}

}  // namespace marrow::app
