// Warband's text files (warband_module.md §2, §3): the bytes as an actions.txt (readActions) and as
// a module.ini (readModuleIni); the actions read then cut a small frame-indexed animation into
// clips (formats/model/actions.h) as a module's animations are cut, and the scene must stay valid.
#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/model/actions.h"
#include "formats/warband/actions.h"
#include "formats/warband/module.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace marrow;

// Two animations the actions may name: keys at scattered frame indices, one with a gap.
formats::Clip animation(const std::string& name, std::initializer_list<int> indices) {
  formats::Clip c;
  c.name = name;
  c.frameRate = 30.0f;
  c.frameIndexed = true;
  formats::Track t;
  t.bone = "root";
  for (int i : indices) {
    const float time = static_cast<float>(i) / 30.0f;
    t.rotation.add(time, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    t.translation.add(time, glm::vec3(static_cast<float>(i), 0.0f, 0.0f));
  }
  c.duration = static_cast<float>(*(indices.end() - 1)) / 30.0f;
  c.tracks.push_back(std::move(t));
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = fuzz::asBytes(data, size);
  {
    fuzz::AllocationWatch watch;
    auto ini = formats::warband::readModuleIni(bytes, fuzz::context("module.ini"));
    watch.check(size, "module.ini");
    if (fuzz::succeeded(ini, "module.ini", size))
      for (const auto& r : ini->resources)
        if (r.name.empty() || r.name.find_first_of("/\\:") != std::string::npos)
          fuzz::finding("module.ini resource line " + std::to_string(r.line) + " names '" + r.name +
                        "', which would leave the Resource folder");
  }
  (void)formats::warband::looksLikeActions(bytes.first(std::min<std::size_t>(size, 1024)));
  fuzz::AllocationWatch watch;
  auto actions = formats::warband::readActions(bytes, fuzz::context("actions.txt"));
  watch.check(size, "actions.txt");
  if (!fuzz::succeeded(actions, "actions.txt", size)) return 0;
  formats::Scene scene;
  scene.skeleton.bones.push_back({"root", -1, {}, {}, glm::vec3(1.0f)});
  scene.clips.push_back(animation("anim_human", {0, 5, 10, 50, 52, 60, 62, 100}));
  scene.clips.push_back(animation("walk_backward", {0, 10, 20, 30}));
  scene.actions = std::move(actions).value();
  // Durations and frame ranges come from the file: cutting must stay bounded (a cut keeps the
  // keys inside its range, so at most the animation's keys plus its two ends).
  std::size_t sequences = 0;
  for (const auto& a : scene.actions) sequences += a.sequences.size();
  if (sequences > 4096) return 0;
  formats::cutClips(scene);
  for (const auto& c : scene.clips)
    for (const auto& t : c.tracks)
      if (t.rotation.size() > 10 || t.translation.size() > 10)
        fuzz::finding("clip '" + c.name + "' has more keys than the animation it was cut from");
  fuzz::checkScene(scene, "actions.txt");
  return 0;
}
