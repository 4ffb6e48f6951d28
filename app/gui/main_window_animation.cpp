// MainWindow: animations of other files played on the model (retargeted by bone name), the
// bone-name map, and the pose as text.
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QSettings>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"

namespace marrow::app {

void MainWindow::attachAnimationSource(const QStringList& files) {
  using Loaded = std::shared_ptr<formats::Result<AnimationSource>>;
  auto* watcher = new QFutureWatcher<Loaded>(this);
  statusBar()->showMessage(tr("Reading %1…").arg(files.join(QStringLiteral(", "))));
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, files] {
    watcher->deleteLater();
    const Loaded r = watcher->result();
    if (!doc_) return;
    // Files with no skeleton, or with the model's own, are read with the model as before: their
    // tracks find the bones by name. A skeleton of their own gives the rest pose to retarget from.
    if (!r || !r->ok() || (*r)->scene->skeleton.empty() ||
        sameSkeleton(animations_.base() ? animations_.base()->skeleton : doc_->scene->skeleton,
                     (*r)->scene->skeleton))
      return attachMerged(files);  // a file that fails fails there, with the model's files
    animations_.addSource(std::move(**r));
    showWithAnimations();
    statusBar()->showMessage(tr("Attached the clips of %1, retargeted onto the model's skeleton "
                                "(the Log says what matched)")
                                 .arg(files.join(QStringLiteral(", "))),
                             10000);
  });
  watcher->setFuture(QtConcurrent::run([files] {
    return std::make_shared<formats::Result<AnimationSource>>(loadAnimationSource(files));
  }));
}

void MainWindow::showWithAnimations() {
  if (!doc_) return;
  rememberView();
  if (restore_->clip.empty()) restore_->playing = true;  // the first clips the model gets play
  Document d = *doc_;
  if (animations_.base()) d.scene = animations_.base();
  setDocument(std::move(d));
}

void MainWindow::boneNameMapDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Bone name map: one 'source bone = target bone' per line"),
      settings.value(QStringLiteral("lastDirectory")).toString(),
      tr("Bone name maps (*.txt *.map *.ini);;All files (*)"));
  if (path.isEmpty()) return;
  setBoneNameMap(path);
}

bool MainWindow::setBoneNameMap(const QString& path) {
  if (path.isEmpty()) {
    animations_.clearMap();
  } else {
    auto map = loadBoneNameMap(path);
    if (!map) {
      log_->addError(map.error());
      log_->raise();
      statusBar()->showMessage(
          tr("Bone name map not read: %1").arg(QString::fromStdString(map.error().describe())),
          10000);
      return false;
    }
    const std::size_t pairs = map->pairs.size();
    animations_.setMap(std::move(map).value(), path);
    log_->addInfo(tr("Bone name map %1: %2 names mapped").arg(path).arg(pairs));
  }
  showWithAnimations();
  return true;
}

void MainWindow::copyPoseAsText() {
  const formats::Scene* s = player_.scene();
  if (!s || s->skeleton.empty()) {
    statusBar()->showMessage(tr("The model has no skeleton to copy a pose of"), 5000);
    return;
  }
  const auto* clip = player_.clip();
  const QString text = QString::fromStdString(poseAsText(s->skeleton, player_.pose()));
  QGuiApplication::clipboard()->setText(text);
  statusBar()->showMessage(tr("Copied the pose of %1 bones (%2 at %3 s) as tab-separated text")
                               .arg(s->skeleton.bones.size())
                               .arg(clip ? QString::fromStdString(clip->name) : tr("rest pose"))
                               .arg(player_.sampleTime(), 0, 'f', 3),
                           8000);
}

}  // namespace marrow::app
