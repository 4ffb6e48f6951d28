// A data table (Scene::tables, Dragon Nest .dnt / .ext) as a Qt item model, and the proxy that
// sorts it by value and filters it by text.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QString>
#include <memory>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::app {

// The format's column type as people read it ("text", "int", …).
QString tableTypeName(std::uint8_t type);
// A cell as shown and as searched: numbers in their shortest form.
QString tableCellText(const formats::TableCell& cell);

// One table, read only. Rows keep the file's order; the vertical header shows each row's id.
class TableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // What sorting compares: a double for number cells, the text for text cells.
  static constexpr int kSortRole = Qt::UserRole;

  explicit TableModel(QObject* parent = nullptr);
  // `scene` keeps the table alive; null or an index out of range shows nothing.
  void setTable(std::shared_ptr<const formats::Scene> scene, int index);
  const formats::Table* table() const { return table_; }
  // The cell's text as data(DisplayRole) gives it, without building a QVariant.
  const QString& text(int row, int column) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const formats::Scene> scene_;
  const formats::Table* table_ = nullptr;
  std::vector<QString> text_;  // row-major: filtering reads every cell on each keystroke
};

// Filters rows by "text" (a case-insensitive substring of any cell) or "column:text" (of that
// column's cell; a column name that matches none searches every cell for the whole string).
class TableFilterModel : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  explicit TableFilterModel(QObject* parent = nullptr);
  void setTableModel(TableModel* model);
  void setFilter(const QString& filter);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  TableModel* model_ = nullptr;
  QString needle_;
  int column_ = -1;  // -1: every column
};

}  // namespace marrow::app
