#include "app/gui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QLayout>
#include <QShowEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeySequence>
#include <QLineEdit>
#include <QLocale>
#include <QCollator>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <map>

#include "app/gui/archive_dock.h"
#include "formats/model/lod.h"
#include "formats/format_table.h"
#include "formats/io/address.h"
#include "formats/model/model_archive.h"
#include "app/gui/docks.h"
#include "app/gui/table_dock.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "render/gl/surface_look.h"
#include "render/anim/bone_names.h"

namespace marrow::app {

namespace {
constexpr int kMaxRecent = 10;
// The Open dialog's filters, from the format table: everything Marrow reads, then each format.
QString openFilter() {
  QStringList filters{QObject::tr("Everything Marrow reads (%1)").arg(QString::fromStdString(formats::readPattern()))};
  for (const formats::FormatDescriptor* f : formats::formatTable()) {
    if (!f->reads()) continue;
    QStringList patterns;
    for (std::string_view e : f->extensions) patterns << QStringLiteral("*.") + QString::fromUtf8(e.data(), static_cast<qsizetype>(e.size()));
    for (std::string_view n : f->fileNames) patterns << QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
    filters << QStringLiteral("%1 (%2)").arg(QString::fromUtf8(f->name.data(), static_cast<qsizetype>(f->name.size())),
                                            patterns.join(QLatin1Char(' ')));
  }
  filters << QObject::tr("All files (*)");
  return filters.join(QStringLiteral(";;"));
}

// The library of the first file of the model, unless that is what is open.
std::optional<QString> libraryOfDocument(const Document* doc) {
  if (!doc || doc->paths.isEmpty()) return std::nullopt;
  const std::string file = formats::Address::parse(doc->paths.front().toStdString()).file;
  const auto folder = formats::libraryOf(file);
  if (!folder) return std::nullopt;
  // Open already: the folder itself, or a file in it that is not in a folder of its own (its
  // module.ini), was opened.
  const QFileInfo library(QString::fromStdString(*folder));
  for (const QString& p : doc->paths) {
    const QFileInfo f(QString::fromStdString(formats::Address::parse(p.toStdString()).file));
    if (f == library || (f.isFile() && f.absolutePath() == library.absoluteFilePath())) return std::nullopt;
  }
  return library.absoluteFilePath();
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : MainWindow(QStringList(), parent) {}

MainWindow::MainWindow(const QStringList& files, QWidget* parent) : QMainWindow(parent) {
  // The watcher reports through the event loop, so loadFinished runs once the window is built
  // however soon the files are read.
  watcher_ = new QFutureWatcher<LoadResult>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &MainWindow::loadFinished);
  if (!files.isEmpty()) startReading(files, false, false);
  setWindowTitle(tr("Marrow"));
  setAcceptDrops(true);
  viewport_ = new Viewport(this);
  setCentralWidget(viewport_);
  createDocks();
  createActions();
  connect(viewport_, &Viewport::glFailed, this, [this](const QString& m) {
    log_->add(formats::Severity::Error, tr("OpenGL"), {}, formats::kNoOffset, m);
    statusBar()->showMessage(tr("OpenGL unavailable: %1").arg(m));
  });
  resize(1280, 800);
  readSettings();
  if (!files.isEmpty()) showLoading();
  else statusBar()->showMessage(tr("Drop model files here, or use File › Open."));
}

MainWindow::~MainWindow() {
  if (watcher_->isRunning()) watcher_->waitForFinished();
  // A load whose end the event loop never delivered (a window made and gone at once): its busy
  // cursor goes with the window.
  if (cancelLoadAction_ && cancelLoadAction_->isEnabled()) QApplication::restoreOverrideCursor();
  for (auto* x : exports_) x->waitForFinished();  // a file half renamed into place is worse
}

void MainWindow::createDocks() {
  scene_ = new SceneDock(this);
  archive_ = new ArchiveDock(this);
  bones_ = new BonesDock(this);
  properties_ = new PropertiesDock(this);
  log_ = new LogDock(this);
  timeline_ = new TimelineDock(&player_, this);
  addDockWidget(Qt::LeftDockWidgetArea, scene_);
  tabifyDockWidget(scene_, archive_);
  archive_->hide();  // shown when something browsable is open
  scene_->raise();
  addDockWidget(Qt::LeftDockWidgetArea, bones_);
  addDockWidget(Qt::RightDockWidgetArea, properties_);
  addDockWidget(Qt::BottomDockWidgetArea, timeline_);
  addDockWidget(Qt::BottomDockWidgetArea, log_);
  splitDockWidget(timeline_, log_, Qt::Vertical);
  tables_ = new TableDock(this);  // shown when a document has tables
  tabifyDockWidget(log_, tables_);
  tables_->hide();

  connect(timeline_, &TimelineDock::poseChanged, this, &MainWindow::updatePose);
  connect(timeline_, &TimelineDock::clipChanged, scene_, &SceneDock::selectClip);
  connect(scene_, &SceneDock::itemSelected, this, &MainWindow::onItemSelected);
  connect(scene_, &SceneDock::clipActivated, timeline_, [this](int clip) {
    timeline_->setClip(clip);
    timeline_->play();
  });
  connect(bones_, &BonesDock::boneSelected, this, &MainWindow::onBoneSelected);
  connect(bones_, &BonesDock::hiddenBonesChanged, viewport_, &Viewport::setHiddenBones);
  connect(viewport_, &Viewport::bonePicked, bones_, &BonesDock::selectBone);
  connect(viewport_, &Viewport::boneHovered, this, [this](int bone) {
    if (!doc_ || bone < 0 || static_cast<std::size_t>(bone) >= doc_->scene->skeleton.bones.size())
      return statusBar()->clearMessage();
    const auto& name = doc_->scene->skeleton.bones[static_cast<std::size_t>(bone)].name;
    statusBar()->showMessage(
        tr("Bone %1 (#%2): click to select").arg(QString::fromStdString(name)).arg(bone));
  });
  connect(scene_, &SceneDock::materialVisibilityChanged, viewport_, &Viewport::setMaterialVisible);
  connect(archive_, &ArchiveDock::picked, this, &MainWindow::showPicked);
  connect(archive_, &ArchiveDock::skeletonChosen, this, [this] {
    for (std::size_t i = 0; doc_ && i < doc_->archives.archives().size(); ++i)
      if (dynamic_cast<const formats::ModelArchive*>(doc_->archives.archives()[i].get()))
        return showPicked(static_cast<int>(i));
  });
  connect(archive_, &ArchiveDock::openRequested, this, &MainWindow::openEntries);
  connect(archive_, &ArchiveDock::diagnostics, log_, &LogDock::addDiagnostics);
  connect(archive_, &ArchiveDock::info, log_, &LogDock::addInfo);
  connect(archive_, &ArchiveDock::exportNodesRequested, this, &MainWindow::exportNodesDialog);
  connect(archive_, &ArchiveDock::exportEntryRequested, this, &MainWindow::exportEntryDialog);
  connect(archive_, &ArchiveDock::addRequested, this, &MainWindow::attachFiles);
  connect(timeline_, &TimelineDock::clipChanged, this, [this] {
    if (!player_.mismatch().empty())
      statusBar()->showMessage(QString::fromStdString(player_.mismatch()), 8000);
  });
  connect(properties_, &PropertiesDock::morphWeightChanged, this,
          [this](const std::string& target, float w) {
            if (!doc_) return;
            controls_.morphWeights[target] = w;
            updateMorphs(true);
          });
  connect(properties_, &PropertiesDock::meshLevelChanged, this, [this](int level) {
    controls_.meshLevel = level;
    showMeshLevel();
  });
  connect(properties_, &PropertiesDock::levelOfDetailChanged, this, [this](int mesh, float level) {
    for (std::size_t m = 0; m < controls_.levels.size(); ++m)
      if (mesh < 0 || static_cast<int>(m) == mesh) {
        controls_.levels[m] = level;
        viewport_->setLevelOfDetail(m, level);
      }
  });
}

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
  file->addAction(tr("Open as Fra&mes…"), this, &MainWindow::openFramesDialog)
      ->setObjectName(QStringLiteral("openFramesAction"));
  file->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog)
      ->setToolTip(tr("Browse a folder in the Archives dock; double-click a file to open it"));
  openLibraryAction_ = file->addAction(tr("Open &Module of This File"), this, &MainWindow::openLibraryOfFile);
  openLibraryAction_->setObjectName(QStringLiteral("openLibraryAction"));
  openLibraryAction_->setToolTip(tr("Open the Warband module a BRF in its Resource folder belongs to: every "
                                    "file module.ini loads, its textures and its actions"));
  openLibraryAction_->setEnabled(false);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  file->addAction(tr("&Reload"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::reload);
  createWatching(file);
  cancelLoadAction_ = file->addAction(tr("&Cancel Loading"), QKeySequence(Qt::Key_Escape), this,
                                      &MainWindow::cancelLoading);
  cancelLoadAction_->setEnabled(false);
  auto* cancelButton = new QToolButton(this);
  cancelButton->setDefaultAction(cancelLoadAction_);
  cancelButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
  cancelButton->setText(tr("Cancel"));
  cancelButton->setToolTip(tr("Stop loading (Esc); the model shown stays"));
  cancelButton->hide();
  statusBar()->addPermanentWidget(cancelButton);
  cancelLoadButton_ = cancelButton;
  file->addAction(tr("&Attach Animations…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A), this,
                  &MainWindow::attachAnimations);
  file->addAction(tr("&Bone Name Map…"), this, &MainWindow::boneNameMapDialog)
      ->setObjectName(QStringLiteral("boneNameMapAction"));
  file->addAction(tr("R&ig onto Skeleton…"), this, &MainWindow::rigDialog)
      ->setObjectName(QStringLiteral("rigAction"));
  ownSkeletonAction_ = file->addAction(tr("Back to Own S&keleton"), this, &MainWindow::showOwnSkeleton);
  ownSkeletonAction_->setObjectName(QStringLiteral("ownSkeletonAction"));
  ownSkeletonAction_->setEnabled(false);
  file->addAction(tr("Open &Demo Character"), this, &MainWindow::openDemo);
  file->addSeparator();
  file->addAction(tr("&Export…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                  &MainWindow::exportDialog)
      ->setObjectName(QStringLiteral("exportAction"));
  file->addAction(tr("Save &Screenshot…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                  &MainWindow::saveScreenshot);
  file->addAction(tr("Render &Frames…"), timeline_, &TimelineDock::renderFramesDialog)
      ->setObjectName(QStringLiteral("renderFramesAction"));
  timeline_->setFrameGrabber([this] { return viewport_->grabFramebuffer(); });
  connect(timeline_, &TimelineDock::framesRendered, this, [this](bool ok, const QString& m) {
    if (!ok) log_->add(formats::Severity::Error, tr("Render Frames"), {}, formats::kNoOffset, m);
    statusBar()->showMessage(ok ? m : tr("Render Frames: %1").arg(m), 10000);
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(tr("&Copy Pose as Text"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                  &MainWindow::copyPoseAsText)
      ->setObjectName(QStringLiteral("copyPoseAction"));

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  viewMenu_->addAction(tr("&Frame All"), QKeySequence(Qt::Key_F), viewport_, &Viewport::frameAll);
  viewMenu_->addAction(tr("&Reset View"), QKeySequence(Qt::CTRL | Qt::Key_0), viewport_, &Viewport::resetView);
  viewMenu_->addSeparator();
  auto toggle = [this](const QString& text, QKeySequence key, bool on, auto setter) {
    QAction* a = viewMenu_->addAction(text);
    a->setCheckable(true);
    a->setShortcut(key);
    connect(a, &QAction::toggled, this, [this, setter](bool v) {
      setter(viewport_->options(), v);
      viewport_->update();
    });
    a->setChecked(on);
    setter(viewport_->options(), on);
    return a;
  };
  wireframe_ = toggle(tr("&Wireframe"), QKeySequence(Qt::Key_W), false,
                      [](render::ViewOptions& o, bool v) { o.wireframe = v; });
  skeleton_ = toggle(tr("S&keleton"), QKeySequence(Qt::Key_K), false,
                     [](render::ViewOptions& o, bool v) { o.showSkeleton = v; });
  grid_ = toggle(tr("&Grid"), QKeySequence(Qt::Key_G), true,
                 [](render::ViewOptions& o, bool v) { o.showGrid = v; });
  lighting_ = toggle(tr("&Lighting"), QKeySequence(Qt::Key_L), true,
                     [](render::ViewOptions& o, bool v) { o.lit = v; });
  textures_ = toggle(tr("&Textures"), QKeySequence(Qt::Key_T), true,
                     [](render::ViewOptions& o, bool v) { o.textured = v; });
  bodies_ = viewMenu_->addAction(tr("Collision &Bodies"));
  bodies_->setCheckable(true);
  bodies_->setShortcut(QKeySequence(Qt::Key_B));
  connect(bodies_, &QAction::toggled, viewport_, &Viewport::setBodiesVisible);
  bodies_->setChecked(true);
  createInspectionActions();
  viewMenu_->addSeparator();
  viewMenu_->addAction(tables_->toggleViewAction());
  for (QDockWidget* d : std::initializer_list<QDockWidget*>{scene_, archive_, bones_, properties_, timeline_, log_})
    viewMenu_->addAction(d->toggleViewAction());

  QMenu* play = menuBar()->addMenu(tr("&Playback"));
  play->addAction(tr("&Play / Pause"), QKeySequence(Qt::Key_Space), timeline_, &TimelineDock::togglePlay);
  play->addAction(tr("&Stop"), timeline_, &TimelineDock::stop);
  play->addAction(tr("&Next Frame"), QKeySequence(Qt::Key_Period), timeline_, &TimelineDock::stepForward);
  play->addAction(tr("P&revious Frame"), QKeySequence(Qt::Key_Comma), timeline_, &TimelineDock::stepBackward);
  play->addAction(tr("&First Frame"), QKeySequence(Qt::Key_Home), timeline_, &TimelineDock::firstFrame);
  play->addAction(tr("&Last Frame"), QKeySequence(Qt::Key_End), timeline_, &TimelineDock::lastFrame);
  play->addSeparator();
  play->addAction(timeline_->steppedAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Controls"), this, [this] {
    QMessageBox::information(this, tr("Controls"),
                             tr("Left drag: orbit\nRight or middle drag, Shift+left drag: pan\n"
                                "Wheel: zoom\nDouble-click or F: frame all\nSpace: play / pause\n"
                                ", and .: step one frame\nHome / End: first / last frame"));
  });
  help->addAction(tr("&About Marrow"), this, [this] {
    QMessageBox::about(this, tr("About Marrow"),
                       tr("<b>Marrow</b> %1<br>A viewer for legacy skinned models and game archives.")
                           .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::createInspectionActions() {
  auto toggle = [this](QMenu* menu, const QString& text, QKeySequence key, bool on, auto setter) {
    QAction* a = menu->addAction(text);
    a->setCheckable(true);
    a->setShortcut(key);
    connect(a, &QAction::toggled, this, [this, setter](bool v) {
      setter(viewport_->options(), v);
      viewport_->update();
    });
    a->setChecked(on);
    setter(viewport_->options(), on);
    return a;
  };
  matcap_ = toggle(viewMenu_, tr("&Matcap Look"), QKeySequence(Qt::Key_M), false,
                   [](render::ViewOptions& o, bool v) { o.matcap = v; });
  matcap_->setToolTip(tr("A clay material lit by a fixed studio sphere: the shape, whatever the "
                         "materials and lights"));
  culling_ = toggle(viewMenu_, tr("Backface &Culling"), QKeySequence(Qt::Key_C), false,
                    [](render::ViewOptions& o, bool v) { o.cullBackfaces = v; });
  ground_ = toggle(viewMenu_, tr("Ground &Contact"), {}, true,
                   [](render::ViewOptions& o, bool v) { o.groundContact = v; });
  ground_->setToolTip(tr("A soft disc on the ground under the model (drawn with the grid)"));

  QMenu* overlays = viewMenu_->addMenu(tr("&Overlays"));
  overlays->setToolTipsVisible(true);
  auto overlay = [&](const QString& text, QKeySequence key, auto setter) {
    return toggle(overlays, text, key, false, setter);
  };
  normals_ = overlay(tr("&Normals"), QKeySequence(Qt::Key_N),
                     [](render::ViewOptions& o, bool v) { o.showNormals = v; });
  tangents_ = overlay(tr("&Tangents"), QKeySequence(Qt::SHIFT | Qt::Key_N),
                      [](render::ViewOptions& o, bool v) { o.showTangents = v; });
  bounds_ = overlay(tr("&Bounding Boxes"), QKeySequence(Qt::Key_X),
                    [](render::ViewOptions& o, bool v) { o.showBounds = v; });
  bounds_->setToolTip(tr("The model's box (white) and each mesh's (orange), in the current pose"));

  QMenu* shading = viewMenu_->addMenu(tr("&Surface Colour"));
  shading->setToolTipsVisible(true);
  shading_ = new QActionGroup(this);
  const std::pair<QString, render::Shading> modes[] = {
      {tr("&Materials"), render::Shading::Material},
      {tr("Selected Bone's &Weights"), render::Shading::BoneWeights},
      {tr("&Influences per Vertex"), render::Shading::InfluenceCount},
      {tr("&Vertex Colours"), render::Shading::VertexColors}};
  int key = Qt::Key_1;
  for (const auto& [text, mode] : modes) {
    QAction* a = shading->addAction(text);
    a->setCheckable(true);
    a->setData(static_cast<int>(mode));
    a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(key++)));
    a->setChecked(mode == render::Shading::Material);
    shading_->addAction(a);
  }
  shading->actions()[1]->setToolTip(
      tr("The selected bone's weight at every vertex: blue 0, green ½, red 1"));
  shading->actions()[2]->setToolTip(
      tr("Vertices by their number of bones (1, 2, 3, 4, more than 4) as the file stores them; "
         "magenta where the stored weights do not sum to 1, with points on flagged vertices"));
  shading->actions()[3]->setToolTip(
      tr("The vertex colours as the file stores them, unlit by material or texture (white where "
         "a mesh has none), also when the Materials view leaves them out"));
  connect(shading_, &QActionGroup::triggered, this, [this](QAction* a) {
    viewport_->setShading(static_cast<render::Shading>(a->data().toInt()));
  });

  springs_ = viewMenu_->addAction(tr("Simulate &Springs"));
  springs_->setCheckable(true);
  springs_->setChecked(true);
  springs_->setToolTip(tr("cal3d cloth and hair: the vertices on springs swing under gravity as the clip "
                          "plays, as cal3d's spring system moves them; off, they are skinned like the rest"));
  connect(springs_, &QAction::toggled, this, [this] { updateCloth(); });

  QMenu* skinning = viewMenu_->addMenu(tr("S&kinning"));
  skinning->setToolTipsVisible(true);
  skinning_ = new QActionGroup(this);
  const QString dqCaveat =
      tr("Dual-quaternion skinning keeps each bone's rotation, translation and uniform scale: "
         "non-uniform scale and shear are ignored");
  const std::pair<QString, render::SkinningMethod> methods[] = {
      {tr("&Linear Blend"), render::SkinningMethod::LinearBlend},
      {tr("&Dual Quaternion"), render::SkinningMethod::DualQuaternion}};
  for (const auto& [text, method] : methods) {
    QAction* a = skinning->addAction(text);
    a->setCheckable(true);
    a->setData(static_cast<int>(method));
    a->setChecked(method == render::SkinningMethod::LinearBlend);
    skinning_->addAction(a);
  }
  skinning->actions()[0]->setToolTip(tr("The weighted sum of the bones' matrices (the default)"));
  skinning->actions()[1]->setToolTip(dqCaveat);
  connect(skinning_, &QActionGroup::triggered, this, [this, dqCaveat](QAction* a) {
    const auto method = static_cast<render::SkinningMethod>(a->data().toInt());
    viewport_->setSkinningMethod(method);
    if (method == render::SkinningMethod::DualQuaternion)
      statusBar()->showMessage(dqCaveat, 10000);
    else
      statusBar()->showMessage(tr("Linear blend skinning"), 3000);
  });
}

void MainWindow::openFiles(const QStringList& paths) { startLoad(paths, false); }

void MainWindow::openFrames(const QStringList& paths) { startLoad(paths, false, true); }

void MainWindow::startLoad(const QStringList& paths, bool entry, bool asFrames) {
  if (paths.isEmpty()) return;
  if (watcher_->isRunning()) {
    queuedPaths_ = paths;  // the newest request wins once the running load ends
    queuedEntry_ = entry;
    queuedFrames_ = asFrames;
    return;
  }
  startReading(paths, entry, asFrames);
  showLoading();
}

void MainWindow::showLoading() {
  statusBar()->showMessage(tr("Loading %1…").arg(loadingPaths_.join(QStringLiteral(", "))));
  QApplication::setOverrideCursor(Qt::BusyCursor);
  cancelLoadAction_->setEnabled(true);
  cancelLoadButton_->show();
}

void MainWindow::startReading(const QStringList& paths, bool entry, bool asFrames) {
  loadingPaths_ = paths;
  loadingEntry_ = entry;
  loadCancelled_ = std::make_shared<std::atomic<bool>>(false);
  LoadOptions options;
  options.cancelled = [flag = loadCancelled_] { return flag->load(); };
  options.partial = true;  // a damaged file shows what came before the damage, marked partial
  options.asFrames = asFrames;
  options.packInfluences = true;
  watcher_->setFuture(QtConcurrent::run([paths, options] {
    return std::make_shared<formats::Result<Document>>(loadDocument(paths, options));
  }));
}

void MainWindow::cancelLoading() {
  if (!watcher_->isRunning()) return;
  loadCancelled_->store(true);
  // The old load finishes on its own (it touches only its own copies) and nobody waits for it:
  // its watcher deletes itself then. A new watcher serves the next load at once.
  QFutureWatcher<LoadResult>* old = watcher_;
  disconnect(old, nullptr, this, nullptr);
  connect(old, &QFutureWatcherBase::finished, old, &QObject::deleteLater);
  watcher_ = new QFutureWatcher<LoadResult>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &MainWindow::loadFinished);
  QApplication::restoreOverrideCursor();
  cancelLoadAction_->setEnabled(false);
  cancelLoadButton_->hide();
  const QString what = loadingPaths_.join(QStringLiteral(", "));
  log_->add(formats::Severity::Info, what, {}, formats::kNoOffset, tr("loading cancelled"));
  statusBar()->showMessage(tr("Loading cancelled: %1").arg(what), 10000);
  restore_.reset();
  emit loadFailed(tr("loading cancelled"));
  loadingEntry_ = false;
  rigAfterLoad_.clear();
  if (!queuedPaths_.isEmpty())
    startLoad(std::exchange(queuedPaths_, {}), std::exchange(queuedEntry_, false), std::exchange(queuedFrames_, false));
}

bool MainWindow::loading() const { return watcher_->isRunning(); }

void MainWindow::loadFinished() {
  QApplication::restoreOverrideCursor();
  cancelLoadAction_->setEnabled(false);
  cancelLoadButton_->hide();
  LoadResult r = watcher_->result();
  const bool entry = std::exchange(loadingEntry_, false);
  if (r && r->ok()) {
    if (!entry || !openBesideModel(r->value())) {
      setDocument(std::move(*r).value());
      if (!rigAfterLoad_.isEmpty()) rigOntoSkeleton(std::exchange(rigAfterLoad_, {}));
    }
  } else {
    rigAfterLoad_.clear();
    const formats::FormatError e =
        r ? r->error() : formats::FormatError{"", "", formats::kNoOffset, "loading failed"};
    log_->addError(e);
    log_->raise();
    const QString msg = QString::fromStdString(e.describe());
    statusBar()->showMessage(tr("Could not open: %1").arg(msg), 15000);
    restore_.reset();
    emit loadFailed(msg);
  }
  if (!queuedPaths_.isEmpty())
    startLoad(std::exchange(queuedPaths_, {}), std::exchange(queuedEntry_, false), std::exchange(queuedFrames_, false));
}

void MainWindow::openEntries(const QStringList& addresses) { startLoad(addresses, true); }

bool MainWindow::openBesideModel(const Document& entry) {
  if (!doc_ || (doc_->scene->meshes.empty() && doc_->scene->skeleton.empty())) return false;
  const formats::Scene& s = *entry.scene;
  const QString what = entry.paths.join(QStringLiteral(", "));
  if (!s.tables.empty() && s.meshes.empty() && s.skeleton.empty() && s.clips.empty()) {
    besideTables_ = entry.scene;
    tables_->setScene(besideTables_);
    showTables();
    logNewDiagnostics(s.diagnostics);
    log_->addInfo(tr("Opened %1 beside the model").arg(what));
    statusBar()->showMessage(tr("Opened %1 in Tables, beside the model").arg(what), 8000);
    return true;
  }
  if (s.clips.empty() || !s.meshes.empty()) return false;
  // Clips whose tracks name bones of the open skeleton play on it; others open on their own.
  const anim::BoneMatcher matcher(doc_->scene->skeleton, nullptr, true);
  const bool fits = std::any_of(s.clips.begin(), s.clips.end(), [&](const formats::Clip& c) {
    return std::any_of(c.tracks.begin(), c.tracks.end(),
                       [&](const formats::Track& t) { return matcher.find(t.bone).bone >= 0; });
  });
  if (!fits) return false;
  log_->addInfo(tr("Playing %1 on the open model").arg(what));
  attachFiles(entry.paths);
  return true;
}

// Tables share the Log's place under the timeline: raised, and given room for some rows, but
// never so much that the docks beside the viewport lose theirs.
void MainWindow::showTables() {
  tables_->setVisible(tables_->hasTables());
  if (!tables_->hasTables()) return;
  tables_->raise();
  if (tables_->height() < 200) resizeDocks({tables_}, {std::min(220, height() / 4)}, Qt::Vertical);
}

void MainWindow::setDocument(Document doc) {
  ++documents_;
  if (!restore_) animations_.clearSources();  // a new model: other files' clips do not carry over
  if (doc.rig.isEmpty()) unrigged_.reset();   // the files' own model: nothing to go back to
  const auto loaded = doc.scene;
  doc.scene = animations_.apply(doc.scene);
  // Clips added (attached animations, the bone map) leave the meshes as they were: the packs the
  // load made still hold for the copy.
  if (doc.packed && doc.scene != loaded) doc.packed = doc.packed->forCopy(loaded, doc.scene);
  const auto openedFrom = [](const formats::vfs::FileSystem& fs) {
    std::vector<std::vector<std::string>> out;
    for (const auto& a : fs.archives()) out.push_back(a->openedFrom());
    return out;
  };
  const bool sameArchives = doc_ && !doc.archives.empty() && openedFrom(doc_->archives) == openedFrom(doc.archives);
  doc_ = std::make_unique<Document>(std::move(doc));
  filesScene_ = doc_->scene;
  filesTextures_ = doc_->textures;
  onScreen_.reset();
  archive_->setArchives(doc_->archives);
  archive_->setHasModel(!doc_->scene->meshes.empty() || !doc_->scene->skeleton.empty());
  archive_->setVisible(!doc_->archives.empty());
  if (!doc_->archives.empty()) archive_->raise();
  // Tables beside the model stay while the same archives are browsed (the model reloaded, an
  // animation added, another model of the archive opened); files of other archives drop them.
  if (!filesScene_->tables.empty() || !sameArchives) besideTables_.reset();
  tables_->setScene(besideTables_ ? besideTables_ : filesScene_);
  showTables();
  // Archives that show models offer the skeletons their whole files fit.
  for (const auto& a : doc_->archives.archives())
    if (const auto* models = dynamic_cast<const formats::ModelArchive*>(a.get()))
      if (auto whole = models->show({}, std::nullopt, std::nullopt)) {
        const auto& skeleton = filesScene_->skeleton;
        archive_->setSkeletons(whole->skeletons,
                               QString::fromStdString(skeleton.bones.empty() ? std::string() : skeleton.name),
                               std::nullopt);
      }
  const std::optional<ViewState> restore = std::exchange(restore_, std::nullopt);
  showModel(!restore);
  if (restore) pickAgain(*restore);  // the records picked before a reload, picked again
  const auto& s = *doc_->scene;
  if (restore) {
    for (int c = 0; c < player_.clipCount(); ++c)
      if (s.clips[static_cast<std::size_t>(c)].name == restore->clip) timeline_->setClip(c);
    player_.setTime(restore->time);
    bones_->selectBone(s.skeleton.find(restore->bone));
    viewport_->camera() = restore->camera;
    updatePose();
  }
  log_->addInfo(tr("Opened %1: %2 meshes, %3 bones, %4 clips")
                    .arg(doc_->paths.join(QStringLiteral(", ")))
                    .arg(s.meshes.size()).arg(s.skeleton.bones.size()).arg(s.clips.size()));
  logged_.clear();
  logNewDiagnostics(s.diagnostics);
  logNewDiagnostics(render::surfaceNotes(s));
  setWindowTitle(s.partial ? tr("%1 (partial: damaged) — Marrow").arg(doc_->title())
                           : tr("%1 — Marrow").arg(doc_->title()));
  openLibraryAction_->setEnabled(libraryOfDocument(doc_.get()).has_value());
  ownSkeletonAction_->setEnabled(!doc_->rig.isEmpty());
  watchFiles();
  const bool nothingShown = s.meshes.empty() && s.skeleton.empty() && s.clips.empty() && s.tables.empty() &&
                            s.bodies.empty();
  if (nothingShown && !doc_->archives.empty()) {
    statusBar()->showMessage(tr("Opened %1: double-click an entry in Archives to open it").arg(doc_->title()), 30000);
  } else if (s.partial) {
    log_->raise();
    statusBar()->showMessage(tr("Opened part of %1: the file is damaged; what comes before the damage is "
                                "shown (the Log says where)").arg(doc_->title()),
                             15000);
  } else {
    statusBar()->showMessage(
        s.diagnostics.empty() ? tr("Opened %1").arg(doc_->title())
                              : tr("Opened %1 with %2 diagnostics (see the Log)").arg(doc_->title()).arg(s.diagnostics.items.size()),
        8000);
  }
  if (!doc_->paths.contains(kDemoPath)) {
    addRecent(doc_->paths);
    // File dialogs (Open, Export, Extract, screenshots) start beside the file opened, however
    // it was opened (the command line, a recent file, a drop, an archive's entry).
    const QFileInfo first(QString::fromStdString(formats::Address::parse(doc_->paths.front().toStdString()).file));
    if (first.exists()) QSettings().setValue(QStringLiteral("lastDirectory"), first.isDir() ? first.absoluteFilePath() : first.absolutePath());
  }
  // A file of many meshes (an armour pack), or of meshes with their levels of detail, opens on
  // what its archive picks, not on every mesh heaped in one place.
  // Only for files given whole: records asked for by address are what is shown.
  const bool whole = std::none_of(doc_->paths.begin(), doc_->paths.end(), [](const QString& p) {
    return !formats::Address::parse(p.toStdString()).whole();
  });
  if (!restore && whole)
    for (std::size_t i = 0; i < doc_->archives.archives().size(); ++i)
      if (const auto* models = dynamic_cast<const formats::ModelArchive*>(doc_->archives.archives()[i].get()))
        if (const auto pick = models->openingPick(); !pick.empty()) {
          archive_->selectNodes(static_cast<int>(i), pick);
          const std::size_t meshes = filesScene_->meshes.size();
          statusBar()->showMessage(tr("Showing %1 of the %2 meshes, picked in Archives (levels of detail and "
                                      "the rest of a large file are left out; select others to see them)")
                                       .arg(pick.size())
                                       .arg(meshes),
                                   10000);
          break;
        }
  if (restore ? restore->playing : player_.clip() != nullptr) timeline_->play();
  timeline_->refresh();
  emit documentLoaded();
}

void MainWindow::showModel(bool frame) {
  material_ = -1;
  player_.setScene(doc_->scene);
  viewport_->setSelectedBone(-1);
  scene_->setDocument(doc_.get());
  bones_->setScene(doc_->scene.get());
  controls_.reset(*doc_->scene);
  properties_->show(*doc_, controls_, ItemKind::Scene, -1);
  timeline_->sceneChanged();
  const anim::Pose& pose = player_.pose();
  viewport_->setPose(pose);  // before the upload: framing sees the first frame
  bones_->setPose(pose);
  viewport_->setDocument(*doc_, frame);
  showMeshLevel();
  updateMorphs(true);  // the upload reset them
  cloth_ = std::make_unique<anim::ClothPlayback>(*doc_->scene);
  if (cloth_->empty()) cloth_.reset();
  clothClip_ = nullptr;
  clothPlaced_ = false;  // the upload put the skinning back
  updateCloth();
}

void MainWindow::updateCloth() {
  if (!doc_ || !cloth_ || player_.scene() != doc_->scene.get()) return;
  if (!springs_->isChecked()) {
    if (clothPlaced_)
      for (const std::size_t m : cloth_->meshes()) viewport_->setPlacedVertices(m, {}, {});
    clothPlaced_ = false;
    cloth_->restart();
    return;
  }
  const formats::Clip* clip = player_.clip();
  if (clip != clothClip_ || !clothPlaced_) cloth_->restart();  // another clip: simulated afresh
  clothClip_ = clip;
  cloth_->moveTo(static_cast<float>(player_.sampleTime()), static_cast<float>(player_.duration()),
                 player_.mode() == anim::PlayMode::Loop,
                 [this](float t) { return player_.poseAt(t); });
  for (std::size_t k = 0; k < cloth_->meshes().size(); ++k)
    viewport_->setPlacedVertices(cloth_->meshes()[k], cloth_->positions(k), cloth_->normals(k));
  clothPlaced_ = true;
}

void MainWindow::showMeshLevel() {
  if (!doc_) return;
  const formats::MeshLevels levels = formats::meshLevels(*doc_->scene);
  if (levels.deepest == 0) return;
  const std::vector<bool> drawn = formats::drawnAtLevel(levels, controls_.meshLevel);
  for (std::size_t m = 0; m < drawn.size(); ++m) viewport_->setMeshVisible(m, drawn[m]);
}

void MainWindow::updatePose() {
  const anim::Pose& pose = player_.pose();
  viewport_->setPose(pose);
  bones_->setPose(pose);
  updateMorphs();
  updateCloth();
}

void MainWindow::updateMorphs(bool force) {
  if (!doc_ || player_.scene() != doc_->scene.get()) return;
  const bool animated = player_.animatesMorphs();
  if (!animated && !morphsFromClip_ && !force) return;  // the sliders' weights are in place
  morphsFromClip_ = animated;
  const auto& meshes = doc_->scene->meshes;
  std::vector<std::vector<float>> base;
  base.reserve(meshes.size());
  for (const auto& m : meshes) base.push_back(controls_.weightsFor(m));
  const auto weights = player_.morphWeights(std::move(base));
  for (std::size_t m = 0; m < meshes.size(); ++m)
    if (!meshes[m].morphs.empty()) viewport_->setMorphWeights(m, weights[m]);
  // The sliders of the targets the clip drives show the weights playing (the first mesh's, of a
  // target several meshes have).
  drivenMorphs_.clear();
  if (const formats::Clip* clip = animated ? player_.clip() : nullptr)
    for (const formats::MorphTrack& t : clip->morphTracks)
      for (std::size_t m = 0; m < meshes.size(); ++m) {
        if (meshes[m].name != t.mesh) continue;
        for (std::size_t k = 0; k < meshes[m].morphs.size(); ++k)
          if (meshes[m].morphs[k].name == t.target) drivenMorphs_.try_emplace(t.target, weights[m][k]);
      }
  properties_->followMorphWeights(drivenMorphs_, controls_);
}

void MainWindow::onItemSelected(ItemKind kind, int index) {
  if (!doc_) return;
  if (kind == ItemKind::Material) material_ = index;
  properties_->show(*doc_, controls_, kind, index);
  properties_->followMorphWeights(drivenMorphs_, controls_);
  if (kind == ItemKind::Clip) timeline_->setClip(index);
}

void MainWindow::onBoneSelected(int bone) {
  viewport_->setSelectedBone(bone);
  timeline_->setSelectedBone(bone);
  if (doc_ && bone >= 0) properties_->showBone(*doc_->scene, bone);
}

// Model files picked in a file dialog that starts in the last folder opened, which it updates.
QStringList MainWindow::askModelFiles(const QString& title) {
  QSettings settings;
  const QStringList files = QFileDialog::getOpenFileNames(
      this, title, settings.value(QStringLiteral("lastDirectory")).toString(), openFilter());
  if (!files.isEmpty())
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(files.front()).absolutePath());
  return files;
}

void MainWindow::openDialog() {
  const QStringList files = askModelFiles(tr("Open model files (several files form one model)"));
  if (!files.isEmpty()) openFiles(files);
}

void MainWindow::openFramesDialog() {
  QStringList files = askModelFiles(tr("Open the frames of one vertex animation (one file per frame, numbered)"));
  if (files.isEmpty()) return;
  // In the order of their names (numbered ones play by their numbers in any case, formats/
  // model/frames.h): the dialog gives them in the order they were picked.
  QCollator order;
  order.setNumericMode(true);
  std::sort(files.begin(), files.end(), [&](const QString& a, const QString& b) { return order.compare(a, b) < 0; });
  openFrames(files);
}

void MainWindow::openFolderDialog() {
  QSettings settings;
  const QString start = doc_ && !doc_->paths.isEmpty() && doc_->paths.front() != kDemoPath
                            ? QFileInfo(doc_->paths.front()).absolutePath()
                            : settings.value(QStringLiteral("lastDirectory")).toString();
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Browse a folder"), start);
  if (folder.isEmpty()) return;
  settings.setValue(QStringLiteral("lastDirectory"), folder);
  openFiles({folder});
}

void MainWindow::openLibraryOfFile() {
  if (const auto folder = libraryOfDocument(doc_.get())) openFiles({*folder});
}

void MainWindow::reload() {
  if (!doc_) return;
  rememberView();
  rigAfterLoad_ = doc_->rig;
  startLoad(doc_->paths, false, doc_->asFrames);
}

void MainWindow::attachAnimations() {
  if (!doc_) return;
  QSettings settings;
  const QStringList files = QFileDialog::getOpenFileNames(
      this, tr("Attach animations to %1").arg(doc_->title()),
      settings.value(QStringLiteral("lastDirectory")).toString(),
      tr("Animations (*.ani *.caf *.xaf *.cpf *.xpf *.md5anim *.bvh *.smd *.brf *.omf);;All files (*)"));
  if (files.isEmpty()) return;
  settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(files.front()).absolutePath());
  attachFiles(files);
}

void MainWindow::attachFiles(const QStringList& files) {
  if (!doc_ || files.isEmpty()) return;
  attachAnimationSource(files);  // retargeted, or attachMerged
}

void MainWindow::attachMerged(const QStringList& files) {
  if (!doc_ || files.isEmpty()) return;
  QStringList paths = doc_->paths;
  for (const QString& f : files)
    if (!paths.contains(f)) paths << f;
  rememberView();
  if (restore_->clip.empty()) restore_->playing = true;  // the first clips the model gets play
  openFiles(paths);
}

void MainWindow::rememberView() {
  // Reloading after editing a file elsewhere should not lose the place in the animation.
  ViewState v;
  if (const auto* c = player_.clip()) v.clip = c->name;
  v.time = player_.time();
  v.playing = player_.playing();
  const int bone = bones_->selectedBone();
  if (bone >= 0) v.bone = doc_->scene->skeleton.bones[static_cast<std::size_t>(bone)].name;
  v.camera = viewport_->camera();
  const auto& archives = doc_->archives.archives();
  for (const ArchiveDock::Picked& p : archive_->selectedNodes())
    if (p.archive >= 0 && static_cast<std::size_t>(p.archive) < archives.size())
      if (const auto node = archives[static_cast<std::size_t>(p.archive)]->node(p.path))
        v.picked.push_back({p.archive, p.path, node->name});
  if (!v.picked.empty()) v.skeleton = archive_->chosenSkeleton();
  restore_ = v;
}

void MainWindow::pickAgain(const ViewState& restore) {
  if (restore.picked.empty() || !doc_) return;
  const auto& archives = doc_->archives.archives();
  std::map<int, std::vector<std::string>> byArchive;
  for (const ViewState::Pick& p : restore.picked) {
    if (p.archive < 0 || static_cast<std::size_t>(p.archive) >= archives.size()) continue;
    const formats::vfs::Archive& a = *archives[static_cast<std::size_t>(p.archive)];
    if (const auto node = a.node(p.path); node && node->name == p.name) {
      byArchive[p.archive].push_back(p.path);
      continue;
    }
    // The file changed: the record of that name beside where it was.
    const auto slash = p.path.rfind('/');
    for (const formats::vfs::Node& n : a.children(slash == std::string::npos ? std::string() : p.path.substr(0, slash)))
      if (n.name == p.name) {
        byArchive[p.archive].push_back(n.path);
        break;
      }
  }
  if (restore.skeleton) archive_->chooseSkeleton(restore.skeleton);
  for (const auto& [archive, paths] : byArchive) archive_->selectNodes(archive, paths);
}

void MainWindow::openDemo() { openFiles({kDemoPath}); }

void MainWindow::saveScreenshot() {
  // Any size: the viewport's own, or one typed here (e.g. 3840x2160 for a poster).
  const QSize shown = viewport_->size() * viewport_->devicePixelRatioF();
  QSettings settings;
  bool ok = false;
  const QString typed = QInputDialog::getText(
      this, tr("Save Screenshot"), tr("Size in pixels (width x height):"), QLineEdit::Normal,
      settings.value(QStringLiteral("screenshot/size"),
                     QStringLiteral("%1x%2").arg(shown.width()).arg(shown.height()))
          .toString(),
      &ok);
  if (!ok) return;
  const QStringList wh = typed.simplified().remove(QLatin1Char(' ')).split(QLatin1Char('x'), Qt::SkipEmptyParts);
  const QSize size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
  if (size.width() < 1 || size.height() < 1 || size.width() > 16384 || size.height() > 16384) {
    QMessageBox::warning(this, tr("Save Screenshot"),
                         tr("'%1' is not a size: give WIDTHxHEIGHT, each 1 to 16384.").arg(typed));
    return;
  }
  settings.setValue(QStringLiteral("screenshot/size"), typed.simplified());
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save screenshot"),
      QDir(settings.value(QStringLiteral("lastDirectory"), QDir::homePath()).toString())
          .filePath((doc_ ? QFileInfo(doc_->title()).completeBaseName() : QStringLiteral("marrow")) + QStringLiteral(".png")),
      tr("Images (*.png *.jpg *.bmp)"));
  if (path.isEmpty()) return;
  saveScreenshotTo(path, size);
}

bool MainWindow::saveScreenshotTo(const QString& path, QSize size) {
  const QImage image = size.isEmpty() ? viewport_->grabFramebuffer() : viewport_->renderImage(size);
  if (!image.isNull() && image.save(path)) {
    statusBar()->showMessage(tr("Saved %1 (%2x%3)").arg(path).arg(image.width()).arg(image.height()), 5000);
    return true;
  }
  log_->add(formats::Severity::Error, path, {}, formats::kNoOffset,
            image.isNull() ? tr("the view could not be drawn at that size") : tr("could not be written"));
  return false;
}

void MainWindow::addRecent(const QStringList& paths) {
  QSettings settings;
  QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
  QStringList absolute;
  for (const auto& p : paths) absolute << QFileInfo(p).absoluteFilePath();
  const QString entry = absolute.join(QLatin1Char('\n'));  // several files open as one model
  recent.removeAll(entry);
  recent.prepend(entry);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(QStringLiteral("recentFiles"), recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
  for (const QString& entry : recent) {
    const QStringList files = entry.split(QLatin1Char('\n'));
    QString label = QFileInfo(files.front()).fileName();
    if (files.size() > 1) label += tr(" + %1 more").arg(files.size() - 1);
    QAction* a = recentMenu_->addAction(label, this, [this, files] { openFiles(files); });
    a->setToolTip(files.join(QStringLiteral(", ")));
  }
  recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::readSettings() {
  QSettings s;
  restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
  docksSized_ = restoreState(s.value(QStringLiteral("window/state")).toByteArray());
  // The saved layout keeps the Archives and Tables docks where they were, not shown: they show
  // when what is open has archives or tables (issue 19: the tab showed with nothing to browse).
  archive_->setVisible(doc_ && !doc_->archives.empty());
  tables_->setVisible(tables_->hasTables());
  wireframe_->setChecked(s.value(QStringLiteral("view/wireframe"), false).toBool());
  skeleton_->setChecked(s.value(QStringLiteral("view/skeleton"), false).toBool());
  grid_->setChecked(s.value(QStringLiteral("view/grid"), true).toBool());
  lighting_->setChecked(s.value(QStringLiteral("view/lighting"), true).toBool());
  textures_->setChecked(s.value(QStringLiteral("view/textures"), true).toBool());
  bodies_->setChecked(s.value(QStringLiteral("view/bodies"), true).toBool());
  matcap_->setChecked(s.value(QStringLiteral("view/matcap"), false).toBool());
  culling_->setChecked(s.value(QStringLiteral("view/culling"), false).toBool());
  ground_->setChecked(s.value(QStringLiteral("view/groundContact"), true).toBool());
  normals_->setChecked(s.value(QStringLiteral("view/normals"), false).toBool());
  tangents_->setChecked(s.value(QStringLiteral("view/tangents"), false).toBool());
  bounds_->setChecked(s.value(QStringLiteral("view/bounds"), false).toBool());
  const int method = s.value(QStringLiteral("view/skinning"), 0).toInt();
  for (QAction* a : skinning_->actions())
    if (a->data().toInt() == method && !a->isChecked()) a->trigger();
  rebuildRecentMenu();
}

void MainWindow::writeSettings() {
  QSettings s;
  s.setValue(QStringLiteral("window/geometry"), saveGeometry());
  s.setValue(QStringLiteral("window/state"), saveState());
  s.setValue(QStringLiteral("view/wireframe"), wireframe_->isChecked());
  s.setValue(QStringLiteral("view/skeleton"), skeleton_->isChecked());
  s.setValue(QStringLiteral("view/grid"), grid_->isChecked());
  s.setValue(QStringLiteral("view/lighting"), lighting_->isChecked());
  s.setValue(QStringLiteral("view/textures"), textures_->isChecked());
  s.setValue(QStringLiteral("view/bodies"), bodies_->isChecked());
  s.setValue(QStringLiteral("view/matcap"), matcap_->isChecked());
  s.setValue(QStringLiteral("view/culling"), culling_->isChecked());
  s.setValue(QStringLiteral("view/groundContact"), ground_->isChecked());
  s.setValue(QStringLiteral("view/normals"), normals_->isChecked());
  s.setValue(QStringLiteral("view/tangents"), tangents_->isChecked());
  s.setValue(QStringLiteral("view/bounds"), bounds_->isChecked());
  s.setValue(QStringLiteral("view/skinning"), skinning_->checkedAction()->data().toInt());
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  if (std::exchange(docksSized_, true)) return;
  // Sized once the window is laid out at its size: the side docks wide enough for names and
  // properties, the bones tall enough for several rows, the timeline and the Log their natural
  // heights.
  if (layout()) layout()->activate();  // the docks laid out at the window's size first
  resizeDocks({scene_, properties_}, {std::max(340, width() / 4), std::max(300, width() / 5)}, Qt::Horizontal);
  resizeDocks({timeline_, log_}, {timeline_->sizeHint().height(), 130}, Qt::Vertical);
  resizeDocks({scene_, bones_}, {std::max(200, height() / 3), std::max(200, height() / 4)}, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* e) {
  writeSettings();
  e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  QStringList files;
  for (const QUrl& u : e->mimeData()->urls())
    if (u.isLocalFile()) files << u.toLocalFile();
  if (!files.isEmpty()) {
    e->acceptProposedAction();
    openFiles(files);
  }
}

}  // namespace marrow::app
