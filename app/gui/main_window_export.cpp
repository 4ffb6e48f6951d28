// MainWindow's exports (formats/write.h does the writing): File › Export…, and Export… on
// records and entries of the Archives dock, each off the GUI thread.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QApplication>
#include <QSettings>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/archive_dock.h"
#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_dock.h"
#include "formats/check.h"
#include "formats/format_table.h"
#include "formats/io/file.h"
#include "formats/model/model_archive.h"
#include "formats/write.h"

namespace marrow::app {

// An export as it runs off the GUI thread: what loading the model found, what the game it is
// written for cannot hold (formats/check.h), what writing it made.
struct ExportJob {
  formats::Diagnostics read;
  std::optional<formats::FormatError> loadError;
  std::string target;                      // the game checked for ("" for outputs of no game)
  std::vector<formats::Problem> problems;  // before writing (after fixing, when asked)
  std::vector<std::string> fixed;          // what fixing changed
  bool held = false;                       // not written: an error among the problems, for the user to decide
  formats::WriteResult result;
  formats::WrittenFiles written;
};

namespace {

// A file dialog whose filters are the export formats (BRF too: records are written as they
// are, any other model as records made from it); the last format chosen (glTF binary at
// first) is the default, and a name typed without a known extension gets the filter's.
QString askExportPath(QWidget* parent, const QString& title, const QString& suggestedName) {
  QSettings settings;
  QStringList filters;
  QString selected;
  const QString last =
      settings.value(QStringLiteral("export/format"), QStringLiteral("glb")).toString();
  for (const formats::FormatDescriptor* format : formats::formatTable())
    for (const formats::OutputKind& f : format->outputs) {
      filters << QString::fromStdString(formats::outputFilter(f));
      if (QString::fromUtf8(f.extension.data(), static_cast<qsizetype>(f.extension.size())) == last)
        selected = filters.back();
    }
  if (selected.isEmpty()) selected = filters.front();
  const QString extension = selected.section(QStringLiteral("(*."), 1).chopped(1);
  const QString dir = settings
                          .value(QStringLiteral("export/directory"),
                                 settings.value(QStringLiteral("lastDirectory")))
                          .toString();
  QString path = QFileDialog::getSaveFileName(
      parent, title, QDir(dir).filePath(suggestedName + QLatin1Char('.') + extension),
      filters.join(QStringLiteral(";;")), &selected);
  if (path.isEmpty()) return path;
  const QString chosen = selected.section(QStringLiteral("(*."), 1).chopped(1);
  if (!formats::outputFor(path.toStdString())) path += QLatin1Char('.') + chosen;
  settings.setValue(QStringLiteral("export/directory"), QFileInfo(path).absolutePath());
  settings.setValue(QStringLiteral("export/format"), QFileInfo(path).suffix().toLower());
  return path;
}

// A file name made of a record's name, or of an entry's without its extension: no folders,
// nothing a file system refuses.
QString fileStem(QString name, bool dropExtension = false) {
  if (dropExtension) name = QFileInfo(name).completeBaseName();
  for (QChar& c : name)
    if (!(c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('-') ||
          c == QLatin1Char('.')))
      c = QLatin1Char('_');
  return name.isEmpty() ? QStringLiteral("model") : name;
}

// The job of writing a model already made, and the files it makes. An output for a game is
// checked against its limits first (ExportCheck); records written as they were read are not.
ExportJob exportJob(const Document& doc, const std::string& path, const formats::WriteOptions& options,
                    ExportCheck check = ExportCheck::Report) {
  ExportJob job;
  formats::WriteSource source = doc.writeSource();
  const formats::Output output = formats::outputFor(path);
  const formats::CheckTarget* target =
      output && source.scene && !formats::writesRecordsAsRead(output, source.addresses, options)
          ? formats::checkTargetFor(output.kind->extension, options.version)
          : nullptr;
  formats::Scene fixedScene;
  if (target) {
    job.target = target->name;
    if (check == ExportCheck::Fix) {
      fixedScene = formats::fixModel(*source.scene, *target, job.fixed);
      source.scene = &fixedScene;
    }
    job.problems = formats::checkModel(*source.scene, *target);
    if (check == ExportCheck::Hold && formats::hasErrors(job.problems)) {
      job.held = true;
      return job;
    }
  }
  job.result = formats::writeModel(source, path, options);
  if (job.result.ok()) {
    std::vector<formats::FileToWrite> files;
    for (const auto& f : job.result.files) files.push_back({f.path, f.bytes});
    job.written = formats::writeFilesAtomically(files);
  }
  job.result.files.clear();  // the bytes are on disk (or not): not kept until the GUI reads them
  return job;
}
}  // namespace

void MainWindow::exportDialog() {
  const formats::Scene* s = doc_ ? doc_->scene.get() : nullptr;
  const bool records = archive_->archives().empty() ? false : [this] {
    for (const auto& a : doc_->archives.archives())
      if (a->holdsRecords()) return true;
    return false;
  }();
  if (!s || (s->meshes.empty() && s->skeleton.empty() && s->clips.empty() && !records)) {
    statusBar()->showMessage(tr("Nothing to export: open a model first"), 8000);
    return;
  }
  // Named after the first file, entry or record ("FILE.brf::SkinA.boots" keeps its dots).
  const QString first = doc_->paths.front();
  const formats::Address address = formats::Address::parse(first.toStdString());
  const formats::FormatDescriptor* format = formats::detect({}, address.file);
  const bool record = !address.whole() && format && format->hasRecords;
  const QString name =
      first == kDemoPath
          ? QStringLiteral("demo")
          : fileStem(QFileInfo(QString::fromStdString(std::string(address.leafName()))).fileName(), !record);
  const QString path =
      chooseExportPath_
          ? chooseExportPath_(tr("Export %1").arg(doc_->title()), name, records)
          : askExportPath(this, tr("Export %1").arg(doc_->title()), name);
  if (!path.isEmpty()) exportShown(path, true, ExportCheck::Hold);
}

void MainWindow::exportTo(const QString& path) {
  exportShown(path, false, ExportCheck::Report);
}

void MainWindow::exportShown(const QString& path, bool interactive, ExportCheck check) {
  if (!doc_) {
    emit exportFinished(false, tr("Nothing to export: no model is open"));
    return;
  }
  // What is shown now decides: the clip playing, the material selected, the records picked.
  formats::WriteOptions options;
  if (player_.clipIndex() >= 0) options.clipIndex = static_cast<std::size_t>(player_.clipIndex());
  if (material_ >= 0) options.materialIndex = static_cast<std::size_t>(material_);
  for (std::size_t i = 0; i < doc_->archives.archives().size(); ++i)
    if (doc_->archives.archives()[i]->holdsRecords())
      if (auto picked = archive_->selectedPaths(static_cast<int>(i)); !picked.empty()) options.nodes = picked;
  startExport(
      path,
      [doc = *doc_, path = path.toStdString(), options, check] { return exportJob(doc, path, options, check); },
      interactive);
}

void MainWindow::exportNodesDialog(int archive, const std::vector<std::string>& paths) {
  const formats::vfs::Archive* a = archive_->archiveAt(archive);
  if (!doc_ || !a || paths.empty()) return;
  const auto first = a->node(paths.front());
  const QString name = fileStem(QString::fromStdString(first ? first->name : std::string("records")));
  const QString title =
      paths.size() == 1 ? tr("Export %1").arg(name) : tr("Export %1 records").arg(paths.size());
  const QString path = chooseExportPath_ ? chooseExportPath_(title, name, true)
                                         : askExportPath(this, title, name);
  if (!path.isEmpty()) exportNodesTo(archive, paths, path);
}

void MainWindow::exportNodesTo(int archive, const std::vector<std::string>& paths, const QString& path) {
  const auto& all = doc_ ? doc_->archives.archives() : std::vector<std::shared_ptr<const formats::vfs::Archive>>{};
  if (archive < 0 || static_cast<std::size_t>(archive) >= all.size() || !all[static_cast<std::size_t>(archive)]->holdsRecords()) {
    emit exportFinished(false, tr("Nothing to export: no file of records is open"));
    return;
  }
  Document files;  // the open files only: the job makes its own model of the records
  files.paths = doc_->paths;
  files.archives.mount(all[static_cast<std::size_t>(archive)]);
  startExport(
      path,
      [files, paths, path = path.toStdString()]() mutable {
        formats::WriteOptions options;
        options.nodes = paths;
        const formats::Output output = formats::outputFor(path);
        const auto* models = dynamic_cast<const formats::ModelArchive*>(files.archives.archives().front().get());
        if (output && output.kind->holds != formats::Holds::Records && models) {
          // The model the viewer would show for these records (main_window_archive.cpp).
          auto shown = models->show(paths, std::nullopt, std::nullopt);
          if (!shown || shown->what != formats::ModelArchive::Shown::What::Model) {
            ExportJob job;
            job.loadError = shown ? formats::FormatError{path, "records", formats::kNoOffset,
                                                         "materials, textures and shaders alone make no model; "
                                                         "write them as .brf"}
                                  : shown.error();
            return job;
          }
          if (!shown->clip.empty()) options.clip = shown->clip;
          formats::Diagnostics read = shown->scene.diagnostics;
          files.scene = std::make_shared<const formats::Scene>(std::move(shown->scene));
          ExportJob job = exportJob(files, path, options);
          job.read = std::move(read);
          return job;
        }
        return exportJob(files, path, options);
      },
      true);
}

void MainWindow::exportEntryDialog(const QStringList& addresses) {
  if (addresses.isEmpty()) return;
  const formats::Address first = formats::Address::parse(addresses.front().toStdString());
  const QString leaf = QString::fromStdString(std::string(first.leafName()));
  const QString name = fileStem(leaf, true);
  const QString title = tr("Export %1").arg(leaf);
  const QString path = chooseExportPath_ ? chooseExportPath_(title, name, false)
                                         : askExportPath(this, title, name);
  if (!path.isEmpty()) exportEntryTo(addresses, path);
}

void MainWindow::exportEntryTo(const QStringList& addresses, const QString& path) {
  startExport(
      path,
      [addresses, path = path.toStdString()] {
        // Loaded as a double-click opens it, with the texture files found (glTF embeds them).
        auto doc = loadDocument(addresses, Textures::Find);
        if (!doc) {
          ExportJob job;
          job.loadError = doc.error();
          return job;
        }
        ExportJob job = exportJob(*doc, path, {});
        job.read = doc->scene->diagnostics;
        return job;
      },
      true);
}

void MainWindow::startExport(const QString& path, std::function<ExportJob()> job,
                             bool interactive) {
  auto* watcher = new QFutureWatcher<std::shared_ptr<ExportJob>>(this);
  exports_ << watcher;
  connect(watcher, &QFutureWatcherBase::finished, this,
          [this, watcher, path, interactive] { exportDone(watcher, path, interactive); });
  statusBar()->showMessage(tr("Exporting %1…").arg(path));
  watcher->setFuture(QtConcurrent::run([job = std::move(job)] {
    try {
      return std::make_shared<ExportJob>(job());
    } catch (const std::exception& e) {  // out of memory, mostly: said, never a crash
      auto failed = std::make_shared<ExportJob>();
      failed->loadError = formats::FormatError{"", "", formats::kNoOffset, e.what()};
      return failed;
    }
  }));
}

void MainWindow::exportDone(QFutureWatcher<std::shared_ptr<ExportJob>>* watcher,
                            const QString& path, bool interactive) {
  exports_.removeAll(watcher);
  watcher->deleteLater();
  const std::shared_ptr<ExportJob> job = watcher->result();
  logNewDiagnostics(job->read);
  for (const std::string& change : job->fixed) log_->addInfo(tr("Fixed for %1: %2").arg(path, QString::fromStdString(change)));
  for (const formats::Problem& p : job->problems)
    log_->add(p.severity, path, QString::fromStdString(p.code + (p.where.empty() ? "" : " " + p.where)), formats::kNoOffset,
              QString::fromStdString(p.message + (p.fix.empty()  ? ""
                                                  : p.fixable    ? " (Fix and Export: " + p.fix + ")"
                                                                 : " (fix: " + p.fix + ")")));
  if (job->held) {
    // The game refuses or breaks on some of it: fix what loses nothing, write as it is, or not.
    std::size_t errors = 0;
    QString list;
    for (const formats::Problem& p : job->problems) {
      if (p.severity != formats::Severity::Error) continue;
      if (++errors <= 8) list += QStringLiteral("\n• ") + QString::fromStdString(p.where.empty() ? p.message : p.where + ": " + p.message);
    }
    QMessageBox box(QMessageBox::Warning, tr("Export"),
                    tr("%n problem(s) that %1 refuses or shows wrong:", "", static_cast<int>(errors))
                            .arg(QString::fromStdString(job->target)) + list,
                    QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("exportCheck"));
    box.setInformativeText(tr("Fix them (the strongest influences kept, meshes split, names shortened: the Log says "
                              "what changed), or export the model as it is."));
    QPushButton* fix = box.addButton(tr("Fix and Export"), QMessageBox::AcceptRole);
    QPushButton* asIs = box.addButton(tr("Export As Is"), QMessageBox::DestructiveRole);
    box.setDefaultButton(fix);
    box.exec();
    if (box.clickedButton() == fix) {
      exportShown(path, interactive, ExportCheck::Fix);
    } else if (box.clickedButton() == asIs) {
      exportShown(path, interactive, ExportCheck::Report);
    } else {
      statusBar()->showMessage(tr("Not exported: %1").arg(path), 8000);
      emit exportFinished(false, tr("Not exported to %1: it was held for its problems").arg(path));
    }
    return;
  }
  log_->addDiagnostics(job->result.diagnostics);
  QString why;
  if (job->loadError) {
    log_->addError(*job->loadError);
    why = QString::fromStdString(job->loadError->describe());
  } else if (job->result.status == formats::WriteResult::Status::Refused ||
             job->result.status == formats::WriteResult::Status::Nothing) {
    log_->add(formats::Severity::Error, path, {}, formats::kNoOffset,
              QString::fromStdString(job->result.refusal));
    why = QString::fromStdString(job->result.refusal);
  } else if (!job->result.ok()) {
    log_->addError(job->result.error);
    why = QString::fromStdString(job->result.error.describe());
  } else if (!job->written.ok()) {
    why = tr("could not be written (%1)").arg(QString::fromStdString(job->written.reason));
    log_->add(formats::Severity::Error, QString::fromStdString(job->written.failedPath), {},
              formats::kNoOffset, why);
    why = QString::fromStdString(job->written.failedPath) + QStringLiteral(": ") + why;
  }
  if (!why.isEmpty()) {
    // Like a load error: in the Log (raised) and the status bar, no box to dismiss; the path once.
    const QString message = why.contains(path) ? tr("Not exported: %1").arg(why)
                                               : tr("Not exported to %1: %2").arg(path, why);
    statusBar()->showMessage(message, 15000);
    log_->raise();
    if (interactive) QApplication::beep();
    emit exportFinished(false, message);
    return;
  }
  std::size_t bytes = 0;
  for (const auto& w : job->written.written) bytes += w.second;
  const QString size = QLocale().formattedDataSize(static_cast<qint64>(bytes));
  const auto more = static_cast<int>(job->written.written.size()) - 1;
  const QString message =
      more > 0 ? tr("Exported %1 and %n more file(s) beside it (%2)", "", more).arg(path, size)
               : tr("Exported %1 (%2)").arg(path, size);
  log_->addInfo(message);
  statusBar()->showMessage(message, 10000);
  emit exportFinished(true, message);
}

}  // namespace marrow::app
