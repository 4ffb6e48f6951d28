#include <QDateTime>
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
  tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  tree_->header()->setStretchLastSection(true);
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
