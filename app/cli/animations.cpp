#include "app/cli/animations.h"

#include <cstdio>

#include "render/anim/pose.h"

namespace marrow::app::cli {

bool applyAnimationOptions(const Args& args, Document& doc, Retargeting& out) {
  const std::string* files = args.option("--animations");
  const std::string* mapFile = args.option("--bone-map");
  out = {};
  out.scene = doc.scene;
  if (!files && !mapFile) return true;
  anim::BoneNameMap map;
  if (mapFile) {
    auto m = loadBoneNameMap(QString::fromStdString(*mapFile));
    if (!m) {
      std::fprintf(stderr, "marrow-cli: %s\n", m.error().describe().c_str());
      return false;
    }
    map = std::move(m).value();
  }
  std::vector<AnimationSource> sources;
  if (files) {
    QStringList paths;
    for (const QString& p :
         QString::fromStdString(*files).split(QLatin1Char(','), Qt::SkipEmptyParts))
      paths << (p == QStringLiteral(":demo") ? kDemoPath : p);
    if (paths.isEmpty()) {
      std::fprintf(stderr, "marrow-cli: --animations names no file\n");
      return false;
    }
    auto source = loadAnimationSource(paths);
    if (!source) {
      std::fprintf(stderr, "marrow-cli: %s\n", source.error().describe().c_str());
      return false;
    }
    sources.push_back(std::move(source).value());
  }
  out = withAnimations(doc.scene, sources, map);
  doc.scene = out.scene;
  return true;
}

int firstRetargetedClip(const Retargeting& r) {
  for (const auto& c : r.clips)
    if (c.source >= 0 && c.clip >= 0) return c.clip;
  return -1;
}

void writeBinding(JsonWriter& j, const formats::Clip& clip, const formats::Skeleton& skeleton,
                  const RetargetedClip* retargeted, bool withUnmatchedTracks) {
  const anim::Binding b = anim::bind(clip, skeleton);
  j.field("matched_tracks", static_cast<std::uint64_t>(b.matched()));
  if (withUnmatchedTracks) {
    j.key("unmatched_tracks").beginArray();
    for (const auto& n : b.tracksWithoutBone) j.value(n);
    j.endArray();
  }
  j.key("bones_without_track").beginArray();
  for (const auto& n : b.bonesWithoutTrack) j.value(n);
  j.endArray();
  if (!retargeted) return;
  const anim::RetargetReport& r = retargeted->report;
  j.key("retargeted").beginObject();
  j.key("from");
  if (retargeted->source >= 0)
    j.value(retargeted->from);
  else
    j.null();  // the model's own clip, renamed through --bone-map
  j.field("rest_corrected", r.restCorrected).field("size_ratio", r.sizeRatio);
  j.key("tracks").beginArray();
  for (const auto& m : r.matched)
    j.beginObject()
        .field("track", m.track)
        .field("bone", m.bone)
        .field("by", anim::matchKindName(m.how))
        .endObject();
  j.endArray();
  j.endObject();
}

}  // namespace marrow::app::cli
