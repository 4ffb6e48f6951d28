// Extracting files of an archive (formats/io/extract.h) into a folder off the GUI thread: a
// progress dialog with the count and the bytes written whose Cancel stops what is left; the
// report comes back on the GUI thread.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QProgressDialog>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

#include "formats/io/extract.h"

class QWidget;

namespace marrow::app {

class Extraction : public QObject {
  Q_OBJECT

 public:
  // The items keep their archives alive while the worker reads them.
  Extraction(std::vector<formats::ExtractItem> items, QString folder, QWidget* dialogParent);
  ~Extraction() override;  // cancels and waits for the worker

  void start();
  // Stops after the entry being written; what was written stays.
  void cancel();
  bool running() const { return watcher_.isRunning(); }
  bool done() const { return done_; }

  QString folder() const { return folder_; }
  std::size_t total() const { return items_.size(); }
  QProgressDialog* dialog() const { return dialog_; }
  // Valid once finished() was emitted.
  const formats::ExtractReport& report() const { return report_; }

  // A few lines for a message box: what was written, refused and why, failed, cancelled.
  QString summary() const;
  // Every refusal and failure, for the log (file: the entry's stored name).
  formats::Diagnostics problems() const;

 signals:
  void finished();

 private:
  void onFinished();

  std::vector<formats::ExtractItem> items_;
  QString folder_;
  QPointer<QProgressDialog> dialog_;
  QFutureWatcher<formats::ExtractReport> watcher_;
  // Not QFuture::cancel: a cancelled future drops its result, and the report is wanted.
  std::shared_ptr<std::atomic<bool>> cancelled_ = std::make_shared<std::atomic<bool>>(false);
  formats::ExtractReport report_;
  bool done_ = false;
};

}  // namespace marrow::app
