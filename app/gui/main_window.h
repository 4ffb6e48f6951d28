// The main window: viewport in the centre, docks around it, menus, loading off the GUI thread.
#pragma once

#include <QFutureWatcher>
#include <QMainWindow>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "app/document.h"
#include "app/gui/docks.h"
#include "app/player.h"
#include "app/retarget.h"
#include "render/anim/springs.h"
#include "render/gl/camera.h"

class QAction;
class QActionGroup;
class QFileSystemWatcher;
class QMenu;
class QTimer;

namespace marrow::app {

class ArchiveDock;
class BonesDock;
class LogDock;
class PropertiesDock;
class SceneDock;
class TableDock;
class TimelineDock;
class Viewport;
enum class ItemKind;
struct ExportJob;
// What an export does about the problems the game it is written for has (formats/check.h):
// report them and write; hold on an error for the user to decide; fix, then write.
enum class ExportCheck { Report, Hold, Fix };

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  // Starts loading `files` (as openFiles does) before the window is built: reading a big model
  // and building the window (its widgets, the OpenGL driver) then share the machine's cores.
  explicit MainWindow(const QStringList& files, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Loads the files as one model in the background; the current model stays until it succeeds.
  void openFiles(const QStringList& paths);
  bool loading() const;
  const Document* document() const { return doc_.get(); }

  Viewport* viewport() const { return viewport_; }
  TimelineDock* timeline() const { return timeline_; }
  LogDock* log() const { return log_; }
  BonesDock* bones() const { return bones_; }
  ArchiveDock* archive() const { return archive_; }
  PropertiesDock* properties() const { return properties_; }
  TableDock* tables() const { return tables_; }
  Player& player() { return player_; }

  // Where an export goes: asked with a file dialog whose filters are the output formats
  // (`records`: the formats written from archive records, .brf, offered too); an empty answer
  // cancels. Tests put their own.
  using ExportPathChooser =
      std::function<QString(const QString& title, const QString& suggestedName, bool records)>;
  void setExportPathChooser(ExportPathChooser chooser) { chooseExportPath_ = std::move(chooser); }
  bool exporting() const { return !exports_.isEmpty(); }
  // Which of a file's skeletons (their addresses) File › Rig onto Skeleton rigs onto: asked in a
  // dialog; an empty answer cancels. Tests put their own.
  using SkeletonChooser = std::function<QString(const QStringList& skeletons)>;
  // How long the files of a changed model must stay the same before File › Watch Files reloads
  // it (twice this, at most: it is checked at the end of each interval). Tests shorten it.
  void setSettleInterval(int ms) { settleMs_ = ms; }
  const QStringList& watchedFiles() const { return watched_; }
  void setSkeletonChooser(SkeletonChooser chooser) { chooseSkeleton_ = std::move(chooser); }

 signals:
  void documentLoaded();
  void loadFailed(const QString& message);
  // An export ended: written, or not (`message` says what was written, or why not).
  void exportFinished(bool ok, const QString& message);

 public slots:
  void openDialog();
  // File › Open as Frames…: files that are one mesh's shapes at successive times (an OBJ
  // sequence) opened as one mesh with vertex animation (formats/model/frames.h).
  void openFramesDialog();
  void openFrames(const QStringList& paths);
  void openFolderDialog();  // a folder in the Archives dock, to open files from
  // The library the open file belongs to (a Warband module, for a BRF in its Resource/ folder).
  void openLibraryOfFile();
  void reload();
  // Stops waiting for the running load: an import process is killed, a reader in this process
  // runs on in the background and its result is dropped; the model shown stays.
  void cancelLoading();
  // Reloads the open files with clip files (.ani, .caf, …) picked in a dialog added to them,
  // keeping the camera as Reload does.
  void attachAnimations();
  // Files that bring a skeleton of their own (hero.csf + walk.caf, an FBX) are read as a model
  // of their own and their clips retargeted onto the model's skeleton (main_window_animation.cpp);
  // others are read with the model's files.
  void attachFiles(const QStringList& files);
  // Loads a bone-name map (lines `source = target`) that retargeted clips find their bones
  // through, and shows the model again with it; an empty path clears the map. False (the error
  // in the Log) when the file cannot be read.
  bool setBoneNameMap(const QString& path);
  // File › Rig onto Skeleton… (main_window_rig.cpp): the model rigged onto the skeleton a file
  // holds (asked which when it holds several), shown as Export writes it; the Log says which
  // bones matched. A reload rigs the files again. showOwnSkeleton undoes it.
  void rigDialog();
  void rigOntoSkeleton(const QString& address);
  void showOwnSkeleton();
  // Edit › Copy Pose as Text: every bone's local and model matrix at the current time.
  void copyPoseAsText();
  void openDemo();
  void saveScreenshot();  // asks for a size and a file
  // The viewport drawn at `size` (empty: as shown) into an image file; false (logged) on failure.
  bool saveScreenshotTo(const QString& path, QSize size = {});
  // File › Export…: the model shown, in the format the dialog's name or filter says.
  void exportDialog();
  // The model shown, written to `path` off the GUI thread (the format by its extension; the
  // current clip for .caf/.xaf, the selected material for .crf/.xrf; for .brf the records
  // picked in the Archives dock, or the open BRF files).
  void exportTo(const QString& path);
  // Nodes of an archive that shows models (BRF records) as the viewer would show them, written
  // to `path`; what is shown does not change.
  void exportNodesTo(int archive, const std::vector<std::string>& paths, const QString& path);
  // An entry of an archive of files ("ARCHIVE.pak::path" and the files it finds its parts in)
  // loaded as the viewer would open it and written to `path`; what is shown does not change.
  void exportEntryTo(const QStringList& addresses, const QString& path);

 protected:
  void closeEvent(QCloseEvent* e) override;
  // The first show sizes the docks for the window's real size, unless a saved layout came back.
  void showEvent(QShowEvent* e) override;
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  void createActions();
  QStringList askModelFiles(const QString& title);
  // The View menu's inspection part: looks, overlays, weight views, skinning method.
  void createInspectionActions();
  void createDocks();
  void loadFinished();
  // An archive entry double-clicked: read like any file, but a table opens beside the model
  // and an animation plays on it (openBesideModel) instead of replacing it.
  void openEntries(const QStringList& addresses);
  void startLoad(const QStringList& paths, bool entry, bool asFrames = false);
  void startReading(const QStringList& paths, bool entry, bool asFrames);  // the load alone
  void showLoading();  // the window's side of a running load: status, cursor, Cancel
  bool openBesideModel(const Document& entry);
  void showTables();
  void setDocument(Document doc);
  // Shows doc_->scene in the viewport and the docks, from the start of its opening clip
  // (app/player.h: openingClip).
  void showModel(bool frame);
  // Of level meshes (NAME.lodN), the level the Properties dock chose is drawn (0 at first).
  void showMeshLevel();
  // File › Watch Files (main_window_watch.cpp).
  void createWatching(QMenu* file);
  void watchFiles();  // the files of the model shown, when watching is on
  QStringList fileStamps() const;
  void filesSettled();
  void updatePose();
  // The viewport's morph weights: the sliders', with the targets the playing clip animates
  // following it. `force`: even when no clip animates any (after an upload, a slider moved).
  void updateMorphs(bool force = false);
  // View › Simulate Springs: the cloth of cal3d spring meshes at the playhead (or their skinning).
  void updateCloth();
  void addRecent(const QStringList& paths);
  void rebuildRecentMenu();
  void onItemSelected(ItemKind kind, int index);
  void onBoneSelected(int bone);
  void readSettings();
  void writeSettings();
  // Sets restore_ from what is shown now, for the next load (Reload, Attach Animations).
  void rememberView();

  // Animations from other files (main_window_animation.cpp).
  void attachMerged(const QStringList& files);  // read with the model's files, as Reload does
  void attachAnimationSource(const QStringList& files);
  void boneNameMapDialog();
  void showWithAnimations();  // the model again, with the animation sources and the map

  // The archive dock (main_window_archive.cpp): picked records make the model shown.
  void showPicked(int archive);
  void inspectNodes(int archive, const std::vector<std::string>& paths, formats::Scene scene);
  std::vector<QImage> texturesFor(formats::Scene& scene);
  void logNewDiagnostics(const formats::Diagnostics& diagnostics);

  // Export (main_window.cpp): the job runs off the GUI thread, its outcome is reported here.
  void exportShown(const QString& path, bool interactive, ExportCheck check);
  void exportNodesDialog(int archive, const std::vector<std::string>& paths);
  void exportEntryDialog(const QStringList& addresses);
  void startExport(const QString& path, std::function<ExportJob()> job, bool interactive);
  void exportDone(QFutureWatcher<std::shared_ptr<ExportJob>>* watcher, const QString& path,
                  bool interactive);

  Viewport* viewport_ = nullptr;
  SceneDock* scene_ = nullptr;
  ArchiveDock* archive_ = nullptr;
  BonesDock* bones_ = nullptr;
  PropertiesDock* properties_ = nullptr;
  LogDock* log_ = nullptr;
  TimelineDock* timeline_ = nullptr;
  TableDock* tables_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QAction* wireframe_ = nullptr;
  QAction* skeleton_ = nullptr;
  QAction* grid_ = nullptr;
  QAction* lighting_ = nullptr;
  QAction* textures_ = nullptr;
  QAction* bodies_ = nullptr;
  QAction* matcap_ = nullptr;
  QAction* culling_ = nullptr;
  QAction* normals_ = nullptr;
  QAction* tangents_ = nullptr;
  QAction* bounds_ = nullptr;
  QAction* ground_ = nullptr;
  QActionGroup* shading_ = nullptr;     // data: render::Shading
  QActionGroup* skinning_ = nullptr;    // data: render::SkinningMethod
  QAction* springs_ = nullptr;          // View › Simulate Springs

  std::unique_ptr<Document> doc_;  // the files, and the model shown now (its scene, textures)
  AnimationSet animations_;        // clips of other files retargeted onto it, the bone-name map
  // The model of the whole files as loaded, shown again when no record is picked.
  std::shared_ptr<const formats::Scene> filesScene_;
  std::vector<QImage> filesTextures_;
  // What the last pick left on screen (ModelArchive::show); unset: everything.
  std::optional<std::vector<std::string>> onScreen_;
  std::set<std::string> logged_;  // diagnostics already in the log, not repeated per pick
  bool morphsFromClip_ = false;   // the viewport's weights came from a clip, not the sliders
  std::map<std::string, float> drivenMorphs_;  // target → weight, of those the clip drives now
  // The shown model's spring meshes simulated along the clip (null: it has none), and the clip
  // they were simulated for.
  std::unique_ptr<anim::ClothPlayback> cloth_;
  const formats::Clip* clothClip_ = nullptr;
  bool clothPlaced_ = false;  // the viewport draws simulated cloth now
  Player player_;
  MeshControls controls_;
  using LoadResult = std::shared_ptr<formats::Result<Document>>;
  QFutureWatcher<LoadResult>* watcher_ = nullptr;
  QStringList loadingPaths_;
  QStringList queuedPaths_;
  // Whether the running and the queued load are archive entries double-clicked (openEntries).
  bool loadingEntry_ = false, queuedEntry_ = false;
  // Whether the queued load reads its files as the frames of one vertex animation (openFrames).
  bool queuedFrames_ = false;
  // The skeleton a reload rigs the files onto again once read (Document::rig).
  QString rigAfterLoad_;
  // The model as its files make it while a rigged one is shown (File › Own Skeleton).
  std::unique_ptr<Document> unrigged_;
  bool docksSized_ = false;  // by a saved layout, or on the first show
  // Tables opened beside the model (a .dnt double-clicked while a model is open): shown until
  // other tables are, or files of other archives are opened.
  std::shared_ptr<const formats::Scene> besideTables_;
  std::shared_ptr<std::atomic<bool>> loadCancelled_;  // the running load's flag
  QAction* cancelLoadAction_ = nullptr;
  QAction* openLibraryAction_ = nullptr;
  QAction* ownSkeletonAction_ = nullptr;
  QWidget* cancelLoadButton_ = nullptr;  // in the status bar while loading
  // What Reload puts back once the files are read again.
  struct ViewState {
    std::string clip;
    double time = 0.0;
    bool playing = false;
    std::string bone;
    render::Camera camera;
    // The records picked in the Archives dock (by archive, path and name: a path that names
    // another record after the reload is found again by its name) and the skeleton chosen there.
    struct Pick {
      int archive = -1;
      std::string path, name;
    };
    std::vector<Pick> picked;
    std::optional<std::string> skeleton;
  };
  // Picks the records of restore->picked again (after a reload).
  void pickAgain(const ViewState& restore);
  std::optional<ViewState> restore_;
  int material_ = -1;  // the material last selected in the Scene dock, for .crf exports
  ExportPathChooser chooseExportPath_;
  SkeletonChooser chooseSkeleton_;
  QFileSystemWatcher* files_ = nullptr;
  QTimer* settle_ = nullptr;
  QAction* watchAction_ = nullptr;
  QStringList watched_, stamps_, settledStamps_;  // the files, as loaded, as last seen settling
  bool changed_ = false;
  int settleMs_ = 400;
  std::uint64_t documents_ = 0;  // counts setDocument: work begun on one model is dropped for the next
  QList<QFutureWatcher<std::shared_ptr<ExportJob>>*> exports_;  // running
};

}  // namespace marrow::app
