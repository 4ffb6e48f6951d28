// Everything open that holds other things, as one tree over the virtual file system
// (formats/io/vfs.h): paks as one file system, BRF files with their records by kind, folders.
// Folders fill when they open (100,000 entries cost only the top level); one filter lists what
// matches across every archive, flat; one context menu opens, exports and extracts.
//
// Archives of files (paks, folders): double-click opens an entry as the model. Archives whose
// nodes are parts of one model (BRF records, formats/model/model_archive.h): selecting them shows
// them (MainWindow asks the archive what they make), with a skeleton picker.
#pragma once

#include <QDockWidget>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

#include "app/gui/extraction.h"  // QPointer needs the whole type
#include "formats/io/diagnostics.h"
#include "formats/io/vfs.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QMenu;
class QSortFilterProxyModel;
class QStackedWidget;
class QTimer;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace marrow::app {

class GalleryModel;
class ThumbnailService;

class ArchiveDock : public QDockWidget {
  Q_OBJECT

 public:
  enum Column { kName, kSize, kDetails, kColumns };
  static constexpr int kMaxMatches = 5000;

  // What a row stands for.
  enum class Row {
    Placeholder,  // the child of a folder not opened yet
    Archive,      // one archive of the file system
    Node,         // a node of an archive
    More,         // "… N more" under a capped match list
  };

  explicit ArchiveDock(QWidget* parent = nullptr);
  ~ArchiveDock() override;

  // The archives of the open document (none: nothing to browse). The same archives again (an
  // entry of them was opened) keep the folders that were open, the selection and the filter.
  void setArchives(const formats::vfs::FileSystem& archives);
  const formats::vfs::FileSystem& archives() const { return archives_; }
  bool empty() const { return archives_.empty(); }
  const formats::vfs::Archive* archiveAt(int index) const;
  // Whether a model is open that entries can be added to (Add to the Model).
  void setHasModel(bool has) { hasModel_ = has; }

  // Nodes by name, case-insensitive substring, across every archive; immediate.
  void setFilter(const QString& text);
  QString filter() const;

  QTreeWidget* tree() const { return tree_; }        // the lazy tree
  QTreeWidget* matches() const { return matches_; }  // the filter's flat list
  static Row rowKind(const QTreeWidgetItem* item);
  static int rowArchive(const QTreeWidgetItem* item);
  static std::string rowPath(const QTreeWidgetItem* item);
  std::optional<formats::vfs::Node> rowNode(const QTreeWidgetItem* item) const;
  // The row of a node in the tree, opening the containers above it; null if there is none.
  QTreeWidgetItem* reveal(int archive, const std::string& path);

  struct Picked {
    int archive = -1;
    std::string path;
  };
  // The nodes selected in the view shown, in order.
  std::vector<Picked> selectedNodes() const;
  // Selects these nodes of one archive in the tree (revealing them); emits picked().
  void selectNodes(int archive, const std::vector<std::string>& paths);
  // The paths selected in one archive.
  std::vector<std::string> selectedPaths(int archive) const;

  // The skeleton picker of archives that show models: the skeletons that fit, the automatic
  // choice's name, the user's choice (a node path) when it still fits.
  void setSkeletons(const std::vector<formats::vfs::Node>& fitting, const QString& automatic,
                    const std::optional<std::string>& chosen);
  std::optional<std::string> chosenSkeleton() const;
  void chooseSkeleton(const std::optional<std::string>& path);  // emits skeletonChosen

  // The gallery (gui/gallery.h): thumbnails of the models under a node ("" the archive's root)
  // instead of the tree; the filter then narrows it by name. Picking tiles picks the nodes in the
  // tree; double-clicking one opens it as a double-click in the tree does.
  void showGallery(int archive, const std::string& path);
  void hideGallery();
  bool galleryShown() const;
  // What the gallery button shows: the gallery of the current row's container.
  void showGalleryOfCurrent();
  QListView* gallery() const { return gallery_; }
  // Whether the gallery's models are being listed (in the background).
  bool galleryListing() const { return listing_; }
  GalleryModel* galleryModel() const { return galleryModel_; }
  // Made on first use (a GL context of its own, in a thread of its own); null before.
  ThumbnailService* thumbnails() const { return thumbnails_; }

  // The files extraction writes for the selection (files under folders included), of the
  // archive of the first node selected.
  std::vector<formats::vfs::Node> selectedFiles(int* archive) const;
  // Extracts into `folder` off the GUI thread; null when there is nothing or one is running.
  Extraction* extract(int archive, const std::vector<formats::vfs::Node>& files, const QString& folder);
  Extraction* extractAll(const QString& folder);
  Extraction* extraction() const { return extraction_; }

  // What a double-click opens for a row of an archive of files: the node's address and every
  // other file of its archive (the file system its parts are found in); empty otherwise.
  QStringList openAddresses(const QTreeWidgetItem* item) const;
  // `wholeModel`: a file of a folder with the files of the model it belongs to there (a cal3d
  // part with its skeleton and parts: opening it); else the entry alone (adding, exporting).
  QStringList openAddresses(int archive, const std::string& path, bool wholeModel = false) const;
  // The context menu of `view` for a right-click on `item` (null: empty space).
  void fillMenu(QMenu& menu, QTreeWidget* view, QTreeWidgetItem* item);
  void addUsersMenu(QMenu& menu, int archive, const formats::vfs::Node& node);

 public slots:
  void extractSelectedDialog();
  void extractAllDialog();

 signals:
  // Nodes were picked (or unpicked) in an archive that shows models.
  void picked(int archive);
  void skeletonChosen();
  // The addresses to open as the document.
  void openRequested(const QStringList& addresses);
  // Export… of nodes of an archive that shows models (its records), or of an entry of an
  // archive of files (the addresses to load it from, as openRequested's).
  void exportNodesRequested(int archive, const std::vector<std::string>& paths);
  void exportEntryRequested(const QStringList& addresses);
  // Add to the Model: an entry (an animation, a mesh) read with the open model, its clips
  // retargeted when it brings a skeleton of its own (MainWindow::attachFiles).
  void addRequested(const QStringList& addresses);
  void diagnostics(const marrow::formats::Diagnostics& diagnostics);
  void info(const QString& message);
  void extractionFinished();

 private:
  void rebuild();
  QTreeWidgetItem* nodeRow(int archive, const formats::vfs::Node& node, bool flat) const;
  void fetchChildren(QTreeWidgetItem* item);
  void applyFilter();
  void activate(QTreeWidgetItem* item);
  void selectionChanged();
  void showMenu(QTreeWidget* view, const QPoint& at);
  void finishExtraction();
  QTreeWidget* currentView() const;
  void updateStatus();
  bool showsModels(int archive) const;
  void activateNode(int archive, const std::string& path, const QString& label);
  // A folder just opened whose files are parts of models (cal3d without a .cfg): says which
  // models it holds and shows them as pictures; the parts that fit none go to the Log. Worked
  // out in the background.
  void offerFolderModels();
  void galleryPicked();
  void showGalleryMenu(const QPoint& at);

  formats::vfs::FileSystem archives_;
  QStringList titles_;   // to tell the same archives set again
  QSet<QString> expanded_;  // "archive\npath" of the containers open in the tree
  QLineEdit* filter_;
  QTimer* debounce_;
  QLabel* skeletonLabel_;
  QComboBox* skeletons_;
  QToolButton* extractButton_;
  QToolButton* extractAllButton_;
  QToolButton* galleryButton_;
  QStackedWidget* views_;
  QTreeWidget* tree_;
  QTreeWidget* matches_;
  QListView* gallery_;
  GalleryModel* galleryModel_ = nullptr;
  QSortFilterProxyModel* galleryFilter_ = nullptr;
  ThumbnailService* thumbnails_ = nullptr;
  std::string galleryPath_;
  QString galleryTitle_;  // of the gallery's archive, as titles_ has it
  int galleryListing_ = 0;  // the last listing asked for
  bool listing_ = false;
  QTimer* statusSoon_ = nullptr;
  QLabel* status_;
  QPointer<Extraction> extraction_;
  bool hasModel_ = false;
};

}  // namespace marrow::app
