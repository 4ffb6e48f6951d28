#include "app/gui/extraction.h"

#include <QLocale>
#include <QProgressDialog>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>
#include <filesystem>

namespace marrow::app {

namespace {

constexpr std::size_t kListed = 5;  // refusals and failures named in the summary

QString progressText(const formats::ExtractProgress& p) {
  const QLocale locale;
  return QObject::tr("Extracting %1 of %2 (%3)\n%4")
      .arg(locale.toString(static_cast<qulonglong>(p.done)))
      .arg(locale.toString(static_cast<qulonglong>(p.total)))
      .arg(locale.formattedDataSize(static_cast<qint64>(p.bytes)))
      .arg(QString::fromUtf8(p.current.data(), static_cast<qsizetype>(p.current.size())));
}

}  // namespace

Extraction::Extraction(std::vector<formats::ExtractItem> items, QString folder, QWidget* dialogParent)
    : QObject(dialogParent), items_(std::move(items)), folder_(std::move(folder)) {
  const int total = static_cast<int>(items_.size());
  dialog_ = new QProgressDialog(tr("Extracting %1 files into %2").arg(total).arg(folder_),
                                tr("Cancel"), 0, total, dialogParent);
  dialog_->setWindowTitle(tr("Extract"));
  dialog_->setWindowModality(Qt::WindowModal);
  dialog_->setMinimumDuration(300);  // quick extractions do not flash a dialog
  dialog_->setAutoClose(false);
  dialog_->setAutoReset(false);
  connect(dialog_, &QProgressDialog::canceled, this, &Extraction::cancel);
  connect(&watcher_, &QFutureWatcherBase::progressValueChanged, dialog_,
          &QProgressDialog::setValue);
  connect(&watcher_, &QFutureWatcherBase::progressTextChanged, dialog_,
          &QProgressDialog::setLabelText);
  connect(&watcher_, &QFutureWatcherBase::finished, this, &Extraction::onFinished);
}

Extraction::~Extraction() {
  cancelled_->store(true);
  watcher_.waitForFinished();
  delete dialog_;
}

void Extraction::start() {
  const std::filesystem::path folder(folder_.toStdWString());
  watcher_.setFuture(
      QtConcurrent::run([items = items_, folder,
                         cancelled = cancelled_](QPromise<formats::ExtractReport>& promise) {
        promise.setProgressRange(0, static_cast<int>(items.size()));
        formats::ExtractOptions options;
        options.progress = [&](const formats::ExtractProgress& p) {
          // QPromise sends at most a few updates a second, and the last one always.
          promise.setProgressValueAndText(static_cast<int>(p.done), progressText(p));
          return !cancelled->load();
        };
        promise.addResult(formats::extractItems(items, folder, options));
      }));
}

void Extraction::cancel() {
  if (done_) return;
  cancelled_->store(true);
  if (dialog_) dialog_->setLabelText(tr("Cancelling…"));
}

void Extraction::onFinished() {
  if (watcher_.future().resultCount() > 0) report_ = watcher_.result();
  done_ = true;
  if (dialog_) {
    dialog_->disconnect(this);  // hiding must not count as Cancel
    dialog_->hide();
    dialog_->deleteLater();
  }
  emit finished();
}

QString Extraction::summary() const {
  const QLocale locale;
  QStringList lines;
  lines << tr("%1 of %2 files written (%3) into %4.")
               .arg(locale.toString(static_cast<qulonglong>(report_.written)))
               .arg(locale.toString(static_cast<qulonglong>(items_.size())))
               .arg(locale.formattedDataSize(static_cast<qint64>(report_.bytes)))
               .arg(folder_);
  if (report_.cancelled) lines << tr("Cancelled: the rest was not extracted.");
  const auto list = [&](const std::vector<formats::ExtractProblem>& problems, const QString& title) {
    if (problems.empty()) return;
    lines << title.arg(problems.size());
    for (std::size_t k = 0; k < problems.size() && k < kListed; ++k)
      lines << QStringLiteral("  %1: %2")
                   .arg(QString::fromStdString(problems[k].entry),
                        QString::fromStdString(problems[k].message));
    if (problems.size() > kListed)
      lines << tr("  … %1 more (see the Log)").arg(problems.size() - kListed);
  };
  list(report_.refused, tr("%1 refused (they would not land inside the folder):"));
  list(report_.failed, tr("%1 failed:"));
  return lines.join(QLatin1Char('\n'));
}

formats::Diagnostics Extraction::problems() const {
  formats::Diagnostics out;
  for (const auto& p : report_.refused)
    out.warn(p.entry, "extract", formats::kNoOffset, "refused: " + p.message);
  for (const auto& p : report_.failed)
    out.add(formats::Severity::Error, p.entry, "extract", formats::kNoOffset, p.message);
  return out;
}

}  // namespace marrow::app
