// XML animation .xaf (§7.2): the keyframes of a .caf (§4.2) as elements, where TRANSLATION may be
// missing (IMVU and 1300+).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_set>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/cal3d/xml_common.h"

namespace marrow::formats::cal3d {
namespace {

using xml::Children;
using xml::step;

struct RawKey {
  float time = 0.0f;
  glm::vec3 translation{0.0f};
  bool rest = false;  // the bone's rest translation, unknown without a skeleton
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

class XafReader {
 public:
  XafReader(std::span<const std::byte> data, const ReadContext& ctx, const BoneMap& bones)
      : ctx_(ctx), bones_(bones), doc_(data, ctx, part_.diagnostics) {}

  AnimationPart read() {
    const xml::AnimationElement a =
        xml::openAnimation(doc_, "XAF", "a cal3d animation", ctx_.limits.maxBones, sizeof(Track));
    const pugi::xml_node animation = a.node;
    part_.format = doc_.format("XAF");
    Clip& clip = part_.clip;
    clip.name = fileStem(ctx_.name);
    clip.duration = a.duration;
    clip.tracks.reserve(a.tracks);

    xml::eachTrack(doc_, animation, [&](pugi::xml_node node, const xml::Path& path) {
      auto track = readTrack(node, path);
      if (!track) return;
      // §11: cal3d loops back to the first keys when the first track ends before the duration.
      if (first_) clip.wrapsToFirstKey = track->rotation.times.back() < clip.duration;
      first_ = false;
      if (!animated_.insert(track->sourceIndex).second) {
        doc_.warnRepeated("repeatedTrack", node, path,
                          "animates a bone an earlier track animates; the first is kept");
        return;
      }
      clip.tracks.push_back(std::move(*track));
    });
    if (clip.tracks.empty()) doc_.warn(animation, "ANIMATION", "has no tracks with keyframes");
    clip.frameRate = frameRateOf(clip);
    doc_.flushRepeated();
    return std::move(part_);
  }

 private:
  std::optional<Track> readTrack(pugi::xml_node node, const xml::Path& path) {
    Track track;
    const std::int64_t boneId = doc_.requiredInt(node, "BONEID", path);
    const Bone* bone = nullptr;
    if (boneId < 0 || boneId > std::numeric_limits<int>::max())
      doc_.fail(node, step(path, "BONEID"), "is " + std::to_string(boneId) + ", not a bone id");
    if (bones_.skeleton) {
      const int model = bones_.find(boneId);
      if (model < 0)
        doc_.fail(node, step(path, "BONEID"),
                  "is " + std::to_string(boneId) + ", not a bone of the skeleton (" +
                      std::to_string(xml::boneCount(bones_)) +
                      " bones); the animation belongs to another one");
      bone = &bones_.skeleton->bones[static_cast<std::size_t>(model)];
      track.bone = bone->name;
    } else {
      // Without a skeleton readModel stands in a placeholder bone for every id up to the
      // highest: ids are bounded as the mesh readers bound influence ids.
      if (boneId >= static_cast<std::int64_t>(doc_.context().limits.maxBones))
        doc_.fail(node, step(path, "BONEID"),
                  "is " + std::to_string(boneId) + ", not a bone id (the limit is " +
                      std::to_string(doc_.context().limits.maxBones) + " bones)");
      track.bone = '#';
      track.bone += std::to_string(boneId);
    }
    track.sourceIndex = static_cast<int>(boneId);

    // §7.2: the flags default to 1; they decide what a missing TRANSLATION means.
    const bool required = doc_.intAttribute(node, "TRANSLATIONREQUIRED", path, 1) != 0;
    const bool dynamic = doc_.intAttribute(node, "TRANSLATIONISDYNAMIC", path, 1) != 0;

    const std::size_t n = xml::countChildren(node, "KEYFRAME");
    doc_.checkDeclaredCount(node, "NUMKEYFRAMES", path, n, "KEYFRAME elements");
    keys_ += n;
    doc_.checkLimit(keys_, ctx_.limits.maxKeys, node, path, "keyframes in the file");
    if (n == 0) {
      doc_.warn(node, path, "has no keyframes; the track is ignored");
      return std::nullopt;
    }
    doc_.charge(n * (sizeof(RawKey) + 2 * sizeof(float) + sizeof(glm::vec3) + sizeof(glm::quat)),
                node, path);

    std::vector<RawKey> keys;
    keys.reserve(n);
    Children children(node);
    for (std::size_t k = 0; !children.atEnd(); ++k) {
      const pugi::xml_node key = children.take();
      const xml::Path kpath = step(path, "KEYFRAME", k);
      if (!xml::namesEqual(key.name(), "KEYFRAME"))
        doc_.fail(key, step(path, key.name()),
                  "is out of place: only KEYFRAME elements belong in TRACK");
      RawKey raw;
      raw.time = doc_.requiredFloat(key, "TIME", kpath);
      Children c(key);
      if (c.nextIs("TRANSLATION")) {
        const auto t = doc_.floats<3>(c.take(), step(kpath, "TRANSLATION"));
        raw.translation = glm::vec3(t[0], t[1], t[2]);
      } else {
        missingTranslation(raw, key, kpath, required, dynamic, keys);
      }
      const auto r =
          doc_.quaternion(doc_.expect(c, "ROTATION", key, kpath), step(kpath, "ROTATION"));
      raw.rotation = quatFromFile(r[0], r[1], r[2], r[3]);
      doc_.expectEnd(c, kpath, "TRANSLATION and ROTATION");
      keys.push_back(raw);
    }

    // Same policy as the binary reader: sort stably by time (cal3d inserts sorted, §4.2); of
    // keys at the same time the later one in the file wins.
    if (!std::is_sorted(keys.begin(), keys.end(),
                        [](const RawKey& a, const RawKey& b) { return a.time < b.time; })) {
      doc_.warnRepeated("unsorted", node, path, "has keyframes out of time order; they are sorted");
      std::stable_sort(keys.begin(), keys.end(),
                       [](const RawKey& a, const RawKey& b) { return a.time < b.time; });
    }
    std::size_t duplicates = 0;
    // Without a skeleton the rest translation is unknown: an empty channel means exactly "rest"
    // (the binary reader's rule for IMVU tracks without translation).
    const bool anyRest =
        std::any_of(keys.begin(), keys.end(), [](const RawKey& k) { return k.rest; });
    const bool dropTranslation = anyRest && !bone;
    if (dropTranslation &&
        !std::all_of(keys.begin(), keys.end(), [](const RawKey& k) { return k.rest; }))
      doc_.warnRepeated("mixedRest", node, path,
                        "mixes keyframes with and without TRANSLATION; without a skeleton its "
                        "translations are dropped (the bone keeps its rest translation)");
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (k + 1 < keys.size() && keys[k + 1].time == keys[k].time) {
        ++duplicates;
        continue;
      }
      if (!dropTranslation)
        track.translation.add(keys[k].time, keys[k].rest ? bone->translation : keys[k].translation);
      track.rotation.add(keys[k].time, keys[k].rotation);
    }
    if (duplicates)
      doc_.warn(node, path,
                "has " + std::to_string(duplicates) +
                    " keyframe(s) at the time of a later one; the later keyframe is kept");
    return track;
  }

  // §7.2: a missing TRANSLATION repeats the previous keyframe's when the track's translation is
  // required but not dynamic, else it is the bone's rest translation.
  void missingTranslation(RawKey& raw, pugi::xml_node key, const xml::Path& path, bool required,
                          bool dynamic, const std::vector<RawKey>& previous) {
    if (doc_.version() != 0 && doc_.version() < 1300)
      doc_.warnRepeated("translationVersion", key, path,
                        "has no TRANSLATION, which version " + std::to_string(doc_.version()) +
                            " files always have (§7.2)");
    if (required && !dynamic && !previous.empty()) {
      raw.translation = previous.back().translation;
      raw.rest = previous.back().rest;
    } else {
      raw.rest = true;
    }
  }

  const ReadContext& ctx_;
  const BoneMap& bones_;
  AnimationPart part_;
  xml::Document doc_;
  std::uint64_t keys_ = 0;
  bool first_ = true;
  std::unordered_set<int> animated_;
};

}  // namespace

Result<AnimationPart> readXaf(std::span<const std::byte> data, const ReadContext& ctx,
                              const BoneMap& bones) {
  return guarded<AnimationPart>(ctx, [&] { return XafReader(data, ctx, bones).read(); });
}

}  // namespace marrow::formats::cal3d
