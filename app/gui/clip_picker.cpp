#include "app/gui/clip_picker.h"

#include <QFrame>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QScreen>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace marrow::app {

namespace {

constexpr int kClipRole = Qt::UserRole;       // the clip's index; -1 the rest pose
constexpr int kKeyRole = Qt::UserRole + 1;    // what the filter looks in, lower case
constexpr int kMatchRole = Qt::UserRole + 2;  // whether the filter matches the row itself
constexpr int kPopupRows = 16;                // rows the popup's list shows without scrolling

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

// Frames as the file numbers them: a cut clip's span of its source, a frame-indexed clip's
// indices; else seconds.
QString detailOf(const formats::Clip& c) {
  QString d;
  if (c.sourceFrames)
    d = QStringLiteral("%1–%2").arg(c.sourceFrames->first).arg(c.sourceFrames->last);
  else if (c.frameIndexed)
    d = QStringLiteral("0–%1").arg(std::lround(c.duration * c.frameRate));
  else
    d = QStringLiteral("%1 s").arg(c.duration, 0, 'f', c.duration < 10.0f ? 2 : 1);
  if (c.loops && *c.loops) d += QStringLiteral(" ↻");
  return d;
}

QString toolTipOf(const formats::Clip& c) {
  QStringList lines{text(c.name)};
  if (c.sourceFrames)
    lines << ClipPicker::tr("cut from %1: its frames %2 to %3%4")
                 .arg(c.group.empty() ? ClipPicker::tr("an animation") : text(c.group))
                 .arg(c.sourceFrames->first)
                 .arg(c.sourceFrames->last)
                 .arg(c.sourceFrames->last < c.sourceFrames->first ? ClipPicker::tr(" (backwards)")
                                                                   : QString());
  lines << ClipPicker::tr("%1 s at %2 fps").arg(c.duration, 0, 'g', 4).arg(c.frameRate, 0, 'g', 4);
  if (c.loops) lines << (*c.loops ? ClipPicker::tr("loops") : ClipPicker::tr("plays once"));
  return lines.join(QLatin1Char('\n'));
}

// A row of the list: the clip's name and a detail (frames or seconds), both carrying the clip.
QList<QStandardItem*> makeRow(const QString& name, const QString& detail, int clip,
                              const QString& key, const QString& tip) {
  auto* item = new QStandardItem(name);
  item->setData(clip, kClipRole);
  item->setData(key.toLower(), kKeyRole);
  item->setData(true, kMatchRole);
  item->setToolTip(tip);
  item->setFlags(clip == ClipPicker::kNoClip ? Qt::ItemIsEnabled
                                             : Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  auto* more = new QStandardItem(detail);
  more->setData(clip, kClipRole);
  more->setFlags(item->flags());
  more->setToolTip(tip);
  more->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return {item, more};
}

void markGroup(QStandardItem* item) {
  QFont f = item->font();
  f.setBold(true);
  item->setFont(f);
}

}  // namespace

ClipPicker::ClipPicker(QWidget* parent) : QComboBox(parent) {
  addItem(tr("(rest pose)"));  // the box shows the current clip in its one item
  setToolTip(tr("Clip to play: click, Enter or F4 lists them with a filter"));

  popup_ = new QFrame(this, Qt::Popup);
  popup_->setObjectName(QStringLiteral("clipPopup"));
  popup_->setFrameShape(QFrame::StyledPanel);
  auto* layout = new QVBoxLayout(popup_);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(2);
  filter_ = new QLineEdit(popup_);
  filter_->setObjectName(QStringLiteral("clipFilter"));
  filter_->setPlaceholderText(tr("Filter: a clip's or its animation's name"));
  filter_->setClearButtonEnabled(true);
  filter_->installEventFilter(this);
  layout->addWidget(filter_);
  model_ = new QStandardItemModel(this);
  view_ = new QTreeView(popup_);
  view_->setObjectName(QStringLiteral("clipList"));
  view_->setModel(model_);
  view_->setHeaderHidden(true);
  view_->setUniformRowHeights(true);  // fast with a thousand rows
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setAllColumnsShowFocus(true);
  view_->setExpandsOnDoubleClick(false);
  view_->setFocusPolicy(Qt::NoFocus);  // the keys go to the filter line, which passes on Up/Down
  view_->header()->setStretchLastSection(false);
  layout->addWidget(view_);
  connect(filter_, &QLineEdit::textChanged, this, &ClipPicker::applyFilter);
  connect(view_, &QTreeView::clicked, this, &ClipPicker::pick);
  setClips({});
}

void ClipPicker::setClips(const std::vector<formats::Clip>& clips) {
  model_->clear();
  model_->setColumnCount(2);
  items_.assign(clips.size() + 1, nullptr);
  auto rest =
      makeRow(tr("(rest pose)"), QString(), -1, tr("(rest pose)"), tr("The skeleton at rest"));
  items_[0] = rest.front();
  model_->appendRow(rest);

  // A group's header is the whole clip of its name when one is listed at the top level (the
  // animation its clips were cut from), else a header of its own.
  std::set<std::string> groups;
  for (const auto& c : clips)
    if (!c.group.empty()) groups.insert(c.group);
  std::map<std::string, std::size_t> wholeOf;
  for (std::size_t i = 0; i < clips.size(); ++i)
    if (clips[i].group.empty() && groups.count(clips[i].name)) wholeOf.emplace(clips[i].name, i);
  std::map<std::string, QStandardItem*> headers;
  const auto addTopLevel = [&](std::size_t i) {
    const auto& c = clips[i];
    auto row = makeRow(text(c.name), detailOf(c), static_cast<int>(i), text(c.name), toolTipOf(c));
    items_[i + 1] = row.front();
    model_->appendRow(row);
    if (const auto w = wholeOf.find(c.name); w != wholeOf.end() && w->second == i) {
      markGroup(row.front());
      headers.emplace(c.name, row.front());
    }
  };
  for (std::size_t i = 0; i < clips.size(); ++i) {
    const auto& c = clips[i];
    if (c.group.empty()) {
      if (!items_[i + 1]) addTopLevel(i);
      continue;
    }
    auto h = headers.find(c.group);
    if (h == headers.end()) {
      if (const auto w = wholeOf.find(c.group); w != wholeOf.end()) {
        addTopLevel(w->second);  // listed where its first clip would be
      } else {
        auto row = makeRow(text(c.group), tr("group"), kNoClip, text(c.group),
                           tr("Clips cut from %1, which is not open").arg(text(c.group)));
        markGroup(row.front());
        model_->appendRow(row);
        headers.emplace(c.group, row.front());
      }
      h = headers.find(c.group);
    }
    auto row = makeRow(text(c.name), detailOf(c), static_cast<int>(i),
                       text(c.name + '\n' + c.group), toolTipOf(c));
    items_[i + 1] = row.front();
    h->second->appendRow(row);
  }
  view_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  view_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  view_->expandAll();
  const QFontMetrics fm(view_->font());
  int names = 0, details = 0;
  for (int r = 0; r < model_->rowCount(); ++r) {
    const QStandardItem* top = model_->item(r);
    names = std::max(names, fm.horizontalAdvance(top->text()) * 6 / 5);  // bold
    details = std::max(details, fm.horizontalAdvance(model_->item(r, 1)->text()));
    for (int k = 0; k < top->rowCount(); ++k) {
      names = std::max(names, fm.horizontalAdvance(top->child(k)->text()) + view_->indentation());
      details = std::max(details, fm.horizontalAdvance(top->child(k, 1)->text()));
    }
  }
  longest_ = names + details + view_->indentation() + 3 * fm.averageCharWidth() +
             view_->verticalScrollBar()->sizeHint().width() + 8;
  if (current_ + 1 >= static_cast<int>(items_.size())) current_ = -1;
  setCurrentClip(current_);
  applyFilter();
}

void ClipPicker::setCurrentClip(int clip) {
  current_ = clip >= -1 && clip + 1 < static_cast<int>(items_.size()) ? clip : -1;
  const QStandardItem* item = items_[static_cast<std::size_t>(current_ + 1)];
  setItemText(0, item->text());
  setItemData(0, item->toolTip(), Qt::ToolTipRole);
  if (popupVisible() && item->data(kMatchRole).toBool() &&
      !view_->isRowHidden(item->row(), item->index().parent()))
    highlight(item->index());
}

QString ClipPicker::filterText() const {
  return filter_->text();
}
void ClipPicker::setFilterText(const QString& t) {
  filter_->setText(t);
}

bool ClipPicker::popupVisible() const {
  return popup_->isVisible();
}

void ClipPicker::applyFilter() {
  const QString needle = filter_->text().trimmed().toLower();
  const auto matches = [&](const QStandardItem* item) {
    return needle.isEmpty() || item->data(kKeyRole).toString().contains(needle);
  };
  const auto show = [&](QStandardItem* item, bool shown) {
    const QModelIndex parent = item->parent() ? item->parent()->index() : QModelIndex();
    if (view_->isRowHidden(item->row(), parent) == shown)
      view_->setRowHidden(item->row(), parent, !shown);
  };
  const QSignalBlocker block(model_);  // kMatchRole is ours: no view needs to hear of it
  for (int r = 0; r < model_->rowCount(); ++r) {
    QStandardItem* top = model_->item(r);
    const bool self = matches(top);
    top->setData(self, kMatchRole);
    bool child = false;
    for (int k = 0; k < top->rowCount(); ++k) {
      QStandardItem* c = top->child(k);
      const bool m = matches(c);  // a child's key holds its group: a matching group shows them all
      c->setData(m, kMatchRole);
      show(c, m);
      child |= m;
    }
    // A group shown for its matching clips, not matching itself, is not offered: it cannot be
    // highlighted or picked.
    const bool selectable = self && top->data(kClipRole).toInt() != kNoClip;
    const Qt::ItemFlags flags =
        selectable ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::ItemIsEnabled;
    if (top->flags() != flags) {
      top->setFlags(flags);
      if (QStandardItem* more = model_->item(r, 1)) more->setFlags(flags);
    }
    show(top, self || child);
  }
  if (!needle.isEmpty()) view_->expandAll();
  view_->viewport()->update();
  // The current clip stays highlighted while it is listed; else the first clip listed is.
  const QStandardItem* item = items_[static_cast<std::size_t>(current_ + 1)];
  const auto offered = offeredIndexes();
  if (std::find(offered.begin(), offered.end(), item->index()) != offered.end())
    highlight(item->index());
  else
    highlight(offered.empty() ? QModelIndex() : offered.front());
}

std::vector<QModelIndex> ClipPicker::offeredIndexes() const {
  std::vector<QModelIndex> out;
  for (int r = 0; r < model_->rowCount(); ++r) {
    const QStandardItem* top = model_->item(r);
    if (view_->isRowHidden(r, {})) continue;
    if (top->data(kMatchRole).toBool() && top->data(kClipRole).toInt() != kNoClip)
      out.push_back(top->index());
    const QModelIndex parent = top->index();
    for (int k = 0; k < top->rowCount(); ++k)
      if (!view_->isRowHidden(k, parent) && view_->isExpanded(parent))
        out.push_back(top->child(k)->index());
  }
  return out;
}

std::vector<int> ClipPicker::offeredClips() const {
  std::vector<int> out;
  for (const QModelIndex& i : offeredIndexes()) out.push_back(i.data(kClipRole).toInt());
  return out;
}

int ClipPicker::highlightedClip() const {
  const QModelIndex i = view_->currentIndex();
  return i.isValid() && view_->selectionModel()->isSelected(i) ? i.data(kClipRole).toInt()
                                                               : kNoClip;
}

QString ClipPicker::listedUnder(int clip) const {
  if (clip < -1 || clip + 1 >= static_cast<int>(items_.size())) return {};
  const QStandardItem* parent = items_[static_cast<std::size_t>(clip + 1)]->parent();
  return parent ? parent->text() : QString();
}

QModelIndex ClipPicker::indexOf(int clip) const {
  if (clip < -1 || clip + 1 >= static_cast<int>(items_.size())) return {};
  return items_[static_cast<std::size_t>(clip + 1)]->index();
}

void ClipPicker::highlight(const QModelIndex& index) {
  if (!index.isValid()) {
    view_->selectionModel()->clear();
    return;
  }
  view_->selectionModel()->setCurrentIndex(
      index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  view_->scrollTo(index);
}

void ClipPicker::moveHighlight(int delta) {
  const auto offered = offeredIndexes();
  if (offered.empty()) return;
  const QModelIndex now = view_->currentIndex().siblingAtColumn(0);
  const auto at = std::find(offered.begin(), offered.end(), now);
  const int from = at == offered.end() || highlightedClip() == kNoClip
                       ? (delta > 0 ? -1 : static_cast<int>(offered.size()))
                       : static_cast<int>(at - offered.begin());
  const int to = std::clamp(from + delta, 0, static_cast<int>(offered.size()) - 1);
  highlight(offered[static_cast<std::size_t>(to)]);
}

void ClipPicker::pick(const QModelIndex& index) {
  const QModelIndex i = index.siblingAtColumn(0);
  if (!i.isValid() || !i.data(kMatchRole).toBool()) return;
  const int clip = i.data(kClipRole).toInt();
  if (clip == kNoClip) return;
  hidePopup();
  setCurrentClip(clip);
  emit clipPicked(clip);
}

void ClipPicker::stepClip(int delta) {
  const auto offered = offeredClips();
  if (offered.empty()) return;
  const auto at = std::find(offered.begin(), offered.end(), current_);
  const int from = at == offered.end() ? (delta > 0 ? -1 : static_cast<int>(offered.size()))
                                       : static_cast<int>(at - offered.begin());
  const int clip = offered[static_cast<std::size_t>(
      std::clamp(from + delta, 0, static_cast<int>(offered.size()) - 1))];
  if (clip == current_) return;
  setCurrentClip(clip);
  emit clipPicked(clip);
}

void ClipPicker::placePopup() {
  const int rowHeight = std::max(view_->sizeHintForRow(0), fontMetrics().height() + 4);
  const int height = filter_->sizeHint().height() + rowHeight * kPopupRows + 12;
  // Wide enough for the longest name, its detail and the group's indent, within the screen.
  const int width =
      std::max(this->width(), std::min(longest_, fontMetrics().averageCharWidth() * 90));
  QPoint at = mapToGlobal(QPoint(0, this->height()));
  if (const QScreen* s = screen()) {
    const QRect room = s->availableGeometry();
    // The timeline sits at the bottom of the window: open upwards when there is no room below.
    if (at.y() + height > room.bottom() && mapToGlobal(QPoint(0, 0)).y() - height >= room.top())
      at.setY(mapToGlobal(QPoint(0, 0)).y() - height);
    at.setX(std::clamp(at.x(), room.left(), std::max(room.left(), room.right() - width)));
  }
  popup_->setGeometry(QRect(at, QSize(width, height)));
}

void ClipPicker::showPopup() {
  if (popup_->isVisible()) return;
  placePopup();
  popup_->show();
  filter_->setFocus(Qt::PopupFocusReason);
  filter_->selectAll();  // typing starts a new filter; End keeps the old one
  applyFilter();
  if (const QModelIndex i = view_->currentIndex(); i.isValid())
    view_->scrollTo(i, QAbstractItemView::PositionAtCenter);
}

void ClipPicker::hidePopup() {
  if (!popup_->isVisible()) return;
  popup_->hide();
  setFocus(Qt::PopupFocusReason);
}

void ClipPicker::keyPressEvent(QKeyEvent* e) {
  const bool alt = e->modifiers() & Qt::AltModifier;
  switch (e->key()) {
    case Qt::Key_Up:
      if (!alt) return stepClip(-1);
      break;
    case Qt::Key_Down:
      if (!alt) return stepClip(1);
      break;
    case Qt::Key_PageUp: return stepClip(-10);
    case Qt::Key_PageDown: return stepClip(10);
    case Qt::Key_Return:
    case Qt::Key_Enter: return showPopup();
    default: break;
  }
  QComboBox::keyPressEvent(e);  // F4, Alt+Down: showPopup()
}

bool ClipPicker::eventFilter(QObject* watched, QEvent* e) {
  if (watched != filter_ || e->type() != QEvent::KeyPress)
    return QComboBox::eventFilter(watched, e);
  auto* key = static_cast<QKeyEvent*>(e);
  switch (key->key()) {
    case Qt::Key_Up: moveHighlight(-1); return true;
    case Qt::Key_Down: moveHighlight(1); return true;
    case Qt::Key_PageUp: moveHighlight(-(kPopupRows - 1)); return true;
    case Qt::Key_PageDown: moveHighlight(kPopupRows - 1); return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
      if (highlightedClip() != kNoClip) pick(view_->currentIndex());
      return true;
    case Qt::Key_Escape:
      if (!filter_->text().isEmpty())
        filter_->clear();
      else
        hidePopup();
      return true;
    default: return false;
  }
}

}  // namespace marrow::app
