// MainWindow: File › Watch Files — edit in Blender, look in Marrow. The files of the model shown
// (those given and those the open archives were read from) are watched; when one changes, the
// model is reloaded once its files have settled (the same sizes and times over one interval: a
// half-written file is not read), keeping the camera, the clip, the time, the selection and the
// records picked as Reload does. A reload that fails keeps the model shown, the reason in the Log.
#include <QDateTime>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "formats/io/address.h"

namespace marrow::app {

namespace {

// The disk files of a document: its paths (the file of an ARCHIVE::entry address) and the files
// its archives were opened from; not the program's own resources.
QStringList diskFiles(const Document& doc) {
  QStringList out;
  const auto add = [&](const std::string& path) {
    const QString p = QString::fromStdString(path);
    if (p.isEmpty() || p.startsWith(QStringLiteral(":/")) || out.contains(p)) return;
    if (QFileInfo(p).isFile()) out << p;
  };
  for (const QString& p : doc.paths) add(formats::Address::parse(p.toStdString()).file);
  for (const auto& a : doc.archives.archives())
    for (const std::string& f : a->openedFrom()) add(f);
  return out;
}

}  // namespace

void MainWindow::createWatching(QMenu* file) {
  files_ = new QFileSystemWatcher(this);
  settle_ = new QTimer(this);
  settle_->setSingleShot(true);
  watchAction_ = file->addAction(tr("&Watch Files"));
  watchAction_->setObjectName(QStringLiteral("watchAction"));
  watchAction_->setCheckable(true);
  watchAction_->setChecked(QSettings().value(QStringLiteral("file/watch"), true).toBool());
  watchAction_->setToolTip(tr("Reload the model when one of its files changes on disk"));
  connect(watchAction_, &QAction::toggled, this, [this](bool on) {
    QSettings().setValue(QStringLiteral("file/watch"), on);
    watchFiles();
  });
  connect(files_, &QFileSystemWatcher::fileChanged, this, [this] {
    changed_ = true;
    settle_->start(settleMs_);
  });
  connect(settle_, &QTimer::timeout, this, &MainWindow::filesSettled);
}

// What the watched files look like now: size and modification time of each ("" when absent).
QStringList MainWindow::fileStamps() const {
  QStringList out;
  for (const QString& f : watched_) {
    const QFileInfo i(f);
    out << (i.exists() ? QStringLiteral("%1 %2").arg(i.size()).arg(i.lastModified().toMSecsSinceEpoch()) : QString());
  }
  return out;
}

void MainWindow::watchFiles() {
  if (!files_) return;
  const QStringList before = watched_;
  if (!files_->files().isEmpty()) files_->removePaths(files_->files());
  watched_ = doc_ && watchAction_->isChecked() ? diskFiles(*doc_) : QStringList();
  if (!watched_.isEmpty()) files_->addPaths(watched_);
  // A change that came while these files were being read again is not taken as read: the files
  // are compared with how they were before it, once they settle.
  if (changed_ && watched_ == before && !watched_.isEmpty()) {
    settle_->start(settleMs_);
    return;
  }
  stamps_ = fileStamps();
  changed_ = false;
  settle_->stop();
}

void MainWindow::filesSettled() {
  if (!changed_ || !doc_ || watched_.isEmpty()) return;
  // A file replaced by a rename is no longer watched: watch it again once it is back.
  for (const QString& f : watched_)
    if (!files_->files().contains(f) && QFileInfo::exists(f)) files_->addPath(f);
  const QStringList now = fileStamps();
  // Still being written (or missing, between an editor's delete and rename): wait one more
  // interval for the files to settle.
  if (now != settledStamps_ || now.contains(QString())) {
    settledStamps_ = now;
    settle_->start(settleMs_);
    return;
  }
  settledStamps_.clear();
  changed_ = false;
  if (now == stamps_) return;  // touched, not changed
  if (loading()) {  // the running load ends first; then look again
    settle_->start(settleMs_);
    changed_ = true;
    return;
  }
  log_->addInfo(tr("Reloading %1: its files changed on disk").arg(doc_->title()));
  reload();
}

}  // namespace marrow::app
