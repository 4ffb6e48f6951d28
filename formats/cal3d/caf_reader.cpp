// Binary animation .caf (§4): float, 0.12 quantised and IMVU bit-packed tracks; the flags word's
// presence is tried both ways (§1).
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <unordered_set>
#include <vector>

#include "formats/cal3d/binary_format.h"
#include "formats/cal3d/caf_compressed.h"
#include "formats/cal3d/parts.h"

namespace marrow::formats::cal3d {
namespace {

using std::to_string;

enum class Encoding { Float, Quantised, Imvu };

// §8 minimum sizes of a track with its one required keyframe.
constexpr std::uint64_t kMinFloatTrack = 8 + 32;
constexpr std::uint64_t kMinQuantisedTrack = 8 + 24 + 12;
constexpr std::uint64_t kMinImvuTrack = 4 + kImvuRotationBytes;
// §4.2: IMVU/1300 writers mark "no translation" with this value on all three axes.
constexpr float kNoTranslation = 1e10f;

struct RawKey {
  float time = 0.0f;
  glm::vec3 translation{0.0f};
  bool restTranslation = false;  // take the bone's rest translation (§4.2 sentinel, §4.4)
  std::array<float, 4> rotation{};
};

class CafParser {
 public:
  CafParser(std::span<const std::byte> data, const ReadContext& ctx, const BoneMap& bones,
            bool flagsWord)
      : r_(data, ctx.name), ctx_(ctx), bones_(bones), flagsWord_(flagsWord) {}

  AnimationPart parse() {
    version_ = readHeader(r_, std::string_view("CAF\0", 4));
    const std::int32_t compression =
        cafHasCompressionFlag(version_) ? r_.i32("compressionFlag") : 0;
    const std::size_t durationAt = r_.offset();
    duration_ = r_.f32("duration");
    if (!std::isfinite(duration_) || !(duration_ > 0.0f))
      r_.failAt(durationAt, "duration",
                "is " + to_string(duration_) + "; an animation lasts a finite time over 0 s");
    const std::size_t countAt = r_.offset();
    const std::int32_t trackCount = r_.i32("trackCount");
    if (trackCount == 0) r_.failAt(countAt, "trackCount", "is 0; an animation has tracks");
    const std::int32_t flags = flagsWord_ ? r_.i32("flags") : 0;
    encoding_ = encodingOf(compression, flags);
    const std::uint64_t minTrack = encoding_ == Encoding::Float       ? kMinFloatTrack
                                   : encoding_ == Encoding::Quantised ? kMinQuantisedTrack
                                                                      : kMinImvuTrack;
    const std::uint32_t count =
        checkedCount(r_, trackCount, countAt, "trackCount", ctx_.limits.maxBones, minTrack);
    AnimationPart part;
    part.clip.name = fileStem(ctx_.name);
    part.clip.duration = duration_;
    std::unordered_set<int> animated;
    for (std::uint32_t i = 0; i < count; ++i) {
      within([i] { return label("track", i); },
             [&] {
               Track t = readTrack();
               if (i == 0)  // §11: cal3d decides the loop from the first track's last key
                 part.clip.wrapsToFirstKey = t.rotation.times.back() < duration_;
               if (!animated.insert(t.sourceIndex).second) {
                 ++repeatedTracks_;
                 return;
               }
               part.clip.tracks.push_back(std::move(t));
             });
    }
    requireEnd(r_, "the last track");
    part.clip.frameRate = frameRateOf(part.clip);
    report();
    part.format = "cal3d CAF " + to_string(version_) +
                  (encoding_ == Encoding::Quantised ? " (0.12 quantised)"
                   : encoding_ == Encoding::Imvu    ? " (IMVU bit-packed)"
                                                    : "");
    part.diagnostics = std::move(diagnostics_);
    return part;
  }

 private:
  Encoding encodingOf(std::int32_t compression, std::int32_t flags) const {
    // §4.1 track encoding table.
    if (version_ >= 913 && version_ <= 918) return Encoding::Imvu;
    if (version_ >= 919 && version_ <= 999) return compression ? Encoding::Imvu : Encoding::Float;
    if (version_ == 1200) return (flags & 1) ? Encoding::Quantised : Encoding::Float;
    // ≥ 1300: the 2012 saver wrote compressionFlag 0 with flags bit 0 for IMVU-style tracks.
    if (version_ >= 1300) return (compression || (flags & 1)) ? Encoding::Imvu : Encoding::Float;
    return Encoding::Float;
  }

  Track readTrack() {
    std::vector<RawKey> keys;
    std::int64_t boneId = 0;
    std::uint64_t boneAt = r_.offset();
    if (encoding_ == Encoding::Imvu) {
      const auto header = decodeImvuTrackHeader(r_.bytes(4, "track header").first<4>());
      boneId = header.boneId;
      if (header.keyframeCount == 0)
        r_.failAt(boneAt + 2, "keyframeCount", "is 0; a track has at least one keyframe");
      checkKeys(header.keyframeCount, boneAt + 2, kImvuRotationBytes);
      readImvuKeys(header, keys);
    } else {
      boneId = r_.i32("boneId");
      const std::size_t countAt = r_.offset();
      const std::int32_t n = r_.i32("keyframeCount");
      if (n == 0) r_.failAt(countAt, "keyframeCount", "is 0; a track has at least one keyframe");
      if (encoding_ == Encoding::Float) {
        checkKeys(n, countAt, 32);
        readFloatKeys(static_cast<std::uint32_t>(n), keys);
      } else {
        checkKeys(n, countAt, 12, 24);
        readQuantisedKeys(static_cast<std::uint32_t>(n), keys);
      }
    }
    return makeTrack(boneId, boneAt, keys);
  }

  void checkKeys(std::int64_t n, std::uint64_t at, std::uint64_t each, std::uint64_t reserved = 0) {
    const std::uint64_t max = ctx_.limits.maxKeys - std::min(ctx_.limits.maxKeys, keys_);
    keys_ +=
        checkedCount(r_, static_cast<std::int32_t>(n), at, "keyframeCount", max, each, reserved);
  }

  void readFloatKeys(std::uint32_t n, std::vector<RawKey>& keys) {
    keys.resize(n);
    for (std::uint32_t k = 0; k < n; ++k)
      within([k] { return label("keyframe", k); },
             [&] {
               RawKey& key = keys[k];
               key.time = r_.finiteF32("time");
               key.translation = readVec3(r_, "translation");
               key.restTranslation = key.translation == glm::vec3(kNoTranslation);
               key.rotation = readFileQuat(r_, "rotation");
             });
  }

  void readQuantisedKeys(std::uint32_t n, std::vector<RawKey>& keys) {
    const glm::vec3 min = readVec3(r_, "translation minimum");
    const glm::vec3 scale = readVec3(r_, "translation scale");
    keys.resize(n);
    for (std::uint32_t k = 0; k < n; ++k)
      within([k] { return label("keyframe", k); },
             [&] {
               RawKey& key = keys[k];
               // §4.3: the time is a fraction of the header's duration.
               key.time = static_cast<float>(r_.u16("time") / 65535.0 * duration_);
               key.translation = decodeQuantisedTranslation(r_.u32("translation"), min, scale);
               const auto s0 = static_cast<std::int16_t>(r_.u16("rotation"));
               const auto s1 = static_cast<std::int16_t>(r_.u16("rotation"));
               const auto s2 = static_cast<std::int16_t>(r_.u16("rotation"));
               key.rotation = decodeQuantisedQuat(s0, s1, s2);
               if (!std::isfinite(key.translation.x) || !std::isfinite(key.translation.y) ||
                   !std::isfinite(key.translation.z))
                 r_.fail("translation", "is not finite once decoded");
             });
  }

  void readImvuKeys(const ImvuTrackHeader& h, std::vector<RawKey>& keys) {
    keys.resize(h.keyframeCount);
    for (std::uint32_t k = 0; k < h.keyframeCount; ++k)
      within([k] { return label("keyframe", k); },
             [&] {
               RawKey& key = keys[k];
               const bool block = h.translationRequired && (k == 0 || h.translationIsDynamic);
               if (block) {
                 const std::size_t size =
                     h.highRangeRequired ? kImvuHighRangeBytes : kImvuLowRangeBytes;
                 key.translation =
                     decodeImvuTranslation(r_.bytes(size, "translation"), h.highRangeRequired);
               } else if (h.translationRequired) {
                 key.translation =
                     keys[k - 1].translation;  // §4.4: static, kept from the first key
               } else {
                 key.restTranslation = true;
               }
               const auto rot =
                   decodeImvuRotation(r_.bytes(kImvuRotationBytes, "rotation").first<6>());
               key.rotation = rot.rotation;
               key.time = static_cast<float>(rot.steps) / 30.0f;
               // §4.4: the transitional 916/917 carry float copies that replace the decoded values.
               if (version_ == 917 && block) key.translation = readVec3(r_, "float translation");
               if (version_ == 916 || version_ == 917)
                 key.rotation = readFileQuat(r_, "float rotation");
             });
  }

  Track makeTrack(std::int64_t boneId, std::uint64_t boneAt, std::vector<RawKey>& keys) {
    Track t;
    t.sourceIndex = static_cast<int>(boneId);
    const Bone* bone = nullptr;
    if (boneId < 0)
      r_.failAt(boneAt, "boneId", "is " + to_string(boneId) + "; bone ids are not negative");
    if (!bones_.skeleton) {
      // Without a skeleton readModel stands in a placeholder bone for every id up to the
      // highest: ids are bounded as the mesh readers bound influence ids.
      if (boneId >= static_cast<std::int64_t>(ctx_.limits.maxBones))
        r_.failAt(boneAt, "boneId",
                  "is " + to_string(boneId) + ", not a bone id (the limit is " +
                      to_string(ctx_.limits.maxBones) + " bones)");
      t.bone = '#';
      t.bone += to_string(boneId);
      ++unbound_;
    } else {
      const int m = bones_.find(boneId);
      if (m < 0)
        r_.failAt(boneAt, "boneId",
                  "is " + to_string(boneId) + " but the skeleton has " +
                      to_string(bones_.modelIndexOfFileBone.empty()
                                    ? bones_.skeleton->bones.size()
                                    : bones_.modelIndexOfFileBone.size()) +
                      " bones; the animation belongs to another skeleton");
      bone = &bones_.skeleton->bones[static_cast<std::size_t>(m)];
      t.bone = bone->name;
      t.sourceIndex = static_cast<int>(boneId);
    }
    // §4.2: cal3d sorts keyframes by time (stable); of keys at one time the last is what it
    // shows from that time on, so that one is kept.
    const auto earlier = [](const RawKey& a, const RawKey& b) { return a.time < b.time; };
    if (!std::is_sorted(keys.begin(), keys.end(), earlier))  // files normally are
      std::stable_sort(keys.begin(), keys.end(), earlier);
    std::size_t kept = 0;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (k + 1 < keys.size() && keys[k + 1].time == keys[k].time) {
        ++duplicateTimes_;
        continue;
      }
      keys[kept++] = keys[k];
    }
    keys.resize(kept);
    const bool anyRest =
        std::any_of(keys.begin(), keys.end(), [](const RawKey& k) { return k.restTranslation; });
    // Without a skeleton the rest translation is unknown: an empty channel means exactly "rest".
    const bool dropTranslation = anyRest && !bone;
    if (dropTranslation &&
        !std::all_of(keys.begin(), keys.end(), [](const RawKey& k) { return k.restTranslation; }))
      ++droppedTranslations_;
    t.rotation.times.reserve(keys.size());
    t.rotation.values.reserve(keys.size());
    for (const RawKey& k : keys) {
      glm::quat q = quatFromFile(k.rotation[0], k.rotation[1], k.rotation[2], k.rotation[3]);
      if (encoding_ != Encoding::Float) q = glm::normalize(q);  // §8: renormalise decoded data
      t.rotation.add(k.time, q);
      if (!dropTranslation)
        t.translation.add(k.time, k.restTranslation ? bone->translation : k.translation);
    }
    return t;
  }

  void report() {
    const std::string& file = ctx_.name;
    if (duplicateTimes_)
      diagnostics_.warn(file, "time", kNoOffset,
                        to_string(duplicateTimes_) +
                            " keyframe(s) share their time with a later one; the last at each time "
                            "is kept");
    if (repeatedTracks_)
      diagnostics_.warn(
          file, "boneId", kNoOffset,
          to_string(repeatedTracks_) +
              " track(s) animate a bone an earlier track animates; the first is kept");
    if (droppedTranslations_)
      diagnostics_.warn(file, "translation", kNoOffset,
                        to_string(droppedTranslations_) +
                            " track(s) mix keys with and without translation; without a skeleton "
                            "their translations are dropped (the bone keeps its rest translation)");
  }

  ByteReader r_;
  const ReadContext& ctx_;
  const BoneMap& bones_;
  bool flagsWord_;
  int version_ = 0;
  float duration_ = 0.0f;
  Encoding encoding_ = Encoding::Float;
  std::uint64_t keys_ = 0;
  std::size_t unbound_ = 0, duplicateTimes_ = 0, repeatedTracks_ = 0, droppedTranslations_ = 0;
  Diagnostics diagnostics_;
};

}  // namespace

Result<AnimationPart> readCaf(std::span<const std::byte> data, const ReadContext& ctx,
                              const BoneMap& bones) {
  std::int32_t version = 0;
  if (data.size() >= 8) std::memcpy(&version, data.data() + 4, 4);
  // §4.1: 1300 files carry the flags word although the fork's loader skips it; try both.
  const bool byDefault = cafFlagsByDefault(version);
  const std::array<bool, 2> layouts{byDefault, !byDefault};
  return firstExactLayout<AnimationPart>(ctx, std::span<const bool>(layouts), [&](bool flags) {
    return CafParser(data, ctx, bones, flags).parse();
  });
}

}  // namespace marrow::formats::cal3d
