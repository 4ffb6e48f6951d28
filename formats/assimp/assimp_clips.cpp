// aiAnimation → Clip. Times go from ticks to seconds; keys that do not move time forwards are
// dropped, since the model needs strictly increasing times.
#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "formats/assimp/assimp_convert.h"
#include "formats/model/frames.h"

namespace marrow::formats::assimpconv {
namespace {

// Assimp leaves mTicksPerSecond at 0 when the file does not say; 25 is what its own viewer and
// most engines assume then.
constexpr double kDefaultTicksPerSecond = 25.0;

struct KeyStats {
  std::size_t dropped = 0;       // not after the previous key, or not finite
  std::size_t normalised = 0;    // rotation keys that were not unit quaternions
  std::vector<float> intervals;  // seconds between consecutive kept keys, for the frame rate
};

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

template <class Key, class T, class Convert>
void convertKeys(const Key* keys, unsigned count, double ticksPerSecond, Channel<T>& out,
                 KeyStats& stats, Convert convert) {
  out.times.reserve(count);
  out.values.reserve(count);
  for (unsigned k = 0; k < count; ++k) {
    const float t = static_cast<float>(keys[k].mTime / ticksPerSecond);
    T value{};
    if (!std::isfinite(t) || !convert(keys[k].mValue, value) ||
        (!out.times.empty() && !(t > out.times.back()))) {
      ++stats.dropped;
      continue;
    }
    if (!out.times.empty()) stats.intervals.push_back(t - out.times.back());
    out.add(t, value);
  }
  out.interpolation = Interpolation::Linear;
}

}  // namespace

std::vector<Clip> convertClips(const Context& c, const Skeleton& skeleton) {
  const aiScene& scene = c.scene;
  if (scene.mNumAnimations > c.limits.maxClips)
    c.fail("animations", std::to_string(scene.mNumAnimations) + " animations, over the limit of " +
                             std::to_string(c.limits.maxClips));
  std::uint64_t keys = 0;
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    const aiAnimation* anim = scene.mAnimations[a];
    for (unsigned i = 0; anim && i < anim->mNumChannels; ++i)
      if (const aiNodeAnim* ch = anim->mChannels[i])
        keys += std::uint64_t{ch->mNumPositionKeys} + ch->mNumRotationKeys + ch->mNumScalingKeys;
  }
  if (keys > c.limits.maxKeys)
    c.fail("animations",
           std::to_string(keys) + " keys, over the limit of " + std::to_string(c.limits.maxKeys));

  std::vector<Clip> clips;
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    const aiAnimation* anim = scene.mAnimations[a];
    if (!anim) continue;
    const std::string field = "animation " + std::to_string(a) + " '" + anim->mName.C_Str() + "'";
    if (anim->mNumMeshChannels > 0 || anim->mNumMorphMeshChannels > 0)
      c.warn(field, "vertex and morph animation channels are not supported and were skipped");
    if (anim->mNumChannels == 0) continue;

    const bool tpsGiven = anim->mTicksPerSecond > 0.0 && std::isfinite(anim->mTicksPerSecond);
    const double tps = tpsGiven ? anim->mTicksPerSecond : kDefaultTicksPerSecond;
    Clip clip;
    clip.name = anim->mName.length > 0 ? anim->mName.C_Str() : "animation " + std::to_string(a);
    KeyStats stats;
    bool outsideBehaviour = false;
    float lastKey = 0.0f;
    for (unsigned i = 0; i < anim->mNumChannels; ++i) {
      const aiNodeAnim* ch = anim->mChannels[i];
      if (!ch) continue;
      Track track;
      track.bone = std::string(ch->mNodeName.C_Str(), ch->mNodeName.length);
      track.sourceIndex = skeleton.find(track.bone);
      convertKeys(ch->mPositionKeys, ch->mNumPositionKeys, tps, track.translation, stats,
                  [](const aiVector3D& v, glm::vec3& out) {
                    out = toGlm(v);
                    return finite(out);
                  });
      convertKeys(ch->mScalingKeys, ch->mNumScalingKeys, tps, track.scale, stats,
                  [](const aiVector3D& v, glm::vec3& out) {
                    out = toGlm(v);
                    return finite(out);
                  });
      convertKeys(ch->mRotationKeys, ch->mNumRotationKeys, tps, track.rotation, stats,
                  [&stats](const aiQuaternion& q, glm::quat& out) {
                    out = toGlm(q);
                    const float len = glm::length(out);
                    if (!std::isfinite(len) || len < 1e-6f) return false;
                    // Sampling slerps between unit quaternions, and a rotation matrix built from
                    // one of length 1 + e is off by about 2e: normalise every key, report the
                    // ones that were visibly off.
                    out /= len;
                    if (std::fabs(len - 1.0f) > 1e-3f) ++stats.normalised;
                    return true;
                  });
      for (const auto* times :
           {&track.translation.times, &track.rotation.times, &track.scale.times})
        if (!times->empty()) lastKey = std::max(lastKey, times->back());
      outsideBehaviour = outsideBehaviour || ch->mPreState != aiAnimBehaviour_DEFAULT ||
                         ch->mPostState != aiAnimBehaviour_DEFAULT;
      if (track.keyCount() > 0) clip.tracks.push_back(std::move(track));
    }

    const double duration = anim->mDuration / tps;
    if (std::isfinite(duration) && duration > 0.0) {
      clip.duration = static_cast<float>(duration);
    } else {
      clip.duration = lastKey;
      if (lastKey > 0.0f) c.info(field, "no duration given; the last key's time is used");
    }
    clip.frameRate = frameRateOf(tpsGiven ? tps : 0.0, stats.intervals);
    if (!tpsGiven) c.info(field, "no ticks per second given; 25 assumed, as assimp's viewer does");
    if (stats.dropped)
      c.warn(field,
             std::to_string(stats.dropped) +
                 " keys were dropped: their time did not follow the previous key's, or their "
                 "value was not finite");
    if (stats.normalised)
      c.info(field, std::to_string(stats.normalised) +
                        " rotation keys were not unit quaternions and were normalised");
    if (outsideBehaviour)
      c.info(field,
             "pre/post behaviour outside the keys (repeat, linear…) is ignored: Marrow "
             "holds the first and last keys and loops or clamps the whole clip instead");
    clips.push_back(std::move(clip));
  }
  return clips;
}

}  // namespace marrow::formats::assimpconv
