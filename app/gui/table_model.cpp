#include "app/gui/table_model.h"

#include <charconv>
#include <variant>

#include "formats/model/table.h"

namespace marrow::app {

QString tableTypeName(std::uint8_t type) { return QString::fromStdString(formats::tableTypeName(type)); }

QString tableCellText(const formats::TableCell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return QString::fromStdString(*s);
  if (const auto* i = std::get_if<std::int32_t>(&cell)) return QString::number(*i);
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::get<float>(cell));  // shortest form
  return QString::fromLatin1(buf, static_cast<qsizetype>(r.ptr - buf));
}

TableModel::TableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TableModel::setTable(std::shared_ptr<const formats::Scene> scene, int index) {
  beginResetModel();
  scene_ = std::move(scene);
  table_ = nullptr;
  text_.clear();
  if (scene_ && index >= 0 && static_cast<std::size_t>(index) < scene_->tables.size())
    table_ = &scene_->tables[static_cast<std::size_t>(index)];
  if (table_) {
    text_.reserve(table_->rows.size() * table_->columns.size());
    for (const auto& row : table_->rows)
      for (std::size_t c = 0; c < table_->columns.size(); ++c)
        text_.push_back(c < row.size() ? tableCellText(row[c]) : QString());
  }
  endResetModel();
}

const QString& TableModel::text(int row, int column) const {
  return text_[static_cast<std::size_t>(row) * table_->columns.size() +
               static_cast<std::size_t>(column)];
}

int TableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !table_ ? 0 : static_cast<int>(table_->rows.size());
}

int TableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() || !table_ ? 0 : static_cast<int>(table_->columns.size());
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
  if (!table_ || !index.isValid()) return {};
  const auto& row = table_->rows[static_cast<std::size_t>(index.row())];
  const auto c = static_cast<std::size_t>(index.column());
  switch (role) {
    case Qt::DisplayRole: return text(index.row(), index.column());
    case kSortRole:
      if (c >= row.size()) return {};
      if (const auto* i = std::get_if<std::int32_t>(&row[c])) return static_cast<double>(*i);
      if (const auto* f = std::get_if<float>(&row[c])) return static_cast<double>(*f);
      return text(index.row(), index.column());
    case Qt::TextAlignmentRole:
      if (c < row.size() && !std::holds_alternative<std::string>(row[c]))
        return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    default: return {};
  }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (!table_ || section < 0) return {};
  const auto s = static_cast<std::size_t>(section);
  if (orientation == Qt::Vertical) {
    if (role != Qt::DisplayRole) return {};
    return s < table_->rowIds.size() ? QVariant(table_->rowIds[s]) : QVariant(section + 1);
  }
  if (s >= table_->columns.size()) return {};
  const auto& col = table_->columns[s];
  if (role == Qt::DisplayRole) return QString::fromStdString(col.name);
  if (role == Qt::ToolTipRole)
    return tr("%1: %2").arg(QString::fromStdString(col.name), tableTypeName(col.type));
  return {};
}

TableFilterModel::TableFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(TableModel::kSortRole);
}

void TableFilterModel::setTableModel(TableModel* model) {
  model_ = model;
  setSourceModel(model);
}

void TableFilterModel::setFilter(const QString& filter) {
  needle_ = filter;
  column_ = -1;
  const auto* table = model_ ? model_->table() : nullptr;
  const qsizetype colon = filter.indexOf(QLatin1Char(':'));
  if (table && colon > 0) {
    const QString name = filter.left(colon).trimmed();
    for (std::size_t c = 0; c < table->columns.size(); ++c)
      if (QString::fromStdString(table->columns[c].name).compare(name, Qt::CaseInsensitive) == 0) {
        column_ = static_cast<int>(c);
        needle_ = filter.mid(colon + 1).trimmed();
        break;
      }
  }
  invalidateFilter();
}

bool TableFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
  if (needle_.isEmpty() || !model_ || !model_->table()) return true;
  if (column_ >= 0) return model_->text(sourceRow, column_).contains(needle_, Qt::CaseInsensitive);
  const int columns = model_->columnCount();
  for (int c = 0; c < columns; ++c)
    if (model_->text(sourceRow, c).contains(needle_, Qt::CaseInsensitive)) return true;
  return false;
}

}  // namespace marrow::app
