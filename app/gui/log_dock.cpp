#include <QDateTime>
#include <algorithm>
#include <QHeaderView>
#include <QTreeWidget>

#include "app/gui/docks.h"

namespace marrow::app {

LogDock::LogDock(QWidget* parent) : QDockWidget(tr("Log"), parent) {
  setObjectName(QStringLiteral("LogDock"));
  tree_ = new QTreeWidget(this);
  tree_->setRootIsDecorated(false);
  tree_->setUniformRowHeights(true);
  tree_->setHeaderLabels({tr("Time"), tr("Severity"), tr("File"), tr("Field"), tr("Offset"), tr("Message")});
  // The message stretches and keeps its room: the other columns are as wide as their contents
  // up to a bound (a long path is elided in its middle, whole in its tooltip), never wider.
  tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
  tree_->header()->setSectionResizeMode(5, QHeaderView::Stretch);
  tree_->header()->setStretchLastSection(true);
  tree_->setTextElideMode(Qt::ElideMiddle);
  tree_->setColumnWidth(0, 64);
  tree_->setColumnWidth(1, 64);
  tree_->setColumnWidth(2, 160);
  tree_->setColumnWidth(3, 140);
  tree_->setColumnWidth(4, 90);
  setWidget(tree_);
}

void LogDock::add(formats::Severity severity, const QString& file, const QString& field,
                  std::uint64_t offset, const QString& message) {
  const QString off = offset == formats::kNoOffset
                          ? QString()
                          : QStringLiteral("%1 (0x%2)").arg(offset).arg(offset, 0, 16);
  auto* it = new QTreeWidgetItem(tree_, {QTime::currentTime().toString(QStringLiteral("HH:mm:ss")),
                                          QString::fromLatin1(formats::severityName(severity)),
                                          file, field, off, message});
  it->setToolTip(5, message);
  it->setToolTip(2, file);
  it->setToolTip(3, field);
  // Columns grow to what they show, up to a fifth of the view for the file and a sixth for the
  // field: the message keeps the rest.
  const int width = tree_->viewport()->width();
  for (const auto& [c, most] : {std::pair{2, std::max(160, width / 5)}, std::pair{3, std::max(120, width / 6)},
                                std::pair{4, 130}}) {
    const int want = tree_->fontMetrics().horizontalAdvance(it->text(c)) + 16;
    if (want > tree_->columnWidth(c)) tree_->setColumnWidth(c, std::min(want, most));
  }
  if (severity == formats::Severity::Error) {
    for (int c = 0; c < it->columnCount(); ++c) it->setForeground(c, QColor(220, 70, 60));
  } else if (severity == formats::Severity::Warning) {
    it->setForeground(1, QColor(220, 160, 40));
  }
  if (severity != formats::Severity::Info) ++problems_;
  tree_->scrollToItem(it);
  updateTitle();
}

void LogDock::addDiagnostics(const formats::Diagnostics& diagnostics) {
  for (const auto& d : diagnostics.items)
    add(d.severity, QString::fromStdString(d.file), QString::fromStdString(d.field), d.offset,
        QString::fromStdString(d.message));
}

void LogDock::addError(const formats::FormatError& e) {
  add(formats::Severity::Error, QString::fromStdString(e.file), QString::fromStdString(e.field),
      e.offset, QString::fromStdString(e.message));
}

void LogDock::addInfo(const QString& message) {
  add(formats::Severity::Info, {}, {}, formats::kNoOffset, message);
}

int LogDock::count() const { return tree_->topLevelItemCount(); }

void LogDock::updateTitle() {
  setWindowTitle(problems_ ? tr("Log (%1)").arg(problems_) : tr("Log"));
}

}  // namespace marrow::app
