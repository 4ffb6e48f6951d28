// Thumbnails of the models in an archive: which nodes a gallery shows, a picture of each drawn
// off-screen, a disk cache keyed by the node's bytes, and a service that draws them in a thread
// of their own, the newest request first, so that a gallery scrolls without waiting.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QObject>
#include <QString>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "formats/io/result.h"
#include "formats/io/vfs.h"
#include "formats/model/scene.h"

class QOffscreenSurface;

namespace marrow::render {
class OffscreenGL;
class Renderer;
}  // namespace marrow::render

namespace marrow::app {

inline constexpr int kThumbnailSize = 128;

// The nodes a gallery of `path` ("" the whole archive) shows, in the archive's order, at most
// `limit`: the models of their own under it (Archive::models: a BRF file's meshes, a module's,
// a pak's skins and the meshes no skin wears); for an archive that lists none (a folder), the
// models of each folder under it (formats/folder_models.h: a model of several files by the file
// that names it, animations and archives left out), walking at most kMaxGalleryWalk nodes.
inline constexpr std::size_t kMaxGalleryNodes = 20000;
inline constexpr std::size_t kMaxGalleryWalk = 100000;
std::vector<formats::vfs::Node> galleryNodes(const formats::vfs::Archive& archive, const std::string& path,
                                             std::size_t limit = kMaxGalleryNodes);

// Thumbnails as PNG files in `folder` (empty: none kept), named by a hash (SHA-256) of what
// makes the picture: the node's bytes, what else it depends on (a context: ThumbnailMaker::keyFor),
// the picture's size and kThumbnailVersion.
class ThumbnailCache {
 public:
  // Raise it when thumbnails are drawn differently: old pictures are then drawn again.
  static constexpr int kThumbnailVersion = 1;
  explicit ThumbnailCache(QString folder = {});
  // The user's cache folder for thumbnails (~/.cache/Marrow/marrow/thumbnails on Linux).
  static QString defaultFolder();
  const QString& folder() const { return folder_; }

  QByteArray keyOf(std::span<const std::byte> bytes, int size, const QByteArray& context = {}) const;
  QString pathOf(const QByteArray& key) const;
  // Null when absent, unreadable or not size × size (such a file is removed).
  QImage load(const QByteArray& key, int size) const;
  // Written whole or not at all (a temporary file renamed).
  bool store(const QByteArray& key, const QImage& image) const;
  // Removes the least recently written pictures until the folder holds at most `bytes`.
  void prune(qint64 bytes) const;

 private:
  QString folder_;
};

// Draws thumbnails with a GL context of its own, current in the thread that calls it.
class ThumbnailMaker {
 public:
  explicit ThumbnailMaker(ThumbnailCache cache, int size = kThumbnailSize);
  ~ThumbnailMaker();
  ThumbnailMaker(const ThumbnailMaker&) = delete;
  ThumbnailMaker& operator=(const ThumbnailMaker&) = delete;

  // The context, on its own surface, or on `surface` (OffscreenGL::makeSurface, made in the GUI
  // thread) when the maker lives in another thread.
  bool create(std::string* error, QOffscreenSurface* surface = nullptr);

  // The key of a node's picture: its bytes, and the files it was opened from and (a file on
  // disk) the files of its folder by path, size and time of change, so that a changed part or
  // texture beside it draws it again. A node over kLargestModel bytes has no picture.
  static constexpr std::uint64_t kLargestModel = 512ull << 20;
  formats::Result<QByteArray> keyFor(const formats::vfs::FileSystem& archives, std::size_t archive,
                                     const std::string& path) const;

  struct Made {
    QImage image;       // null when the node makes no picture
    QString error;      // why not: the read's error, or nothing to draw
    bool cached = false;  // from the disk cache
  };
  // The thumbnail of one node of `archives`, from the disk cache or drawn (and then kept):
  // finish(prepare(…)).
  Made make(const formats::vfs::FileSystem& archives, std::size_t archive, const std::string& path);
  // Its first half, which needs no GL context (another thread may do it): the key, and the
  // picture from the cache or the model and its textures to draw; done when made is set.
  struct Prepared {
    QByteArray key;
    Made made;
    std::shared_ptr<const formats::Scene> scene;
    std::vector<QImage> textures;
  };
  Prepared prepare(const formats::vfs::FileSystem& archives, std::size_t archive, const std::string& path);
  // Its second half, in the context's thread: draws what prepare() read and keeps it.
  Made finish(Prepared prepared);
  // Draws a model at rest, framed, on the viewport's background: one level of levels of
  // detail, no grid. Null when it has nothing to draw.
  QImage draw(std::shared_ptr<const formats::Scene> scene, const std::vector<QImage>& textures);
  // Textures are decoded once per name and kept small (at most 256 pixels a side) for the next
  // thumbnails, and a folder's files are looked at once a second at most: forget both when
  // other archives open.
  void forget() {
    textures_.clear();
    folderStates_.clear();
  }
  // Polled while a model is read in a child process (assimp's formats): true stops it. Such a
  // read that has not finished after kImportTimeoutMs fails, so that one file cannot hold up a
  // gallery.
  static constexpr int kImportTimeoutMs = 20000;
  void setCancelled(std::function<bool()> cancelled) { cancelled_ = std::move(cancelled); }
  const ThumbnailCache& cache() const { return cache_; }
  int size() const { return size_; }

 private:
  std::vector<QImage> texturesOf(formats::Scene& scene);

  ThumbnailCache cache_;
  int size_;
  std::unique_ptr<render::OffscreenGL> gl_;
  std::unique_ptr<render::Renderer> renderer_;
  std::map<std::string, QImage> textures_;
  std::function<bool()> cancelled_;
  // Per folder on disk: when its files were last looked at, and what was seen.
  mutable std::map<std::string, std::pair<std::chrono::steady_clock::time_point, QByteArray>> folderStates_;
};

// Thumbnails drawn in a thread of their own (or, where the platform cannot make GL contexts in
// threads, read there and drawn on the service's thread, a few milliseconds each). Requests are served newest first:
// what a view asks for while it paints is what it shows now. Results come back as `ready` in
// the thread the service lives in.
class ThumbnailService : public QObject {
  Q_OBJECT

 public:
  // Where pictures are drawn: Auto draws in the thread where the platform can make GL contexts
  // in threads (else as OnThisThread); OnThisThread reads in the thread, draws on this one.
  enum class Drawing { Auto, OnThisThread };
  explicit ThumbnailService(QString cacheFolder = ThumbnailCache::defaultFolder(), int size = kThumbnailSize,
                            QObject* parent = nullptr, Drawing drawing = Drawing::Auto);
  ~ThumbnailService() override;

  // The archives requests name by index. Requests not yet served are dropped.
  void setArchives(const formats::vfs::FileSystem& archives);
  // Queues a node's thumbnail (again: it moves to the front). At most kMaxQueued are kept;
  // the oldest go first.
  static constexpr std::size_t kMaxQueued = 4096;
  // The disk cache is cut back to this when the service starts (a picture is 5–20 KB).
  static constexpr qint64 kCacheBytes = qint64{512} << 20;
  void request(int archive, const std::string& path);
  // Drops every request not yet started.
  void clearRequests();
  int size() const { return size_; }
  // Why no thumbnail can be drawn (no GL context), or empty.
  QString unavailable() const;

 signals:
  // A thumbnail (or why there is none) of a node of the archives set `generation` times.
  void ready(int archive, const QByteArray& path, const QImage& image, const QString& error);

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
  std::unique_ptr<QOffscreenSurface> surface_;
  class QThread* thread_ = nullptr;
  std::unique_ptr<ThumbnailMaker> local_;  // draws, where the thread cannot
  int size_;
};

}  // namespace marrow::app
