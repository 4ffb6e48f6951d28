// Playback state of one model: which clip, where the playhead is, how it moves, and the pose
// that results. Plain C++: the timeline dock drives it, tests drive it directly.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/model/scene.h"
#include "render/anim/pose.h"

namespace marrow::app {

// The clip a model opens on (issue 19): with Warband actions, the first clip an action cut;
// otherwise the shortest whole clip (not a piece cut at gaps) that plays on the skeleton (or
// animates meshes), so that a walk given beside the skeletons' 3,333-second anim_human plays;
// otherwise the first clip; -1 without clips. `bindings`: one per clip.
int openingClip(const formats::Scene& scene, const std::vector<anim::Binding>& bindings);

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
  // The user's choice of mode. Until there is one, a clip whose source says whether it loops
  // (Clip::loops: a Warband action) sets the mode when it becomes current (Loop or Once); after
  // it, for as long as this Player lives (the session), the mode is the user's.
  void setMode(anim::PlayMode m);
  bool modeChosen() const { return modeChosen_; }
  double speed() const { return speed_; }
  void setSpeed(double s);  // clamped to 0.1–4

  // Seconds into the clip, in [0, duration].
  double time() const;
  double duration() const;
  void setTime(double seconds);  // seek; keeps playing if playing
  // Moves the playhead by dt seconds of wall time × speed. Once mode stops at the end.
  void advance(double dtSeconds);

  // Stepped playback shows the clip at the file's own frame rate, frame by frame (the pose of
  // the last whole frame at or before the playhead); smooth playback interpolates between keys
  // at any time. Smooth by default.
  bool stepped() const { return stepped_; }
  void setStepped(bool stepped);
  // The clip time the pose is sampled at: time(), or its whole frame when stepped.
  double sampleTime() const;

  double frameRate() const;
  // The frame shown: the nearest whole frame at the clip's frame rate (the last one begun when
  // stepped).
  int frame() const;
  int frameCount() const;  // frames from 0 to the last, inclusive
  void setFrame(int frame);
  // A frame of the current clip as its file numbers it: for a clip cut from another
  // (Clip::sourceFrames) the source's frame index, the first frame `first` and the last `last`
  // (counting down when cut backwards); any other clip's frames are its own.
  int fileFrameOf(int frame) const;
  int fileFrame() const { return fileFrameOf(frame()); }
  void stepFrames(int delta);  // pauses

  // The pose at the current time (evaluated when something changed). A clip made for another
  // skeleton (mismatch()) leaves the pose at rest rather than bend the wrong bones.
  const anim::Pose& pose();
  // The pose at another time of the current clip (seconds in [0, duration]), as pose() would give
  // it there: for what is simulated along the clip (cloth, render/anim/springs.h).
  anim::Pose poseAt(double seconds) const;

  // Why the current clip cannot play on the scene's skeleton ("animation 'anim_horse' is for
  // skel_horse (28 bones); the model's skeleton is skel_human (20 bones)"), or empty.
  const std::string& mismatch() const { return mismatch_; }

  // Whether the current clip animates morph targets (vertex animation).
  bool animatesMorphs() const;
  // Per mesh of the scene, one weight per morph target: `base` (what the sliders say), with the
  // targets the current clip animates set to their value at the current time.
  std::vector<std::vector<float>> morphWeights(std::vector<std::vector<float>> base) const;

 private:
  // The pose of the current clip at `seconds` (the rest pose without one, or for a clip of
  // another skeleton), into `out`; `cache` speeds up sampling at times that move forward.
  void evaluate(double seconds, anim::Pose& out, anim::SamplingCache* cache) const;
  std::shared_ptr<const formats::Scene> scene_;
  std::vector<anim::Binding> bindings_;
  int clip_ = -1;
  bool playing_ = false;
  anim::PlayMode mode_ = anim::PlayMode::Loop;
  double speed_ = 1.0;
  double playhead_ = 0.0;  // unwrapped for ping-pong, in [0, 2·duration)
  bool modeChosen_ = false;
  void updateMismatch();
  void applyMode(anim::PlayMode m);
  void followClipLooping();

  std::string mismatch_;
  anim::Pose pose_;
  anim::SamplingCache cache_;
  bool dirty_ = true;
  bool stepped_ = false;
  double posedAt_ = -1.0;  // the sample time pose_ holds
};

// Frame `frame` of `frames` (the last frame's number) of a clip cut from frame index `first` to
// `last` of its source: `first` + the share of the way, rounded, so that the ends meet exactly.
int sourceFrameIndex(int first, int last, int frame, int frames);

// The pose as text for a spreadsheet or a bug report: a header line, then per bone its name,
// its parent's name ("" for a root), its local matrix and its model matrix, each 16 numbers in
// column-major order (m[column][row], as `marrow-cli pose --json` lists them), tab-separated.
std::string poseAsText(const formats::Skeleton& skeleton, const anim::Pose& pose);

}  // namespace marrow::app
