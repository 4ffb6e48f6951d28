// The timeline's scrub bar: a track of the clip's duration with frame ticks, frame numbers as
// the file numbers them, key ticks of the selected bone and the playhead; drag anywhere to seek
// (also while playing); a resting mouse names the frame (and key) under it.
#pragma once

#include <QColor>
#include <QWidget>

#include <optional>
#include <vector>

namespace marrow::app {

class ScrubBar : public QWidget {
  Q_OBJECT

 public:
  explicit ScrubBar(QWidget* parent = nullptr);

  void setDuration(double seconds, double frameRate);
  void setTime(double seconds);  // ignored while dragging: the handle follows the cursor
  void setKeyTimes(std::vector<float> times);
  // How the file numbers the clip's first and last frame (a clip cut from frames 1205 to 1240
  // of an animation: 1205, 1240; backwards: 1240, 1205); by default 0 and the last frame.
  void setFrameNumbers(int first, int last);
  // The number of the frame nearest a time, as the file numbers it: what its label and a key
  // tick there say.
  int frameNumberAt(double seconds) const;
  // What a resting mouse at a time is told: "frame N", "key at frame N" near a key tick.
  QString toolTipAt(double seconds) const;
  const std::vector<float>& keyTimes() const { return keys_; }  // the ticks drawn, in seconds
  // Where the tick of a time is drawn, in the bar's pixels.
  double positionOf(double seconds) const { return xAt(seconds); }
  static QColor keyColor() { return {235, 190, 60}; }
  bool dragging() const { return dragging_; }
  double time() const { return time_; }  // where the handle is, in seconds
  double handlePosition() const { return xAt(time_); }  // and in the bar's pixels
  QSize sizeHint() const override;

 signals:
  void scrubbed(double seconds);
  void dragStarted();
  void dragFinished();

 protected:
  bool event(QEvent* e) override;
  void paintEvent(QPaintEvent*) override;
  void changeEvent(QEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;

 private:
  double timeAt(double x) const;
  void dragTo(double x);
  double xAt(double t) const;
  int frames() const;  // the last frame's index at the clip's own rate
  QFont labelFont() const;
  void paintFrameNumbers(QPainter& p, double top);

  double duration_ = 0.0;
  double frameRate_ = 30.0;
  double time_ = 0.0;
  std::vector<float> keys_;
  int firstNumber_ = 0;
  std::optional<int> lastNumber_;  // unset: the last frame's index
  bool dragging_ = false;
};

}  // namespace marrow::app
