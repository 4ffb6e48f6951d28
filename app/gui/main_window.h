// The main window: viewport in the centre, docks around it, menus, loading off the GUI thread.
#pragma once

#include <QFutureWatcher>
#include <QMainWindow>

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "app/document.h"
#include "app/gui/archive_choice.h"
#include "app/gui/docks.h"
#include "app/player.h"
#include "render/gl/camera.h"

class QAction;
class QMenu;

namespace marrow::app {

class ArchiveDock;
class BonesDock;
class LogDock;
class PakDock;
class PropertiesDock;
class SceneDock;
class TableDock;
class TimelineDock;
class Viewport;
enum class ItemKind;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
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
  PakDock* paks() const { return pak_; }
  TableDock* tables() const { return tables_; }
  Player& player() { return player_; }

 signals:
  void documentLoaded();
  void loadFailed(const QString& message);

 public slots:
  void openDialog();
  void reload();
  // Reloads the open files with clip files (.ani, .caf, …) picked in a dialog added to them,
  // keeping the camera as Reload does.
  void attachAnimations();
  void attachFiles(const QStringList& files);
  void openDemo();
  void saveScreenshot();
  void exportOmf();

 protected:
  void closeEvent(QCloseEvent* e) override;
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  void createActions();
  void createDocks();
  void loadFinished();
  void setDocument(Document doc);
  // Shows doc_->scene in the viewport and the docks, from the start of its first clip.
  void showModel(bool frame);
  void updatePose();
  // The viewport's morph weights: the sliders', with the targets the playing clip animates
  // following it. `force`: even when no clip animates any (after an upload, a slider moved).
  void updateMorphs(bool force = false);
  void addRecent(const QStringList& paths);
  void rebuildRecentMenu();
  void onItemSelected(ItemKind kind, int index);
  void onBoneSelected(int bone);
  void readSettings();
  void writeSettings();
  // Sets restore_ from what is shown now, for the next load (Reload, Attach Animations).
  void rememberView();

  // The archive dock (main_window_archive.cpp): picked records make the model shown.
  void showPickedRecords();
  void showChoice(const ArchiveChoice& choice);
  void inspectRecord(const formats::brf::RecordRef& record);
  std::vector<QImage> texturesFor(formats::Scene& scene);
  void logNewDiagnostics(const formats::Diagnostics& diagnostics);

  Viewport* viewport_ = nullptr;
  SceneDock* scene_ = nullptr;
  ArchiveDock* archive_ = nullptr;
  BonesDock* bones_ = nullptr;
  PropertiesDock* properties_ = nullptr;
  LogDock* log_ = nullptr;
  PakDock* pak_ = nullptr;
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

  std::unique_ptr<Document> doc_;  // the files, and the model shown now (its scene, textures)
  // The model of the whole files as loaded, shown again when no record is picked.
  std::shared_ptr<const formats::Scene> filesScene_;
  std::vector<QImage> filesTextures_;
  ShownRecords shown_;
  std::set<std::string> logged_;  // diagnostics already in the log, not repeated per pick
  bool morphsFromClip_ = false;   // the viewport's weights came from a clip, not the sliders
  Player player_;
  MeshControls controls_;
  using LoadResult = std::shared_ptr<formats::Result<Document>>;
  QFutureWatcher<LoadResult>* watcher_ = nullptr;
  QStringList loadingPaths_;
  QStringList queuedPaths_;
  // What Reload puts back once the files are read again.
  struct ViewState {
    std::string clip;
    double time = 0.0;
    bool playing = false;
    std::string bone;
    render::Camera camera;
  };
  std::optional<ViewState> restore_;
};

}  // namespace marrow::app
