// What the viewer shows for records picked in the archive tree: the rules of the issue ("selecting
// a mesh shows it; an animation plays on a fitting skeleton with the meshes shown…") as a plain
// function of the open files, the picked records and what is shown now, so tests can check them.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/brf/brf.h"

namespace marrow::app {

// The meshes and bodies on screen from an earlier pick; unset: all of the open files'.
struct ShownRecords {
  std::optional<std::vector<formats::brf::RecordRef>> meshes, bodies;
};

struct ArchiveChoice {
  enum class Show {
    WholeFiles,  // nothing picked: the files as loaded (Document::scene)
    Records,     // the model `selection` makes
    KeepModel,   // only materials, textures or shaders picked: the model stays, they are inspected
  };
  Show show = Show::WholeFiles;
  formats::brf::Selection selection;
  ShownRecords shown;  // what is on screen afterwards
  std::string clip;    // the clip to play: the animation picked, if one was
  // The user's skeleton when it is still in use (it fits what is shown); else automatic.
  std::optional<formats::brf::RecordRef> chosenSkeleton;
};

// `skeleton`: the one the user chose, or nothing for the automatic choice.
ArchiveChoice chooseRecords(std::span<const formats::brf::Source> sources,
                            std::span<const formats::brf::RecordRef> picked,
                            const ShownRecords& shown,
                            std::optional<formats::brf::RecordRef> skeleton);

// The skeletons the choice's meshes and animations fit (brf::fittingSkeletons), best first.
std::vector<formats::brf::RecordRef> fittingSkeletonsFor(std::span<const formats::brf::Source> sources,
                                                         const formats::brf::Selection& selection);

}  // namespace marrow::app
