// Playback state of one model: which clip, where the playhead is, how it moves, and the pose
// that results. Plain C++: the timeline dock drives it, tests drive it directly.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/model/scene.h"
#include "render/anim/pose.h"

namespace marrow::app {

class Player {
 public:
  void setScene(std::shared_ptr<const formats::Scene> scene);
  const formats::Scene* scene() const { return scene_.get(); }

  int clipCount() const;
  int clipIndex() const { return clip_; }  // -1: rest pose
  void setClip(int index);
  const formats::Clip* clip() const;
  const anim::Binding* binding() const;  // of the current clip, or null

  bool playing() const { return playing_; }
  void play();
  void pause() { playing_ = false; }
  void togglePlay();
  void stop();  // pause and go back to the start

  anim::PlayMode mode() const { return mode_; }
  void setMode(anim::PlayMode m);
  double speed() const { return speed_; }
  void setSpeed(double s);  // clamped to 0.1–4

  // Seconds into the clip, in [0, duration].
  double time() const;
  double duration() const;
  void setTime(double seconds);  // seek; keeps playing if playing
  // Moves the playhead by dt seconds of wall time × speed. Once mode stops at the end.
  void advance(double dtSeconds);

  double frameRate() const;
  int frame() const;       // nearest whole frame at the clip's frame rate
  int frameCount() const;  // frames from 0 to the last, inclusive
  void setFrame(int frame);
  void stepFrames(int delta);  // pauses

  // The pose at the current time (evaluated when something changed). A clip made for another
  // skeleton (mismatch()) leaves the pose at rest rather than bend the wrong bones.
  const anim::Pose& pose();

  // Why the current clip cannot play on the scene's skeleton ("animation 'anim_horse' is for
  // skel_horse (28 bones); the model's skeleton is skel_human (20 bones)"), or empty.
  const std::string& mismatch() const { return mismatch_; }

  // Whether the current clip animates morph targets (vertex animation).
  bool animatesMorphs() const;
  // Per mesh of the scene, one weight per morph target: `base` (what the sliders say), with the
  // targets the current clip animates set to their value at the current time.
  std::vector<std::vector<float>> morphWeights(std::vector<std::vector<float>> base) const;

 private:
  std::shared_ptr<const formats::Scene> scene_;
  std::vector<anim::Binding> bindings_;
  int clip_ = -1;
  bool playing_ = false;
  anim::PlayMode mode_ = anim::PlayMode::Loop;
  double speed_ = 1.0;
  double playhead_ = 0.0;  // unwrapped for ping-pong, in [0, 2·duration)
  void updateMismatch();

  std::string mismatch_;
  anim::Pose pose_;
  anim::SamplingCache cache_;
  bool dirty_ = true;
};

}  // namespace marrow::app
