// MainWindow: File › Rig onto Skeleton… — the model bound to another skeleton (a game's:
// skeletons.brf::skel_human) by bone name through the bone-name map, its clips retargeted
// (app/rig.h), and shown as File › Export will write it; File › Own Skeleton shows the model as
// its files make it again.
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QSettings>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/rig.h"

namespace marrow::app {

namespace {

// Rigging as it runs off the GUI thread.
struct RigJob {
  std::optional<formats::FormatError> error;
  QStringList skeletons;  // the file holds several skeletons: their addresses, for the user to pick
  formats::Scene scene;
  RigReport report;
};

RigJob rigJob(const std::shared_ptr<const formats::Scene>& model, const QString& address,
              const anim::BoneNameMap& map) {
  RigJob job;
  auto target = loadDocument({address}, Textures::Skip);
  if (!target) {
    job.error = target.error();
    return job;
  }
  // A whole file of several skeletons (a BRF's skel_human, skel_horse, …): which one.
  if (formats::Address::parse(address.toStdString()).whole()) {
    for (const auto& archive : target->archives.archives())
      for (const formats::vfs::Node& n : archive->search("skeleton:", 1000))
        job.skeletons << QString::fromStdString(archive->addressOf(n.path).str());
    if (job.skeletons.size() > 1) return job;
    job.skeletons.clear();
  }
  auto rigged = rigOnto(*model, *target->scene, map, job.report);
  if (!rigged) {
    job.error = rigged.error();
    if (job.error->file.empty()) job.error->file = address.toStdString();
    return job;
  }
  job.scene = std::move(rigged).value();
  return job;
}

}  // namespace

void MainWindow::rigDialog() {
  if (!doc_ || doc_->scene->skeleton.empty()) {
    statusBar()->showMessage(tr("Rig onto a skeleton: open a model with a skeleton first"), 8000);
    return;
  }
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Rig %1 onto the skeleton of…").arg(doc_->title()),
      settings.value(QStringLiteral("rig/directory"), settings.value(QStringLiteral("lastDirectory"))).toString(),
      tr("Skeletons (*.brf *.csf *.xsf *.ani *.skn *.omf *.gltf *.glb *.fbx *.dae *.smd *.x);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("rig/directory"), QFileInfo(path).absolutePath());
  rigOntoSkeleton(path);
}

void MainWindow::rigOntoSkeleton(const QString& address) {
  if (!doc_) return;
  // The model as its files make it, without the clips attached from other files (they are
  // retargeted onto the new skeleton when it is shown): a rigged model rigs again from it.
  std::shared_ptr<const formats::Scene> model =
      !doc_->rig.isEmpty() && unrigged_ ? unrigged_->scene : animations_.base() ? animations_.base() : doc_->scene;
  if (model->skeleton.empty()) {
    statusBar()->showMessage(tr("Rig onto a skeleton: the model has no skeleton"), 8000);
    return;
  }
  using Job = std::shared_ptr<RigJob>;
  auto* watcher = new QFutureWatcher<Job>(this);
  statusBar()->showMessage(tr("Rigging onto %1…").arg(address));
  QApplication::setOverrideCursor(Qt::BusyCursor);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, address, model, generation = documents_] {
    watcher->deleteLater();
    QApplication::restoreOverrideCursor();
    const Job job = watcher->result();
    // Another model was shown meanwhile (opened, reloaded, rigged): this rig is of one no longer shown.
    if (!doc_ || generation != documents_) return;
    if (!job->skeletons.isEmpty()) {
      const QString chosen = chooseSkeleton_ ? chooseSkeleton_(job->skeletons) : [&] {
        QStringList names;
        for (const QString& s : job->skeletons)
          names << QString::fromStdString(std::string(formats::Address::parse(s.toStdString()).leafName()));
        bool ok = false;
        const QString name = QInputDialog::getItem(this, tr("Rig onto a skeleton"),
                                                   tr("%1 holds %2 skeletons; rig onto:")
                                                       .arg(QFileInfo(address).fileName())
                                                       .arg(job->skeletons.size()),
                                                   names, 0, false, &ok);
        return ok ? job->skeletons.value(static_cast<int>(names.indexOf(name))) : QString();
      }();
      if (!chosen.isEmpty()) rigOntoSkeleton(chosen);
      else statusBar()->showMessage(tr("Rigging cancelled"), 5000);
      return;
    }
    if (job->error) {
      log_->addError(*job->error);
      log_->raise();
      statusBar()->showMessage(tr("Could not rig onto %1: %2").arg(address, QString::fromStdString(job->error->message)), 15000);
      emit loadFailed(QString::fromStdString(job->error->describe()));
      return;
    }
    const RigReport& r = job->report;
    log_->addInfo(tr("Rigged onto %1: %2 bones by name, %3 by the bone-name map, %4 loosely, %5 by their joint%6")
                      .arg(address).arg(r.exact).arg(r.mapped).arg(r.loose).arg(r.family)
                      .arg(r.sourceFamily.empty() ? QString()
                                                  : tr(" (%1 onto %2)").arg(QString::fromStdString(r.sourceFamily),
                                                                            QString::fromStdString(r.targetFamily))));
    if (!r.unmatched.empty()) {
      QStringList names;
      for (const std::string& n : r.unmatched) names << QString::fromStdString(n);
      log_->add(formats::Severity::Warning, address, QStringLiteral("rig"), formats::kNoOffset,
                tr("%1 bones of the model found no partner; their vertices follow the nearest ancestor that has one: %2")
                    .arg(r.unmatched.size()).arg(names.join(QStringLiteral(", "))));
    }
    for (const anim::RetargetReport& c : r.clips)
      log_->addInfo(QString::fromStdString(c.clip + ": " + describe(c)));
    if (doc_->rig.isEmpty()) {
      unrigged_ = std::make_unique<Document>(*doc_);
      if (animations_.base()) unrigged_->scene = animations_.base();  // the clips attached are applied again
    }
    Document d = *unrigged_;
    d.scene = std::make_shared<const formats::Scene>(std::move(job->scene));
    d.archives = {};  // the model is made now: no record of the files is it
    d.rig = address;
    rememberView();
    setDocument(std::move(d));
    statusBar()->showMessage(tr("Rigged onto %1: %2 bones matched, %3 without a partner (the Log says which); "
                                "File › Export writes the model so")
                                 .arg(address).arg(r.exact + r.mapped + r.loose + r.family).arg(r.unmatched.size()),
                             15000);
  });
  watcher->setFuture(QtConcurrent::run([model, address, map = animations_.map()] {
    return std::make_shared<RigJob>(rigJob(model, address, map));
  }));
}

void MainWindow::showOwnSkeleton() {
  if (!doc_ || doc_->rig.isEmpty() || !unrigged_) return;
  rememberView();
  Document d = std::move(*std::exchange(unrigged_, nullptr));
  setDocument(std::move(d));
  statusBar()->showMessage(tr("The model on its own skeleton again"), 5000);
}

}  // namespace marrow::app
