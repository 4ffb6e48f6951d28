// Clips as animations: bone tracks as translation / rotation / scale channels of the joint
// nodes, morph weight tracks as the weights channel of the mesh nodes (§5.6).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "formats/gltf/gltf_internal.h"

namespace marrow::formats::gltf {
namespace {

// Keys as glTF accepts them (§5.6.2.1: times >= 0 and strictly increasing). A clip that wraps to
// its first key (a cal3d cycle) gets that key again at its duration, which is how it plays
// looped; glTF has no such rule.
template <class T>
Channel<T> cleanKeys(const Channel<T>& ch, const Clip& clip, std::size_t& repaired) {
  Channel<T> out;
  out.interpolation = ch.interpolation;
  for (std::size_t k = 0; k < ch.size() && k < ch.values.size(); ++k) {
    float t = ch.times[k];
    if (!(t >= 0.0f)) {
      ++repaired;
      t = 0.0f;
    }
    if (!out.times.empty() && t <= out.times.back()) {
      ++repaired;
      continue;
    }
    out.add(t, ch.values[k]);
  }
  if (clip.wrapsToFirstKey && !out.empty() && clip.duration > out.times.back())
    out.add(clip.duration, out.values.front());
  return out;
}

// The channel's value at `t`, as render/anim samples weights: hold outside the keys, step or lerp.
float valueAt(const Channel<float>& ch, float t) {
  if (ch.empty()) return 0.0f;
  if (t <= ch.times.front()) return ch.values.front();
  if (t >= ch.times.back()) return ch.values.back();
  const auto k = static_cast<std::size_t>(
      std::upper_bound(ch.times.begin(), ch.times.end(), t) - ch.times.begin() - 1);
  if (ch.interpolation == Interpolation::Step) return ch.values[k];
  const float f = (t - ch.times[k]) / (ch.times[k + 1] - ch.times[k]);
  return ch.values[k] + (ch.values[k + 1] - ch.values[k]) * f;
}

class AnimationBuilder {
 public:
  AnimationBuilder(Document& doc) : doc_(doc) {}  // NOLINT

  void add(int node, const char* path, const std::vector<float>& times,
           const std::vector<float>& values, int components, Interpolation interpolation) {
    if (times.empty()) return;
    auto cached = inputs_.find(times);
    const int input = cached != inputs_.end() ? cached->second : doc_.scalars(times, true);
    inputs_[times] = input;
    Json sampler = Json::object();
    sampler.set("input", input).set("output", doc_.floats(values, components, kNoTarget, false));
    sampler.set("interpolation", interpolation == Interpolation::Step ? "STEP" : "LINEAR");
    const std::size_t s = samplers_.push(std::move(sampler));
    Json target = Json::object();
    target.set("node", node).set("path", path);
    Json channel = Json::object();
    channel.set("sampler", s).set("target", std::move(target));
    channels_.push(std::move(channel));
  }
  bool empty() const { return channels_.empty(); }
  Json finish(const std::string& name) {
    Json a = Json::object();
    a.set("name", name).set("channels", std::move(channels_)).set("samplers", std::move(samplers_));
    return a;
  }

 private:
  Document& doc_;
  Json channels_ = Json::array(), samplers_ = Json::array();
  std::map<std::vector<float>, int> inputs_;
};

template <class T>
std::vector<float> flat(const std::vector<T>& values) {
  std::vector<float> out;
  for (const auto& v : values)
    for (int c = 0; c < T::length(); ++c) out.push_back(v[c]);
  return out;
}

void addBoneTracks(AnimationBuilder& a, const Clip& clip, const Skeleton& sk, const NodeMap& map,
                   std::size_t& repaired) {
  std::set<int> animated;
  for (const Track& track : clip.tracks) {
    const int bone = sk.find(track.bone);
    if (bone < 0 || !animated.insert(bone).second) continue;
    const int node = map.boneNode[bone];
    const auto t = cleanKeys(track.translation, clip, repaired);
    a.add(node, "translation", t.times, flat(t.values), 3, t.interpolation);
    auto r = cleanKeys(track.rotation, clip, repaired);
    std::vector<float> q;
    glm::quat previous(1.0f, 0.0f, 0.0f, 0.0f);
    for (std::size_t k = 0; k < r.size(); ++k) {
      glm::quat v = glm::normalize(r.values[k]);
      if (!std::isfinite(v.w)) v = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
      if (k > 0 && glm::dot(v, previous) < 0.0f) v = -v;  // the same rotation, the short way
      previous = v;
      q.insert(q.end(), {v.x, v.y, v.z, v.w});  // glTF order: x, y, z, w
    }
    a.add(node, "rotation", r.times, q, 4, r.interpolation);
    const auto s = cleanKeys(track.scale, clip, repaired);
    a.add(node, "scale", s.times, flat(s.values), 3, s.interpolation);
  }
}

// Every mesh named by a morph track gets one weights channel for all its targets, sampled at the
// union of its tracks' key times (exact for linear and for step-only sets of tracks).
void addMorphTracks(AnimationBuilder& a, const Clip& clip, const Scene& scene, const NodeMap& map,
                    std::size_t& repaired, std::size_t& mixed) {
  for (std::size_t i = 0; i < scene.meshes.size(); ++i) {
    if (map.meshNodes[i].empty() || map.targetNames[i].empty()) continue;
    const auto& names = map.targetNames[i];
    std::vector<Channel<float>> perTarget(names.size());
    bool any = false, step = true;
    for (const MorphTrack& mt : clip.morphTracks) {
      if (mt.mesh != scene.meshes[i].name) continue;
      const auto at = std::find(names.begin(), names.end(), mt.target);
      if (at == names.end() || mt.weight.empty()) continue;
      perTarget[at - names.begin()] = cleanKeys(mt.weight, clip, repaired);
      any = true;
      step &= mt.weight.interpolation == Interpolation::Step;
    }
    if (!any) continue;
    std::vector<float> times;
    for (const auto& ch : perTarget) times.insert(times.end(), ch.times.begin(), ch.times.end());
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    bool stepInLinear = false;
    std::vector<float> weights;
    for (float t : times)
      for (const auto& ch : perTarget) {
        weights.push_back(valueAt(ch, t));
        stepInLinear |= !step && ch.interpolation == Interpolation::Step && !ch.empty();
      }
    if (stepInLinear) ++mixed;
    a.add(map.meshNodes[i].front(), "weights", times, weights, 1,
          step ? Interpolation::Step : Interpolation::Linear);
  }
}

}  // namespace

void addAnimations(Document& doc, const Scene& scene, const NodeMap& map) {
  const Skeleton& sk = scene.skeleton;
  for (const Clip& clip : scene.clips) {
    const std::string field = "clip '" + clip.name + "'";
    // The same rule as anim::bind: a clip made for another skeleton plays nothing on this one.
    if (!clip.skeleton.empty() && !sk.name.empty() && clip.skeleton != sk.name) {
      doc.warn(field, "is for the skeleton '" + clip.skeleton + "', not '" + sk.name +
                          "': not written");
      continue;
    }
    AnimationBuilder a(doc);
    std::size_t repaired = 0, mixed = 0;
    addBoneTracks(a, clip, sk, map, repaired);
    addMorphTracks(a, clip, scene, map, repaired, mixed);
    if (repaired)
      doc.warn(field, std::to_string(repaired) +
                          " keys at negative or repeated times: moved to 0 or left out");
    if (mixed)
      doc.warn(field, "step and linear morph weights on one mesh: written linear, the step "
                      "weights change between keys");
    if (a.empty()) {
      doc.warn(field, "animates no bone and no morph target of the model: not written");
      continue;
    }
    doc.animations.push(a.finish(clip.name));
  }
}

}  // namespace marrow::formats::gltf
