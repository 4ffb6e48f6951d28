// Archives whose nodes are parts of one model (BRF records: meshes, the skeletons they are rigged
// to, animations, bodies, materials) show the model that picked nodes make, instead of opening a
// node as a file of its own. The rules of what a pick shows (an animation plays on a skeleton
// that fits it, a skeleton alone brings the animations of its bone count, …) are the archive's.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/io/result.h"
#include "formats/io/vfs.h"
#include "formats/model/scene.h"

namespace marrow::formats {

class ModelArchive {
 public:
  virtual ~ModelArchive() = default;

  struct Shown {
    enum class What {
      WholeFiles,  // nothing picked: the files as they were loaded
      Model,       // `scene`
      Inspect,     // only parts of materials picked: the model stays; `scene` holds them alone
    };
    What what = What::WholeFiles;
    Scene scene;
    std::string clip;  // the clip to play: the animation picked, when one was
    // What stays on screen for the next pick (the meshes and bodies shown); unset: everything.
    std::optional<std::vector<std::string>> onScreen;
    // The skeletons that fit what is shown, best first (the first is the automatic choice), and
    // the user's choice when it is still in use.
    std::vector<vfs::Node> skeletons;
    std::optional<std::string> chosenSkeleton;
  };

  // The model the nodes at `picked` make, given what the last pick left on screen and the
  // skeleton the user chose (a node path; unset: automatic).
  virtual Result<Shown> show(std::span<const std::string> picked,
                             const std::optional<std::vector<std::string>>& onScreen,
                             const std::optional<std::string>& skeleton) const = 0;

  // The model the nodes at `picked` make alone (no earlier pick on screen, the automatic
  // skeleton), at rest: without clips, which a picture of it (a gallery's thumbnail) does not
  // need. The default: show()'s model without its clips; an archive that can skip making them
  // does.
  virtual Result<Scene> still(std::span<const std::string> picked) const {
    auto shown = show(picked, std::nullopt, std::nullopt);
    if (!shown) return shown.error();
    if (shown->what != Shown::What::Model)
      return FormatError{picked.empty() ? std::string() : picked.front(), "record", kNoOffset,
                         "not a model of its own"};
    shown->scene.clips.clear();
    return std::move(shown->scene);
  }

  // What the viewer picks when the files open, so that the model is not a heap: empty when the
  // whole files make one model.
  virtual std::vector<std::string> openingPick() const { return {}; }
};

}  // namespace marrow::formats
