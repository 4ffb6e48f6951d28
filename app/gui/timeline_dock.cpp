#include "app/gui/timeline_dock.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "app/gui/scrub_bar.h"

namespace marrow::app {

namespace {

QToolButton* transportButton(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip) {
  auto* b = new QToolButton(parent);
  b->setIcon(parent->style()->standardIcon(icon));
  b->setToolTip(tip);
  b->setAutoRaise(true);
  b->setFocusPolicy(Qt::NoFocus);  // Space belongs to play/pause, not to the focused button
  return b;
}

}  // namespace

TimelineDock::TimelineDock(Player* player, QWidget* parent)
    : QDockWidget(tr("Timeline"), parent), player_(player) {
  setObjectName(QStringLiteral("TimelineDock"));
  auto* body = new QWidget(this);
  auto* rows = new QVBoxLayout(body);
  rows->setContentsMargins(6, 4, 6, 4);
  auto* controls = new QHBoxLayout();
  rows->addLayout(controls);

  clips_ = new QComboBox(body);
  clips_->setMinimumContentsLength(16);
  clips_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  clips_->setToolTip(tr("Clip to play"));
  controls->addWidget(clips_);

  auto* first = transportButton(body, QStyle::SP_MediaSkipBackward, tr("First frame (Home)"));
  auto* back = transportButton(body, QStyle::SP_MediaSeekBackward, tr("One frame back (,)"));
  playButton_ = transportButton(body, QStyle::SP_MediaPlay, tr("Play / pause (Space)"));
  auto* stopButton = transportButton(body, QStyle::SP_MediaStop, tr("Stop: pause and go to the start"));
  auto* forward = transportButton(body, QStyle::SP_MediaSeekForward, tr("One frame forward (.)"));
  auto* last = transportButton(body, QStyle::SP_MediaSkipForward, tr("Last frame (End)"));
  for (auto* b : {first, back, playButton_, stopButton, forward, last}) controls->addWidget(b);

  mode_ = new QComboBox(body);
  mode_->addItem(tr("Loop"), static_cast<int>(anim::PlayMode::Loop));
  mode_->addItem(tr("Once"), static_cast<int>(anim::PlayMode::Once));
  mode_->addItem(tr("Ping-pong"), static_cast<int>(anim::PlayMode::PingPong));
  mode_->setToolTip(tr("What happens at the end of the clip"));
  controls->addWidget(mode_);

  speed_ = new QDoubleSpinBox(body);
  speed_->setRange(0.1, 4.0);
  speed_->setSingleStep(0.1);
  speed_->setDecimals(2);
  speed_->setValue(1.0);
  speed_->setSuffix(QStringLiteral("×"));
  speed_->setToolTip(tr("Playback speed"));
  controls->addWidget(speed_);

  readout_ = new QLabel(body);
  readout_->setMinimumWidth(220);
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  readout_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  controls->addWidget(readout_, 1);

  scrub_ = new ScrubBar(body);
  rows->addWidget(scrub_);
  mismatch_ = new QLabel(body);
  mismatch_->setObjectName(QStringLiteral("mismatch"));
  mismatch_->setWordWrap(true);
  mismatch_->setStyleSheet(QStringLiteral("color: #d8a028"));
  mismatch_->hide();
  rows->addWidget(mismatch_);
  body->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);  // the viewport gets the height
  setWidget(body);

  connect(clips_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setClip(clips_->itemData(i).toInt()); });
  connect(first, &QToolButton::clicked, this, &TimelineDock::firstFrame);
  connect(back, &QToolButton::clicked, this, &TimelineDock::stepBackward);
  connect(playButton_, &QToolButton::clicked, this, &TimelineDock::togglePlay);
  connect(stopButton, &QToolButton::clicked, this, &TimelineDock::stop);
  connect(forward, &QToolButton::clicked, this, &TimelineDock::stepForward);
  connect(last, &QToolButton::clicked, this, &TimelineDock::lastFrame);
  connect(mode_, &QComboBox::currentIndexChanged, this, [this](int i) {
    player_->setMode(static_cast<anim::PlayMode>(mode_->itemData(i).toInt()));
    changed();
  });
  connect(speed_, &QDoubleSpinBox::valueChanged, this, [this](double v) { player_->setSpeed(v); });
  connect(scrub_, &ScrubBar::dragStarted, this, [this] {
    resumeAfterDrag_ = player_->playing();
    pause();
  });
  connect(scrub_, &ScrubBar::scrubbed, this, [this](double t) {
    player_->setTime(t);
    changed();
  });
  connect(scrub_, &ScrubBar::dragFinished, this, [this] {
    if (resumeAfterDrag_) play();
  });

  timer_.setInterval(15);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &TimelineDock::tick);
  sceneChanged();
}

void TimelineDock::sceneChanged() {
  setPlaying(false);
  {
    const QSignalBlocker block(clips_);
    clips_->clear();
    clips_->addItem(tr("(rest pose)"), -1);
    if (const auto* s = player_->scene())
      for (std::size_t i = 0; i < s->clips.size(); ++i)
        clips_->addItem(QString::fromStdString(s->clips[i].name), static_cast<int>(i));
    clips_->setCurrentIndex(player_->clipIndex() + 1);
  }
  selectedBone_ = -1;
  updateKeyTicks();
  refresh();
}

void TimelineDock::setClip(int index) {
  if (index != player_->clipIndex()) {
    const bool wasPlaying = player_->playing();
    player_->setClip(index);
    if (wasPlaying) player_->play();
    emit clipChanged(index);
  }
  updateKeyTicks();
  changed();
}

void TimelineDock::setSelectedBone(int bone) {
  selectedBone_ = bone;
  updateKeyTicks();
}

void TimelineDock::updateKeyTicks() {
  std::vector<float> keys;
  const auto* clip = player_->clip();
  const auto* binding = player_->binding();
  if (clip && binding && selectedBone_ >= 0) {
    for (std::size_t t = 0; t < clip->tracks.size(); ++t) {
      if (binding->boneOfTrack[t] != selectedBone_) continue;
      const auto& tr = clip->tracks[t];
      keys.insert(keys.end(), tr.translation.times.begin(), tr.translation.times.end());
      keys.insert(keys.end(), tr.rotation.times.begin(), tr.rotation.times.end());
      keys.insert(keys.end(), tr.scale.times.begin(), tr.scale.times.end());
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }
  scrub_->setKeyTimes(std::move(keys));
}

void TimelineDock::setPlaying(bool playing) {
  if (playing) {
    player_->play();
    if (!player_->playing()) return;
    clock_.start();
    timer_.start();
  } else {
    player_->pause();
    timer_.stop();
  }
  refresh();
}

void TimelineDock::togglePlay() { setPlaying(!player_->playing()); }
void TimelineDock::play() { setPlaying(true); }
void TimelineDock::pause() { setPlaying(false); }

void TimelineDock::stop() {
  timer_.stop();
  player_->stop();
  changed();
}

void TimelineDock::stepForward() {
  timer_.stop();
  player_->stepFrames(1);
  changed();
}

void TimelineDock::stepBackward() {
  timer_.stop();
  player_->stepFrames(-1);
  changed();
}

void TimelineDock::firstFrame() {
  timer_.stop();
  player_->pause();
  player_->setFrame(0);
  changed();
}

void TimelineDock::lastFrame() {
  timer_.stop();
  player_->pause();
  player_->setFrame(player_->frameCount() - 1);
  changed();
}

void TimelineDock::seek(double seconds) {
  player_->setTime(seconds);
  changed();
}

void TimelineDock::tick() {
  const double dt = clock_.restart() / 1000.0;
  player_->advance(std::min(dt, 0.25));  // a stalled frame should not jump far
  if (!player_->playing()) timer_.stop();
  changed();
}

void TimelineDock::changed() {
  refresh();
  emit poseChanged();
}

void TimelineDock::refresh() {
  const bool hasClip = player_->clip() != nullptr;
  playButton_->setIcon(style()->standardIcon(player_->playing() ? QStyle::SP_MediaPause
                                                                 : QStyle::SP_MediaPlay));
  playButton_->setEnabled(hasClip);
  scrub_->setEnabled(hasClip);
  scrub_->setDuration(player_->duration(), player_->frameRate());
  if (!scrub_->dragging()) scrub_->setTime(player_->time());
  if (hasClip) {
    readout_->setText(QStringLiteral("%1 / %2 s   frame %3 / %4   %5 fps")
                          .arg(player_->time(), 0, 'f', 3)
                          .arg(player_->duration(), 0, 'f', 3)
                          .arg(player_->frame())
                          .arg(std::max(player_->frameCount() - 1, 0))
                          .arg(player_->frameRate(), 0, 'g', 4));
  } else {
    readout_->setText(tr("rest pose"));
  }
  const QString mismatch = QString::fromStdString(player_->mismatch());
  if (mismatch != mismatch_->text()) {
    mismatch_->setText(mismatch);
    mismatch_->setVisible(!mismatch.isEmpty());
  }
  const QSignalBlocker block(clips_);
  clips_->setCurrentIndex(player_->clipIndex() + 1);
}

QString TimelineDock::mismatchText() const { return mismatch_->text(); }

}  // namespace marrow::app
