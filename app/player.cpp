#include "app/player.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "render/anim/morph.h"

namespace marrow::app {

int openingClip(const formats::Scene& scene, const std::vector<anim::Binding>& bindings) {
  const auto& clips = scene.clips;
  const auto fits = [&](std::size_t c) {
    if (!clips[c].morphTracks.empty()) return true;
    return c < bindings.size() && !bindings[c].otherSkeleton && bindings[c].matched() > 0;
  };
  if (!scene.actions.empty())
    for (std::size_t c = 0; c < clips.size(); ++c)
      if (clips[c].sourceFrames && fits(c)) return static_cast<int>(c);
  int best = -1;
  for (std::size_t c = 0; c < clips.size(); ++c)
    if (!clips[c].sourceFrames && clips[c].duration > 0.0f && fits(c) &&
        (best < 0 || clips[c].duration < clips[static_cast<std::size_t>(best)].duration))
      best = static_cast<int>(c);
  return best >= 0 ? best : clips.empty() ? -1 : 0;
}

void Player::setScene(std::shared_ptr<const formats::Scene> scene) {
  scene_ = std::move(scene);
  bindings_.clear();
  if (scene_)
    for (const auto& c : scene_->clips) bindings_.push_back(anim::bind(c, scene_->skeleton));
  clip_ = scene_ ? openingClip(*scene_, bindings_) : -1;
  playhead_ = 0.0;
  playing_ = false;
  cache_.reset();
  updateMismatch();
  followClipLooping();
  dirty_ = true;
}

int Player::clipCount() const { return scene_ ? static_cast<int>(scene_->clips.size()) : 0; }

void Player::setClip(int index) {
  clip_ = index >= 0 && index < clipCount() ? index : -1;
  playhead_ = 0.0;
  cache_.reset();
  updateMismatch();
  followClipLooping();
  dirty_ = true;
}

void Player::followClipLooping() {
  const formats::Clip* c = clip();
  if (modeChosen_ || !c || !c->loops) return;
  applyMode(*c->loops ? anim::PlayMode::Loop : anim::PlayMode::Once);
}

void Player::updateMismatch() {
  mismatch_.clear();
  const formats::Clip* c = clip();
  if (!c || c->tracks.empty()) return;
  const auto& skeleton = scene_->skeleton;
  const bool other = bindings_[static_cast<std::size_t>(clip_)].otherSkeleton;
  // A clip made for a named skeleton drives it bone by bone, so a skeleton of that name with
  // another bone count is no better than another skeleton.
  // (Unless every track names a bone of it: then it plays, as anim::bind says.)
  const auto& binding = bindings_[static_cast<std::size_t>(clip_)];
  const bool count = !c->skeleton.empty() && c->tracks.size() != skeleton.bones.size() &&
                     binding.matched() != c->tracks.size();
  if (!other && !count && !skeleton.bones.empty()) return;
  const std::string tracks = std::to_string(c->tracks.size()) + " bones";
  // BRF names an animation's skeleton "(N bones)" when no open skeleton has its bone count.
  const bool named = !c->skeleton.empty() && c->skeleton.front() != '(';
  const std::string made = named ? c->skeleton + " (" + tracks + ")" : "a skeleton of " + tracks;
  const std::string model = skeleton.bones.empty()
                                ? "the model has no skeleton"
                                : "the model's skeleton is " + skeleton.name + " (" +
                                      std::to_string(skeleton.bones.size()) + " bones)";
  mismatch_ = "animation '" + c->name + "' is for " + made + "; " + model;
}

const formats::Clip* Player::clip() const { return clip_ >= 0 ? &scene_->clips[clip_] : nullptr; }

const anim::Binding* Player::binding() const {
  return clip_ >= 0 ? &bindings_[static_cast<std::size_t>(clip_)] : nullptr;
}

void Player::play() {
  if (!clip() || !(duration() > 0.0)) return;  // nothing to play through
  // Once mode at its end starts again from the beginning, as every media player does.
  if (mode_ == anim::PlayMode::Once && time() >= duration()) setTime(0.0);
  playing_ = true;
}

void Player::togglePlay() { playing_ ? pause() : play(); }

void Player::stop() {
  playing_ = false;
  setTime(0.0);
}

void Player::setMode(anim::PlayMode m) {
  modeChosen_ = true;
  applyMode(m);
}

void Player::applyMode(anim::PlayMode m) {
  if (m == mode_) return;
  const double t = time();
  mode_ = m;
  playhead_ = t;  // the same moment of the clip, now running forwards
  dirty_ = true;  // looping changes how a cyclic clip ends
}

void Player::setSpeed(double s) { speed_ = std::clamp(s, 0.1, 4.0); }

double Player::duration() const { return clip() ? clip()->duration : 0.0; }

double Player::time() const {
  return anim::clipTime(static_cast<float>(playhead_), static_cast<float>(duration()), mode_);
}

void Player::setTime(double seconds) {
  const double d = duration();
  const double t = std::clamp(seconds, 0.0, d);
  // Ping-pong on its way back stays on its way back.
  playhead_ = mode_ == anim::PlayMode::PingPong && playhead_ > d ? 2.0 * d - t : t;
  if (playhead_ >= 2.0 * d) playhead_ = 0.0;
  dirty_ = true;
}

void Player::advance(double dt) {
  if (!playing_ || !clip()) return;
  const double d = duration();
  if (!(d > 0.0)) return;
  playhead_ += dt * speed_;
  switch (mode_) {
    case anim::PlayMode::Once:
      if (playhead_ >= d) {
        playhead_ = d;
        playing_ = false;
      }
      break;
    case anim::PlayMode::Loop: playhead_ = std::fmod(playhead_, d); break;
    case anim::PlayMode::PingPong: playhead_ = std::fmod(playhead_, 2.0 * d); break;
  }
  // No dirty_: pose() samples again when the sample time moved (once per frame when stepped).
}

double Player::frameRate() const {
  return clip() && clip()->frameRate > 0.0f ? clip()->frameRate : 30.0;
}

void Player::setStepped(bool stepped) {
  if (stepped == stepped_) return;
  stepped_ = stepped;
  dirty_ = true;
}

namespace {
// A time a whole frame was set to (setFrame: f / rate) lands on that frame despite rounding.
constexpr double kFrameSlack = 1e-6;
}  // namespace

double Player::sampleTime() const {
  const double t = time();
  if (!stepped_) return t;
  const double rate = frameRate();
  return std::min(std::floor(t * rate + kFrameSlack) / rate, duration());
}

int Player::frame() const {
  const double f = time() * frameRate();
  return static_cast<int>(stepped_ ? std::floor(f + kFrameSlack) : std::lround(f));
}

int Player::frameCount() const {
  return clip() ? static_cast<int>(std::lround(duration() * frameRate())) + 1 : 0;
}

void Player::setFrame(int f) {
  setTime(std::clamp(f, 0, std::max(frameCount() - 1, 0)) / frameRate());
}

int sourceFrameIndex(int first, int last, int frame, int frames) {
  if (frames <= 0) return first;
  const double along = std::clamp(static_cast<double>(frame) / frames, 0.0, 1.0);
  return first + static_cast<int>(std::lround(along * (static_cast<double>(last) - first)));
}

int Player::fileFrameOf(int f) const {
  const formats::Clip* c = clip();
  if (!c || !c->sourceFrames) return f;
  return sourceFrameIndex(c->sourceFrames->first, c->sourceFrames->last, f, frameCount() - 1);
}

void Player::stepFrames(int delta) {
  playing_ = false;
  setFrame(frame() + delta);
}

const anim::Pose& Player::pose() {
  if (!scene_) return pose_;
  const double t = sampleTime();
  // Stepped playback samples again only when a new frame begins.
  if (dirty_ || t != posedAt_ || pose_.local.size() != scene_->skeleton.bones.size()) {
    evaluate(t, pose_, &cache_);
    dirty_ = false;
    posedAt_ = t;
  }
  return pose_;
}

anim::Pose Player::poseAt(double seconds) const {
  anim::Pose p;
  if (scene_) evaluate(seconds, p, nullptr);
  return p;
}

void Player::evaluate(double seconds, anim::Pose& out, anim::SamplingCache* cache) const {
  anim::resetToRest(scene_->skeleton, out);
  if (const auto* c = clip(); c && mismatch_.empty())
    anim::sample(*c, bindings_[static_cast<std::size_t>(clip_)], scene_->skeleton,
                 static_cast<float>(seconds), out, cache, mode_ == anim::PlayMode::Loop);
  anim::computeModel(scene_->skeleton, out);
}

bool Player::animatesMorphs() const {
  const auto* c = clip();
  return c && !c->morphTracks.empty();
}

std::vector<std::vector<float>> Player::morphWeights(std::vector<std::vector<float>> base) const {
  const auto* c = clip();
  if (!scene_ || !c || c->morphTracks.empty()) return base;
  anim::sampleMorphWeights(*c, static_cast<float>(sampleTime()), std::span(scene_->meshes), base);
  return base;
}

std::string poseAsText(const formats::Skeleton& skeleton, const anim::Pose& pose) {
  std::string out = "bone\tparent";
  for (const char* which : {"local", "model"})
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) {
        char name[24];
        std::snprintf(name, sizeof name, "\t%s[%d][%d]", which, c, r);
        out += name;
      }
  out += '\n';
  const std::size_t n = std::min({skeleton.bones.size(), pose.local.size(), pose.model.size()});
  for (std::size_t i = 0; i < n; ++i) {
    const auto& b = skeleton.bones[i];
    out += b.name;
    out += '\t';
    if (b.parent >= 0) out += skeleton.bones[static_cast<std::size_t>(b.parent)].name;
    for (const glm::mat4& m : {pose.local[i].matrix(), pose.model[i]})
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
          char v[32];
          std::snprintf(v, sizeof v, "\t%.9g", static_cast<double>(m[c][r]));
          out += v;
        }
    out += '\n';
  }
  return out;
}

}  // namespace marrow::app
