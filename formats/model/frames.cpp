#include "formats/model/frames.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

namespace marrow::formats {

std::optional<NumberedName> numberedName(std::string_view name) {
  if (const auto slash = name.find_last_of("/\\:"); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  // The extension, when what follows the last dot is not all digits ("Plane.001" keeps it).
  if (const auto dot = name.rfind('.'); dot != std::string_view::npos && dot > 0) {
    const std::string_view ext = name.substr(dot + 1);
    if (!ext.empty() && !std::all_of(ext.begin(), ext.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      name = name.substr(0, dot);
  }
  std::size_t digits = 0;
  while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[name.size() - 1 - digits]))) ++digits;
  if (digits == 0 || digits > 15) return std::nullopt;
  NumberedName out;
  for (char c : name.substr(name.size() - digits)) out.number = out.number * 10 + (c - '0');
  name.remove_suffix(digits);
  if (!name.empty() && (name.back() == '_' || name.back() == '.' || name.back() == '-' || name.back() == ' '))
    name.remove_suffix(1);
  out.stem = std::string(name);
  return out;
}

std::vector<float> frameTimes(const std::vector<std::string>& names, float framesPerSecond) {
  const float fps = framesPerSecond > 0.0f ? framesPerSecond : 30.0f;
  std::vector<std::int64_t> numbers;
  for (const std::string& n : names) {
    const auto numbered = numberedName(n);
    if (!numbered || (!numbers.empty() && numbered->number <= numbers.back())) {
      numbers.clear();
      break;
    }
    numbers.push_back(numbered->number);
  }
  std::vector<float> times(names.size());
  for (std::size_t k = 0; k < names.size(); ++k)
    times[k] = static_cast<float>(numbers.empty() ? static_cast<std::int64_t>(k) : numbers[k] - numbers.front()) / fps;
  return times;
}

std::string frameTarget(std::size_t k) { return "frame " + std::to_string(k + 1); }

Clip frameClip(std::string name, const std::vector<float>& times, float framesPerSecond) {
  Clip clip;
  clip.name = std::move(name);
  clip.frameRate = framesPerSecond > 0.0f ? framesPerSecond : 30.0f;
  clip.duration = times.empty() ? 0.0f : std::max(0.0f, times.back());
  return clip;
}

void addFrameTracks(Clip& clip, const std::string& mesh, const std::vector<float>& times) {
  for (std::size_t k = 0; k < times.size(); ++k) {
    MorphTrack t;
    t.mesh = mesh;
    t.target = frameTarget(k);
    if (k > 0) t.weight.add(times[k - 1], 0.0f);
    t.weight.add(times[k], 1.0f);
    if (k + 1 < times.size()) t.weight.add(times[k + 1], 0.0f);
    clip.morphTracks.push_back(std::move(t));
  }
}

namespace {

// Why `frame` cannot be a shape of `first`, or nothing.
std::optional<std::string> differs(const Mesh& first, const Mesh& frame) {
  if (frame.vertexCount() != first.vertexCount() || frame.triangleCount() != first.triangleCount())
    return "has " + std::to_string(frame.vertexCount()) + " vertices and " + std::to_string(frame.triangleCount()) +
           " triangles, the first frame " + std::to_string(first.vertexCount()) + " and " +
           std::to_string(first.triangleCount()) + ": the frames of an animation are one mesh's shapes";
  if (frame.indices != first.indices)
    return "joins its vertices into other triangles than the first frame: the frames of an animation are one "
           "mesh's shapes";
  return std::nullopt;
}

MorphTarget targetOf(const Mesh& frame, std::size_t k) {
  MorphTarget t;
  t.name = frameTarget(k);
  t.positions = frame.positions;
  if (frame.normals.size() == frame.vertexCount()) t.normals = frame.normals;
  return t;
}

std::string seconds(float s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g s", static_cast<double>(s));
  return text;
}

}  // namespace

Result<Scene> joinFrames(std::vector<Scene> frames, const std::vector<std::string>& names, float framesPerSecond) {
  if (frames.empty()) return Scene{};
  if (frames.size() < 2) return std::move(frames.front());
  // In the order of their numbers (a shell lists flag_10 before flag_2), when all have one;
  // else as given.
  std::vector<std::size_t> order(frames.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::vector<std::int64_t> numbers;
  for (std::size_t k = 0; k < frames.size(); ++k)
    if (const auto n = k < names.size() ? numberedName(names[k]) : std::nullopt) numbers.push_back(n->number);
  const bool numbered = numbers.size() == frames.size();
  if (numbered)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return numbers[a] < numbers[b]; });
  std::vector<Scene> sorted;
  std::vector<std::string> sortedNames;
  for (std::size_t k : order) {
    sorted.push_back(std::move(frames[k]));
    sortedNames.push_back(k < names.size() ? names[k] : "frame " + std::to_string(k + 1));
  }
  frames = std::move(sorted);
  const auto nameOf = [&](std::size_t k) { return sortedNames[k]; };
  Scene out = std::move(frames.front());
  if (out.meshes.empty()) return FormatError{nameOf(0), "meshes", kNoOffset, "has no mesh to animate by frames"};
  const std::vector<float> times = frameTimes(sortedNames, framesPerSecond);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const Scene& f = k == 0 ? out : frames[k];
    if (f.meshes.size() != out.meshes.size())
      return FormatError{nameOf(k), "meshes", kNoOffset,
                         "has " + std::to_string(f.meshes.size()) + " meshes, the first frame " +
                             std::to_string(out.meshes.size()) + ": the frames of an animation have the same meshes"};
    for (std::size_t i = 0; i < f.meshes.size(); ++i)
      if (auto why = differs(out.meshes[i], f.meshes[i]))
        return FormatError{nameOf(k), "mesh '" + f.meshes[i].name + "'", kNoOffset, *why};
  }
  // The targets, then the frames' own warnings (their notes would say each thing once a frame).
  std::vector<std::vector<MorphTarget>> targets(out.meshes.size());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const Scene& f = k == 0 ? out : frames[k];
    for (std::size_t i = 0; i < f.meshes.size(); ++i) targets[i].push_back(targetOf(f.meshes[i], k));
    if (k > 0)
      for (const Diagnostic& d : frames[k].diagnostics.items)
        if (d.severity != Severity::Info) out.diagnostics.items.push_back(d);
  }
  const auto first = numberedName(nameOf(0));
  Clip clip = frameClip((first && !first->stem.empty() ? first->stem : "vertex animation") + " (frames)",
                        times, framesPerSecond);
  for (std::size_t i = 0; i < out.meshes.size(); ++i) {
    for (MorphTarget& t : targets[i]) out.meshes[i].morphs.push_back(std::move(t));
    addFrameTracks(clip, out.meshes[i].name, times);
  }
  out.clips.insert(out.clips.begin(), std::move(clip));
  if (!numbered)
    out.diagnostics.warn(nameOf(0), "frames", kNoOffset,
                         "not every file name ends in a frame number: the frames play in the order given, one each 1/" +
                             std::to_string(static_cast<int>(framesPerSecond)) + " s");
  out.diagnostics.info(nameOf(0), "frames", kNoOffset,
                       std::to_string(frames.size()) + " files joined as the frames of one vertex animation (" +
                           std::to_string(out.meshes.size()) + (out.meshes.size() == 1 ? " mesh, " : " meshes, ") +
                           seconds(times.back()) + ")");
  return out;
}

std::size_t joinNumberedMeshes(Scene& scene, float framesPerSecond) {
  // Per stem, the meshes in number order.
  std::map<std::string, std::vector<std::pair<std::int64_t, std::size_t>>> stems;
  for (std::size_t i = 0; i < scene.meshes.size(); ++i)
    if (auto n = numberedName(scene.meshes[i].name)) stems[n->stem].push_back({n->number, i});
  std::vector<bool> drop(scene.meshes.size(), false);
  std::size_t made = 0;
  for (auto& entry : stems) {
    // Named, not bound: clang 14 refuses lambdas that capture structured bindings.
    const std::string& stem = entry.first;
    auto& members = entry.second;
    if (members.size() < 2) continue;
    std::stable_sort(members.begin(), members.end());
    Mesh& first = scene.meshes[members.front().second];
    std::optional<std::string> why;
    for (std::size_t k = 1; k < members.size() && !why; ++k)
      if ((why = differs(first, scene.meshes[members[k].second])))
        *why = "mesh '" + scene.meshes[members[k].second].name + "' " + *why;
    if (why) {
      scene.diagnostics.warn("", "frames '" + stem + "'", kNoOffset, *why + "; its meshes were not joined");
      continue;
    }
    std::vector<std::string> names;
    for (const auto& m : members) names.push_back(scene.meshes[m.second].name);
    const std::vector<float> times = frameTimes(names, framesPerSecond);
    for (std::size_t k = 0; k < members.size(); ++k) {
      first.morphs.push_back(targetOf(scene.meshes[members[k].second], k));
      if (k > 0) drop[members[k].second] = true;
    }
    const bool taken = !stem.empty() && std::any_of(scene.meshes.begin(), scene.meshes.end(),
                                                    [&](const Mesh& m) { return m.name == stem; });
    if (!stem.empty() && !taken) first.name = stem;
    Clip clip = frameClip(first.name + " (frames)", times, framesPerSecond);
    addFrameTracks(clip, first.name, times);
    scene.clips.push_back(std::move(clip));
    scene.diagnostics.info("", "frames '" + first.name + "'", kNoOffset,
                           std::to_string(members.size()) + " meshes joined as the frames of one vertex animation");
    ++made;
  }
  std::size_t at = 0;
  for (std::size_t i = 0; i < scene.meshes.size(); ++i)
    if (!drop[i]) {
      if (at != i) scene.meshes[at] = std::move(scene.meshes[i]);  // never onto itself: that empties it
      ++at;
    }
  scene.meshes.resize(at);
  return made;
}

float frameRateOf(double ticksPerSecond, std::vector<float>& intervals) {
  if (ticksPerSecond >= 10.0 && ticksPerSecond <= 240.0) return static_cast<float>(ticksPerSecond);
  if (!intervals.empty()) {
    auto mid = intervals.begin() + static_cast<std::ptrdiff_t>(intervals.size() / 2);
    std::nth_element(intervals.begin(), mid, intervals.end());
    if (*mid > 0.0f) {
      const float rate = std::round(1.0f / *mid);
      if (rate >= 10.0f && rate <= 240.0f) return rate;
    }
  }
  return 30.0f;
}

}  // namespace marrow::formats
