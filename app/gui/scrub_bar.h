// The timeline's scrub bar: a track of the clip's duration with frame ticks, key ticks of the
// selected bone and the playhead; drag anywhere to seek (also while playing).
#pragma once

#include <QColor>
#include <QWidget>

#include <vector>

namespace marrow::app {

class ScrubBar : public QWidget {
  Q_OBJECT

 public:
  explicit ScrubBar(QWidget* parent = nullptr);

  void setDuration(double seconds, double frameRate);
  void setTime(double seconds);  // ignored while dragging: the handle follows the cursor
  void setKeyTimes(std::vector<float> times);
  const std::vector<float>& keyTimes() const { return keys_; }  // the ticks drawn, in seconds
  // Where the tick of a time is drawn, in the bar's pixels.
  double positionOf(double seconds) const { return xAt(seconds); }
  static QColor keyColor() { return {235, 190, 60}; }
  bool dragging() const { return dragging_; }
  double time() const { return time_; }  // where the handle is, in seconds
  double handlePosition() const { return xAt(time_); }  // and in the bar's pixels
  QSize sizeHint() const override { return {400, 34}; }

 signals:
  void scrubbed(double seconds);
  void dragStarted();
  void dragFinished();

 protected:
  void paintEvent(QPaintEvent*) override;
  void changeEvent(QEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;

 private:
  double timeAt(double x) const;
  void dragTo(double x);
  double xAt(double t) const;

  double duration_ = 0.0;
  double frameRate_ = 30.0;
  double time_ = 0.0;
  std::vector<float> keys_;
  bool dragging_ = false;
};

}  // namespace marrow::app
