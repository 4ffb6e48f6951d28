#include "app/gui/timeline_dock.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressDialog>
#include <QSaveFile>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "app/frame_output.h"
#include "app/gui/clip_picker.h"
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

  clips_ = new ClipPicker(body);
  clips_->setObjectName(QStringLiteral("clips"));
  // As wide as the longest clip name (up to 48 characters; longer ones are elided in the middle,
  // whole in the list).
  clips_->setMinimumContentsLength(16);
  clips_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  clips_->setMaximumWidth(clips_->fontMetrics().averageCharWidth() * 48 + 48);
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

  stepped_ = new QAction(tr("&Stepped at the File's Frame Rate"), this);
  stepped_->setObjectName(QStringLiteral("steppedAction"));
  stepped_->setCheckable(true);
  stepped_->setToolTip(
      tr("Show the clip frame by frame at the frame rate of its file; off: "
         "interpolate smoothly between keys"));
  auto* steppedButton = new QToolButton(body);
  steppedButton->setObjectName(QStringLiteral("stepped"));
  steppedButton->setDefaultAction(stepped_);
  steppedButton->setText(tr("Stepped"));
  steppedButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
  steppedButton->setFocusPolicy(Qt::NoFocus);
  controls->addWidget(steppedButton);

  renderButton_ = new QToolButton(body);
  renderButton_->setObjectName(QStringLiteral("renderFrames"));
  renderButton_->setText(tr("Render Frames…"));
  renderButton_->setToolTip(
      tr("Save the clip as numbered PNG images or one animated PNG, as the "
         "viewport shows it"));
  renderButton_->setFocusPolicy(Qt::NoFocus);
  controls->addWidget(renderButton_);

  readout_ = new QLabel(body);
  readout_->setObjectName(QStringLiteral("readout"));
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
  binding_ = new QLabel(body);
  binding_->setObjectName(QStringLiteral("binding"));
  binding_->setWordWrap(true);
  binding_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  binding_->hide();
  rows->addWidget(binding_);
  body->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);  // the viewport gets the height
  setWidget(body);

  connect(clips_, &ClipPicker::clipPicked, this, &TimelineDock::setClip);
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
  connect(stepped_, &QAction::toggled, this, &TimelineDock::setStepped);
  connect(renderButton_, &QToolButton::clicked, this, &TimelineDock::renderFramesDialog);
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
  stepped_->setChecked(QSettings().value(QStringLiteral("playback/stepped"), false).toBool());
  sceneChanged();
}

void TimelineDock::setStepped(bool stepped) {
  if (stepped_->isChecked() != stepped) return stepped_->setChecked(stepped);  // comes back here
  if (player_->stepped() == stepped) return;
  player_->setStepped(stepped);
  QSettings().setValue(QStringLiteral("playback/stepped"), stepped);
  changed();
}

void TimelineDock::sceneChanged() {
  setPlaying(false);
  const std::vector<formats::Clip> none;
  const auto* s = player_->scene();
  clips_->setClips(s ? s->clips : none);  // (both lvalues: the clips are not copied)
  clips_->setCurrentClip(player_->clipIndex());
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
  // Frames numbered as the file numbers them (a cut clip: its source's indices).
  scrub_->setFrameNumbers(player_->fileFrameOf(0), player_->fileFrameOf(player_->frameCount() - 1));
  scrub_->setTime(player_->time());  // left alone while a drag holds the handle
  if (hasClip) {
    QString text = QStringLiteral("%1 / %2 s   frame %3 / %4   %5 fps")
                       .arg(player_->time(), 0, 'f', 3)
                       .arg(player_->duration(), 0, 'f', 3)
                       .arg(player_->frame())
                       .arg(std::max(player_->frameCount() - 1, 0))
                       .arg(player_->frameRate(), 0, 'g', 4);
    // A clip cut from an animation: the frame as that animation's file numbers it.
    if (const auto* c = player_->clip(); c->sourceFrames)
      text += QStringLiteral("   %1 %2")
                  .arg(c->group.empty() ? tr("source frame") : QString::fromStdString(c->group))
                  .arg(player_->fileFrame());
    readout_->setText(text);
  } else {
    readout_->setText(tr("rest pose"));
  }
  const QString mismatch = QString::fromStdString(player_->mismatch());
  if (mismatch != mismatch_->text()) {
    mismatch_->setText(mismatch);
    mismatch_->setVisible(!mismatch.isEmpty());
  }
  // The clip's tracks and the skeleton's bones, when they do not all match.
  QString binding, bindingTip;
  const auto* clip = player_->clip();
  const auto* b = player_->binding();
  if (clip && b && mismatch.isEmpty() && !clip->tracks.empty() &&
      (!b->tracksWithoutBone.empty() || !b->bonesWithoutTrack.empty())) {
    const auto list = [](const std::vector<std::string>& names) {
      QStringList l;
      for (const auto& n : names) l << QString::fromStdString(n);
      return l;
    };
    const QStringList tracks = list(b->tracksWithoutBone), bones = list(b->bonesWithoutTrack);
    binding = tr("%1 of %2 tracks play on bones").arg(b->matched()).arg(clip->tracks.size());
    if (!tracks.isEmpty())
      binding +=
          tr("; without a bone: %1")
              .arg(tracks.mid(0, 6).join(QStringLiteral(", ")) +
                   (tracks.size() > 6 ? tr(", … %1 more").arg(tracks.size() - 6) : QString()));
    if (!bones.isEmpty())
      binding += bones.size() == 1 ? tr("; 1 bone without a track")
                                   : tr("; %1 bones without a track").arg(bones.size());
    bindingTip = tr("Tracks without a bone:\n%1\n\nBones without a track (at rest):\n%2")
                     .arg(tracks.isEmpty() ? tr("(none)") : tracks.join(QLatin1Char('\n')),
                          bones.isEmpty() ? tr("(none)") : bones.join(QLatin1Char('\n')));
  }
  if (binding != binding_->text()) {
    binding_->setText(binding);
    binding_->setToolTip(bindingTip);
    binding_->setVisible(!binding.isEmpty());
  }
  renderButton_->setEnabled(hasClip && player_->duration() > 0.0);
  {
    const QSignalBlocker blockStepped(stepped_);
    stepped_->setChecked(player_->stepped());
  }
  if (clips_->currentClip() != player_->clipIndex()) clips_->setCurrentClip(player_->clipIndex());
  // A clip that says whether it loops sets the mode (Player::setMode) until the user picks one.
  if (const int m = mode_->findData(static_cast<int>(player_->mode()));
      m != mode_->currentIndex()) {
    const QSignalBlocker blockMode(mode_);
    mode_->setCurrentIndex(m);
  }
  const QString modeTip =
      clip && clip->loops
          ? (*clip->loops
                 ? tr("What happens at the end of the clip; its source says it loops")
                 : tr("What happens at the end of the clip; its source says it plays once"))
          : tr("What happens at the end of the clip");
  if (mode_->toolTip() != modeTip) mode_->setToolTip(modeTip);
}

QString TimelineDock::mismatchText() const { return mismatch_->text(); }

QString TimelineDock::readoutText() const {
  return readout_->text();
}

QString TimelineDock::bindingText() const {
  return binding_->text();
}

QString TimelineDock::renderFrames(const QString& path, int frames, double fps) {
  if (!grab_) return tr("there is no view to draw frames with");
  if (!player_->clip()) return tr("no clip is chosen");
  const FramePlanResult r = planFrames(player_->duration(), player_->mode(), frames, fps);
  if (!r.error.empty()) return QString::fromStdString(r.error);
  const std::vector<double>& playheads = r.plan.playheads;
  const bool wasPlaying = player_->playing();
  const double was = player_->time();
  setPlaying(false);
  QProgressDialog progress(tr("Rendering frames…"), tr("Cancel"), 0,
                           static_cast<int>(playheads.size()), this);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(800);
  const bool animated = isAnimatedPngPath(path);
  ApngWriter apng(r.plan.fps);
  QString error;
  std::size_t written = 0;
  for (std::size_t k = 0; k < playheads.size() && error.isEmpty(); ++k) {
    progress.setValue(static_cast<int>(k));
    if (progress.wasCanceled()) {
      error = tr("cancelled after %1 of %2 frames").arg(k).arg(playheads.size());
      break;
    }
    player_->setTime(anim::clipTime(static_cast<float>(playheads[k]),
                                    static_cast<float>(player_->duration()), player_->mode()));
    changed();  // the window poses the view
    const QImage image = grab_();
    std::string why;
    if (image.isNull()) {
      error = tr("frame %1 could not be drawn").arg(k + 1);
    } else if (animated) {
      if (!apng.add(image, &why)) error = QString::fromStdString(why);
    } else {
      const QString file = framePath(path, static_cast<int>(k) + 1);
      if (!image.save(file, "PNG")) error = tr("%1 could not be written").arg(file);
    }
    if (error.isEmpty()) ++written;
  }
  progress.setValue(static_cast<int>(playheads.size()));
  if (error.isEmpty() && animated) {
    const std::vector<std::byte> bytes = apng.finish();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<qint64>(bytes.size())) != static_cast<qint64>(bytes.size()) ||
        !file.commit())
      error = tr("%1: %2").arg(path, file.errorString());
  }
  player_->setTime(was);
  changed();
  if (wasPlaying) setPlaying(true);
  if (!error.isEmpty()) {
    emit framesRendered(false, error);
    return error;
  }
  const QString count = written == 1 ? tr("1 frame") : tr("%1 frames").arg(written);
  emit framesRendered(true, animated ? tr("Wrote %1 (%2)").arg(path, count)
                                     : tr("Wrote %1: %2 …").arg(count, framePath(path, 1)));
  return {};
}

void TimelineDock::renderFramesDialog() {
  if (!player_->clip() || !(player_->duration() > 0.0)) return;
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Render Frames"));
  auto* form = new QFormLayout(&dialog);
  auto* fps = new QDoubleSpinBox(&dialog);
  fps->setRange(0.1, 1000.0);
  fps->setDecimals(2);
  fps->setValue(player_->frameRate());
  fps->setSuffix(tr(" fps"));
  form->addRow(tr("Frame rate"), fps);
  auto* count = new QSpinBox(&dialog);
  count->setRange(0, kMaxFrames);
  count->setSpecialValueText(tr("the whole clip"));
  count->setValue(0);
  form->addRow(tr("Frames"), count);
  form->addRow(new QLabel(tr("As the viewport shows it, at its size; %1 mode.")
                              .arg(QString::fromLatin1(anim::playModeName(player_->mode()))),
                          &dialog));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  if (dialog.exec() != QDialog::Accepted) return;
  QSettings settings;
  const QString suggested = QFileInfo(settings.value(QStringLiteral("lastDirectory")).toString(),
                                      QString::fromStdString(player_->clip()->name)
                                              .replace(QLatin1Char('/'), QLatin1Char('_')) +
                                          QStringLiteral(".png"))
                                .filePath();
  QString filter;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Render frames to"), suggested,
      tr("PNG image sequence (*.png);;Animated PNG (*.apng)"), &filter);
  if (path.isEmpty()) return;
  renderFrames(path, count->value(), fps->value());
}

}  // namespace marrow::app
