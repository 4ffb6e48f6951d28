// Timeline: clip list, transport buttons, play mode, speed, scrub bar, time and frame readout.
// It owns the playback clock and drives the Player; poseChanged() tells the window to redraw.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QTimer>

#include "app/player.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QToolButton;

namespace marrow::app {

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

 signals:
  void poseChanged();
  void clipChanged(int index);

 private:
  void tick();
  void updateKeyTicks();
  void setPlaying(bool playing);
  void changed();

  Player* player_;
  QComboBox* clips_;
  QToolButton* playButton_;
  QComboBox* mode_;
  QDoubleSpinBox* speed_;
  ScrubBar* scrub_;
  QLabel* readout_;
  QLabel* mismatch_;
  QTimer timer_;
  QElapsedTimer clock_;
  int selectedBone_ = -1;
  bool resumeAfterDrag_ = false;
};

}  // namespace marrow::app
