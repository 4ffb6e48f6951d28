#include "app/gui/gallery.h"

#include <QPainter>
#include <QStyledItemDelegate>

#include "app/thumbnails.h"

namespace marrow::app {

namespace {

QPixmap tile(int size, bool failed) {
  QPixmap p(size, size);
  p.fill(QColor(56, 59, 64));  // the viewport's background, a little darker
  QPainter painter(&p);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(QColor(90, 94, 100), 1));
  painter.drawRect(QRectF(0.5, 0.5, size - 1.0, size - 1.0));
  if (failed) {
    painter.setPen(QPen(QColor(200, 90, 80), 3));
    const double m = size * 0.38;
    painter.drawLine(QPointF(m, m), QPointF(size - m, size - m));
    painter.drawLine(QPointF(size - m, m), QPointF(m, size - m));
  } else {
    painter.setPen(QColor(120, 124, 130));
    painter.drawText(QRect(0, 0, size, size), Qt::AlignCenter, QStringLiteral("…"));
  }
  return p;
}

// A tile's size without asking the model: a view sizes its items (the last one, too) before it
// paints them, and asking for the picture would draw it.
class TileDelegate : public QStyledItemDelegate {
 public:
  TileDelegate(QSize size, QObject* parent) : QStyledItemDelegate(parent), size_(size) {}
  QSize sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const override { return size_; }

 private:
  QSize size_;
};

}  // namespace

QAbstractItemDelegate* GalleryModel::tileDelegate(QSize size, QObject* parent) {
  return new TileDelegate(size, parent);
}

GalleryModel::GalleryModel(ThumbnailService* service, QObject* parent)
    : QAbstractListModel(parent),
      service_(service),
      waiting_(tile(service ? service->size() : kThumbnailSize, false)),
      failedTile_(tile(service ? service->size() : kThumbnailSize, true)) {
  if (service_) connect(service_, &ThumbnailService::ready, this, &GalleryModel::received);
}

bool GalleryModel::keepNodes(int archiveIndex, std::shared_ptr<const formats::vfs::Archive> archive,
                             const std::vector<formats::vfs::Node>& nodes) {
  if (archiveIndex != archive_ || nodes.size() != nodes_.size()) return false;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].path != nodes_[i].path) return false;
  source_ = std::move(archive);
  return true;
}

void GalleryModel::setNodes(int archiveIndex, std::shared_ptr<const formats::vfs::Archive> archive,
                            std::vector<formats::vfs::Node> nodes, QString title) {
  beginResetModel();
  if (service_) service_->clearRequests();  // the tiles of the last gallery are not on screen now
  archive_ = archiveIndex;
  source_ = std::move(archive);
  title_ = std::move(title);
  nodes_ = std::move(nodes);
  errors_.assign(nodes_.size(), QString());
  everDrawn_.assign(nodes_.size(), false);
  rows_.clear();
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    rows_.insert(QByteArray::fromStdString(nodes_[i].path), static_cast<int>(i));
  pictures_.clear();
  drawn_ = failed_ = 0;
  endResetModel();
}

void GalleryModel::clear() { setNodes(-1, nullptr, {}, {}); }

int GalleryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(nodes_.size());
}

QVariant GalleryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const int row = index.row();
  const formats::vfs::Node& n = nodes_[static_cast<std::size_t>(row)];
  const QString& error = errors_[static_cast<std::size_t>(row)];
  switch (role) {
    case Qt::DisplayRole:
      return QString::fromStdString(n.name);
    case Qt::DecorationRole:
      if (const QPixmap* p = pictures_.object(row)) return *p;
      if (!error.isEmpty()) return failedTile_;
      // Asked for as the view paints the tile: the newest request is served first.
      if (service_) service_->request(archive_, n.path);
      return waiting_;
    case Qt::ToolTipRole: {
      QString tip = source_ ? QString::fromStdString(source_->addressOf(n.path).str()) : QString::fromStdString(n.path);
      if (!n.detail.empty()) tip += QLatin1Char('\n') + QString::fromStdString(n.detail);
      if (!error.isEmpty()) tip += QLatin1Char('\n') + error;
      return tip;
    }
    case kPathRole:
      return QByteArray::fromStdString(n.path);
    case kStateRole:
      return static_cast<int>(pictures_.contains(row) ? State::Drawn : error.isEmpty() ? State::Waiting : State::Failed);
    default:
      return {};
  }
}

void GalleryModel::received(int archive, const QByteArray& path, const QImage& image, const QString& error) {
  if (archive != archive_) return;
  const int row = rows_.value(path, -1);
  if (row < 0) return;
  if (image.isNull()) {
    if (errors_[static_cast<std::size_t>(row)].isEmpty()) ++failed_;
    errors_[static_cast<std::size_t>(row)] = error.isEmpty() ? tr("no picture") : error;
  } else {
    if (!everDrawn_[static_cast<std::size_t>(row)]) ++drawn_;
    everDrawn_[static_cast<std::size_t>(row)] = true;
    auto* picture = new QPixmap(QPixmap::fromImage(image));
    pictures_.insert(row, picture, std::max<qsizetype>(1, picture->width() * picture->height() * 4 / 1024));
  }
  const QModelIndex at = index(row);
  emit dataChanged(at, at, {Qt::DecorationRole, Qt::ToolTipRole, kStateRole});
}

}  // namespace marrow::app
