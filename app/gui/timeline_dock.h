// Timeline: clip list, transport buttons, play mode, speed, scrub bar, time and frame readout.
// It owns the playback clock and drives the Player; poseChanged() tells the window to redraw.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QTimer>
#include <functional>

#include "app/player.h"

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QToolButton;

namespace marrow::app {

class ClipPicker;
class ScrubBar;

class TimelineDock : public QDockWidget {
  Q_OBJECT

 public:
  TimelineDock(Player* player, QWidget* parent = nullptr);

  void sceneChanged();            // the player has a new scene: rebuild the clip list
  void setSelectedBone(int bone);  // whose keys the scrub bar marks
  void refresh();                 // sync every control from the player
  // What the timeline says about a clip that cannot play on the model (Player::mismatch()).
  QString mismatchText() const;
  // What it says about the current clip's tracks and the skeleton's bones when they do not all
  // match ("18 of 20 tracks play; …"), or empty.
  QString bindingText() const;
  // The time and frame readout ("0.167 / 1.000 s   frame 5 / 30   30 fps   anim_human 1205").
  QString readoutText() const;
  ClipPicker* clipPicker() const { return clips_; }

  // Stepped (the file's frame rate, frame by frame) or smooth playback: checkable, for menus.
  QAction* steppedAction() const { return stepped_; }

  // What Render Frames draws each frame with (the viewport's picture); without one it cannot.
  void setFrameGrabber(std::function<QImage()> grab) { grab_ = std::move(grab); }
  // Writes frames of the current clip as the viewer shows them (app/frame_output.h: `frames`
  // and/or `fps`, 0 for unset): PATH_0001.png, … or one animated PNG when `path` ends in .apng.
  // The playhead comes back where it was. Returns an error message, empty on success.
  QString renderFrames(const QString& path, int frames, double fps);

 public slots:
  void togglePlay();
  void play();
  void pause();
  void stop();
  void stepForward();
  void stepBackward();
  void firstFrame();
  void lastFrame();
  void setClip(int index);
  void seek(double seconds);  // keeps playing if playing
  void setStepped(bool stepped);
  // Asks for a frame rate, a number of frames and a file, then renderFrames().
  void renderFramesDialog();

 signals:
  void poseChanged();
  void clipChanged(int index);
  // Render Frames ended: `ok`, and what was written or why not.
  void framesRendered(bool ok, const QString& message);

 private:
  void tick();
  void updateKeyTicks();
  void setPlaying(bool playing);
  void changed();

  Player* player_;
  ClipPicker* clips_;
  QToolButton* playButton_;
  QComboBox* mode_;
  QDoubleSpinBox* speed_;
  ScrubBar* scrub_;
  QLabel* readout_;
  QLabel* mismatch_;
  QLabel* binding_;
  QAction* stepped_;
  QToolButton* renderButton_;
  std::function<QImage()> grab_;
  QTimer timer_;
  QElapsedTimer clock_;
  int selectedBone_ = -1;
  bool resumeAfterDrag_ = false;
};

}  // namespace marrow::app
