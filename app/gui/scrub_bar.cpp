#include "app/gui/scrub_bar.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "app/player.h"

namespace marrow::app {

namespace {
constexpr int kMargin = 8;
constexpr int kBarHeight = 34;  // the groove, its ticks and the handle; frame numbers below
}

ScrubBar::ScrubBar(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(kBarHeight - 4 + QFontMetrics(labelFont()).height());
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setToolTip(
      tr("Drag to scrub; small ticks are frames, numbered as the file numbers them; yellow ticks "
         "are keys of the selected bone"));
}

QSize ScrubBar::sizeHint() const {
  return {400, kBarHeight + QFontMetrics(labelFont()).height()};
}

QFont ScrubBar::labelFont() const {
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() > 0 ? f.pointSizeF() * 0.8 : 7.0);
  return f;
}

void ScrubBar::setFrameNumbers(int first, int last) {
  if (first == firstNumber_ && lastNumber_ == last) return;
  firstNumber_ = first;
  lastNumber_ = last;
  update();
}

int ScrubBar::frames() const {
  return static_cast<int>(std::lround(duration_ * frameRate_));
}

int ScrubBar::frameNumberAt(double seconds) const {
  const int n = frames();
  const int f = std::clamp(static_cast<int>(std::lround(seconds * frameRate_)), 0, std::max(n, 0));
  return sourceFrameIndex(firstNumber_, lastNumber_.value_or(n), f, n);
}

QString ScrubBar::toolTipAt(double seconds) const {
  const int number = frameNumberAt(seconds);
  // A key tick within a few pixels of the mouse.
  const double x = xAt(seconds);
  for (float k : keys_)
    if (std::abs(xAt(k) - x) <= 3.0) return tr("key at frame %1").arg(frameNumberAt(k));
  return tr("frame %1").arg(number);
}

bool ScrubBar::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && duration_ > 0) {
    const auto* help = static_cast<QHelpEvent*>(e);
    QToolTip::showText(help->globalPos(),
                       toolTipAt(timeAt(help->pos().x())) + QStringLiteral("\n") + toolTip(), this);
    return true;
  }
  return QWidget::event(e);
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
  const QFont small = labelFont();
  const int labels = QFontMetrics(small).height();
  const int h = std::max(height() - labels, 12);
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
  p.setFont(small);
  paintFrameNumbers(p, h - 1);
  const double x = xAt(time_);
  p.setPen(QPen(pal.color(QPalette::Highlight), 2));
  p.drawLine(QPointF(x, 2), QPointF(x, h - 2));
  p.setBrush(pal.color(QPalette::Highlight));
  p.drawEllipse(QPointF(x, h * 0.5), 4.5, 4.5);
}

// Labels under the groove at round numbers of the file's numbering, spaced so that they do not
// crowd, the first and last frame always labelled.
void ScrubBar::paintFrameNumbers(QPainter& p, double top) {
  const int n = frames();
  const int first = firstNumber_, last = lastNumber_.value_or(n);
  const QFontMetrics fm(p.font());
  const double width = this->width() - 2 * kMargin;
  const double span = std::abs(static_cast<double>(last) - first);
  const double gap = std::max(fm.horizontalAdvance(QString::number(first)),
                              fm.horizontalAdvance(QString::number(last))) +
                     10;
  // Pixels per unit of the numbering, and the smallest round step (1 2 5 10 20 50 …) that
  // leaves room for a label.
  const double perNumber = span > 0.0 ? width / span : width;
  int step = 1;
  for (int magnitude = 1; magnitude <= 100000000 && step * perNumber < gap; magnitude *= 10)
    for (int base : {1, 2, 5})
      if ((step = base * magnitude) * perNumber >= gap) break;
  p.setPen(palette().color(QPalette::WindowText));
  const auto label = [&](int number, double at) {
    const QString t = QString::number(number);
    const double w = fm.horizontalAdvance(t);
    const double left = std::clamp(at - w / 2, 0.0, this->width() - w);
    p.drawText(QPointF(left, top + fm.ascent()), t);
  };
  const auto xOf = [&](std::int64_t number) {
    const double along = span > 0.0 ? std::abs(static_cast<double>(number) - first) / span : 0.0;
    return kMargin + along * width;
  };
  label(first, xOf(first));
  if (span == 0.0) return;
  label(last, xOf(last));
  // 64-bit: a numbering near INT32_MAX must not wrap round.
  const std::int64_t lo = std::min(first, last), hi = std::max(first, last);
  const std::int64_t above = static_cast<std::int64_t>(std::floor(static_cast<double>(lo) / step)) + 1;
  for (std::int64_t v = above * step; v < hi; v += step) {
    const double x = xOf(v);
    if (std::abs(x - xOf(first)) < gap || std::abs(x - xOf(last)) < gap) continue;
    label(static_cast<int>(v), x);
  }
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
