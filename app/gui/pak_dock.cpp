#include "app/gui/pak_dock.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "app/gui/pak_extract.h"
#include "formats/dragonnest/extract.h"

namespace marrow::app {

namespace dn = formats::dragonnest;

namespace {

constexpr int kKindRole = Qt::UserRole;       // a PakRow
constexpr int kPathRole = Qt::UserRole + 1;   // the normalised path of a folder or file
constexpr int kPakRole = Qt::UserRole + 2;    // files: the pak's index in search order
constexpr int kEntryRole = Qt::UserRole + 3;  // files: the entry's row in its table
constexpr int kBytesRole = Qt::UserRole;      // size columns: the exact count

QString qstr(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString joinPath(const QString& folder, const QString& name) {
  return folder.isEmpty() ? name : folder + QLatin1Char('/') + name;
}

// The last component of a stored name ("\Resource\Char\Hero.SKN" → "Hero.SKN"): its own case.
std::string_view storedBaseName(std::string_view stored) {
  const auto cut = stored.find_last_of("\\/");
  return cut == std::string_view::npos ? stored : stored.substr(cut + 1);
}

void setBytes(QTreeWidgetItem* row, int column, std::uint64_t bytes) {
  const QLocale locale;
  row->setText(column, locale.formattedDataSize(static_cast<qint64>(bytes)));
  row->setData(column, kBytesRole, static_cast<qulonglong>(bytes));
  row->setToolTip(column,
                  QObject::tr("%1 bytes").arg(locale.toString(static_cast<qulonglong>(bytes))));
  row->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
}

void greyOut(QTreeWidgetItem* row, bool strike) {
  QFont font = row->font(PakDock::kName);
  font.setStrikeOut(strike);
  font.setItalic(!strike);
  for (int c = 0; c < PakDock::kColumns; ++c) {
    row->setForeground(c, QColor(Qt::gray));
    row->setFont(c, font);
  }
}

QTreeWidget* makeView(QWidget* parent) {
  auto* view = new QTreeWidget(parent);
  view->setColumnCount(PakDock::kColumns);
  view->setHeaderLabels(
      {QObject::tr("Name"), QObject::tr("Size"), QObject::tr("Packed"), QObject::tr("Archive")});
  view->header()->setSectionResizeMode(QHeaderView::Interactive);
  view->setColumnWidth(PakDock::kName, 170);  // the archive column stays in sight
  view->setColumnWidth(PakDock::kSize, 72);
  view->setColumnWidth(PakDock::kPacked, 72);
  view->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view->setUniformRowHeights(true);  // large folders scroll smoothly
  view->setContextMenuPolicy(Qt::CustomContextMenu);
  return view;
}

}  // namespace

PakDock::PakDock(QWidget* parent) : QDockWidget(tr("Pak"), parent) {
  setObjectName(QStringLiteral("PakDock"));
  auto* body = new QWidget(this);
  auto* rows = new QVBoxLayout(body);
  rows->setContentsMargins(4, 4, 4, 4);

  auto* top = new QHBoxLayout();
  filter_ = new QLineEdit(body);
  filter_->setPlaceholderText(tr("Find entries by name in every open pak"));
  filter_->setClearButtonEnabled(true);
  extractButton_ = new QToolButton(body);
  extractButton_->setText(tr("Extract…"));
  extractButton_->setToolTip(tr("Extract the selected files and folders into a folder"));
  extractAllButton_ = new QToolButton(body);
  extractAllButton_->setText(tr("Extract all…"));
  extractAllButton_->setToolTip(tr("Extract every file of the open paks into a folder"));
  top->addWidget(filter_, 1);
  top->addWidget(extractButton_);
  top->addWidget(extractAllButton_);
  rows->addLayout(top);

  views_ = new QStackedWidget(body);
  tree_ = makeView(views_);
  matches_ = makeView(views_);
  matches_->setRootIsDecorated(false);
  views_->addWidget(tree_);
  views_->addWidget(matches_);
  rows->addWidget(views_, 1);
  status_ = new QLabel(body);
  rows->addWidget(status_);
  setWidget(body);

  // Filtering 100,000 names takes milliseconds; the pause only spares the typist the redraws.
  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(150);
  connect(filter_, &QLineEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
  connect(debounce_, &QTimer::timeout, this, &PakDock::applyFilter);
  connect(tree_, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* item) {
    fetchChildren(item);
    expanded_.insert(rowPath(item));
  });
  connect(tree_, &QTreeWidget::itemCollapsed, this,
          [this](QTreeWidgetItem* item) { expanded_.remove(rowPath(item)); });
  for (QTreeWidget* view : {tree_, matches_}) {
    connect(view, &QTreeWidget::itemActivated, this, &PakDock::openRow);
    connect(view, &QTreeWidget::customContextMenuRequested, this,
            [this, view](const QPoint& at) { showMenu(view, at); });
    connect(view, &QTreeWidget::itemSelectionChanged, this, &PakDock::updateStatus);
  }
  connect(extractButton_, &QToolButton::clicked, this, &PakDock::extractSelectedDialog);
  connect(extractAllButton_, &QToolButton::clicked, this, &PakDock::extractAllDialog);
  updateStatus();
}

PakDock::~PakDock() = default;

void PakDock::setPaks(std::shared_ptr<const dn::PakSet> paks) {
  QStringList names;
  for (std::size_t i = 0; paks && i < paks->size(); ++i)
    names << QString::fromStdString(paks->pak(i).name());
  const bool same = !names.isEmpty() && names == pakNames_;
  const QString current =
      currentView()->currentItem() ? rowPath(currentView()->currentItem()) : QString();
  paks_ = std::move(paks);
  pakNames_ = names;
  resolved_.clear();
  if (!same) {
    expanded_.clear();
    const QSignalBlocker block(filter_);
    filter_->clear();
  }
  rebuildTree();
  if (same) {
    // Parents sort before their children, and opening one fetches what the next needs.
    QStringList open = expanded_.values();
    open.sort();
    for (const QString& folder : open)
      if (QTreeWidgetItem* item = revealPath(folder)) item->setExpanded(true);
    if (QTreeWidgetItem* item = revealPath(current)) tree_->setCurrentItem(item);
  } else if (paks_) {
    for (std::size_t i = 0; i < paks_->size(); ++i) {
      const dn::Pak& pak = paks_->pak(i);
      emit info(tr("%1: %2 entries (pak version %3)")
                    .arg(QString::fromStdString(pak.name()))
                    .arg(pak.entries().size())
                    .arg(pak.version()));
      emit diagnostics(pak.diagnostics());
    }
  }
  applyFilter();
}

void PakDock::rebuildTree() {
  const QSignalBlocker block(tree_);
  tree_->clear();
  if (paks_) addRows(tree_->invisibleRootItem(), {});
  updateStatus();
}

void PakDock::fetchChildren(QTreeWidgetItem* folder) {
  if (folder->childCount() != 1 || rowKind(folder->child(0)) != PakRow::Placeholder) return;
  delete folder->takeChild(0);
  addRows(folder, rowPath(folder).toStdString());
}

void PakDock::addRows(QTreeWidgetItem* parent, const std::string& folder) {
  // Live copies in later paks that the file system does not resolve to, by name (§2.4).
  std::map<std::string, std::vector<dn::PakRef>> overridden;
  if (paks_->size() > 1)
    for (std::size_t i = 0; i < paks_->size(); ++i) {
      const dn::Pak& pak = paks_->pak(i);
      for (const dn::PakNode& node : pak.children(folder)) {
        const dn::PakRef ref{&pak, &pak.entries()[node.entry]};
        if (!node.folder && !ref.entry->deleted() && !paks_->isActive(ref))
          overridden[node.name].push_back(ref);
      }
    }
  const QString base = QString::fromStdString(folder);
  QList<QTreeWidgetItem*> rows;
  for (const dn::PakSetNode& node : paks_->children(folder)) {
    const QString name = QString::fromStdString(node.name);
    if (node.folder) {
      auto* row = new QTreeWidgetItem({name});
      row->setData(kName, kKindRole, static_cast<int>(PakRow::Folder));
      row->setData(kName, kPathRole, joinPath(base, name));
      auto* placeholder = new QTreeWidgetItem(row, {tr("…")});  // shows the expander
      placeholder->setData(kName, kKindRole, static_cast<int>(PakRow::Placeholder));
      rows << row;
      continue;
    }
    QTreeWidgetItem* row =
        fileRow(nullptr, node.file,
                qstr(storedBaseName(node.file.pak->storedPath(*node.file.entry))), PakRow::File);
    const auto hidden = overridden.find(node.name);
    rows << row;
    if (hidden == overridden.end()) continue;
    QStringList others;
    for (const dn::PakRef& ref : hidden->second) {
      others << pakLabel(ref.pak);
      rows << fileRow(nullptr, ref, qstr(storedBaseName(ref.pak->storedPath(*ref.entry))),
                      PakRow::Overridden);
    }
    row->setText(
        kArchive,
        tr("%1, overrides %2").arg(pakLabel(node.file.pak), others.join(QStringLiteral(", "))));
  }
  parent->addChildren(rows);  // one insertion: a folder of 50,000 files appears at once
}

QTreeWidgetItem* PakDock::fileRow(QTreeWidgetItem* parent, const dn::PakRef& ref,
                                  const QString& name, PakRow kind) {
  auto* row = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem();
  const dn::PakEntry& e = *ref.entry;
  row->setData(kName, kKindRole, static_cast<int>(kind));
  row->setData(kName, kPathRole, qstr(ref.pak->path(e)));
  row->setData(kName, kPakRole, pakIndex(ref.pak));
  row->setData(kName, kEntryRole, static_cast<qulonglong>(e.index));
  row->setText(kArchive, pakLabel(ref.pak));
  row->setToolTip(kArchive, QString::fromStdString(ref.pak->name()));
  row->setToolTip(kName, qstr(ref.pak->storedPath(e)));
  if (e.deleted()) {
    row->setText(kName, tr("%1 (deleted)").arg(name));
    row->setToolTip(kName,
                    tr("%1: deleted (its slot remains, §2.3)").arg(qstr(ref.pak->storedPath(e))));
    greyOut(row, true);
    return row;
  }
  setBytes(row, kSize, e.size);
  setBytes(row, kPacked, e.packedSize);
  if (kind == PakRow::Overridden) {
    row->setText(kName, tr("%1 (overridden)").arg(name));
    row->setToolTip(kName, tr("Hidden by an earlier pak or an earlier entry of the same path"));
    greyOut(row, false);
  } else if (e.flags & dn::PakEntry::OutOfBounds) {
    row->setText(kName, tr("%1 (outside the file)").arg(name));
    for (int c = 0; c < kColumns; ++c) row->setForeground(c, QColor(Qt::darkRed));
  } else {
    row->setText(kName, name);
  }
  return row;
}

QString PakDock::filter() const {
  return filter_->text();
}

void PakDock::setFilter(const QString& text) {
  {
    const QSignalBlocker block(filter_);
    filter_->setText(text);
  }
  debounce_->stop();
  applyFilter();
}

void PakDock::applyFilter() {
  const QString needle = filter_->text().trimmed().toLower();
  views_->setCurrentWidget(needle.isEmpty() ? tree_ : matches_);
  const QSignalBlocker block(matches_);
  matches_->clear();
  if (needle.isEmpty() || !paks_) return updateStatus();
  if (resolved_.empty()) resolved_ = paks_->resolvedEntries();
  // Normalised paths are ASCII lower case (§1): a plain substring search is case-insensitive.
  const std::string n = needle.toStdString();
  const bool wholePath = n.find('/') != std::string::npos;
  QList<QTreeWidgetItem*> rows;
  std::size_t found = 0;
  for (const dn::PakRef& ref : resolved_) {
    const std::string_view path = ref.pak->path(*ref.entry);
    if ((wholePath ? path : dn::pakBaseName(path)).find(n) == std::string_view::npos) continue;
    if (++found <= kMaxMatches)
      rows << fileRow(nullptr, ref, qstr(ref.pak->storedPath(*ref.entry)), PakRow::File);
  }
  if (found > kMaxMatches) {
    auto* more = new QTreeWidgetItem(
        {tr("… %1 more: refine the filter")
             .arg(QLocale().toString(static_cast<qulonglong>(found - kMaxMatches)))});
    more->setData(kName, kKindRole, static_cast<int>(PakRow::More));
    more->setFlags(Qt::ItemIsEnabled);
    rows << more;
  }
  matches_->addTopLevelItems(rows);
  updateStatus();
}

PakRow PakDock::rowKind(const QTreeWidgetItem* item) {
  return static_cast<PakRow>(item->data(kName, kKindRole).toInt());
}

QString PakDock::rowPath(const QTreeWidgetItem* item) {
  return item->data(kName, kPathRole).toString();
}

dn::PakRef PakDock::rowEntry(const QTreeWidgetItem* item) const {
  const PakRow kind = rowKind(item);
  if (!paks_ || (kind != PakRow::File && kind != PakRow::Overridden)) return {};
  const std::size_t pak = item->data(kName, kPakRole).toULongLong();
  const std::size_t entry = item->data(kName, kEntryRole).toULongLong();
  if (pak >= paks_->size() || entry >= paks_->pak(pak).entries().size()) return {};
  return {&paks_->pak(pak), &paks_->pak(pak).entries()[entry]};
}

QTreeWidgetItem* PakDock::revealPath(const QString& path) {
  if (path.isEmpty()) return nullptr;
  QTreeWidgetItem* at = tree_->invisibleRootItem();
  QString sofar;
  for (const QString& part : path.split(QLatin1Char('/'))) {
    sofar = joinPath(sofar, part);
    fetchChildren(at);
    QTreeWidgetItem* next = nullptr;
    for (int c = 0; c < at->childCount() && !next; ++c)
      if (rowPath(at->child(c)) == sofar && rowKind(at->child(c)) != PakRow::Overridden)
        next = at->child(c);
    if (!next) return nullptr;
    if (at != tree_->invisibleRootItem()) at->setExpanded(true);
    at = next;
  }
  return at;
}

std::vector<dn::PakRef> PakDock::selectedEntries() const {
  if (!paks_) return {};
  std::vector<std::string> folders;
  std::vector<dn::PakRef> out;
  for (QTreeWidgetItem* item : currentView()->selectedItems()) {
    if (rowKind(item) == PakRow::Folder) folders.push_back(rowPath(item).toStdString());
    const dn::PakRef ref = rowEntry(item);
    // An overridden copy would land on the path of the one that hides it.
    if (ref && rowKind(item) == PakRow::File && !ref.entry->deleted()) out.push_back(ref);
  }
  if (!folders.empty()) {
    const auto inside = dn::selectEntries(*paks_, folders);
    out.insert(out.end(), inside.begin(), inside.end());
  }
  const auto byPath = [](const dn::PakRef& a, const dn::PakRef& b) {
    return std::pair(a.pak->path(*a.entry), a.entry) < std::pair(b.pak->path(*b.entry), b.entry);
  };
  std::sort(out.begin(), out.end(), byPath);
  out.erase(
      std::unique(out.begin(), out.end(),
                  [](const dn::PakRef& a, const dn::PakRef& b) { return a.entry == b.entry; }),
      out.end());
  return out;
}

PakExtraction* PakDock::extract(std::vector<dn::PakRef> entries, const QString& folder) {
  if (entries.empty() || !paks_ || (extraction_ && !extraction_->done())) return nullptr;
  if (extraction_) extraction_->deleteLater();
  extraction_ = new PakExtraction(paks_, std::move(entries), folder, this);
  connect(extraction_, &PakExtraction::finished, this, &PakDock::finishExtraction);
  extraction_->start();
  updateStatus();
  return extraction_;
}

PakExtraction* PakDock::extractAll(const QString& folder) {
  return paks_ ? extract(dn::selectEntries(*paks_, {}), folder) : nullptr;
}

void PakDock::extractSelectedDialog() {
  auto entries = selectedEntries();
  if (entries.empty()) {
    QMessageBox::information(this, tr("Extract"), tr("Select files or folders to extract."));
    return;
  }
  QSettings settings;
  const QString folder = QFileDialog::getExistingDirectory(
      this, tr("Extract %1 files into").arg(entries.size()),
      settings.value(QStringLiteral("pak/extractDirectory")).toString());
  if (folder.isEmpty()) return;
  settings.setValue(QStringLiteral("pak/extractDirectory"), folder);
  extract(std::move(entries), folder);
}

void PakDock::extractAllDialog() {
  if (!paks_) return;
  QSettings settings;
  const QString folder = QFileDialog::getExistingDirectory(
      this, tr("Extract every file into"),
      settings.value(QStringLiteral("pak/extractDirectory")).toString());
  if (folder.isEmpty()) return;
  settings.setValue(QStringLiteral("pak/extractDirectory"), folder);
  extractAll(folder);
}

void PakDock::finishExtraction() {
  const PakExtraction& x = *extraction_;
  emit info(tr("Extract: %1").arg(x.summary().section(QLatin1Char('\n'), 0, 1)));
  emit diagnostics(x.problems());
  auto* box = new QMessageBox(x.report().ok() ? QMessageBox::Information : QMessageBox::Warning,
                              tr("Extract"), x.summary(), QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // not exec(): the viewer keeps running
  updateStatus();
  emit extractionFinished();
}

QStringList PakDock::openAddresses(const QTreeWidgetItem* item) const {
  const dn::PakRef ref = item ? rowEntry(item) : dn::PakRef{};
  if (!ref || rowKind(item) != PakRow::File || !ref.entry->readable()) return {};
  // Every open pak goes along: the file system, and what a skin finds by name, stays whole.
  QStringList paths{QString::fromStdString(ref.pak->name()) + QStringLiteral("::") +
                    qstr(ref.pak->path(*ref.entry))};
  paths += pakNames_;
  return paths;
}

void PakDock::openRow(QTreeWidgetItem* item) {
  const dn::PakRef ref = rowEntry(item);
  if (!ref || rowKind(item) != PakRow::File) return;  // folders open in place
  if (!ref.entry->readable()) {
    emit info(tr("%1 cannot be opened: it is %2")
                  .arg(qstr(ref.pak->storedPath(*ref.entry)),
                       ref.entry->deleted() ? tr("deleted") : tr("outside the file")));
    return;
  }
  emit openRequested(openAddresses(item));
}

void PakDock::fillMenu(QMenu& menu, QTreeWidget* view, QTreeWidgetItem* item) {
  if (item && rowKind(item) == PakRow::File) {
    menu.addAction(tr("Open"), this, [this, item] { openRow(item); });
    const QStringList addresses = openAddresses(item);
    QAction* x =
        menu.addAction(tr("Export…"), this, [this, addresses] { emit exportRequested(addresses); });
    x->setEnabled(!addresses.isEmpty());
    x->setToolTip(tr("Write the entry as a model (glTF, OMF, cal3d), leaving the viewer as it is"));
    menu.addSeparator();
  }
  QAction* some = menu.addAction(tr("Extract…"), this, &PakDock::extractSelectedDialog);
  some->setEnabled(!view->selectedItems().isEmpty());
  menu.addAction(tr("Extract all…"), this, &PakDock::extractAllDialog)
      ->setEnabled(paks_ != nullptr);
}

void PakDock::showMenu(QTreeWidget* view, const QPoint& at) {
  QMenu menu(this);
  fillMenu(menu, view, view->itemAt(at));
  menu.exec(view->viewport()->mapToGlobal(at));
}

QString PakDock::pakLabel(const dn::Pak* pak) const {
  return QFileInfo(QString::fromStdString(pak->name())).fileName();
}

int PakDock::pakIndex(const dn::Pak* pak) const {
  for (std::size_t i = 0; i < paks_->size(); ++i)
    if (&paks_->pak(i) == pak) return static_cast<int>(i);
  return -1;
}

QTreeWidget* PakDock::currentView() const {
  return views_->currentWidget() == matches_ ? matches_ : tree_;
}

void PakDock::updateStatus() {
  const bool busy = extraction_ && !extraction_->done();
  extractButton_->setEnabled(paks_ && !busy);
  extractAllButton_->setEnabled(paks_ && !busy);
  filter_->setEnabled(paks_ != nullptr);
  if (!paks_) return status_->setText(tr("Open a .pak to browse it."));
  std::size_t entries = 0;
  for (std::size_t i = 0; i < paks_->size(); ++i) entries += paks_->pak(i).entries().size();
  const QString count = QLocale().toString(static_cast<qulonglong>(entries));
  QString text = paks_->size() == 1 ? tr("%1 entries in 1 pak").arg(count)
                                    : tr("%1 entries in %2 paks").arg(count).arg(paks_->size());
  if (currentView() == matches_)
    text += tr(", %1 shown").arg(std::min(matches_->topLevelItemCount(), kMaxMatches));
  if (const int n = static_cast<int>(currentView()->selectedItems().size()))
    text += tr(", %1 selected").arg(n);
  if (busy) text += tr(", extracting…");
  status_->setText(text);
}

}  // namespace marrow::app
