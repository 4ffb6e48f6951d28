// The open Dragon Nest archives as one file system: a tree whose folders are filled when they
// are opened (100,000 entries cost only the top level), a filter that lists matching entries
// flat, double-click to open an entry as the model, and extraction off the GUI thread.
#pragma once

#include <QDockWidget>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/pak_extract.h"  // QPointer needs the whole type
#include "formats/dragonnest/pak.h"
#include "formats/io/diagnostics.h"

class QLabel;
class QLineEdit;
class QMenu;
class QStackedWidget;
class QTimer;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace marrow::app {

// What a row of the tree or the match list stands for.
enum class PakRow {
  Placeholder,  // the child of a folder not yet opened
  Folder,
  File,        // what the file system resolves the path to (possibly a deleted entry)
  Overridden,  // a live entry hidden by an earlier pak or an earlier duplicate (§2.4)
  More,        // "… N more" under a capped match list
};

class PakDock : public QDockWidget {
  Q_OBJECT

 public:
  enum Column { kName, kSize, kPacked, kArchive, kColumns };
  static constexpr int kMaxMatches = 5000;

  explicit PakDock(QWidget* parent = nullptr);
  ~PakDock() override;

  // The archives of the open document (null: none). The same archives again (a double-clicked
  // entry was opened) keep the folders that were open, the selection and the filter.
  void setPaks(std::shared_ptr<const formats::dragonnest::PakSet> paks);
  const formats::dragonnest::PakSet* paks() const { return paks_.get(); }

  // Entries by name, case-insensitive substring (with a '/', of the whole path); immediate.
  void setFilter(const QString& text);
  QString filter() const;

  QTreeWidget* tree() const { return tree_; }        // the lazy file system
  QTreeWidget* matches() const { return matches_; }  // the filter's flat list
  static PakRow rowKind(const QTreeWidgetItem* item);
  // The folder or file of a row ("resource/char"); empty for the root's placeholder and "more".
  static QString rowPath(const QTreeWidgetItem* item);
  formats::dragonnest::PakRef rowEntry(const QTreeWidgetItem* item) const;
  // The row of that path in the tree, opening the folders above it; null if there is none.
  QTreeWidgetItem* revealPath(const QString& path);

  // The live entries of the selected files and of everything under the selected folders, in
  // path order, once each.
  std::vector<formats::dragonnest::PakRef> selectedEntries() const;
  // Extracts into `folder` off the GUI thread; null when nothing is given or one is running.
  PakExtraction* extract(std::vector<formats::dragonnest::PakRef> entries, const QString& folder);
  PakExtraction* extractAll(const QString& folder);
  PakExtraction* extraction() const { return extraction_; }

  // What a double-click opens for a file row: "ARCHIVE.pak::path" and every open pak (the file
  // system its parts are found in); empty for other rows and unreadable entries.
  QStringList openAddresses(const QTreeWidgetItem* item) const;
  // The context menu of `view` for a right-click on `item` (null: empty space): Open and
  // Export… of a file, Extract… of the selection, Extract all….
  void fillMenu(QMenu& menu, QTreeWidget* view, QTreeWidgetItem* item);

 public slots:
  void extractSelectedDialog();
  void extractAllDialog();

 signals:
  // The addresses to open as the document: "ARCHIVE.pak::path" and every open pak.
  void openRequested(const QStringList& paths);
  // Export… was chosen for an entry: the addresses to load it from (as openRequested's).
  void exportRequested(const QStringList& paths);
  void diagnostics(const marrow::formats::Diagnostics& diagnostics);
  void info(const QString& message);
  void extractionFinished();

 private:
  void rebuildTree();
  void fetchChildren(QTreeWidgetItem* folder);
  void addRows(QTreeWidgetItem* parent, const std::string& folder);
  QTreeWidgetItem* fileRow(QTreeWidgetItem* parent, const formats::dragonnest::PakRef& ref,
                           const QString& name, PakRow kind);
  void applyFilter();
  void openRow(QTreeWidgetItem* item);
  void showMenu(QTreeWidget* view, const QPoint& at);
  void finishExtraction();
  QString pakLabel(const formats::dragonnest::Pak* pak) const;
  int pakIndex(const formats::dragonnest::Pak* pak) const;
  QTreeWidget* currentView() const;
  void updateStatus();

  std::shared_ptr<const formats::dragonnest::PakSet> paks_;
  QStringList pakNames_;                               // to tell the same archives opened again
  std::vector<formats::dragonnest::PakRef> resolved_;  // for the filter, made on first use
  QSet<QString> expanded_;                             // folders open in the tree
  QLineEdit* filter_;
  QTimer* debounce_;
  QToolButton* extractButton_;
  QToolButton* extractAllButton_;
  QStackedWidget* views_;
  QTreeWidget* tree_;
  QTreeWidget* matches_;
  QLabel* status_;
  QPointer<PakExtraction> extraction_;
};

}  // namespace marrow::app
