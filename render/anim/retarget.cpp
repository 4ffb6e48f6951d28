#include "render/anim/retarget.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "render/anim/pose.h"

namespace marrow::anim {

namespace {

// Rest rotations of every bone in the skeleton's model space (parent scale left out).
std::vector<glm::mat3> restWorldRotations(const formats::Skeleton& s) {
  std::vector<glm::mat3> out(s.bones.size());
  for (std::size_t i = 0; i < s.bones.size(); ++i) {
    const auto& b = s.bones[i];
    const glm::mat3 local = glm::mat3_cast(glm::normalize(b.rotation));
    out[i] =
        b.parent >= 0 && static_cast<std::size_t>(b.parent) < i ? out[b.parent] * local : local;
  }
  return out;
}

glm::mat3 worldOf(const std::vector<glm::mat3>& world, int bone) {
  return bone >= 0 ? world[static_cast<std::size_t>(bone)] : glm::mat3(1.0f);
}

// A proper rotation matrix (up to rounding) as a unit quaternion.
glm::quat toQuat(const glm::mat3& m) {
  return glm::normalize(glm::quat_cast(m));
}

float safeRatio(float target, float source) {
  return source > 1e-6f && target > 1e-6f && std::isfinite(target / source) ? target / source
                                                                            : 1.0f;
}

// A track re-expressed for the target: L' = A·L·B, t' = tRest' + ratio·A·(t − tRest).
struct Conversion {
  glm::mat3 a{1.0f}, b{1.0f};
  glm::vec3 sourceT{0.0f}, targetT{0.0f};
  glm::vec3 sourceS{1.0f}, targetS{1.0f};
  float ratio = 1.0f;
};

void convertTrack(formats::Track& t, const Conversion& c) {
  for (auto& q : t.rotation.values) q = toQuat(c.a * glm::mat3_cast(q) * c.b);
  for (auto& v : t.translation.values) v = c.targetT + c.ratio * (c.a * (v - c.sourceT));
  for (auto& s : t.scale.values)
    for (int k = 0; k < 3; ++k)
      s[k] = c.sourceS[k] != 0.0f ? c.targetS[k] * (s[k] / c.sourceS[k]) : s[k];
}

}  // namespace

std::size_t RetargetReport::looseMatches() const {
  return static_cast<std::size_t>(
      std::count_if(matched.begin(), matched.end(),
                    [](const TrackMatch& m) { return m.how == MatchKind::Loose; }));
}

float restSpan(const formats::Skeleton& skeleton, const std::vector<int>& bones) {
  const std::vector<glm::mat4> model = skeleton.restModelMatrices();
  std::vector<glm::vec3> p;
  if (bones.empty()) {
    for (const auto& m : model) p.emplace_back(m[3]);
  } else {
    for (int b : bones)
      if (b >= 0 && static_cast<std::size_t>(b) < model.size()) p.emplace_back(model[b][3]);
  }
  float most = 0.0f;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) most = std::max(most, glm::length(p[i] - p[j]));
  return most;
}

glm::mat3 axesBetween(const formats::Basis& source, const formats::Basis& target) {
  formats::Basis s = source, t = target;
  s.front = t.front = 0;
  s.unitMeters = t.unitMeters = 1.0f;
  return glm::transpose(glm::mat3(formats::toDisplay(t))) * glm::mat3(formats::toDisplay(s));
}

formats::Clip retarget(const formats::Clip& clip, const formats::Skeleton& target,
                       const BoneMatcher& matcher, const RetargetOptions& options,
                       RetargetReport* report) {
  const std::vector<NameMatch> matches = matchTracks(clip, matcher);
  const formats::Skeleton* source = options.source;
  // Each matched track's bone in the source skeleton (-1: the source does not have it).
  std::vector<int> sourceBone(clip.tracks.size(), -1);
  std::vector<int> sourceOf(target.bones.size(), -1);  // per target bone
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
    if (matches[i].bone < 0 || !source) continue;
    sourceBone[i] = source->find(clip.tracks[i].bone);
    sourceOf[static_cast<std::size_t>(matches[i].bone)] = sourceBone[i];
  }
  float ratio = options.sizeRatio > 0.0f ? options.sizeRatio : 1.0f;
  if (source && !(options.sizeRatio > 0.0f)) {
    // Bones whose parents match each other too measure both skeletons alike (a track mapped
    // onto a bone elsewhere in the hierarchy does not); with none, the whole skeletons' spans.
    const std::vector<glm::mat4> tm = target.restModelMatrices(), sm = source->restModelMatrices();
    float t = 0.0f, s = 0.0f;
    for (std::size_t b = 0; b < target.bones.size(); ++b) {
      const int sb = sourceOf[b], tp = target.bones[b].parent;
      if (sb < 0 || tp < 0 || sourceOf[static_cast<std::size_t>(tp)] < 0 ||
          source->bones[static_cast<std::size_t>(sb)].parent !=
              sourceOf[static_cast<std::size_t>(tp)])
        continue;
      t += glm::length(glm::vec3(tm[b][3]) - glm::vec3(tm[static_cast<std::size_t>(tp)][3]));
      s += glm::length(
          glm::vec3(sm[static_cast<std::size_t>(sb)][3]) -
          glm::vec3(
              sm[static_cast<std::size_t>(source->bones[static_cast<std::size_t>(sb)].parent)][3]));
    }
    ratio =
        t > 1e-6f && s > 1e-6f ? safeRatio(t, s) : safeRatio(restSpan(target), restSpan(*source));
  }
  std::vector<glm::mat3> sourceWorld, targetWorld;
  if (source) {
    sourceWorld = restWorldRotations(*source);
    targetWorld = restWorldRotations(target);
  }
  const glm::mat3 c = options.sourceToTarget;
  const glm::mat3 cInv = glm::transpose(c);

  formats::Clip out;
  out.name = clip.name;
  out.duration = clip.duration;
  out.frameRate = clip.frameRate;
  out.wrapsToFirstKey = clip.wrapsToFirstKey;
  RetargetReport r;
  r.clip = clip.name;
  r.sizeRatio = source ? ratio : 1.0f;
  r.morphTracksDropped = clip.morphTracks.size();
  std::vector<bool> animated(target.bones.size(), false);
  for (const NameMatch& m : matches)
    if (m.bone >= 0) animated[static_cast<std::size_t>(m.bone)] = true;
  bool anyCorrected = false;
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
    const formats::Track& in = clip.tracks[i];
    if (matches[i].bone < 0) {
      r.tracksWithoutBone.push_back(in.bone);
      // Kept so that bind() reports it, unless its name is a bone another track drives.
      if (target.find(in.bone) < 0) out.tracks.push_back(in);
      continue;
    }
    const auto bone = static_cast<std::size_t>(matches[i].bone);
    formats::Track t = in;
    t.bone = target.bones[bone].name;
    t.sourceIndex = -1;  // no file of the target's numbers it
    r.matched.push_back({in.bone, t.bone, matches[i].how});
    if (sourceBone[i] >= 0) {
      const auto s = static_cast<std::size_t>(sourceBone[i]);
      const formats::Bone& sb = source->bones[s];
      const formats::Bone& tb = target.bones[bone];
      Conversion conv;
      conv.a =
          glm::transpose(worldOf(targetWorld, tb.parent)) * c * worldOf(sourceWorld, sb.parent);
      conv.b = glm::transpose(sourceWorld[s]) * cInv * targetWorld[bone];
      conv.sourceT = sb.translation;
      conv.targetT = tb.translation;
      conv.sourceS = sb.scale;
      conv.targetS = tb.scale;
      conv.ratio = ratio;
      convertTrack(t, conv);
      anyCorrected = true;
    }
    out.tracks.push_back(std::move(t));
  }
  r.restCorrected = anyCorrected;
  for (std::size_t b = 0; b < target.bones.size(); ++b)
    if (!animated[b]) r.bonesWithoutTrack.push_back(target.bones[b].name);
  if (report) *report = std::move(r);
  return out;
}

std::vector<formats::Clip> retargetClips(const formats::Scene& source, const formats::Scene& target,
                                         const BoneNameMap* map,
                                         std::vector<RetargetReport>* reports) {
  std::vector<formats::Clip> out;
  // The source's family from its skeleton, else from its clips' tracks.
  std::vector<std::string> sourceNames;
  for (const formats::Bone& b : source.skeleton.bones) sourceNames.push_back(b.name);
  if (sourceNames.empty())
    for (const formats::Clip& clip : source.clips)
      for (const formats::Track& t : clip.tracks) sourceNames.push_back(t.bone);
  const BoneMatcher matcher(target.skeleton, map, true, &sourceNames);
  RetargetOptions options;
  options.source = source.skeleton.empty() ? nullptr : &source.skeleton;
  options.sourceToTarget = axesBetween(source.basis, target.basis);
  for (const formats::Clip& clip : source.clips) {
    RetargetReport r;
    r.clip = clip.name;
    // A clip of the source made for yet another skeleton has no rest pose here to start from.
    const bool foreign = bind(clip, source.skeleton).otherSkeleton;
    if (clip.tracks.empty() || foreign) {
      for (const auto& t : clip.tracks) r.tracksWithoutBone.push_back(t.bone);
      for (const auto& b : target.skeleton.bones) r.bonesWithoutTrack.push_back(b.name);
      r.morphTracksDropped = clip.morphTracks.size();
      r.leftOut = true;
      if (reports) reports->push_back(std::move(r));
      continue;
    }
    out.push_back(retarget(clip, target.skeleton, matcher, options, &r));
    if (reports) reports->push_back(std::move(r));
  }
  return out;
}

}  // namespace marrow::anim
