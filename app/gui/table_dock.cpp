#include "app/gui/table_dock.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QVBoxLayout>

#include "app/gui/table_model.h"
#include "formats/model/table.h"

namespace marrow::app {

TableDock::TableDock(QWidget* parent) : QDockWidget(tr("Tables"), parent) {
  setObjectName(QStringLiteral("TableDock"));
  model_ = new TableModel(this);
  proxy_ = new TableFilterModel(this);
  proxy_->setTableModel(model_);

  auto* body = new QWidget(this);
  picker_ = new QComboBox(body);
  picker_->setToolTip(tr("The table shown"));
  picker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  filter_ = new QLineEdit(body);
  filter_->setPlaceholderText(tr("Filter: text in any cell, or column:text"));
  filter_->setClearButtonEnabled(true);
  count_ = new QLabel(body);
  export_ = new QPushButton(tr("Export Table as CSV…"), body);
  export_->setToolTip(
      tr("Writes the whole table as CSV: every row and column in file order, "
         "with the row id first; the filter and the sort order are not applied."));
  view_ = new QTableView(body);
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(-1, Qt::AscendingOrder);  // file order until a header is clicked
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setAlternatingRowColors(true);
  view_->setWordWrap(false);
  view_->horizontalHeader()->setSectionsMovable(true);
  view_->horizontalHeader()->setResizeContentsPrecision(200);  // widths from 200 rows, not all
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
  view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);  // no per-row measuring

  auto* bar = new QHBoxLayout;
  bar->addWidget(picker_);
  bar->addWidget(filter_, 1);
  bar->addWidget(count_);
  bar->addWidget(export_);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  setWidget(body);

  connect(picker_, &QComboBox::currentIndexChanged, this, &TableDock::selectTable);
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    proxy_->setFilter(text);
    updateCount();
  });
  connect(export_, &QPushButton::clicked, this, &TableDock::exportDialog);
  setScene(nullptr);
}

void TableDock::setScene(std::shared_ptr<const formats::Scene> scene) {
  scene_ = scene && !scene->tables.empty() ? std::move(scene) : nullptr;
  {
    const QSignalBlocker block(picker_);
    picker_->clear();
    if (scene_)
      for (const auto& t : scene_->tables)
        picker_->addItem(tr("%1 (%2 × %3)")
                             .arg(QString::fromStdString(t.name))
                             .arg(t.columns.size())
                             .arg(t.rows.size()));
    picker_->setVisible(picker_->count() > 1);
  }
  selectTable(scene_ ? 0 : -1);
}

bool TableDock::hasTables() const {
  return scene_ != nullptr;
}

void TableDock::selectTable(int index) {
  if (picker_->currentIndex() != index) {
    const QSignalBlocker block(picker_);
    picker_->setCurrentIndex(index);
  }
  view_->sortByColumn(-1, Qt::AscendingOrder);
  model_->setTable(scene_, index);
  proxy_->setFilter(filter_->text());  // the column of "column:text" may differ in this table
  view_->resizeColumnsToContents();
  export_->setEnabled(model_->table() != nullptr);
  filter_->setEnabled(model_->table() != nullptr);
  updateCount();
}

void TableDock::setFilter(const QString& filter) {
  filter_->setText(filter);
}

QString TableDock::rowCountText() const {
  return count_->text();
}

void TableDock::updateCount() {
  if (!model_->table()) {
    count_->setText(tr("no table"));
    return;
  }
  count_->setText(tr("%1 of %2 rows").arg(proxy_->rowCount()).arg(model_->rowCount()));
}

bool TableDock::exportCsv(const QString& path) const {
  const formats::Table* table = model_->table();
  if (!table) return false;
  const std::string csv = formats::tableCsv(*table);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return f.write(csv.data(), static_cast<qint64>(csv.size())) == static_cast<qint64>(csv.size());
}

void TableDock::exportDialog() {
  const formats::Table* table = model_->table();
  if (!table) return;
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("lastCsvDirectory"), settings.value(QStringLiteral("lastDirectory")))
                          .toString();
  const QString name = QString::fromStdString(table->name) + QStringLiteral(".csv");
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export the whole table as CSV"),
      dir.isEmpty() ? name : dir + QLatin1Char('/') + name, tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("lastCsvDirectory"), QFileInfo(path).absolutePath());
  if (!exportCsv(path))
    QMessageBox::warning(this, tr("Export CSV"), tr("%1 could not be written.").arg(path));
}

}  // namespace marrow::app
