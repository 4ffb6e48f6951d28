// Morph animations (.cpf binary, .xpf XML; spec §7.5): the two readers, and their tracks
// resolved against a model's meshes (parts.h).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>
#include <utility>

#include "formats/cal3d/binary_format.h"
#include "formats/cal3d/parts.h"
#include "formats/cal3d/xml_common.h"
#include "formats/write_support.h"

namespace marrow::formats::cal3d {
namespace {

using Key = std::pair<float, float>;  // time, weight

// Keys as a channel: sorted stably by time (IMVU stores them as the file has them, the fork
// inserts them sorted); of keys at one time the later in the file wins. Counts what it changed.
Channel<float> weightChannel(std::vector<Key>& keys, std::size_t& unsorted, std::size_t& dropped) {
  if (!std::is_sorted(keys.begin(), keys.end(),
                      [](const Key& a, const Key& b) { return a.first < b.first; })) {
    ++unsorted;
    std::stable_sort(keys.begin(), keys.end(),
                     [](const Key& a, const Key& b) { return a.first < b.first; });
  }
  Channel<float> ch;
  ch.times.reserve(keys.size());
  ch.values.reserve(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (k + 1 < keys.size() && keys[k + 1].first == keys[k].first) {
      ++dropped;
      continue;
    }
    ch.add(keys[k].first, keys[k].second);
  }
  return ch;
}

void reportKeyRepairs(Diagnostics& d, const std::string& file, std::size_t unsorted,
                      std::size_t dropped) {
  if (unsorted)
    d.warn(file, "tracks", kNoOffset,
           std::to_string(unsorted) + " tracks have keyframes out of time order; they are sorted");
  if (dropped)
    d.warn(file, "tracks", kNoOffset,
           std::to_string(dropped) +
               " keyframes share their time with a later one in the same track; the later is kept");
}

// ---- binary .cpf ----

enum class CpfTracks { Named, Numbered };

class CpfParser {
 public:
  CpfParser(std::span<const std::byte> data, const ReadContext& ctx, CpfTracks form)
      : r_(data, ctx.name), ctx_(ctx), form_(form) {}

  MorphAnimationPart parse() {
    MorphAnimationPart part;
    const int version = readHeader(r_, std::string_view("CPF\0", 4));
    part.file = ctx_.name;
    part.name = fileStem(ctx_.name);
    const std::size_t durationAt = r_.offset();
    part.duration = r_.f32("duration");
    if (!std::isfinite(part.duration) || !(part.duration > 0.0f))
      r_.failAt(durationAt, "duration",
                "is " + std::to_string(part.duration) +
                    "; a morph animation lasts a finite time over 0 s");
    const std::size_t countAt = r_.offset();
    const std::int32_t n = r_.i32("trackCount");
    if (n == 0) r_.failAt(countAt, "trackCount", "is 0; a morph animation has tracks");
    // A named track is at least its name's length word and a key count; a numbered one an id, a
    // count and one key (the fork refuses tracks without keys).
    const std::uint32_t count = checkedCount(r_, n, countAt, "trackCount", ctx_.limits.maxKeys,
                                             form_ == CpfTracks::Named ? 8 : 16);
    part.tracks.reserve(count);
    std::uint64_t keys = 0;
    std::size_t unsorted = 0, dropped = 0, empty = 0;
    for (std::uint32_t t = 0; t < count; ++t) {
      within([&] { return label("track", t); }, [&] {
        MorphAnimationPart::Track track;
        track.offset = r_.offset();
        if (form_ == CpfTracks::Named) {
          track.morphName = readString(r_, "morphName", ctx_.limits.maxStringLength);
          if (track.morphName.empty())
            r_.failAt(track.offset, "morphName", "is empty; a track names its target");
        } else {
          track.morphId = r_.i32("morphId");
          if (track.morphId < 0)
            r_.failAt(track.offset, "morphId",
                      "is " + std::to_string(track.morphId) + ", not an index");
        }
        const std::size_t keysAt = r_.offset();
        const std::int32_t k = r_.i32("keyframeCount");
        if (k == 0 && form_ == CpfTracks::Numbered)
          r_.failAt(keysAt, "keyframeCount", "is 0; the fork's tracks have keyframes");
        const std::uint32_t kc =
            checkedCount(r_, k, keysAt, "keyframeCount", ctx_.limits.maxKeys, 8);
        keys += kc;
        if (keys > ctx_.limits.maxKeys)
          r_.failAt(keysAt, "keyframeCount",
                    "makes " + std::to_string(keys) + " keyframes in the file, over the limit of " +
                        std::to_string(ctx_.limits.maxKeys));
        std::vector<Key> raw(kc);
        for (auto& [time, weight] : raw) {
          time = r_.finiteF32("time");
          weight = r_.finiteF32("weight");
        }
        if (raw.empty()) {
          ++empty;
          return;
        }
        track.weight = weightChannel(raw, unsorted, dropped);
        part.tracks.push_back(std::move(track));
      });
    }
    requireEnd(r_, "the tracks");
    part.format = "cal3d CPF " + std::to_string(version) +
                  (form_ == CpfTracks::Named ? " (morph names)" : " (morph ids)");
    if (empty)
      part.diagnostics.warn(ctx_.name, "tracks", kNoOffset,
                            std::to_string(empty) + " tracks have no keyframes; they are ignored");
    reportKeyRepairs(part.diagnostics, ctx_.name, unsorted, dropped);
    return part;
  }

 private:
  ByteReader r_;
  const ReadContext& ctx_;
  CpfTracks form_;
};

// ---- XML .xpf ----

using xml::Children;
using xml::step;

class XpfReader {
 public:
  XpfReader(std::span<const std::byte> data, const ReadContext& ctx)
      : ctx_(ctx), doc_(data, ctx, part_.diagnostics) {}

  MorphAnimationPart read() {
    const xml::AnimationElement a = xml::openAnimation(
        doc_, "XPF", "a morph animation", ctx_.limits.maxKeys, sizeof(MorphAnimationPart::Track));
    part_.file = ctx_.name;
    part_.name = fileStem(ctx_.name);
    part_.duration = a.duration;
    part_.tracks.reserve(a.tracks);
    bool named = false, numbered = false;
    xml::eachTrack(doc_, a.node, [&](pugi::xml_node node, const xml::Path& path) {
      auto track = readTrack(node, path);
      if (track.weight.empty()) {
        doc_.warn(node, path, "has no keyframes; the track is ignored");
        return;
      }
      (track.morphName.empty() ? numbered : named) = true;
      part_.tracks.push_back(std::move(track));
    });
    part_.format = doc_.format("XPF") + (named && numbered ? " (morph names and ids)"
                                         : numbered        ? " (morph ids)"
                                                           : " (morph names)");
    reportKeyRepairs(part_.diagnostics, ctx_.name, unsorted_, dropped_);
    doc_.flushRepeated();
    return std::move(part_);
  }

 private:
  MorphAnimationPart::Track readTrack(pugi::xml_node node, const xml::Path& path) {
    MorphAnimationPart::Track track;
    track.offset = doc_.offsetOf(node);
    auto index = [&](std::string_view name) {
      const std::int64_t v = doc_.requiredInt(node, name, path);
      if (v < 0 || v > std::numeric_limits<std::int32_t>::max())
        doc_.fail(node, step(path, name), "is " + std::to_string(v) + ", not an index");
      return v;
    };
    if (doc_.hasAttribute(node, "MORPHNAME")) {
      track.morphName = doc_.stringAttribute(node, "MORPHNAME", path);
      if (track.morphName.empty()) doc_.fail(node, step(path, "MORPHNAME"), "is empty");
    } else {
      track.morphId = index("MORPHID");
      track.meshId = index("MESHID");
    }
    Children c(node);
    std::size_t s = 0;
    std::unordered_set<std::int64_t> seen;  // the submesh ids so far, each counted once
    for (; c.nextIs("SUBMESH"); ++s) {
      const pugi::xml_node sub = c.take();
      const xml::Path spath = step(path, "SUBMESH", s);
      const std::int64_t id = doc_.requiredInt(sub, "ID", spath);
      if (id < 0 || id > std::numeric_limits<std::int32_t>::max())
        doc_.fail(sub, step(spath, "ID"), "is " + std::to_string(id) + ", not an index");
      if (track.submeshes.size() >= ctx_.limits.maxMeshes)
        doc_.fail(sub, spath, "is one submesh too many (the limit is " +
                                  std::to_string(ctx_.limits.maxMeshes) + ")");
      if (!seen.insert(id).second) {
        doc_.warnRepeated("repeatedSubmesh", sub, spath,
                          "names a submesh the track names already; it is counted once");
        continue;
      }
      track.submeshes.push_back(id);
    }
    if (doc_.hasAttribute(node, "NUMSUBTARGET"))
      doc_.checkDeclaredCount(node, "NUMSUBTARGET", path, s, "SUBMESH elements");
    if (!track.morphName.empty() && !track.submeshes.empty())
      doc_.warnRepeated("namedSubmeshes", node, path,
                        "names its target and also lists SUBMESH elements; a named target is "
                        "set wherever a submesh has it, the list is ignored");
    if (track.morphName.empty() && track.submeshes.empty())
      doc_.warnRepeated("noSubmeshes", node, path,
                        "lists no SUBMESH elements, so the fork's mixer sets its weight on no "
                        "submesh; it is kept but drives nothing");

    std::size_t n = 0;
    for (pugi::xml_node k = c.peek(); k; k = k.next_sibling())
      n += k.type() == pugi::node_element;
    doc_.checkDeclaredCount(node, "NUMKEYFRAMES", path, n, "KEYFRAME elements");
    keys_ += n;
    doc_.checkLimit(keys_, ctx_.limits.maxKeys, node, path, "keyframes in the file");
    doc_.charge(n * (sizeof(Key) + 2 * sizeof(float)), node, path);
    std::vector<Key> raw;
    raw.reserve(n);
    for (std::size_t k = 0; !c.atEnd(); ++k) {
      const pugi::xml_node key = c.take();
      const xml::Path kpath = step(path, "KEYFRAME", k);
      if (!xml::namesEqual(key.name(), "KEYFRAME"))
        doc_.fail(key, step(path, key.name()),
                  "is out of place: SUBMESH elements, then KEYFRAME elements belong in TRACK");
      const float time = doc_.requiredFloat(key, "TIME", kpath);
      Children kc(key);
      const float weight =
          doc_.floats<1>(doc_.expect(kc, "WEIGHT", key, kpath), step(kpath, "WEIGHT"))[0];
      doc_.expectEnd(kc, kpath, "WEIGHT");
      raw.emplace_back(time, weight);
    }
    if (!raw.empty()) track.weight = weightChannel(raw, unsorted_, dropped_);
    return track;
  }

  const ReadContext& ctx_;
  MorphAnimationPart part_;
  xml::Document doc_;
  std::uint64_t keys_ = 0;
  std::size_t unsorted_ = 0, dropped_ = 0;
};

}  // namespace

Result<MorphAnimationPart> readCpf(std::span<const std::byte> data, const ReadContext& ctx) {
  // IMVU's tracks name their target, the fork's later ones number it: whichever reads the file
  // exactly, names first.
  const std::array<CpfTracks, 2> forms{CpfTracks::Named, CpfTracks::Numbered};
  return firstExactLayout<MorphAnimationPart>(
      ctx, std::span<const CpfTracks>(forms),
      [&](CpfTracks form) { return CpfParser(data, ctx, form).parse(); });
}

Result<MorphAnimationPart> readXpf(std::span<const std::byte> data, const ReadContext& ctx) {
  return guarded<MorphAnimationPart>(ctx, [&] { return XpfReader(data, ctx).read(); });
}

// ---- resolving the tracks against the model ----

namespace {

// The one mesh file that has every submesh and target the tracks of one MESHID name, or null
// (none, or several: which was meant is not known). Every track must name a submesh.
const MeshFileRange* fitsEveryTrack(const std::vector<const MorphAnimationPart::Track*>& tracks,
                                    const std::vector<Mesh>& meshes,
                                    std::span<const MeshFileRange> files) {
  for (const auto* t : tracks)
    if (t->submeshes.empty()) return nullptr;
  const MeshFileRange* found = nullptr;
  for (const MeshFileRange& f : files) {
    if (f.count == 0 || f.first + f.count > meshes.size()) continue;
    bool fits = true;
    for (const auto* t : tracks)
      for (std::int64_t s : t->submeshes)
        fits = fits && static_cast<std::uint64_t>(s) < f.count &&
               static_cast<std::uint64_t>(t->morphId) <
                   meshes[f.first + static_cast<std::size_t>(s)].morphs.size();
    if (!fits) continue;
    if (found) return nullptr;
    found = &f;
  }
  return found;
}

}  // namespace

Clip resolveMorphAnimation(const MorphAnimationPart& part, const std::vector<Mesh>& meshes,
                           std::span<const MeshFileRange> files, const Limits& limits,
                           Diagnostics& d) {
  Clip clip;
  clip.name = part.name;
  clip.duration = part.duration;
  clip.wrapsToFirstKey = false;  // the fork's mixer starts a looping morph animation over at 0
  std::set<std::string> unknownNames;
  std::size_t unresolved = 0, overBudget = 0;
  // A track drives a target in several meshes: each gets a copy of its keys, within the limit
  // every clip's keys have.
  std::uint64_t keys = 0;
  auto add = [&](std::string mesh, std::string target, const Channel<float>& weight) {
    if (keys + weight.size() > limits.maxKeys) {
      ++overBudget;
      return;
    }
    keys += weight.size();
    clip.morphTracks.push_back({std::move(mesh), std::move(target), weight});
  };
  // MESHID past the files loaded → its tracks, then the one file that fits them.
  std::map<std::int64_t, std::vector<const MorphAnimationPart::Track*>> pastTheFiles;
  for (const auto& t : part.tracks)
    if (t.morphName.empty() && t.meshId >= 0 && static_cast<std::uint64_t>(t.meshId) >= files.size())
      pastTheFiles[t.meshId].push_back(&t);
  std::map<std::int64_t, const MeshFileRange*> guessed;
  for (const auto& [meshId, tracks] : pastTheFiles) {
    const MeshFileRange* f = fitsEveryTrack(tracks, meshes, files);
    guessed[meshId] = f;
    if (f)
      d.info(part.file, "MESHID " + std::to_string(meshId), kNoOffset,
             "names mesh file " + std::to_string(meshId + 1) + " of the model it was made for; of "
             "the " + std::to_string(files.size()) + " mesh files loaded, only '" +
             meshGroup(meshes[f->first].name) +
             "' has every submesh and morph target its tracks name: it is taken to be that one");
  }
  for (const auto& t : part.tracks) {
    if (!t.morphName.empty()) {
      bool any = false;
      for (const Mesh& m : meshes)
        for (const MorphTarget& target : m.morphs)
          if (target.name == t.morphName) {
            add(m.name, t.morphName, t.weight);
            any = true;
            break;  // IMVU sets the first target of that name in each submesh
          }
      if (!any) {
        unknownNames.insert(t.morphName);
        add("", t.morphName, t.weight);
      }
      continue;
    }
    const MeshFileRange* file = nullptr;
    if (t.meshId >= 0 && static_cast<std::uint64_t>(t.meshId) < files.size())
      file = &files[static_cast<std::size_t>(t.meshId)];
    else if (t.meshId >= 0)
      file = guessed[t.meshId];
    const std::vector<std::int64_t> none{-1};
    for (std::int64_t s : t.submeshes.empty() ? none : t.submeshes) {
      const std::size_t at = file ? file->first + static_cast<std::size_t>(s) : 0;
      const Mesh* mesh = file && s >= 0 && static_cast<std::uint64_t>(s) < file->count &&
                                 at < meshes.size()
                             ? &meshes[at]
                             : nullptr;
      if (mesh && static_cast<std::uint64_t>(t.morphId) < mesh->morphs.size()) {
        add(mesh->name, mesh->morphs[static_cast<std::size_t>(t.morphId)].name, t.weight);
        continue;
      }
      ++unresolved;
      std::string where;
      if (t.meshId >= 0) where = "#" + std::to_string(t.meshId) + (s >= 0 ? "#" + std::to_string(s) : "");
      add(where, "#" + std::to_string(t.morphId), t.weight);
    }
  }
  if (!unknownNames.empty())
    d.warn(part.file, "tracks", kNoOffset,
           std::to_string(unknownNames.size()) + " morph target names (first: '" +
               *unknownNames.begin() + "') are targets of none of the meshes loaded; their "
               "tracks drive nothing");
  if (unresolved)
    d.warn(part.file, "tracks", kNoOffset,
           std::to_string(unresolved) + " tracks name a mesh file, submesh or morph target "
           "number the meshes loaded do not have (" + std::to_string(files.size()) +
           " mesh files); they drive nothing, and are kept as '#MESHID#SUBMESH' / '#MORPHID'");
  if (overBudget)
    d.warn(part.file, "tracks", kNoOffset,
           std::to_string(overBudget) + " tracks were left out: driving every target they name "
           "would take more than the limit of " + std::to_string(limits.maxKeys) + " keys");
  return clip;
}

bool hasBoneKeys(const Clip& clip, const Skeleton& skeleton) {
  return std::any_of(clip.tracks.begin(), clip.tracks.end(), [&](const Track& t) {
    return skeleton.find(t.bone) >= 0 && (!t.translation.empty() || !t.rotation.empty());
  });
}

namespace {

// "#12" → 12; "#3#0" → 3 and 0: the numbers a track kept when its meshes were not loaded.
bool parseNumbers(std::string_view s, std::int64_t& a, std::int64_t* b) {
  auto number = [](std::string_view& rest, std::int64_t& out) {
    if (rest.size() < 2 || rest.front() != '#') return false;
    rest.remove_prefix(1);
    const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), out);
    if (ec != std::errc() || p == rest.data() || out < 0) return false;
    rest.remove_prefix(static_cast<std::size_t>(p - rest.data()));
    return true;
  };
  if (!number(s, a)) return false;
  if (b && !number(s, *b)) return false;
  return s.empty();
}

}  // namespace

Result<CalMorphClip> calMorphClipOf(const Scene& scene, std::size_t clipIndex, bool named,
                                    Diagnostics& d) {
  const auto error = [](std::string field, std::string message) {
    return FormatError{"", std::move(field), kNoOffset, std::move(message)};
  };
  if (clipIndex >= scene.clips.size())
    return error("clip", "index " + std::to_string(clipIndex) + " is past the " +
                             std::to_string(scene.clips.size()) + " clips");
  const Clip& clip = scene.clips[clipIndex];
  const std::string what = "clip '" + clip.name + "'";
  if (!std::isfinite(clip.duration) || !(clip.duration > 0.0f))
    return error(what, "lasts " + std::to_string(clip.duration) +
                           " s; a cal3d morph animation needs a duration over 0");
  // Each mesh's place in the mesh files writeModel writes.
  std::vector<std::int64_t> fileOf(scene.meshes.size()), submeshOf(scene.meshes.size());
  const auto groups = meshFiles(scene);
  for (std::size_t f = 0; f < groups.size(); ++f)
    for (std::size_t k = 0; k < groups[f].size(); ++k) {
      fileOf[groups[f][k]] = static_cast<std::int64_t>(f);
      submeshOf[groups[f][k]] = static_cast<std::int64_t>(k);
    }
  CalMorphClip out;
  out.duration = clip.duration;
  std::size_t unnamed = 0, conflicting = 0, unplaced = 0, stepped = 0, empty = 0;
  std::map<std::string, std::size_t> byName;
  for (const MorphTrack& t : clip.morphTracks) {
    if (t.weight.empty()) {
      ++empty;
      continue;
    }
    CalMorphTrack track;
    stepped += t.weight.interpolation == Interpolation::Step;
    track.keys.reserve(t.weight.size());
    for (std::size_t k = 0; k < t.weight.size(); ++k)
      track.keys.emplace_back(t.weight.times[k], t.weight.values[k]);
    std::int64_t number = -1;
    if (named) {
      if (t.target.empty() || parseNumbers(t.target, number, nullptr)) {
        ++unnamed;
        continue;
      }
      const auto [it, fresh] = byName.try_emplace(t.target, out.tracks.size());
      if (!fresh) {
        conflicting += out.tracks[it->second].keys != track.keys;
        continue;
      }
      track.name = t.target;
      out.tracks.push_back(std::move(track));
      continue;
    }
    const auto mesh = std::find_if(scene.meshes.begin(), scene.meshes.end(),
                                   [&](const Mesh& m) { return m.name == t.mesh; });
    if (mesh != scene.meshes.end()) {
      const auto target = std::find_if(mesh->morphs.begin(), mesh->morphs.end(),
                                       [&](const MorphTarget& m) { return m.name == t.target; });
      if (target == mesh->morphs.end()) {
        ++unplaced;
        continue;
      }
      const auto m = static_cast<std::size_t>(mesh - scene.meshes.begin());
      track.meshId = fileOf[m];
      track.submesh = submeshOf[m];
      track.morphId = target - mesh->morphs.begin();
    } else if (!parseNumbers(t.mesh, track.meshId, &track.submesh) ||
               !parseNumbers(t.target, track.morphId, nullptr)) {
      ++unplaced;
      continue;
    }
    out.tracks.push_back(std::move(track));
  }
  using writing::plural;
  if (empty) d.warn("", what, kNoOffset, plural(empty, "morph track has", "morph tracks have") + " no keys: not written");
  if (stepped)
    d.warn("", what, kNoOffset,
           plural(stepped, "morph track steps", "morph tracks step") +
               " from key to key; cal3d interpolates weights linearly between the same keys");
  if (unnamed)
    d.warn("", what, kNoOffset,
           plural(unnamed, "morph track drives", "morph tracks drive") +
               " a target known only by number; a file of target names cannot hold it: not written");
  if (conflicting)
    d.warn("", what, kNoOffset,
           plural(conflicting, "morph track names", "morph tracks name") +
               " a target another track already drives with other keys; a file of target names "
               "drives every submesh's target of one name alike: the first is written");
  if (unplaced)
    d.warn("", what, kNoOffset,
           plural(unplaced, "morph track drives", "morph tracks drive") +
               " a mesh or target the model does not have: not written");
  out.unplaced = unplaced;
  if (out.tracks.empty())
    return error(what, "has no morph target weights a cal3d morph animation can hold");
  return out;
}

}  // namespace marrow::formats::cal3d
