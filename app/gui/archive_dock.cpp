#include "app/gui/archive_dock.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "app/gui/record_figures.h"

namespace marrow::app {

namespace brf = formats::brf;

namespace {

constexpr int kSourceRole = Qt::UserRole;
constexpr int kKindRole = Qt::UserRole + 1;   // a Section; -1 on a file's node
constexpr int kIndexRole = Qt::UserRole + 2;  // the record's index; -1 on file and group nodes

// Groups in the order a reader looks for them: what draws first, what it is made of last.
constexpr brf::Section kGroupOrder[] = {brf::Section::Mesh,     brf::Section::Skeleton,
                                        brf::Section::Animation, brf::Section::Body,
                                        brf::Section::Material,  brf::Section::Texture,
                                        brf::Section::Shader};

bool isRecord(const QTreeWidgetItem* item) { return item->data(0, kIndexRole).toInt() >= 0; }

brf::RecordRef refOf(const QTreeWidgetItem* item) {
  return {static_cast<std::size_t>(item->data(0, kSourceRole).toInt()),
          static_cast<brf::Section>(item->data(0, kKindRole).toInt()),
          static_cast<std::size_t>(item->data(0, kIndexRole).toInt())};
}

}  // namespace

ArchiveDock::ArchiveDock(QWidget* parent) : QDockWidget(tr("Archive"), parent) {
  setObjectName(QStringLiteral("ArchiveDock"));
  auto* body = new QWidget(this);
  auto* rows = new QVBoxLayout(body);
  rows->setContentsMargins(4, 4, 4, 4);

  filter_ = new QLineEdit(body);
  filter_->setPlaceholderText(tr("Find records by name in every open BRF"));
  filter_->setClearButtonEnabled(true);
  rows->addWidget(filter_);

  auto* skeletonRow = new QHBoxLayout();
  skeletonLabel_ = new QLabel(tr("Skeleton:"), body);
  skeletons_ = new QComboBox(body);
  skeletons_->setToolTip(tr("The skeleton the shown meshes and animations play on"));
  skeletons_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  skeletons_->setMinimumContentsLength(12);
  skeletonRow->addWidget(skeletonLabel_);
  skeletonRow->addWidget(skeletons_, 1);
  rows->addLayout(skeletonRow);

  tree_ = new QTreeWidget(body);
  tree_->setColumnCount(kRecordColumns);
  tree_->setHeaderLabels({tr("Record"), tr("Size"), tr("Animation"), tr("Uses")});
  tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
  tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  rows->addWidget(tree_, 1);
  setWidget(body);

  connect(filter_, &QLineEdit::textChanged, this, &ArchiveDock::setFilter);
  connect(tree_, &QTreeWidget::itemSelectionChanged, this, &ArchiveDock::recordsSelected);
  connect(skeletons_, &QComboBox::currentIndexChanged, this, &ArchiveDock::skeletonChosen);
  connect(tree_, &QTreeWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    QMenu menu(this);
    fillMenu(menu, tree_->itemAt(at));
    menu.exec(tree_->viewport()->mapToGlobal(at));
  });
  setFittingSkeletons({}, {}, std::nullopt);
}

void ArchiveDock::fillMenu(QMenu& menu, QTreeWidgetItem* item) {
  std::vector<brf::RecordRef> records;
  if (item && isRecord(item) && !item->isSelected())
    records.push_back(refOf(item));
  else
    records = selectedRecords();
  const QString label =
      records.size() > 1 ? tr("Export %1 Records…").arg(records.size()) : tr("Export…");
  QAction* a = menu.addAction(label, this, [this, records] { emit exportRequested(records); });
  a->setEnabled(!records.empty());
  a->setToolTip(tr("Write the records as a model (glTF, OMF, cal3d) or as a .brf file"));
}

void ArchiveDock::setSources(std::span<const brf::Source> sources) {
  sources_.assign(sources.begin(), sources.end());
  fill();
  setFittingSkeletons({}, {}, std::nullopt);
}

void ArchiveDock::fill() {
  const QSignalBlocker block(tree_);
  tree_->clear();
  for (std::size_t s = 0; s < sources_.size(); ++s) addFile(s);
  setFilter(filter_->text());
  tree_->expandToDepth(1);
  for (int c = 0; c < kRecordColumns; ++c) tree_->resizeColumnToContents(c);
  // Long names (the groups' indentation included) should not push the figures out of sight.
  tree_->setColumnWidth(0, std::min(tree_->columnWidth(0), 240));
}

void ArchiveDock::addFile(std::size_t source) {
  const brf::Source& src = sources_[source];
  auto* file = new QTreeWidgetItem(tree_, {QFileInfo(QString::fromStdString(src.name)).fileName()});
  file->setToolTip(0, QString::fromStdString(src.name));
  file->setData(0, kSourceRole, static_cast<int>(source));
  file->setData(0, kKindRole, -1);
  file->setData(0, kIndexRole, -1);
  file->setText(kSizeColumn, src.doc->version == 1 ? tr("Warband") : tr("M&B 1.011"));
  QFont bold = file->font(0);
  bold.setBold(true);
  file->setFont(0, bold);
  for (brf::Section kind : kGroupOrder) {
    const std::size_t n = brf::recordCount(*src.doc, kind);
    if (n == 0) continue;
    auto* group = new QTreeWidgetItem(file);
    group->setData(0, kSourceRole, static_cast<int>(source));
    group->setData(0, kKindRole, static_cast<int>(kind));
    group->setData(0, kIndexRole, -1);
    group->setFlags(group->flags() & ~Qt::ItemIsSelectable);
    for (std::size_t i = 0; i < n; ++i) {
      QStringList columns{QString::fromStdString(brf::recordName(src, kind, i))};
      columns += recordFigures(src, kind, i);
      auto* row = new QTreeWidgetItem(group, columns);
      row->setData(0, kSourceRole, static_cast<int>(source));
      row->setData(0, kKindRole, static_cast<int>(kind));
      row->setData(0, kIndexRole, static_cast<int>(i));
      for (int c = 0; c < kRecordColumns; ++c) row->setToolTip(c, row->text(c));
    }
  }
}

QString ArchiveDock::filter() const { return filter_->text(); }

void ArchiveDock::setFilter(const QString& text) {
  if (filter_->text() != text) {
    filter_->setText(text);  // comes back here through textChanged
    return;
  }
  const QString needle = text.trimmed();
  for (int f = 0; f < tree_->topLevelItemCount(); ++f) {
    QTreeWidgetItem* file = tree_->topLevelItem(f);
    bool fileShown = false;
    for (int g = 0; g < file->childCount(); ++g) {
      QTreeWidgetItem* group = file->child(g);
      bool groupShown = false;
      for (int r = 0; r < group->childCount(); ++r) {
        QTreeWidgetItem* row = group->child(r);
        const bool shown = needle.isEmpty() || row->text(0).contains(needle, Qt::CaseInsensitive);
        row->setHidden(!shown);
        groupShown = groupShown || shown;
      }
      group->setHidden(!groupShown);
      if (groupShown && !needle.isEmpty()) group->setExpanded(true);
      fileShown = fileShown || groupShown;
    }
    file->setHidden(!fileShown && !needle.isEmpty());
  }
  updateGroupLabels();
}

void ArchiveDock::updateGroupLabels() {
  for (int f = 0; f < tree_->topLevelItemCount(); ++f) {
    QTreeWidgetItem* file = tree_->topLevelItem(f);
    for (int g = 0; g < file->childCount(); ++g) {
      QTreeWidgetItem* group = file->child(g);
      int shown = 0;
      for (int r = 0; r < group->childCount(); ++r) shown += !group->child(r)->isHidden();
      const QString title = kindTitle(static_cast<brf::Section>(group->data(0, kKindRole).toInt()));
      group->setText(0, shown == group->childCount()
                            ? QStringLiteral("%1 (%2)").arg(title).arg(shown)
                            : tr("%1 (%2 of %3)").arg(title).arg(shown).arg(group->childCount()));
    }
  }
}

int ArchiveDock::visibleRecords(brf::Section kind) const {
  int n = 0;
  for (QTreeWidgetItemIterator it(tree_); *it; ++it)
    if (isRecord(*it) && refOf(*it).kind == kind && !(*it)->isHidden() &&
        !(*it)->parent()->isHidden())
      ++n;
  return n;
}

std::vector<brf::RecordRef> ArchiveDock::selectedRecords() const {
  std::vector<brf::RecordRef> out;
  for (QTreeWidgetItemIterator it(tree_, QTreeWidgetItemIterator::Selected); *it; ++it)
    if (isRecord(*it)) out.push_back(refOf(*it));
  return out;
}

void ArchiveDock::selectRecords(std::span<const brf::RecordRef> records) {
  {
    const QSignalBlocker block(tree_);
    tree_->clearSelection();
    QTreeWidgetItem* first = nullptr;
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
      if (isRecord(*it) && std::find(records.begin(), records.end(), refOf(*it)) != records.end()) {
        (*it)->setSelected(true);
        if (!first) first = *it;
      }
    if (first) tree_->scrollToItem(first);
  }
  emit recordsSelected();
}

void ArchiveDock::setFittingSkeletons(std::span<const brf::RecordRef> skeletons,
                                      const QString& automatic,
                                      std::optional<brf::RecordRef> chosen) {
  const QSignalBlocker block(skeletons_);
  skeletons_->clear();
  const auto label = [this](const brf::RecordRef& r) {
    const brf::Source& src = sources_[r.source];
    return tr("%1 (%2 bones)")
        .arg(QString::fromStdString(brf::recordName(src, r.kind, r.index)))
        .arg(src.doc->skeletons[r.index].bones.size());
  };
  skeletons_->addItem(automatic.isEmpty() ? tr("automatic: none") : tr("automatic: %1").arg(automatic));
  for (const brf::RecordRef& r : skeletons) {
    skeletons_->addItem(label(r), QVariantList{static_cast<int>(r.source), static_cast<int>(r.index)});
    skeletons_->setItemData(skeletons_->count() - 1,
                            QString::fromStdString(sources_[r.source].name), Qt::ToolTipRole);
    if (chosen && *chosen == r) skeletons_->setCurrentIndex(skeletons_->count() - 1);
  }
  skeletons_->setEnabled(!skeletons.empty());
  skeletonLabel_->setEnabled(!skeletons.empty());
}

std::optional<brf::RecordRef> ArchiveDock::chosenSkeleton() const {
  const QVariantList v = skeletons_->currentData().toList();
  if (v.size() != 2) return std::nullopt;
  return brf::RecordRef{static_cast<std::size_t>(v[0].toInt()), brf::Section::Skeleton,
                        static_cast<std::size_t>(v[1].toInt())};
}

void ArchiveDock::chooseSkeleton(std::optional<brf::RecordRef> skeleton) {
  int index = 0;
  for (int i = 1; i < skeletons_->count() && skeleton; ++i) {
    const QVariantList v = skeletons_->itemData(i).toList();
    if (v.size() == 2 && static_cast<std::size_t>(v[0].toInt()) == skeleton->source &&
        static_cast<std::size_t>(v[1].toInt()) == skeleton->index)
      index = i;
  }
  if (index == skeletons_->currentIndex()) return;
  skeletons_->setCurrentIndex(index);  // emits skeletonChosen
}

}  // namespace marrow::app
