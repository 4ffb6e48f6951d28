// Clips as animations: bone tracks as translation / rotation / scale channels of the joint
// nodes, morph weight tracks as the weights channel of the mesh nodes (§5.6).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <type_traits>

#include <glm/gtc/quaternion.hpp>

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
  std::size_t size() const { return channels_.size(); }
  Json finish(const std::string& name, float frameRate) {
    Json a = Json::object();
    a.set("name", name).set("channels", std::move(channels_)).set("samplers", std::move(samplers_));
    // The rate the clip was authored at, which keys put in between would hide from the spacing of
    // its keys; Marrow's reader takes it (any other reader ignores extras).
    if (frameRate > 0.0f && std::isfinite(frameRate)) a.set("extras", Json::object().set("frameRate", frameRate));
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

// Rotation keys far apart are interpolated by slerp here (§3.11.2: spherical linear), but
// importers that keep rotations as four curves (Blender's quaternion f-curves) interpolate each
// component and normalise. Keys are put in between on the slerp until the two agree within
// `maxTurn` radians of rotation: the normalised lerp's largest error on keys half an angle φ
// apart is 0.0321·φ³ for small φ, at most 0.037·φ³ up to φ = π/2 (the short way); 0.04 bounds it.
std::size_t segmentsFor(const glm::quat& a, const glm::quat& b, float maxTurn) {
  const float half = std::acos(std::clamp(std::fabs(glm::dot(a, b)), 0.0f, 1.0f));
  if (!(half > 0.0f)) return 1;
  const float step = std::cbrt(maxTurn / 0.04f);
  const float n = std::ceil(half / step);  // +inf when step underflows to 0
  return n < 256.0f ? static_cast<std::size_t>(n) : 256;
}

// One rotation channel as glTF's values (x, y, z, w, each key the short way from the one
// before), with keys put in between where `maxTurn` asks for them while `added`, which counts
// them, is under `budget`.
void rotationKeys(const Channel<glm::quat>& r, float maxTurn, std::vector<float>& times,
                  std::vector<float>& q, std::size_t& added, std::size_t budget) {
  glm::quat previous(1.0f, 0.0f, 0.0f, 0.0f);
  const auto put = [&](float t, glm::quat v) {
    times.push_back(t);
    q.insert(q.end(), {v.x, v.y, v.z, v.w});  // glTF order: x, y, z, w
  };
  for (std::size_t k = 0; k < r.size(); ++k) {
    glm::quat v = glm::normalize(r.values[k]);
    if (!std::isfinite(v.w)) v = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    if (k > 0 && glm::dot(v, previous) < 0.0f) v = -v;  // the same rotation, the short way
    if (k > 0 && r.interpolation == Interpolation::Linear && added < budget) {
      const std::size_t n = segmentsFor(previous, v, maxTurn);
      const float t0 = r.times[k - 1], t1 = r.times[k];
      for (std::size_t i = 1; i < n; ++i) {
        const float f = static_cast<float>(i) / static_cast<float>(n);
        const float t = t0 + (t1 - t0) * f;
        if (!(t > times.back()) || !(t < t1)) continue;  // keys too close in time to part
        put(t, glm::normalize(glm::slerp(previous, v, f)));
        ++added;
      }
    }
    previous = v;
    put(r.times[k], v);
  }
}

// What the writer may add to the model's own keys, in proportion to them, so that a file of many
// small clips on many bones cannot make an output out of all proportion to it.
struct Budget {
  std::size_t held = 0;      // held channels left
  std::size_t inserted = 0;  // rotation keys that may be put in between, in all
  bool heldCut = false, insertedCut = false;
};

// Every joint gets a channel of each kind in every animation: what the clip does not key holds
// the rest pose, which is what it plays here. Importers that keep a pose between actions
// (Blender) would otherwise show the bone as the last action left it. Returns whether the clip
// keys any bone.
bool addBoneTracks(AnimationBuilder& a, const Clip& clip, const Skeleton& sk, const NodeMap& map,
                   float maxTurn, std::size_t& repaired, std::size_t& added, Budget& budget) {
  std::vector<const Track*> trackOf(sk.bones.size(), nullptr);
  bool keyed = false;
  for (const Track& track : clip.tracks) {
    const int bone = sk.find(track.bone);
    if (bone < 0 || trackOf[static_cast<std::size_t>(bone)]) continue;
    trackOf[static_cast<std::size_t>(bone)] = &track;
    keyed = keyed || !track.translation.empty() || !track.rotation.empty() || !track.scale.empty();
  }
  if (!keyed && clip.morphTracks.empty()) return false;
  // Held values span the clip, so that its length is kept whatever its keys cover.
  std::vector<float> held{0.0f};
  if (clip.duration > 0.0f && std::isfinite(clip.duration)) held.push_back(clip.duration);
  const auto hold = [&](int node, const char* path, const auto& value) {
    if (budget.held == 0) {
      budget.heldCut = true;
      return;
    }
    --budget.held;
    std::vector<float> values;
    for (std::size_t k = 0; k < held.size(); ++k)
      for (int c = 0; c < std::remove_cvref_t<decltype(value)>::length(); ++c) values.push_back(value[c]);
    a.add(node, path, held, values, std::remove_cvref_t<decltype(value)>::length(), Interpolation::Linear);
  };
  for (std::size_t bone = 0; bone < sk.bones.size() && bone < map.boneNode.size(); ++bone) {
    const int node = map.boneNode[bone];
    const Bone& rest = sk.bones[bone];
    const Track* track = trackOf[bone];
    if (track && !track->translation.empty()) {
      const auto t = cleanKeys(track->translation, clip, repaired);
      a.add(node, "translation", t.times, flat(t.values), 3, t.interpolation);
    } else {
      hold(node, "translation", rest.translation);
    }
    if (track && !track->rotation.empty()) {
      std::vector<float> times, q;
      rotationKeys(cleanKeys(track->rotation, clip, repaired), maxTurn, times, q, added, budget.inserted);
      budget.insertedCut = budget.insertedCut || added >= budget.inserted;
      a.add(node, "rotation", times, q, 4, track->rotation.interpolation);
    } else {
      glm::quat r = glm::normalize(rest.rotation);
      if (!std::isfinite(r.w)) r = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
      hold(node, "rotation", glm::vec4(r.x, r.y, r.z, r.w));
    }
    if (track && !track->scale.empty()) {
      const auto s = cleanKeys(track->scale, clip, repaired);
      a.add(node, "scale", s.times, flat(s.values), 3, s.interpolation);
    } else {
      hold(node, "scale", rest.scale);
    }
  }
  return keyed;
}

// The largest rotation error in between keys that keeps every vertex within 1e-4 of the model's
// size (its meshes' extent at rest): an error of e radians at a bone moves what hangs below it by
// at most e × the reach (the extent of the meshes and the bones together: a skeleton may be larger
// than the armour it carries), and the errors along a chain of bones add up.
float maxTurnFor(const Scene& scene) {
  const Skeleton& sk = scene.skeleton;
  std::vector<int> depth(sk.bones.size(), 1);
  int deepest = 1;
  for (std::size_t b = 0; b < sk.bones.size(); ++b) {
    const int p = sk.bones[b].parent;
    if (p >= 0 && static_cast<std::size_t>(p) < b) depth[b] = depth[static_cast<std::size_t>(p)] + 1;
    deepest = std::max(deepest, depth[b]);
  }
  glm::vec3 lo, hi;
  const bool meshes = restBounds(scene, lo, hi);
  const float size = meshes ? glm::length(hi - lo) : 0.0f;
  bool any = meshes;
  for (const glm::mat4& m : sk.restModelMatrices()) {
    const glm::vec3 at(m[3]);
    if (!std::isfinite(at.x) || !std::isfinite(at.y) || !std::isfinite(at.z)) continue;
    if (!any) lo = hi = at;
    any = true;
    lo = glm::min(lo, at);
    hi = glm::max(hi, at);
  }
  const float reach = any ? glm::length(hi - lo) : 0.0f;
  const float ratio = size > 0.0f && std::isfinite(size) && reach > size && std::isfinite(reach) ? size / reach : 1.0f;
  return 1e-4f * ratio / static_cast<float>(deepest);
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
    const std::vector<float>& scale = map.targetScale[i];
    for (float t : times)
      for (std::size_t k = 0; k < perTarget.size(); ++k) {
        const auto& ch = perTarget[k];
        weights.push_back(valueAt(ch, t) / (k < scale.size() ? scale[k] : 1.0f));
        stepInLinear |= !step && ch.interpolation == Interpolation::Step && !ch.empty();
      }
    if (stepInLinear) ++mixed;
    a.add(map.meshNodes[i].front(), "weights", times, weights, 1,
          step ? Interpolation::Step : Interpolation::Linear);
  }
}

}  // namespace

std::vector<std::vector<float>> morphScales(const Scene& scene, Diagnostics& diagnostics) {
  const auto number = [](float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    return std::string(buf);
  };
  std::map<std::pair<std::string, std::string>, std::pair<float, float>> range;  // lowest, highest
  for (const Clip& clip : scene.clips)
    for (const MorphTrack& mt : clip.morphTracks) {
      auto [it, fresh] = range.try_emplace({mt.mesh, mt.target}, 0.0f, 0.0f);
      for (const float w : mt.weight.values)
        if (std::isfinite(w)) it->second = {std::min(it->second.first, w), std::max(it->second.second, w)};
    }
  std::vector<std::vector<float>> out(scene.meshes.size());
  for (std::size_t i = 0; i < scene.meshes.size(); ++i) {
    const Mesh& m = scene.meshes[i];
    out[i].assign(m.morphs.size(), 1.0f);
    for (std::size_t t = 0; t < m.morphs.size(); ++t) {
      const auto it = range.find({m.name, m.morphs[t].name});
      if (it == range.end()) continue;
      const auto [lo, hi] = it->second;
      const std::string field = "mesh '" + m.name + "' target '" + m.morphs[t].name + "'";
      if (lo < 0.0f && hi > 0.0f) {
        if (std::max(-lo, hi) > 1.0f) out[i][t] = std::max(-lo, hi);
        diagnostics.warn(kFile, field, kNoOffset,
                         "is driven both ways (weights " + number(lo) + " to " + number(hi) +
                             "); importers that keep weights within [0, 1] (Blender's sliders) cut the negative side");
      } else if (hi > 1.0f || lo < 0.0f) {
        // All of one sign: the target is scaled by the weight of largest size (negated for
        // negative weights), and the weights written divided by it, so that they lie in [0, 1].
        out[i][t] = hi > 1.0f ? hi : lo;
        diagnostics.info(kFile, field,
                         kNoOffset, "weights reach " + number(hi > 1.0f ? hi : lo) +
                                        ": the target is written scaled by that and its weights divided by it, within [0, 1]");
      }
    }
  }
  return out;
}

void addAnimations(Document& doc, const Scene& scene, const NodeMap& map) {
  const Skeleton& sk = scene.skeleton;
  const float maxTurn = maxTurnFor(scene);
  std::size_t added = 0, keys = 0;
  for (const Clip& clip : scene.clips) keys += clip.keyCount();
  Budget budget;
  budget.held = std::max<std::size_t>(std::size_t{1} << 16, 4 * keys);
  budget.inserted = std::max<std::size_t>(std::size_t{1} << 16, 8 * keys);
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
    const bool keyed = addBoneTracks(a, clip, sk, map, maxTurn, repaired, added, budget);
    const std::size_t bones = a.size();
    addMorphTracks(a, clip, scene, map, repaired, mixed);
    if (repaired)
      doc.warn(field, std::to_string(repaired) +
                          " keys at negative or repeated times: moved to 0 or left out");
    if (mixed)
      doc.warn(field, "step and linear morph weights on one mesh: written linear, the step "
                      "weights change between keys");
    if (!keyed && a.size() == bones) {
      doc.warn(field, "animates no bone and no morph target of the model: not written");
      continue;
    }
    doc.animations.push(a.finish(clip.name, clip.frameRate));
  }
  if (budget.heldCut)
    doc.warn("animations", "more held rest channels than 4 per key of the model's clips: the later clips hold only "
                           "what they key (importers keep other bones as the clip before left them)");
  if (budget.insertedCut)
    doc.warn("animations", "more rotation keys in between than 8 per key of the model's clips: the rest are "
                           "written as they are (component-wise importers stray from the slerp there)");
  if (added)
    doc.info("animations", std::to_string(added) +
                               " rotation keys put in between keys far apart, so that importers that interpolate "
                               "quaternions component by component (Blender) play the slerp within 1e-4 of the "
                               "model's size");
}

}  // namespace marrow::formats::gltf
