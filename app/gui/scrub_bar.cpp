#include "app/gui/scrub_bar.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace marrow::app {

namespace {
constexpr int kMargin = 8;
}

ScrubBar::ScrubBar(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(30);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setToolTip(tr("Drag to scrub; small ticks are frames, yellow ticks are keys of the selected bone"));
}

void ScrubBar::setDuration(double seconds, double frameRate) {
  duration_ = std::max(seconds, 0.0);
  frameRate_ = frameRate > 0 ? frameRate : 30.0;
  update();
}

void ScrubBar::setTime(double seconds) {
  if (dragging_ || seconds == time_) return;
  time_ = seconds;
  update();
}

void ScrubBar::setKeyTimes(std::vector<float> times) {
  keys_ = std::move(times);
  update();
}

double ScrubBar::xAt(double t) const {
  const double w = width() - 2 * kMargin;
  return kMargin + (duration_ > 0 ? t / duration_ : 0.0) * w;
}

double ScrubBar::timeAt(double x) const {
  const double w = std::max(width() - 2 * kMargin, 1);
  return std::clamp((x - kMargin) / w, 0.0, 1.0) * duration_;
}

void ScrubBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QPalette pal = palette();
  const int h = height();
  const QRectF groove(kMargin, h * 0.35, width() - 2 * kMargin, h * 0.3);
  p.setPen(Qt::NoPen);
  p.setBrush(pal.color(QPalette::Base));
  p.drawRoundedRect(groove, 3, 3);
  if (duration_ <= 0) return;

  // Frame ticks, thinned out when they would crowd.
  const double pixelsPerFrame = (width() - 2 * kMargin) / (duration_ * frameRate_);
  const int every = std::max(1, static_cast<int>(std::ceil(4.0 / std::max(pixelsPerFrame, 1e-6))));
  p.setPen(QPen(pal.color(QPalette::Mid), 1));
  const int frames = static_cast<int>(std::lround(duration_ * frameRate_));
  for (int f = 0; f <= frames; f += every) {
    const double x = xAt(f / frameRate_);
    p.drawLine(QPointF(x, groove.top()), QPointF(x, groove.top() + 4));
  }
  p.setPen(QPen(keyColor(), 2));
  for (float k : keys_) {
    const double x = xAt(k);
    p.drawLine(QPointF(x, groove.bottom() - 5), QPointF(x, groove.bottom() + 3));
  }
  const double x = xAt(time_);
  p.setPen(QPen(pal.color(QPalette::Highlight), 2));
  p.drawLine(QPointF(x, 2), QPointF(x, h - 2));
  p.setBrush(pal.color(QPalette::Highlight));
  p.drawEllipse(QPointF(x, h * 0.5), 4.5, 4.5);
}

// While dragging, the handle is where the cursor is (the pose shown follows through scrubbed();
// a stepped clip may show the frame at or before it) and setTime() from the player leaves it
// alone, so that the handle never lags behind or jumps back under the mouse.
void ScrubBar::dragTo(double x) {
  time_ = timeAt(x);
  update();
  emit scrubbed(time_);
}

void ScrubBar::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  // Disabled mid-drag (the clip went away): no release will come, so the drag ends here.
  if (e->type() == QEvent::EnabledChange && !isEnabled() && dragging_) {
    dragging_ = false;
    emit dragFinished();
  }
}

void ScrubBar::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || duration_ <= 0) return;
  dragging_ = true;
  emit dragStarted();
  dragTo(e->position().x());
}

void ScrubBar::mouseMoveEvent(QMouseEvent* e) {
  if (dragging_) dragTo(e->position().x());
}

void ScrubBar::mouseReleaseEvent(QMouseEvent* e) {
  if (!dragging_ || e->button() != Qt::LeftButton) return;
  dragTo(e->position().x());
  dragging_ = false;
  emit dragFinished();
}

}  // namespace marrow::app
