// marrow-cli pose: bone model matrices and skinned vertex positions at a time of a clip.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "app/cli/animations.h"
#include "app/cli/common.h"
#include "render/anim/morph.h"
#include "render/anim/skinning.h"
#include "render/anim/springs.h"

namespace marrow::app::cli {

int runPose(const Args& args) {
  double time = 0.0;
  if (!numberOption(args, "--time", time)) return kUsage;
  const std::string space = args.option("--space") ? *args.option("--space") : "native";
  if (space != "native" && space != "display")
    return usageError("pose", "--space is native or display, not '" + space + "'");
  anim::PlayMode mode;
  if (!playModeOption(args, mode)) return kUsage;
  auto doc = loadInputs(args);
  if (!doc) return kLoadError;
  Retargeting retargeting;
  if (!applyAnimationOptions(args, *doc, retargeting)) return kLoadError;
  const formats::Scene& s = *doc->scene;
  int clipIndex = -1;
  if (!chooseClip(args, s, clipIndex)) return kUsage;
  std::vector<bool> drawn;
  if (!levelOption(args, s, drawn)) return kUsage;
  if (!args.option("--clip") && firstRetargetedClip(retargeting) >= 0)
    clipIndex = firstRetargetedClip(retargeting);
  const formats::Clip* clip = clipIndex >= 0 ? &s.clips[clipIndex] : nullptr;
  const RetargetedClip* retargeted = clip ? retargeting.find(clipIndex) : nullptr;

  const float t = clip ? anim::clipTime(static_cast<float>(time), clip->duration, mode) : 0.0f;
  const anim::Pose pose = anim::evaluate(s.skeleton, clip, t, mode == anim::PlayMode::Loop);
  const bool springs = args.has("--springs");

  // Display space re-expresses the whole model (formats::convertBasis does the same to data):
  // points map by C, bone frames by C·M·C⁻¹.
  const bool display = space == "display";
  const glm::mat4 c = display ? formats::toDisplay(s.basis) : glm::mat4(1.0f);
  const glm::mat4 cInv = glm::inverse(c);

  JsonWriter j(args.has("--json"));
  const bool json = args.has("--json");
  if (json) {
    j.beginObject();
    j.key("clip");
    if (clip)
      j.value(clip->name);
    else
      j.null();
    j.field("time", static_cast<float>(time)).field("clip_time", t).field("space", space);
    if (clip) writeBinding(j, *clip, s.skeleton, retargeted);
    j.key("bones").beginArray();
  } else {
    std::printf("clip: %s  time: %g s (clip time %g s)  space: %s\n",
                clip ? clip->name.c_str() : "(rest pose)", time, t, space.c_str());
    if (retargeted) {
      std::printf("retargeted from %s: %s\n",
                  retargeted->source >= 0 ? retargeted->from.c_str() : "the model (bone map)",
                  describe(retargeted->report).c_str());
    } else if (clip) {
      const anim::Binding b = anim::bind(*clip, s.skeleton);
      if (!b.tracksWithoutBone.empty())
        std::printf("%zu of %zu tracks name no bone of the skeleton\n", b.tracksWithoutBone.size(),
                    clip->tracks.size());
    }
    std::printf("%-28s %-28s %12s %12s %12s\n", "bone", "parent", "x", "y", "z");
  }
  for (std::size_t i = 0; i < s.skeleton.bones.size(); ++i) {
    const auto& b = s.skeleton.bones[i];
    const glm::mat4 m = display ? c * pose.model[i] * cInv : pose.model[i];
    const std::string parent = b.parent >= 0 ? s.skeleton.bones[b.parent].name : std::string();
    if (json) {
      j.beginObject().field("name", b.name);
      j.key("parent");
      if (b.parent >= 0)
        j.value(parent);
      else
        j.null();
      j.key("model").numbers(&m[0][0], 16);
      j.endObject();
    } else {
      std::printf("%-28s %-28s %12.6f %12.6f %12.6f\n", b.name.c_str(),
                  parent.empty() ? "-" : parent.c_str(), m[3][0], m[3][1], m[3][2]);
    }
  }
  if (json) j.endArray().key("meshes").beginArray();

  // Vertex animation first, then skinning, as the vertex shader does.
  std::vector<std::vector<float>> morphWeights(s.meshes.size());
  for (std::size_t m = 0; m < s.meshes.size(); ++m)
    morphWeights[m].assign(s.meshes[m].morphs.size(), 0.0f);
  if (clip) anim::sampleMorphWeights(*clip, t, s.meshes, morphWeights);
  // --springs: the cloth at `t`, simulated afresh (render/anim/springs.h, ClothPlayback).
  std::map<std::size_t, std::vector<glm::vec3>> simulated;
  if (springs) {
    anim::ClothPlayback cloth(s);
    const bool looping = mode == anim::PlayMode::Loop;
    cloth.moveTo(t, clip ? clip->duration : 0.0f, looping,
                 [&](float x) { return anim::evaluate(s.skeleton, clip, x, looping); });
    for (std::size_t k = 0; k < cloth.meshes().size(); ++k) simulated[cloth.meshes()[k]] = cloth.positions(k);
  }
  std::vector<glm::mat4> palette;
  std::vector<glm::vec3> morphed, morphedNormals, skinned;
  for (std::size_t m = 0; m < s.meshes.size(); ++m) {
    if (!drawn[m]) continue;  // another level of a mesh's level meshes
    const formats::Mesh& mesh = s.meshes[m];
    anim::skinPalette(s.skeleton, mesh, pose, palette);
    if (mesh.morphs.empty()) {
      anim::skin(mesh, anim::packInfluences(mesh), palette, skinned);
    } else {
      anim::applyMorphs(mesh, morphWeights[m], morphed, morphedNormals);
      anim::skin(morphed, {}, anim::packInfluences(mesh), palette, skinned);
    }
    if (const auto it = simulated.find(m); it != simulated.end()) skinned = it->second;
    if (display)
      for (auto& p : skinned) p = glm::vec3(c * glm::vec4(p, 1.0f));
    if (json) {
      j.beginObject().field("name", mesh.name);
      if (!mesh.morphs.empty())
        j.key("morph_weights").numbers(morphWeights[m].data(), morphWeights[m].size());
      j.key("vertices").beginArray();
      for (const auto& p : skinned) j.numbers(&p.x, 3);
      j.endArray().endObject();
    } else {
      glm::vec3 lo(0.0f), hi(0.0f);
      if (!skinned.empty()) lo = hi = skinned.front();
      for (const auto& p : skinned) lo = glm::min(lo, p), hi = glm::max(hi, p);
      std::printf("mesh %-24s %7zu vertices  bounds (%g %g %g) – (%g %g %g)\n", mesh.name.c_str(),
                  skinned.size(), lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    }
  }
  if (json) {
    j.endArray().endObject();
    std::printf("%s\n", j.str().c_str());
  }
  return kOk;
}

}  // namespace marrow::app::cli
