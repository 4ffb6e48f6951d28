// The records of the open BRF files as a tree: a node per file, a group per kind of record with
// its count, a row per record with its key figures. A filter finds records by name across every
// open file; selecting records says what the viewer shows (main_window.cpp builds the model).
#pragma once

#include <QDockWidget>

#include <optional>
#include <span>
#include <vector>

#include "formats/brf/brf.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QTreeWidget;
class QTreeWidgetItem;

namespace marrow::app {

class ArchiveDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit ArchiveDock(QWidget* parent = nullptr);

  // The open files (empty: none is a BRF). Clears the selection and the skeleton choice.
  void setSources(std::span<const formats::brf::Source> sources);

  // Records by name, case-insensitive substring, across all files; groups left empty are hidden.
  void setFilter(const QString& text);
  QString filter() const;

  // The records selected (files and groups are not records), in tree order.
  std::vector<formats::brf::RecordRef> selectedRecords() const;
  void selectRecords(std::span<const formats::brf::RecordRef> records);

  // The skeletons that fit what is shown (brf::fittingSkeletons), the one the automatic choice
  // uses (empty: none), and the one the user picked, or nothing for "automatic".
  void setFittingSkeletons(std::span<const formats::brf::RecordRef> skeletons,
                           const QString& automatic,
                           std::optional<formats::brf::RecordRef> chosen);
  std::optional<formats::brf::RecordRef> chosenSkeleton() const;
  void chooseSkeleton(std::optional<formats::brf::RecordRef> skeleton);  // emits skeletonChosen

  QTreeWidget* tree() const { return tree_; }
  // The tree's context menu for a right-click on `item` (null: empty space): Export… of the
  // records selected, or of the record clicked when it is not among them.
  void fillMenu(QMenu& menu, QTreeWidgetItem* item);
  // The rows visible under the filter, per kind (for the group labels and for tests).
  int visibleRecords(formats::brf::Section kind) const;

 signals:
  void recordsSelected();
  void skeletonChosen();
  // Export… was chosen for these records (main_window.cpp asks where and writes them).
  void exportRequested(const std::vector<formats::brf::RecordRef>& records);

 private:
  void fill();
  void addFile(std::size_t source);
  void updateGroupLabels();

  std::vector<formats::brf::Source> sources_;
  QLineEdit* filter_;
  QComboBox* skeletons_;
  QLabel* skeletonLabel_;
  QTreeWidget* tree_;
};

}  // namespace marrow::app
