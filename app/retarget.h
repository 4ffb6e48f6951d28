// Clips from other files played on the open model: each animation source (a skeleton with its
// clips: hero.csf + walk.caf, a BRF skeleton and animations, an FBX) is loaded as a model of its
// own, and its clips are retargeted onto the model's skeleton (render/anim/retarget.h). For the
// CLI (--animations, --bone-map) and the GUI (File › Attach Animations…, Bone Name Map…).
#pragma once

#include <QString>
#include <QStringList>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "formats/io/result.h"
#include "formats/model/scene.h"
#include "render/anim/retarget.h"

namespace marrow::app {

struct AnimationSource {
  QStringList paths;
  std::shared_ptr<const formats::Scene> scene;
  std::string label() const;  // "hero.csf + walk.caf"
};

// Loads `paths` as one model of their own (no textures). Safe to call from any thread.
formats::Result<AnimationSource> loadAnimationSource(const QStringList& paths);

// Reads a bone-name map file (render/anim/bone_names.h), at most 4 MiB.
formats::Result<anim::BoneNameMap> loadBoneNameMap(const QString& path);

struct RetargetedClip {
  int clip = -1;     // its index in the scene made, -1 when it was left out
  int source = -1;   // which source it came from; -1: the model's own clip, renamed by the map
  std::string from;  // the source's label (empty for the model's own clips)
  anim::RetargetReport report;
};

struct Retargeting {
  std::shared_ptr<const formats::Scene> scene;
  std::vector<RetargetedClip> clips;
  const RetargetedClip* find(int clipIndex) const;  // null for a clip that was not retargeted
};

// The model with every source's clips retargeted onto its skeleton, added after its own clips
// (a name the model already has gets " (2)", " (3)", …); with a non-empty `map`, the model's own
// clips also find their bones through it (and by loose names). Each retargeted clip leaves an
// info diagnostic saying what plays and what does not. With no source and an empty map, the
// model itself.
Retargeting withAnimations(std::shared_ptr<const formats::Scene> model,
                           std::span<const AnimationSource> sources, const anim::BoneNameMap& map);

// Whether `source` is the model's own skeleton (or a part of it): every bone there by name, with
// the same parent and the same rest transform. Clips of such files need no retargeting.
bool sameSkeleton(const formats::Skeleton& model, const formats::Skeleton& source);

// What a viewer keeps between loads of one model: the animation sources attached to it and the
// bone-name map, and the model as its files give it.
class AnimationSet {
 public:
  void clearSources() { sources_.clear(); }
  void addSource(AnimationSource source) { sources_.push_back(std::move(source)); }
  const std::vector<AnimationSource>& sources() const { return sources_; }
  void setMap(anim::BoneNameMap map, QString path);
  void clearMap() { setMap({}, {}); }
  const QString& mapPath() const { return mapPath_; }  // empty: no map
  const anim::BoneNameMap& map() const { return map_; }
  // The model with the sources' clips retargeted onto it and the map applied (withAnimations);
  // `model` is remembered as base().
  std::shared_ptr<const formats::Scene> apply(std::shared_ptr<const formats::Scene> model);
  std::shared_ptr<const formats::Scene> base() const { return base_; }
  const Retargeting& applied() const { return applied_; }

 private:
  std::vector<AnimationSource> sources_;
  anim::BoneNameMap map_;
  QString mapPath_;
  std::shared_ptr<const formats::Scene> base_;
  Retargeting applied_;
};

// One line on what of a retargeted clip plays: "18 of 20 tracks play (3 by loose names);
// without a bone: Tail, Tail1; bones without a track: Weapon; rest poses corrected; translations
// ×0.85". Name lists end with "… N more" past `maxNames`.
std::string describe(const anim::RetargetReport& report, std::size_t maxNames = 8);

}  // namespace marrow::app
