#include "app/retarget.h"

#include <QFile>
#include <QFileInfo>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <set>

#include "app/document.h"

namespace marrow::app {

namespace {

constexpr qint64 kMaxBoneMapBytes = 4 << 20;

std::string names(const std::vector<std::string>& list, std::size_t most) {
  std::string s;
  for (std::size_t i = 0; i < list.size() && i < most; ++i) s += (i ? ", " : "") + list[i];
  if (list.size() > most) s += ", … " + std::to_string(list.size() - most) + " more";
  return s;
}

}  // namespace

std::string AnimationSource::label() const {
  QStringList files;
  for (const QString& p : paths) files << QFileInfo(p).fileName();
  return files.join(QStringLiteral(" + ")).toStdString();
}

formats::Result<AnimationSource> loadAnimationSource(const QStringList& paths) {
  auto doc = loadDocument(paths, Textures::Skip);
  if (!doc) return doc.error();
  return AnimationSource{paths, doc->scene};
}

formats::Result<anim::BoneNameMap> loadBoneNameMap(const QString& path) {
  const std::string name = path.toStdString();
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly))
    return formats::FormatError{name, "", formats::kNoOffset, f.errorString().toStdString()};
  if (f.size() > kMaxBoneMapBytes)
    return formats::FormatError{
        name, "size", formats::kNoOffset,
        "is " + std::to_string(f.size()) + " bytes; a bone-name map is at most 4 MiB"};
  const QByteArray text = f.readAll();
  return anim::parseBoneNameMap(
      std::string_view(text.constData(), static_cast<std::size_t>(text.size())), name);
}

const RetargetedClip* Retargeting::find(int clipIndex) const {
  for (const auto& c : clips)
    if (c.clip == clipIndex) return &c;
  return nullptr;
}

bool sameSkeleton(const formats::Skeleton& model, const formats::Skeleton& source) {
  constexpr float kTolerance = 1e-4f;
  for (const formats::Bone& b : source.bones) {
    const int i = model.find(b.name);
    if (i < 0) return false;
    const formats::Bone& m = model.bones[static_cast<std::size_t>(i)];
    const std::string& parent =
        b.parent >= 0 ? source.bones[static_cast<std::size_t>(b.parent)].name : std::string();
    const std::string& modelParent =
        m.parent >= 0 ? model.bones[static_cast<std::size_t>(m.parent)].name : std::string();
    if (parent != modelParent) return false;
    if (glm::length(m.translation - b.translation) >
            kTolerance * std::max(1.0f, glm::length(b.translation)) ||
        std::abs(std::abs(glm::dot(m.rotation, b.rotation)) - 1.0f) > kTolerance)
      return false;
  }
  return true;
}

void AnimationSet::setMap(anim::BoneNameMap map, QString path) {
  map_ = std::move(map);
  mapPath_ = map_.empty() ? QString() : std::move(path);
}

std::shared_ptr<const formats::Scene> AnimationSet::apply(
    std::shared_ptr<const formats::Scene> model) {
  base_ = model;
  applied_ = withAnimations(std::move(model), sources_, map_);
  return applied_.scene;
}

std::string describe(const anim::RetargetReport& r, std::size_t maxNames) {
  const std::size_t tracks = r.matched.size() + r.tracksWithoutBone.size();
  std::size_t mapped = 0;
  for (const auto& m : r.matched) mapped += m.how == anim::MatchKind::Mapped;
  std::string s = std::to_string(r.matched.size()) + " of " + std::to_string(tracks) +
                  (tracks == 1 ? " track plays" : " tracks play");
  const std::size_t loose = r.looseMatches();
  if (loose || mapped) {
    s += " (";
    if (mapped) s += std::to_string(mapped) + " through the bone map";
    if (mapped && loose) s += ", ";
    if (loose) s += std::to_string(loose) + " by loose names";
    s += ")";
  }
  if (!r.tracksWithoutBone.empty())
    s += "; tracks without a bone: " + names(r.tracksWithoutBone, maxNames);
  if (!r.bonesWithoutTrack.empty())
    s += "; bones without a track: " + names(r.bonesWithoutTrack, maxNames);
  if (r.restCorrected) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3g", static_cast<double>(r.sizeRatio));
    s += "; rotations corrected for the rest poses, translations ×" + std::string(ratio);
  }
  if (r.morphTracksDropped)
    s += "; " + std::to_string(r.morphTracksDropped) + " blend-shape tracks left out";
  return s;
}

Retargeting withAnimations(std::shared_ptr<const formats::Scene> model,
                           std::span<const AnimationSource> sources, const anim::BoneNameMap& map) {
  Retargeting out;
  if (!model || (sources.empty() && map.empty())) {
    out.scene = std::move(model);
    return out;
  }
  auto scene = std::make_shared<formats::Scene>(*model);
  std::set<std::string> taken;
  for (const auto& c : scene->clips) taken.insert(c.name);

  if (!map.empty()) {
    // The model's own clips, through the map: no other rest pose to start from.
    const anim::BoneMatcher matcher(scene->skeleton, &map, true);
    for (std::size_t i = 0; i < scene->clips.size(); ++i) {
      formats::Clip& c = scene->clips[i];
      if (c.tracks.empty()) continue;
      RetargetedClip rc;
      rc.clip = static_cast<int>(i);
      formats::Clip renamed = anim::retarget(c, scene->skeleton, matcher, {}, &rc.report);
      // A clip made for another skeleton keeps its rule unless the map found its bones.
      if (!c.skeleton.empty() && !rc.report.tracksWithoutBone.empty()) continue;
      renamed.morphTracks = std::move(c.morphTracks);  // its own meshes: kept
      rc.report.morphTracksDropped = 0;
      c = std::move(renamed);
      out.clips.push_back(std::move(rc));
    }
  }

  for (std::size_t s = 0; s < sources.size(); ++s) {
    const AnimationSource& src = sources[s];
    if (!src.scene) continue;
    const std::string label = src.label();
    std::vector<anim::RetargetReport> reports;
    std::vector<formats::Clip> clips =
        anim::retargetClips(*src.scene, *scene, map.empty() ? nullptr : &map, &reports);
    std::size_t next = 0;
    for (auto& r : reports) {
      RetargetedClip rc;
      rc.source = static_cast<int>(s);
      rc.from = label;
      const bool kept = !r.leftOut && next < clips.size();
      const std::string field = "clip '" + r.clip + "'";
      if (kept) {
        formats::Clip c = std::move(clips[next++]);
        std::string name = c.name;
        for (int k = 2; taken.count(name); ++k) name = c.name + " (" + std::to_string(k) + ")";
        c.name = name;
        taken.insert(name);
        rc.clip = static_cast<int>(scene->clips.size());
        scene->diagnostics.add(
            r.matched.empty() ? formats::Severity::Warning : formats::Severity::Info, label, field,
            formats::kNoOffset,
            "retargeted onto the model's skeleton" +
                (name != r.clip ? " as '" + name + "'" : std::string()) + ": " + describe(r));
        scene->clips.push_back(std::move(c));
      } else {
        scene->diagnostics.warn(
            label, field, formats::kNoOffset,
            r.tracksWithoutBone.empty()
                ? "animates no bone: not retargeted"
                : "is made for another skeleton than the file's own: not retargeted");
      }
      rc.report = std::move(r);
      out.clips.push_back(std::move(rc));
    }
  }
  out.scene = std::move(scene);
  return out;
}

}  // namespace marrow::app
