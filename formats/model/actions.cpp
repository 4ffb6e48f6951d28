#include "formats/model/actions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <glm/gtc/quaternion.hpp>

#include "formats/model/sample.h"

namespace marrow::formats {

namespace {

// The frame index of a key time, clamped to ±(kMaxFrameIndex + 1).
std::int32_t indexOf(float time, float fps) {
  const double i = std::round(static_cast<double>(time) * fps);
  constexpr double bound = static_cast<double>(kMaxFrameIndex) + 1.0;
  return static_cast<std::int32_t>(std::isfinite(i) ? std::clamp(i, -bound, bound) : 0.0);
}

template <class T>
Channel<T> cutChannel(const Channel<T>& c, std::int32_t begin, std::int32_t end, float fps, float duration) {
  Channel<T> out;
  out.interpolation = c.interpolation;
  if (c.empty()) return out;
  const std::int32_t lo = std::min(begin, end), hi = std::max(begin, end);
  // (frame index, value): the ends sampled, the keys strictly inside kept.
  std::vector<std::pair<std::int32_t, T>> keys;
  keys.emplace_back(lo, sampleAt(c, static_cast<float>(lo) / fps));
  for (std::size_t k = 0; k < c.size(); ++k) {
    const std::int32_t i = indexOf(c.times[k], fps);
    if (i > lo && i < hi) keys.emplace_back(i, c.values[k]);
  }
  if (hi > lo) keys.emplace_back(hi, sampleAt(c, static_cast<float>(hi) / fps));
  if (begin > end) std::reverse(keys.begin(), keys.end());
  const float span = static_cast<float>(hi - lo);
  for (const auto& [i, v] : keys) {
    const float along = span > 0.0f ? static_cast<float>(std::abs(i - begin)) / span : 0.0f;
    const float t = along * duration;
    if (!out.empty() && !(t > out.times.back())) continue;  // keys closer than a float tells apart
    out.add(t, v);
  }
  return out;
}

// Every frame index some key of the clip sits at, in order.
std::vector<std::int32_t> keyIndices(const Clip& clip) {
  std::set<std::int32_t> all;
  for (const Track& t : clip.tracks) {
    for (float time : t.rotation.times) all.insert(indexOf(time, clip.frameRate));
    for (float time : t.translation.times) all.insert(indexOf(time, clip.frameRate));
    for (float time : t.scale.times) all.insert(indexOf(time, clip.frameRate));
  }
  return {all.begin(), all.end()};
}

}  // namespace

Clip cutClip(const Clip& source, std::int32_t begin, std::int32_t end, float duration, std::string name) {
  const float fps = source.frameRate > 0.0f && std::isfinite(source.frameRate) ? source.frameRate : 30.0f;
  begin = std::clamp(begin, -kMaxFrameIndex, kMaxFrameIndex);
  end = std::clamp(end, -kMaxFrameIndex, kMaxFrameIndex);
  const std::int32_t frames = std::abs(end - begin);  // at most 2^25
  // No duration, or one too short to play (a millisecond): the frames at the source's rate.
  if (!(duration >= 1e-3f) || !std::isfinite(duration)) duration = static_cast<float>(frames) / fps;
  Clip out;
  out.name = std::move(name);
  out.duration = duration;
  out.frameRate = frames > 0 && duration > 0.0f ? static_cast<float>(frames) / duration : fps;
  out.skeleton = source.skeleton;
  out.sourceFrames = Clip::FrameSpan{begin, end};
  out.tracks.reserve(source.tracks.size());
  for (const Track& t : source.tracks) {
    Track cut;
    cut.bone = t.bone;
    cut.sourceIndex = t.sourceIndex;
    cut.rotation = cutChannel(t.rotation, begin, end, fps, duration);
    cut.translation = cutChannel(t.translation, begin, end, fps, duration);
    cut.scale = cutChannel(t.scale, begin, end, fps, duration);
    out.tracks.push_back(std::move(cut));
  }
  return out;
}

void cutClips(Scene& scene) {
  std::map<std::string, std::size_t> byName;  // the frame-indexed clips, by name
  std::set<std::string> names;
  for (std::size_t c = 0; c < scene.clips.size(); ++c) {
    names.insert(scene.clips[c].name);
    if (scene.clips[c].frameIndexed) byName.emplace(scene.clips[c].name, c);
  }
  std::vector<Clip> made;
  std::uint64_t keys = 0;
  bool full = false;
  // Adds a cut clip while the key budget lasts.
  const auto keep = [&](Clip c) {
    if (full) return false;
    const std::uint64_t n = c.keyCount();
    if (keys + n > kMaxCutKeys) {
      full = true;
      scene.diagnostics.warn("", "actions", kNoOffset,
                             "the clips cut so far hold " + std::to_string(keys) + " keys; the rest (from '" + c.name +
                                 "' on) are not made: more than " + std::to_string(kMaxCutKeys) + " keys in all");
      return false;
    }
    keys += n;
    made.push_back(std::move(c));
    return true;
  };
  if (!scene.actions.empty()) {
    std::size_t cut = 0, missing = 0;
    std::set<std::string> missingNames;
    for (Action& a : scene.actions)
      for (std::size_t k = 0; k < a.sequences.size(); ++k) {
        ActionSequence& s = a.sequences[k];
        if (!s.clip.empty()) continue;  // cut already (a model combined twice)
        const auto it = byName.find(s.animation);
        if (it == byName.end()) {
          ++missing;
          if (missingNames.size() < 5) missingNames.insert(s.animation);
          continue;
        }
        std::string name = a.sequences.size() == 1 ? a.name : a.name + ":" + std::to_string(k + 1);
        if (names.count(name)) name += " (action)";
        if (full) continue;
        Clip c = cutClip(scene.clips[it->second], s.begin, s.end, s.duration, name);
        c.loops = (s.flags & kActionCyclic) != 0;
        c.group = s.animation;
        if (!keep(std::move(c))) continue;
        s.clip = name;
        names.insert(name);
        ++cut;
      }
    if (missing) {
      std::string list;
      for (const auto& n : missingNames) list += (list.empty() ? "'" : ", '") + n + "'";
      scene.diagnostics.info("", "actions", kNoOffset,
                             std::to_string(missing) + " of " + std::to_string(missing + cut) +
                                 " action sequences play animations that are not open (" + list +
                                 (missingNames.size() < missing ? ", …" : "") + "): no clip for them");
    }
  } else {
    for (const auto& [animation, c] : byName) {
      const Clip& whole = scene.clips[c];
      const auto indices = keyIndices(whole);
      std::vector<std::pair<std::int32_t, std::int32_t>> spans;
      for (std::size_t i = 0; i < indices.size(); ++i) {
        if (i == 0 || indices[i] - indices[i - 1] > kSplitGap) spans.emplace_back(indices[i], indices[i]);
        else spans.back().second = indices[i];
      }
      if (spans.size() < 2) continue;
      for (const auto& [first, last] : spans) {
        std::string name = animation + ":" + std::to_string(first) + "-" + std::to_string(last);
        if (names.count(name)) continue;
        if (full) break;
        Clip part = cutClip(whole, first, last, 0.0f, name);
        part.group = animation;
        if (keep(std::move(part))) names.insert(name);
      }
    }
  }
  for (Clip& c : made) scene.clips.push_back(std::move(c));
}

}  // namespace marrow::formats
