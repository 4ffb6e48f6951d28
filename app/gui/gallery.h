// Browsing by picture: the models under a folder, a BRF file or a module as a grid of
// thumbnails (app/thumbnails.h). A tile asks for its picture when the view paints it, and shows
// a placeholder until the picture comes: scrolling never waits for drawing.
#pragma once

#include <QAbstractItemDelegate>
#include <QAbstractListModel>
#include <QCache>
#include <QHash>
#include <QPixmap>

#include <memory>
#include <string>
#include <vector>

#include "formats/io/vfs.h"

namespace marrow::app {

class ThumbnailService;

class GalleryModel : public QAbstractListModel {
  Q_OBJECT

 public:
  static constexpr int kPathRole = Qt::UserRole;      // the node's path (UTF-8 bytes)
  static constexpr int kStateRole = Qt::UserRole + 1;  // a State
  enum class State { Waiting, Drawn, Failed };
  // Pictures kept in memory (about 64 KB each at 128 × 128); the rest come back from the disk.
  static constexpr int kPicturesKept = 1500;

  explicit GalleryModel(ThumbnailService* service, QObject* parent = nullptr);
  // The delegate a view of the gallery uses: tiles of `size` (the view's grid), sized without
  // asking for their pictures, so that only the tiles painted are drawn.
  static QAbstractItemDelegate* tileDelegate(QSize size, QObject* parent);

  // The nodes of one archive to show (`archive` names them for addresses), and the title of
  // what they are under.
  void setNodes(int archiveIndex, std::shared_ptr<const formats::vfs::Archive> archive,
                std::vector<formats::vfs::Node> nodes, QString title);
  // The same nodes of the archive opened again (an entry of it was opened): the tiles, their
  // pictures, the view's place and selection stay. False (nothing changed) when the nodes differ.
  bool keepNodes(int archiveIndex, std::shared_ptr<const formats::vfs::Archive> archive,
                 const std::vector<formats::vfs::Node>& nodes);
  void clear();
  int archive() const { return archive_; }
  const QString& title() const { return title_; }
  const formats::vfs::Node& node(int row) const { return nodes_[static_cast<std::size_t>(row)]; }
  // Pictures received and failures, since setNodes.
  int drawn() const { return drawn_; }
  int failed() const { return failed_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;

 private:
  void received(int archive, const QByteArray& path, const QImage& image, const QString& error);

  ThumbnailService* service_;
  int archive_ = -1;
  std::shared_ptr<const formats::vfs::Archive> source_;
  QString title_;
  std::vector<formats::vfs::Node> nodes_;
  std::vector<QString> errors_;  // per row: why it has no picture
  std::vector<bool> everDrawn_;
  QHash<QByteArray, int> rows_;
  mutable QCache<int, QPixmap> pictures_{kPicturesKept * 64};  // cost: KB
  QPixmap waiting_, failedTile_;
  int drawn_ = 0, failed_ = 0;
};

}  // namespace marrow::app
