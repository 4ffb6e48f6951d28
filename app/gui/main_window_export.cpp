// MainWindow's exports (app/export.h does the writing): File › Export…, and Export… on records
// of the Archive dock and entries of the Pak dock, each off the GUI thread.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include "app/export.h"
#include "app/gui/archive_dock.h"
#include "app/gui/docks.h"
#include "app/gui/main_window.h"
#include "app/gui/pak_dock.h"
#include "app/gui/timeline_dock.h"

namespace marrow::app {

// An export as it runs off the GUI thread: what loading the model found, what writing it made.
struct ExportJob {
  formats::Diagnostics read;
  std::optional<formats::FormatError> loadError;
  ExportResult result;
  WrittenFiles written;
};

namespace {

// A file dialog whose filters are the export formats; the last format chosen (glTF binary at
// first) is the default, and a name typed without a known extension gets the filter's.
QString askExportPath(QWidget* parent, const QString& title, const QString& suggestedName,
                      bool brf) {
  QSettings settings;
  QStringList filters;
  QString selected;
  const QString last =
      settings.value(QStringLiteral("export/format"), QStringLiteral("glb")).toString();
  for (const ExportFormat& f : exportFormats()) {
    if (f.holds == ExportFormat::Holds::BrfRecords && !brf) continue;
    filters << QString::fromStdString(exportFilter(f));
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
  if (!exportFormatFor(path.toStdString())) path += QLatin1Char('.') + chosen;
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

// The job of writing a model already made, and the files it makes.
ExportJob exportJob(const Document& doc, const std::string& path, const ExportOptions& options) {
  ExportJob job;
  job.result = exportDocument(doc, path, options);
  if (job.result.ok()) job.written = writeExportFiles(job.result.files);
  job.result.files.clear();  // the bytes are on disk (or not): not kept until the GUI reads them
  return job;
}
}  // namespace

void MainWindow::exportDialog() {
  const formats::Scene* s = doc_ ? doc_->scene.get() : nullptr;
  if (!s || (s->meshes.empty() && s->skeleton.empty() && s->clips.empty() && doc_->brf.empty())) {
    statusBar()->showMessage(tr("Nothing to export: open a model first"), 8000);
    return;
  }
  // Named after the first file, entry or record ("FILE.brf::SkinA.boots" keeps its dots).
  const QString first = doc_->paths.front();
  const bool record = first.contains(QStringLiteral("::")) &&
                      first.section(QStringLiteral("::"), 0, 0)
                          .endsWith(QStringLiteral(".brf"), Qt::CaseInsensitive);
  const QString name =
      first == kDemoPath
          ? QStringLiteral("demo")
          : fileStem(QFileInfo(first.section(QStringLiteral("::"), -1)).fileName(), !record);
  const QString path =
      chooseExportPath_
          ? chooseExportPath_(tr("Export %1").arg(doc_->title()), name, !doc_->brf.empty())
          : askExportPath(this, tr("Export %1").arg(doc_->title()), name, !doc_->brf.empty());
  if (!path.isEmpty()) exportShown(path, true);
}

void MainWindow::exportTo(const QString& path) {
  exportShown(path, false);
}

void MainWindow::exportShown(const QString& path, bool interactive) {
  if (!doc_) {
    emit exportFinished(false, tr("Nothing to export: no model is open"));
    return;
  }
  // What is shown now decides: the clip playing, the material selected, the records picked.
  ExportOptions options;
  if (player_.clipIndex() >= 0) options.clipIndex = static_cast<std::size_t>(player_.clipIndex());
  if (material_ >= 0) options.materialIndex = static_cast<std::size_t>(material_);
  if (const auto picked = archive_->selectedRecords(); !picked.empty()) options.brfRecords = picked;
  startExport(
      path,
      [doc = *doc_, path = path.toStdString(), options] { return exportJob(doc, path, options); },
      interactive);
}

void MainWindow::exportRecordsDialog(const std::vector<formats::brf::RecordRef>& records) {
  if (!doc_ || records.empty()) return;
  const auto& first = records.front();
  const QString name = fileStem(QString::fromStdString(
      formats::brf::recordName(doc_->brf[first.source], first.kind, first.index)));
  const QString title =
      records.size() == 1 ? tr("Export %1").arg(name) : tr("Export %1 records").arg(records.size());
  const QString path = chooseExportPath_ ? chooseExportPath_(title, name, true)
                                         : askExportPath(this, title, name, true);
  if (!path.isEmpty()) exportRecordsTo(records, path);
}

void MainWindow::exportRecordsTo(const std::vector<formats::brf::RecordRef>& records,
                                 const QString& path) {
  if (!doc_ || doc_->brf.empty()) {
    emit exportFinished(false, tr("Nothing to export: no BRF file is open"));
    return;
  }
  Document files;  // the open files only: the job makes its own model of the records
  files.paths = doc_->paths;
  files.brf = doc_->brf;
  startExport(
      path,
      [files, records, path = path.toStdString()]() mutable {
        ExportOptions options;
        options.brfRecords = records;
        const ExportFormat* format = exportFormatFor(path);
        if (format && format->holds != ExportFormat::Holds::BrfRecords) {
          // The model the viewer would show for these records (main_window_archive.cpp).
          const ArchiveChoice choice = chooseRecords(files.brf, records, {}, std::nullopt);
          if (choice.show != ArchiveChoice::Show::Records) {
            ExportJob job;
            job.loadError =
                formats::FormatError{path, "records", formats::kNoOffset,
                                     "materials, textures and shaders alone make no model; "
                                     "write them as .brf"};
            return job;
          }
          auto scene = formats::brf::toScene(files.brf, choice.selection);
          if (!scene) {
            ExportJob job;
            job.loadError = scene.error();
            return job;
          }
          if (!choice.clip.empty()) options.clip = choice.clip;
          formats::Diagnostics read = scene->diagnostics;
          files.scene = std::make_shared<const formats::Scene>(std::move(scene).value());
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
  const QString name =
      fileStem(QFileInfo(addresses.front().section(QStringLiteral("::"), -1)).fileName(), true);
  const QString title = tr("Export %1").arg(addresses.front().section(QStringLiteral("::"), -1));
  const QString path = chooseExportPath_ ? chooseExportPath_(title, name, false)
                                         : askExportPath(this, title, name, false);
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
  log_->addDiagnostics(job->result.diagnostics);
  QString why;
  if (job->loadError) {
    log_->addError(*job->loadError);
    why = QString::fromStdString(job->loadError->describe());
  } else if (job->result.status == ExportResult::Status::Refused ||
             job->result.status == ExportResult::Status::Nothing) {
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
    const QString message = tr("Not exported to %1: %2").arg(path, why);
    statusBar()->showMessage(message, 15000);
    log_->raise();
    if (interactive) {
      auto* box =
          new QMessageBox(QMessageBox::Warning, tr("Export"), message, QMessageBox::Ok, this);
      box->setAttribute(Qt::WA_DeleteOnClose);
      box->open();  // not exec(): the viewer keeps running
    }
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
