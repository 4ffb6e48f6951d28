// The data tables of the open document (Dragon Nest .dnt / .ext): pick one, sort by a column,
// filter rows, export CSV.
#pragma once

#include <QDockWidget>
#include <memory>

#include "formats/model/scene.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace marrow::app {

class TableFilterModel;
class TableModel;

class TableDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit TableDock(QWidget* parent = nullptr);
  // Shows the scene's tables (the first one picked); null or a scene without tables clears.
  void setScene(std::shared_ptr<const formats::Scene> scene);
  bool hasTables() const;

  void selectTable(int index);
  void setFilter(const QString& filter);  // as if typed into the filter field
  // The whole picked table (every row and column in file order, whatever the view's filter and
  // sort) as formats::dragonnest::tableCsv writes it; false when there is none or it cannot be
  // written.
  bool exportCsv(const QString& path) const;

  QTableView* view() const { return view_; }
  TableFilterModel* proxy() const { return proxy_; }
  TableModel* model() const { return model_; }
  QString rowCountText() const;

 public slots:
  void exportDialog();

 private:
  void updateCount();

  std::shared_ptr<const formats::Scene> scene_;
  TableModel* model_;
  TableFilterModel* proxy_;
  QComboBox* picker_;
  QLineEdit* filter_;
  QLabel* count_;
  QPushButton* export_;
  QTableView* view_;
};

}  // namespace marrow::app
