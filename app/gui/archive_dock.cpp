#include "app/gui/archive_dock.h"

#include <QComboBox>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

#include "app/gui/gallery.h"
#include "app/thumbnails.h"
#include "formats/folder_models.h"
#include "formats/format_table.h"
#include "formats/io/extract.h"
#include "formats/model/model_archive.h"

namespace marrow::app {

namespace vfs = formats::vfs;

namespace {

constexpr int kRowRole = Qt::UserRole;          // a Row
constexpr int kArchiveRole = Qt::UserRole + 1;  // the archive's index
constexpr int kPathRole = Qt::UserRole + 2;     // the node's path (UTF-8 bytes)
constexpr int kContainerRole = Qt::UserRole + 3;
constexpr int kBytesRole = Qt::UserRole;        // the size column: the exact count

QString qstr(const std::string& s) { return QString::fromStdString(s); }

QString key(int archive, const std::string& path) {
  return QString::number(archive) + QLatin1Char('\n') + qstr(path);
}

void setBytes(QTreeWidgetItem* row, std::uint64_t bytes) {
  const QLocale locale;
  row->setText(ArchiveDock::kSize, locale.formattedDataSize(static_cast<qint64>(bytes)));
  row->setData(ArchiveDock::kSize, kBytesRole, static_cast<qulonglong>(bytes));
  row->setToolTip(ArchiveDock::kSize, QObject::tr("%1 bytes").arg(locale.toString(static_cast<qulonglong>(bytes))));
  row->setTextAlignment(ArchiveDock::kSize, Qt::AlignRight | Qt::AlignVCenter);
}

void greyOut(QTreeWidgetItem* row, bool strike) {
  QFont font = row->font(ArchiveDock::kName);
  font.setStrikeOut(strike);
  font.setItalic(!strike);
  for (int c = 0; c < ArchiveDock::kColumns; ++c) {
    row->setForeground(c, QColor(Qt::gray));
    row->setFont(c, font);
  }
}

// Widens the Name column to the widest of `rows` (the first 2,000 measured), indented `depth`
// levels, up to two thirds of the view: names are read whole where there is room, elided in
// their middle where there is not.
void widenNames(QTreeWidget* view, const QList<QTreeWidgetItem*>& rows, int depth) {
  const QFontMetrics metrics(view->font());
  int widest = 0;
  for (qsizetype i = 0; i < rows.size() && i < 2000; ++i)
    widest = std::max(widest, metrics.horizontalAdvance(rows[i]->text(ArchiveDock::kName)));
  const int want = widest + view->indentation() * (depth + 1) + 32;  // the branch and an icon's room
  const int most = std::max(220, view->viewport()->width() * 2 / 3);
  if (want > view->columnWidth(ArchiveDock::kName))
    view->setColumnWidth(ArchiveDock::kName, std::min(want, most));
}

QTreeWidget* makeView(QWidget* parent) {
  auto* view = new QTreeWidget(parent);
  view->setColumnCount(ArchiveDock::kColumns);
  view->setHeaderLabels({QObject::tr("Name"), QObject::tr("Size"), QObject::tr("Details")});
  view->header()->setSectionResizeMode(QHeaderView::Interactive);
  view->header()->setStretchLastSection(true);
  view->setColumnWidth(ArchiveDock::kName, 220);
  view->setColumnWidth(ArchiveDock::kSize, 72);
  view->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view->setUniformRowHeights(true);  // large folders scroll smoothly
  view->setAlternatingRowColors(true);
  view->setTextElideMode(Qt::ElideMiddle);  // a long name keeps its end (the extension) in sight
  view->setContextMenuPolicy(Qt::CustomContextMenu);
  return view;
}

}  // namespace

ArchiveDock::ArchiveDock(QWidget* parent) : QDockWidget(tr("Archives"), parent) {
  setObjectName(QStringLiteral("ArchiveDock"));
  auto* body = new QWidget(this);
  auto* rows = new QVBoxLayout(body);
  rows->setContentsMargins(4, 4, 4, 4);

  auto* top = new QHBoxLayout();
  filter_ = new QLineEdit(body);
  filter_->setPlaceholderText(tr("Find by name in everything open"));
  filter_->setClearButtonEnabled(true);
  extractButton_ = new QToolButton(body);
  extractButton_->setText(tr("Extract…"));
  extractButton_->setToolTip(tr("Extract the selected files and folders into a folder"));
  extractAllButton_ = new QToolButton(body);
  extractAllButton_->setText(tr("Extract all…"));
  extractAllButton_->setToolTip(tr("Extract every file of the open archives into a folder"));
  galleryButton_ = new QToolButton(body);
  galleryButton_->setText(tr("Pictures"));
  galleryButton_->setCheckable(true);
  galleryButton_->setToolTip(tr("Show a picture of every model under the selected folder, file or module "
                                "(drawn in the background, kept in the cache folder)"));
  top->addWidget(filter_, 1);
  top->addWidget(galleryButton_);
  top->addWidget(extractButton_);
  top->addWidget(extractAllButton_);
  rows->addLayout(top);

  auto* skeletonRow = new QHBoxLayout();
  skeletonLabel_ = new QLabel(tr("Skeleton:"), body);
  skeletons_ = new QComboBox(body);
  skeletons_->setToolTip(tr("The skeleton the shown meshes and animations play on"));
  skeletons_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  skeletons_->setMinimumContentsLength(12);
  skeletonRow->addWidget(skeletonLabel_);
  skeletonRow->addWidget(skeletons_, 1);
  rows->addLayout(skeletonRow);

  views_ = new QStackedWidget(body);
  tree_ = makeView(views_);
  matches_ = makeView(views_);
  matches_->setRootIsDecorated(false);
  gallery_ = new QListView(views_);
  gallery_->setObjectName(QStringLiteral("gallery"));
  gallery_->setViewMode(QListView::IconMode);
  gallery_->setMovement(QListView::Static);
  gallery_->setResizeMode(QListView::Adjust);
  gallery_->setUniformItemSizes(true);  // only the tiles on screen are asked for their pictures
  gallery_->setLayoutMode(QListView::Batched);
  gallery_->setBatchSize(500);
  gallery_->setIconSize(QSize(kThumbnailSize, kThumbnailSize));
  gallery_->setGridSize(QSize(kThumbnailSize + 16, kThumbnailSize + 34));
  gallery_->setItemDelegate(GalleryModel::tileDelegate(QSize(kThumbnailSize + 12, kThumbnailSize + 30), gallery_));
  gallery_->setWordWrap(false);
  gallery_->setTextElideMode(Qt::ElideMiddle);
  gallery_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  gallery_->setContextMenuPolicy(Qt::CustomContextMenu);
  views_->addWidget(tree_);
  views_->addWidget(matches_);
  views_->addWidget(gallery_);
  rows->addWidget(views_, 1);
  status_ = new QLabel(body);
  status_->setWordWrap(true);
  rows->addWidget(status_);
  setWidget(body);

  // Filtering 100,000 names takes milliseconds; the pause only spares the typist the redraws.
  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(150);
  connect(filter_, &QLineEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
  connect(debounce_, &QTimer::timeout, this, &ArchiveDock::applyFilter);
  connect(tree_, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* item) {
    fetchChildren(item);
    expanded_.insert(key(rowArchive(item), rowPath(item)));
  });
  connect(tree_, &QTreeWidget::itemCollapsed, this,
          [this](QTreeWidgetItem* item) { expanded_.remove(key(rowArchive(item), rowPath(item))); });
  for (QTreeWidget* view : {tree_, matches_}) {
    connect(view, &QTreeWidget::itemActivated, this, &ArchiveDock::activate);
    connect(view, &QTreeWidget::customContextMenuRequested, this,
            [this, view](const QPoint& at) { showMenu(view, at); });
    connect(view, &QTreeWidget::itemSelectionChanged, this, &ArchiveDock::selectionChanged);
  }
  connect(skeletons_, &QComboBox::currentIndexChanged, this, &ArchiveDock::skeletonChosen);
  connect(extractButton_, &QToolButton::clicked, this, &ArchiveDock::extractSelectedDialog);
  connect(extractAllButton_, &QToolButton::clicked, this, &ArchiveDock::extractAllDialog);
  connect(galleryButton_, &QToolButton::toggled, this, [this](bool on) {
    if (on == galleryShown()) return;
    if (on) showGalleryOfCurrent();
    else hideGallery();
  });
  connect(gallery_, &QListView::activated, this, [this](const QModelIndex& index) {
    if (!galleryModel_ || !index.isValid()) return;
    const std::string path = index.data(GalleryModel::kPathRole).toByteArray().toStdString();
    activateNode(galleryModel_->archive(), path, index.data(Qt::ToolTipRole).toString().section(QLatin1Char('\n'), 0, 0));
  });
  connect(gallery_, &QListView::customContextMenuRequested, this, &ArchiveDock::showGalleryMenu);
  setSkeletons({}, {}, std::nullopt);
  updateStatus();
}

ArchiveDock::~ArchiveDock() = default;

const vfs::Archive* ArchiveDock::archiveAt(int index) const {
  const auto& all = archives_.archives();
  return index >= 0 && static_cast<std::size_t>(index) < all.size() ? all[static_cast<std::size_t>(index)].get()
                                                                     : nullptr;
}

bool ArchiveDock::showsModels(int archive) const {
  return dynamic_cast<const formats::ModelArchive*>(archiveAt(archive)) != nullptr;
}

void ArchiveDock::setArchives(const vfs::FileSystem& archives) {
  QStringList titles;
  for (const auto& a : archives.archives()) titles << qstr(a->title()) + QLatin1Char('\t') + QString::fromLatin1(a->kind());
  const bool same = titles == titles_ && !titles.isEmpty();
  // The selection, by node, to come back to when the same archives are set again.
  std::vector<Picked> before;
  std::optional<Picked> current;
  if (same) {
    before = selectedNodes();
    if (QTreeWidgetItem* c = tree_->currentItem(); c && rowKind(c) == Row::Node)
      current = Picked{rowArchive(c), rowPath(c)};
  }
  archives_ = archives;
  titles_ = titles;
  if (!same) expanded_.clear();
  {
    const QSignalBlocker block(tree_);
    rebuild();
    if (same) {
      if (current)
        if (QTreeWidgetItem* row = reveal(current->archive, current->path)) tree_->setCurrentItem(row);
      tree_->clearSelection();
      for (const Picked& p : before)
        if (QTreeWidgetItem* row = reveal(p.archive, p.path)) row->setSelected(true);
    }
  }
  if (!same) setSkeletons({}, {}, std::nullopt);
  if (thumbnails_) thumbnails_->setArchives(archives_);
  if (galleryShown()) {
    // The gallery's archive still open (an entry of the archives was opened, perhaps beside
    // them: a BRF file of a folder) keeps its gallery; else it ends.
    int still = -1;
    for (int i = 0; i < titles_.size() && still < 0; ++i)
      if (titles_[i] == galleryTitle_) still = i;
    if (still >= 0) showGallery(still, galleryPath_);
    else hideGallery();
  }
  if (!same) offerFolderModels();
  // Records have figures, not sizes: the size column is for archives of files.
  bool files = false;
  for (const auto& a : archives_.archives()) files |= !a->holdsRecords();
  for (QTreeWidget* view : {tree_, matches_}) view->setColumnHidden(kSize, !files);
  applyFilter();
}

void ArchiveDock::rebuild() {
  tree_->clear();
  const auto& all = archives_.archives();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const vfs::Archive& a = *all[i];
    // An archive of one file (a BRF file alone) is that file's row: no row above it says the same.
    const auto roots = a.children("");
    const bool single =
        a.holdsRecords() && roots.size() == 1 && roots.front().container && a.openedFrom().size() == 1;
    auto* top = new QTreeWidgetItem(tree_, {single ? qstr(roots.front().name) : qstr(a.title())});
    top->setData(kName, kRowRole, static_cast<int>(Row::Archive));
    top->setData(kName, kArchiveRole, static_cast<int>(i));
    top->setData(kName, kPathRole, single ? QByteArray::fromStdString(roots.front().path) : QByteArray());
    top->setData(kName, kContainerRole, true);
    if (single) top->setText(kDetails, qstr(roots.front().detail));
    QFont bold = top->font(kName);
    bold.setBold(true);
    top->setFont(kName, bold);
    const std::vector<std::string> files = a.openedFrom();
    QStringList tip;
    for (const auto& f : files) tip << qstr(f);
    top->setToolTip(kName, tip.join(QLatin1Char('\n')));
    new QTreeWidgetItem(top, {tr("…")});  // a placeholder: shows the expander
    top->child(0)->setData(kName, kRowRole, static_cast<int>(Row::Placeholder));
    fetchChildren(top);
    top->setExpanded(true);
    // Archives of records show their files' groups and records at once: a file of records is
    // small, and its records are what one looks for. A library of many files (a Warband module
    // loads hundreds) shows its files, each opened on demand; the filter finds across them all.
    constexpr int kFilesOpenedAtOnce = 8;
    if (a.holdsRecords() && top->childCount() <= kFilesOpenedAtOnce) {
      std::vector<QTreeWidgetItem*> open{top};
      for (int depth = single ? 1 : 2; depth > 0; --depth) {
        std::vector<QTreeWidgetItem*> below;
        for (QTreeWidgetItem* item : open)
          for (int c = 0; c < item->childCount(); ++c) {
            QTreeWidgetItem* child = item->child(c);
            if (!child->data(kName, kContainerRole).toBool()) continue;
            fetchChildren(child);
            child->setExpanded(true);
            below.push_back(child);
          }
        open = std::move(below);
      }
    }
  }
  // Containers that were open stay open (their rows are made as they open).
  const QSet<QString> open = expanded_;
  for (const QString& k : open) {
    const int archive = k.section(QLatin1Char('\n'), 0, 0).toInt();
    const std::string path = k.section(QLatin1Char('\n'), 1).toStdString();
    if (QTreeWidgetItem* row = reveal(archive, path)) {
      fetchChildren(row);
      row->setExpanded(true);
    }
  }
  tree_->resizeColumnToContents(kName);
  tree_->setColumnWidth(kName, std::clamp(tree_->columnWidth(kName), 160, 320));
}

QTreeWidgetItem* ArchiveDock::nodeRow(int archive, const vfs::Node& node, bool flat) const {
  const vfs::Archive* a = archiveAt(archive);
  QString name = qstr(node.name);
  if (node.kind == "group" && !node.detail.empty()) name += QStringLiteral(" (%1)").arg(qstr(node.detail));
  if (flat) {
    const std::string inner = a ? a->addressOf(node.path).inner : node.path;
    if (!inner.empty() && node.kind != "group") name = qstr(inner);
  }
  auto* row = new QTreeWidgetItem({name});
  row->setData(kName, kRowRole, static_cast<int>(Row::Node));
  row->setData(kName, kArchiveRole, archive);
  row->setData(kName, kPathRole, QByteArray::fromStdString(node.path));
  row->setData(kName, kContainerRole, node.container);
  if (!node.container && !node.has(vfs::Node::Deleted) && (node.size > 0 || node.kind == "file"))
    setBytes(row, node.size);
  if (node.kind != "group") row->setText(kDetails, qstr(node.detail));
  if (a) row->setToolTip(kName, qstr(a->addressOf(node.path).str()));
  row->setToolTip(kDetails, row->text(kDetails));
  if (node.kind == "group") row->setFlags(row->flags() & ~Qt::ItemIsSelectable);
  if (node.has(vfs::Node::Deleted)) {
    row->setText(kName, tr("%1 (deleted)").arg(name));
    row->setToolTip(kName, tr("%1: deleted (its slot remains)").arg(row->toolTip(kName)));
    greyOut(row, true);
  } else if (node.has(vfs::Node::Overridden)) {
    row->setText(kName, tr("%1 (overridden)").arg(name));
    row->setToolTip(kName, tr("Hidden by an earlier archive or an earlier entry of the same path"));
    greyOut(row, false);
  } else if (node.has(vfs::Node::Unreadable)) {
    row->setText(kName, tr("%1 (unreadable)").arg(name));
    for (int c = 0; c < kColumns; ++c) row->setForeground(c, QColor(Qt::darkRed));
  } else if (node.has(vfs::Node::Unused)) {
    row->setToolTip(kName, tr("%1: nothing in the module uses it (Properties lists users)").arg(row->toolTip(kName)));
    greyOut(row, false);
  }
  if (node.container && !flat) {
    auto* placeholder = new QTreeWidgetItem(row, {tr("…")});
    placeholder->setData(kName, kRowRole, static_cast<int>(Row::Placeholder));
  }
  return row;
}

void ArchiveDock::fetchChildren(QTreeWidgetItem* item) {
  if (item->childCount() != 1 || rowKind(item->child(0)) != Row::Placeholder) return;
  delete item->takeChild(0);
  const int archive = rowArchive(item);
  const vfs::Archive* a = archiveAt(archive);
  if (!a) return;
  QList<QTreeWidgetItem*> rows;
  for (const vfs::Node& n : a->children(rowPath(item))) rows << nodeRow(archive, n, false);
  item->addChildren(rows);  // one insertion: a folder of 50,000 files appears at once
  int depth = 0;
  for (const QTreeWidgetItem* up = item; up->parent(); up = up->parent()) ++depth;
  widenNames(tree_, rows, depth + 1);
}

QTreeWidgetItem* ArchiveDock::reveal(int archive, const std::string& path) {
  QTreeWidgetItem* top = nullptr;
  for (int i = 0; i < tree_->topLevelItemCount() && !top; ++i)
    if (rowArchive(tree_->topLevelItem(i)) == archive) top = tree_->topLevelItem(i);
  if (!top || path.empty()) return top;
  // The chain of containers from the root down to the node.
  std::vector<std::string> chain;
  for (std::string p = path;;) {
    chain.push_back(p);
    const auto slash = p.find_last_of('/');
    if (slash == std::string::npos) break;
    p = p.substr(0, slash);
  }
  std::reverse(chain.begin(), chain.end());
  QTreeWidgetItem* at = top;
  const std::string topPath = rowPath(top);  // the one file of an archive shown as its row
  if (!topPath.empty()) {
    if (chain.empty() || chain.front() != topPath) return nullptr;
    chain.erase(chain.begin());
    if (chain.empty()) return top;
  }
  for (const std::string& step : chain) {
    fetchChildren(at);
    QTreeWidgetItem* next = nullptr;
    for (int c = 0; c < at->childCount() && !next; ++c)
      if (rowPath(at->child(c)) == step) next = at->child(c);
    if (!next) {
      // A path that is not a chain of '/'-separated containers (a copy's own path): search the
      // children of the last container reached for the node itself.
      for (int c = 0; c < at->childCount() && !next; ++c)
        if (rowPath(at->child(c)) == path) next = at->child(c);
      if (!next) return nullptr;
      at->setExpanded(true);
      return next;
    }
    at->setExpanded(true);
    at = next;
  }
  return at;
}

QString ArchiveDock::filter() const { return filter_->text(); }

void ArchiveDock::setFilter(const QString& text) {
  {
    const QSignalBlocker block(filter_);
    filter_->setText(text);
  }
  debounce_->stop();
  applyFilter();
}

void ArchiveDock::applyFilter() {
  const QString needle = filter_->text().trimmed();
  if (galleryShown()) {
    // Tiles the filter hides leave the selection without picking anything anew.
    const QSignalBlocker block(gallery_->selectionModel());
    galleryFilter_->setFilterFixedString(needle);
    return updateStatus();
  }
  views_->setCurrentWidget(needle.isEmpty() ? tree_ : matches_);
  const QSignalBlocker block(matches_);
  matches_->clear();
  if (needle.isEmpty() || archives_.empty()) return updateStatus();
  const std::string n = needle.toStdString();
  QList<QTreeWidgetItem*> rows;
  std::size_t found = 0;
  const auto& all = archives_.archives();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto hits = all[i]->search(n, kMaxMatches + 1);
    for (const vfs::Node& node : hits) {
      if (node.kind == "group") continue;
      if (++found <= static_cast<std::size_t>(kMaxMatches)) rows << nodeRow(static_cast<int>(i), node, true);
    }
  }
  if (found > static_cast<std::size_t>(kMaxMatches)) {
    auto* more = new QTreeWidgetItem({tr("… more than %1: refine the filter").arg(QLocale().toString(kMaxMatches))});
    more->setData(kName, kRowRole, static_cast<int>(Row::More));
    more->setFlags(Qt::ItemIsEnabled);
    rows << more;
  }
  matches_->addTopLevelItems(rows);
  widenNames(matches_, rows, 0);
  updateStatus();
}

ArchiveDock::Row ArchiveDock::rowKind(const QTreeWidgetItem* item) {
  return static_cast<Row>(item->data(kName, kRowRole).toInt());
}

int ArchiveDock::rowArchive(const QTreeWidgetItem* item) {
  return item->data(kName, kArchiveRole).isValid() ? item->data(kName, kArchiveRole).toInt() : -1;
}

std::string ArchiveDock::rowPath(const QTreeWidgetItem* item) {
  return item->data(kName, kPathRole).toByteArray().toStdString();
}

std::optional<vfs::Node> ArchiveDock::rowNode(const QTreeWidgetItem* item) const {
  if (!item || rowKind(item) != Row::Node) return std::nullopt;
  const vfs::Archive* a = archiveAt(rowArchive(item));
  return a ? a->node(rowPath(item)) : std::nullopt;
}

QTreeWidget* ArchiveDock::currentView() const {
  return views_->currentWidget() == matches_ ? matches_ : tree_;
}

std::vector<ArchiveDock::Picked> ArchiveDock::selectedNodes() const {
  std::vector<Picked> out;
  for (QTreeWidgetItemIterator it(currentView(), QTreeWidgetItemIterator::Selected); *it; ++it)
    if (rowKind(*it) == Row::Node) out.push_back({rowArchive(*it), rowPath(*it)});
  return out;
}

std::vector<std::string> ArchiveDock::selectedPaths(int archive) const {
  std::vector<std::string> out;
  for (const Picked& p : selectedNodes())
    if (p.archive == archive) out.push_back(p.path);
  return out;
}

void ArchiveDock::selectNodes(int archive, const std::vector<std::string>& paths) {
  if (currentView() != tree_) setFilter({});
  {
    const QSignalBlocker block(tree_);
    tree_->clearSelection();
    QTreeWidgetItem* first = nullptr;
    for (const std::string& p : paths)
      if (QTreeWidgetItem* row = reveal(archive, p)) {
        row->setSelected(true);
        if (!first) first = row;
      }
    if (first) tree_->scrollToItem(first);
  }
  selectionChanged();
}

void ArchiveDock::selectionChanged() {
  updateStatus();
  // A pick in an archive that shows models, or a pick taken back there, changes the model.
  int archive = -1;
  for (const Picked& p : selectedNodes())
    if (showsModels(p.archive)) {
      archive = p.archive;
      break;
    }
  if (archive < 0)
    for (std::size_t i = 0; i < archives_.archives().size(); ++i)
      if (showsModels(static_cast<int>(i))) {
        archive = static_cast<int>(i);
        break;
      }
  if (archive >= 0) emit picked(archive);
}

void ArchiveDock::setSkeletons(const std::vector<vfs::Node>& fitting, const QString& automatic,
                               const std::optional<std::string>& chosen) {
  const QSignalBlocker block(skeletons_);
  skeletons_->clear();
  skeletons_->addItem(automatic.isEmpty() ? tr("automatic: none") : tr("automatic: %1").arg(automatic));
  for (const vfs::Node& s : fitting) {
    skeletons_->addItem(tr("%1 (%2)").arg(qstr(s.name), qstr(s.detail)), QByteArray::fromStdString(s.path));
    if (chosen && *chosen == s.path) skeletons_->setCurrentIndex(skeletons_->count() - 1);
  }
  skeletons_->setEnabled(!fitting.empty());
  skeletonLabel_->setEnabled(!fitting.empty());
  bool models = false;
  for (std::size_t i = 0; i < archives_.archives().size(); ++i) models |= showsModels(static_cast<int>(i));
  skeletons_->setVisible(models);
  skeletonLabel_->setVisible(models);
}

std::optional<std::string> ArchiveDock::chosenSkeleton() const {
  const QVariant v = skeletons_->currentData();
  if (!v.isValid()) return std::nullopt;
  return v.toByteArray().toStdString();
}

void ArchiveDock::chooseSkeleton(const std::optional<std::string>& path) {
  int index = 0;
  for (int i = 1; i < skeletons_->count() && path; ++i)
    if (skeletons_->itemData(i).toByteArray().toStdString() == *path) index = i;
  if (index == skeletons_->currentIndex()) return;
  skeletons_->setCurrentIndex(index);  // emits skeletonChosen
}

std::vector<vfs::Node> ArchiveDock::selectedFiles(int* archive) const {
  const auto picked = selectedNodes();
  if (picked.empty()) return {};
  const int which = picked.front().archive;
  if (archive) *archive = which;
  const vfs::Archive* a = archiveAt(which);
  if (!a) return {};
  std::vector<std::string> paths;
  for (const Picked& p : picked)
    if (p.archive == which) paths.push_back(p.path);
  return formats::selectFiles(*a, paths);
}

Extraction* ArchiveDock::extract(int archive, const std::vector<vfs::Node>& files, const QString& folder) {
  if (files.empty() || (extraction_ && !extraction_->done())) return nullptr;
  const auto& all = archives_.archives();
  if (archive < 0 || static_cast<std::size_t>(archive) >= all.size()) return nullptr;
  if (extraction_) extraction_->deleteLater();
  extraction_ = new Extraction(formats::extractItemsOf(all[static_cast<std::size_t>(archive)], files), folder, this);
  connect(extraction_, &Extraction::finished, this, &ArchiveDock::finishExtraction);
  extraction_->start();
  updateStatus();
  return extraction_;
}

Extraction* ArchiveDock::extractAll(const QString& folder) {
  if (archives_.empty() || (extraction_ && !extraction_->done())) return nullptr;
  std::vector<formats::ExtractItem> items;
  for (const auto& a : archives_.archives()) {
    auto more = formats::extractItemsOf(a, a->files(""));
    items.insert(items.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  if (items.empty()) return nullptr;
  if (extraction_) extraction_->deleteLater();
  extraction_ = new Extraction(std::move(items), folder, this);
  connect(extraction_, &Extraction::finished, this, &ArchiveDock::finishExtraction);
  extraction_->start();
  updateStatus();
  return extraction_;
}

namespace {

// The folder an extraction starts in: the last one used, else the open archives' own.
// Where Extract… starts: the folder last extracted into when it can still be written, else the
// open archive's folder when it can, else the home folder; never the process's working folder.
QString startFolder(const vfs::FileSystem& archives) {
  const auto writable = [](const QString& dir) {
    const QFileInfo info(dir);
    return !dir.isEmpty() && info.isDir() && info.isWritable();
  };
  const QString last = QSettings().value(QStringLiteral("archive/extractDirectory")).toString();
  if (writable(last)) return last;
  for (const auto& a : archives.archives())
    for (const auto& f : a->openedFrom()) {
      const QFileInfo file(qstr(f));
      const QString dir = file.isDir() ? file.absoluteFilePath() : file.absolutePath();
      if (writable(dir)) return dir;
    }
  return QDir::homePath();
}

}  // namespace

void ArchiveDock::extractSelectedDialog() {
  int archive = -1;
  auto files = selectedFiles(&archive);
  if (files.empty()) {
    QMessageBox::information(this, tr("Extract"), tr("Select files or folders to extract."));
    return;
  }
  const QString folder = QFileDialog::getExistingDirectory(
      this, tr("Extract %1 files into").arg(files.size()), startFolder(archives_));
  if (folder.isEmpty()) return;
  QSettings().setValue(QStringLiteral("archive/extractDirectory"), folder);
  extract(archive, files, folder);
}

void ArchiveDock::extractAllDialog() {
  if (archives_.empty()) return;
  const QString folder =
      QFileDialog::getExistingDirectory(this, tr("Extract every file into"), startFolder(archives_));
  if (folder.isEmpty()) return;
  QSettings().setValue(QStringLiteral("archive/extractDirectory"), folder);
  extractAll(folder);
}

void ArchiveDock::finishExtraction() {
  const Extraction& x = *extraction_;
  emit info(tr("Extract: %1").arg(x.summary().section(QLatin1Char('\n'), 0, 1)));
  emit diagnostics(x.problems());
  auto* box = new QMessageBox(x.report().ok() ? QMessageBox::Information : QMessageBox::Warning,
                              tr("Extract"), x.summary(), QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // not exec(): the viewer keeps running
  updateStatus();
  emit extractionFinished();
}

QStringList ArchiveDock::openAddresses(const QTreeWidgetItem* item) const {
  if (!item || rowKind(item) != Row::Node) return {};
  return openAddresses(rowArchive(item), rowPath(item));
}

QStringList ArchiveDock::openAddresses(int archive, const std::string& path, bool wholeModel) const {
  const vfs::Archive* a = archiveAt(archive);
  const auto node = a ? a->node(path) : std::nullopt;
  if (!node || node->container || node->has(vfs::Node::Deleted) || node->has(vfs::Node::Unreadable))
    return {};
  if (showsModels(archive)) return {};
  // The other files of the archive go along: the file system, and what a skin finds by name,
  // stays whole.
  const formats::Address address = a->addressOf(node->path);
  QStringList out;
  if (wholeModel && address.whole() && !formats::holdsAnimationsOnly(node->name)) {
    // A file on disk with the files of the model it belongs to there (a cal3d part: its
    // skeleton and the parts that fit it).
    for (const std::string& f : formats::modelFilesOf(address.file)) out << qstr(f);
  } else {
    out << qstr(address.str());
  }
  for (const std::string& f : a->openedFrom())
    if (f != address.file && !out.contains(qstr(f))) out << qstr(f);
  return out;
}

void ArchiveDock::activate(QTreeWidgetItem* item) {
  if (rowKind(item) != Row::Node) return;
  activateNode(rowArchive(item), rowPath(item), item->toolTip(kName));
}

void ArchiveDock::activateNode(int archive, const std::string& path, const QString& label) {
  const vfs::Archive* a = archiveAt(archive);
  const auto node = a ? a->node(path) : std::nullopt;
  if (!node || node->container) return;  // folders open in place
  if (showsModels(archive)) return;  // picking shows it already
  if (node->has(vfs::Node::Deleted) || node->has(vfs::Node::Unreadable)) {
    emit info(tr("%1 cannot be opened: it is %2")
                  .arg(label, node->has(vfs::Node::Deleted) ? tr("deleted") : tr("outside the file")));
    return;
  }
  emit openRequested(openAddresses(archive, path, true));
}

bool ArchiveDock::galleryShown() const { return views_->currentWidget() == gallery_; }

void ArchiveDock::showGalleryOfCurrent() {
  int archive = 0;
  std::string path;
  if (const QTreeWidgetItem* item = tree_->currentItem()) {
    archive = std::max(0, rowArchive(item));
    path = rowPath(item);
    if (rowKind(item) == Row::Node && !item->data(kName, kContainerRole).toBool()) {
      // A file or a record: the gallery of what it is in.
      const QTreeWidgetItem* up = item->parent();
      path = up ? rowPath(up) : std::string();
    }
  }
  showGallery(archive, path);
}

void ArchiveDock::showGallery(int archive, const std::string& path) {
  const auto& all = archives_.archives();
  if (archive < 0 || static_cast<std::size_t>(archive) >= all.size()) {
    const QSignalBlocker block(galleryButton_);
    galleryButton_->setChecked(galleryShown());
    return;
  }
  const std::shared_ptr<const vfs::Archive> a = all[static_cast<std::size_t>(archive)];
  if (!thumbnails_) {
    thumbnails_ = new ThumbnailService(ThumbnailCache::defaultFolder(), kThumbnailSize, this);
    thumbnails_->setArchives(archives_);
    if (!thumbnails_->unavailable().isEmpty())
      emit info(tr("Pictures cannot be drawn: %1").arg(thumbnails_->unavailable()));
    galleryModel_ = new GalleryModel(thumbnails_, this);
    galleryFilter_ = new QSortFilterProxyModel(this);
    galleryFilter_->setSourceModel(galleryModel_);
    galleryFilter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    gallery_->setModel(galleryFilter_);
    connect(gallery_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ArchiveDock::galleryPicked);
    // The status line counts pictures: a few times a second is enough.
    statusSoon_ = new QTimer(this);
    statusSoon_->setSingleShot(true);
    statusSoon_->setInterval(250);
    connect(statusSoon_, &QTimer::timeout, this, &ArchiveDock::updateStatus);
    connect(galleryModel_, &GalleryModel::dataChanged, statusSoon_, qOverload<>(&QTimer::start));
  }
  galleryPath_ = path;
  galleryTitle_ = titles_.value(archive);
  views_->setCurrentWidget(gallery_);
  {
    const QSignalBlocker block(galleryButton_);
    galleryButton_->setChecked(true);
  }
  // Listed off the GUI thread: a folder of many files, or cal3d parts to sort out, takes a while.
  const auto node = path.empty() ? std::nullopt : a->node(path);
  const QString title = node ? qstr(a->addressOf(path).str()) : qstr(a->title());
  const int ticket = ++galleryListing_;
  listing_ = true;
  auto* watcher = new QFutureWatcher<std::vector<vfs::Node>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, ticket, archive, a, title] {
    watcher->deleteLater();
    if (ticket != galleryListing_) return;  // another gallery was asked for since
    listing_ = false;
    std::vector<vfs::Node> nodes = watcher->result();
    if (!galleryModel_->keepNodes(archive, a, nodes)) galleryModel_->setNodes(archive, a, std::move(nodes), title);
    {
      const QSignalBlocker block(gallery_->selectionModel());
      galleryFilter_->setFilterFixedString(filter_->text().trimmed());
    }
    updateStatus();
  });
  watcher->setFuture(QtConcurrent::run([a, path] {
    try {
      return galleryNodes(*a, path);
    } catch (const std::exception&) {  // out of memory listing a folder: an empty gallery
      return std::vector<vfs::Node>{};
    }
  }));
  updateStatus();
}

void ArchiveDock::offerFolderModels() {
  if (archives_.archives().size() != 1 || archives_.archives().front()->kind() != "folder") return;
  const std::shared_ptr<const vfs::Archive> folder = archives_.archives().front();
  const QString title = titles_.value(0);
  // Off the GUI thread: sorting cal3d parts out reads them.
  auto* watcher = new QFutureWatcher<formats::FolderContents>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, title] {
    watcher->deleteLater();
    if (titles_.size() != 1 || titles_.front() != title) return;  // another folder is open now
    const formats::FolderContents found = watcher->result();
    formats::Diagnostics unfit;
    for (const auto& u : found.unfit)
      unfit.warn(u.file, "model", formats::kNoOffset, u.why + "; it is not part of a model");
    if (!unfit.items.empty()) emit diagnostics(unfit);
    // Parts of several models side by side (cal3d files without a .cfg): the models, as pictures.
    const bool parts = std::any_of(found.models.begin(), found.models.end(), [](const auto& m) { return m.files.size() > 1; });
    if (!parts) return;
    QStringList names;
    for (const auto& m : found.models) names << QFileInfo(qstr(m.files.front())).completeBaseName();
    emit info(tr("The folder holds %1 (%2): double-click one to open it with its parts")
                  .arg(found.models.size() == 1 ? tr("one model") : tr("%1 models").arg(found.models.size()),
                       names.join(QStringLiteral(", "))));
    if (!galleryShown()) showGallery(0, "");
  });
  watcher->setFuture(QtConcurrent::run([folder] {
    std::vector<std::string> files;
    for (const vfs::Node& n : folder->children(""))
      if (const formats::Address a = folder->addressOf(n.path); !n.container && a.whole()) files.push_back(a.file);
    try {
      return formats::modelsInFolder(files);
    } catch (const std::exception&) {
      return formats::FolderContents{};
    }
  }));
}

void ArchiveDock::hideGallery() {
  ++galleryListing_;  // a listing under way is not shown
  listing_ = false;
  if (galleryModel_) galleryModel_->clear();
  {
    const QSignalBlocker block(galleryButton_);
    galleryButton_->setChecked(false);
  }
  views_->setCurrentWidget(tree_);
  applyFilter();
}

void ArchiveDock::galleryPicked() {
  if (!galleryModel_) return;
  std::vector<std::string> paths;
  for (const QModelIndex& index : gallery_->selectionModel()->selectedIndexes())
    paths.push_back(index.data(GalleryModel::kPathRole).toByteArray().toStdString());
  selectNodes(galleryModel_->archive(), paths);
}

void ArchiveDock::showGalleryMenu(const QPoint& at) {
  const QModelIndex index = gallery_->indexAt(at);
  QMenu menu(this);
  if (index.isValid() && galleryModel_) {
    const int archive = galleryModel_->archive();
    const std::string path = index.data(GalleryModel::kPathRole).toByteArray().toStdString();
    if (!showsModels(archive))
      menu.addAction(tr("Open"), this, [this, archive, path, label = index.data(Qt::ToolTipRole).toString()] {
        activateNode(archive, path, label.section(QLatin1Char('\n'), 0, 0));
      });
    menu.addAction(tr("Show in the Tree"), this, [this, archive, path] {
      hideGallery();
      selectNodes(archive, {path});
    });
    menu.addSeparator();
  }
  menu.addAction(tr("Back to the Tree"), this, &ArchiveDock::hideGallery);
  menu.exec(gallery_->viewport()->mapToGlobal(at));
}

void ArchiveDock::fillMenu(QMenu& menu, QTreeWidget* view, QTreeWidgetItem* item) {
  const auto node = rowNode(item);
  const int archive = item ? rowArchive(item) : -1;
  if (node && showsModels(archive)) {
    // Export… of the records selected, or of the one clicked when it is not among them.
    std::vector<std::string> paths;
    if (!item->isSelected()) paths.push_back(node->path);
    else paths = selectedPaths(archive);
    const QString label = paths.size() > 1 ? tr("Export %1 Records…").arg(paths.size()) : tr("Export…");
    QAction* a = menu.addAction(label, this, [this, archive, paths] { emit exportNodesRequested(archive, paths); });
    a->setEnabled(!paths.empty());
    a->setToolTip(tr("Write the records as a model (glTF, OMF, cal3d) or as a file of records"));
    addUsersMenu(menu, archive, *node);
    menu.addSeparator();
  } else if (node && !node->container) {
    menu.addAction(tr("Open"), this, [this, item] { activate(item); });
    const QStringList addresses = openAddresses(item);
    const bool animation = formats::holdsAnimationsOnly(node->name);
    QAction* add = menu.addAction(animation ? tr("Play on the Open Model") : tr("Add to the Model"), this,
                                  [this, addresses] { emit addRequested(addresses); });
    add->setEnabled(!addresses.isEmpty() && hasModel_);
    add->setToolTip(animation ? tr("Add the entry's clips to the open model's timeline (retargeted by bone "
                                   "name when they bring a skeleton of their own); double-click does this "
                                   "too when the bones match")
                              : tr("Read the entry with the open model: an animation plays on it (retargeted "
                                   "by bone name when it brings a skeleton of its own), a mesh joins it"));
    QAction* x = menu.addAction(tr("Export…"), this, [this, addresses] { emit exportEntryRequested(addresses); });
    x->setEnabled(!addresses.isEmpty());
    x->setToolTip(tr("Write the entry as a model (glTF, OMF, cal3d), leaving the viewer as it is"));
    menu.addSeparator();
  }
  if (item && (rowKind(item) == Row::Archive || (node && node->container))) {
    menu.addAction(tr("Show as Pictures"), this, [this, archive, path = rowPath(item)] { showGallery(archive, path); });
    menu.addSeparator();
  }
  QAction* some = menu.addAction(tr("Extract…"), this, &ArchiveDock::extractSelectedDialog);
  some->setEnabled(!view->selectedItems().isEmpty());
  menu.addAction(tr("Extract all…"), this, &ArchiveDock::extractAllDialog)->setEnabled(!archives_.empty());
}

// "Used by": what uses the record, as the library worked it out; a record among them is
// selected when picked.
void ArchiveDock::addUsersMenu(QMenu& menu, int archive, const formats::vfs::Node& node) {
  const auto users = archives_.archives()[static_cast<std::size_t>(archive)]->users(node.path);
  if (!users) return;
  if (users->empty()) {
    menu.addAction(tr("Used by nothing in the module"))->setEnabled(false);
    return;
  }
  QMenu* sub = menu.addMenu(tr("Used by (%1)").arg(users->size()));
  sub->setObjectName(QStringLiteral("usedByMenu"));
  for (const auto& u : *users) {
    QAction* a = sub->addAction(QString::fromStdString(u.text));
    if (u.path.empty()) {
      a->setEnabled(false);  // a text file, the game: nothing to go to
      continue;
    }
    a->setToolTip(tr("Select %1 in the tree").arg(QString::fromStdString(u.text)));
    connect(a, &QAction::triggered, this, [this, archive, path = u.path] { selectNodes(archive, {path}); });
  }
}

void ArchiveDock::showMenu(QTreeWidget* view, const QPoint& at) {
  QMenu menu(this);
  fillMenu(menu, view, view->itemAt(at));
  menu.exec(view->viewport()->mapToGlobal(at));
}

void ArchiveDock::updateStatus() {
  const bool busy = extraction_ && !extraction_->done();
  extractButton_->setEnabled(!archives_.empty() && !busy);
  extractAllButton_->setEnabled(!archives_.empty() && !busy);
  filter_->setEnabled(!archives_.empty());
  if (archives_.empty()) return status_->setText(tr("Open a .pak, a .brf or a folder to browse it."));
  const std::size_t n = archives_.archives().size();
  QString text = n == 1 ? tr("1 archive") : tr("%1 archives").arg(n);
  if (galleryShown() && listing_) {
    text = tr("Listing the models…");
  } else if (galleryShown() && galleryModel_) {
    text = tr("%1 models in %2").arg(galleryModel_->rowCount()).arg(galleryModel_->title());
    if (galleryModel_->rowCount() >= static_cast<int>(kMaxGalleryNodes))
      text += tr(" (the first %1: show a folder further down for the rest)").arg(kMaxGalleryNodes);
    if (galleryFilter_->rowCount() != galleryModel_->rowCount()) text += tr(", %1 shown").arg(galleryFilter_->rowCount());
    if (galleryModel_->failed()) text += tr(", %1 without a picture").arg(galleryModel_->failed());
  } else if (currentView() == matches_) {
    text += tr(", %1 found").arg(std::min(matches_->topLevelItemCount(), kMaxMatches));
  }
  if (const auto selected = selectedNodes().size()) text += tr(", %1 selected").arg(selected);
  if (busy) text += tr(", extracting…");
  status_->setText(text);
}

}  // namespace marrow::app
