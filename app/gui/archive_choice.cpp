#include "app/gui/archive_choice.h"

#include <algorithm>

namespace marrow::app {

namespace brf = formats::brf;
using brf::RecordRef;
using brf::Section;

namespace {

std::vector<RecordRef> ofKind(std::span<const RecordRef> records, Section kind) {
  std::vector<RecordRef> out;
  std::copy_if(records.begin(), records.end(), std::back_inserter(out),
               [kind](const RecordRef& r) { return r.kind == kind; });
  return out;
}

std::size_t bonesOf(std::span<const brf::Source> sources, const RecordRef& skeleton) {
  return sources[skeleton.source].doc->skeletons[skeleton.index].bones.size();
}

std::size_t tracksOf(std::span<const brf::Source> sources, const RecordRef& animation) {
  return sources[animation.source].doc->animations[animation.index].tracks.size();
}

// The skeleton an animation plays on with `meshes`: the user's if it has the animation's bone
// count, else the first that fits both, else one that fits the animation alone (the meshes are
// then left out), else none (the model's skeleton stays and the timeline says why nothing moves).
void pickForAnimation(std::span<const brf::Source> sources, const RecordRef& animation,
                      std::optional<RecordRef> chosen, ArchiveChoice& c) {
  const std::size_t tracks = tracksOf(sources, animation);
  const auto matches = [&](const RecordRef& s) { return bonesOf(sources, s) == tracks; };
  const std::vector<RecordRef> meshes = *c.selection.meshes;
  const auto withMeshes = brf::fittingSkeletons(sources, meshes, std::span(&animation, 1));
  if (chosen && matches(*chosen) &&
      std::find(withMeshes.begin(), withMeshes.end(), *chosen) != withMeshes.end()) {
    c.selection.skeleton = chosen;
    return;
  }
  if (const auto it = std::find_if(withMeshes.begin(), withMeshes.end(), matches); it != withMeshes.end()) {
    c.selection.skeleton = *it;
    return;
  }
  const auto alone = brf::fittingSkeletons(sources, {}, std::span(&animation, 1));
  if (const auto it = std::find_if(alone.begin(), alone.end(), matches); it != alone.end()) {
    c.selection.skeleton = *it;
    c.selection.meshes = std::vector<RecordRef>{};
    return;
  }
  c.selection.skeleton = chosen;
}

}  // namespace

ArchiveChoice chooseRecords(std::span<const brf::Source> sources, std::span<const RecordRef> picked,
                            const ShownRecords& shown, std::optional<RecordRef> skeleton) {
  ArchiveChoice c;
  c.shown = shown;
  const auto meshes = ofKind(picked, Section::Mesh);
  const auto bodies = ofKind(picked, Section::Body);
  const auto animations = ofKind(picked, Section::Animation);
  const auto skeletons = ofKind(picked, Section::Skeleton);
  if (!animations.empty())
    c.clip = brf::recordName(sources[animations.front().source], Section::Animation,
                             animations.front().index);
  c.selection.animations = brf::allRecords(sources, Section::Animation);
  c.selection.skeleton = skeleton;

  if (!meshes.empty() || !bodies.empty()) {
    // The meshes and bodies picked, every animation to choose from, the skeleton that fits.
    c.show = ArchiveChoice::Show::Records;
    c.shown = {meshes, bodies};
    c.selection.meshes = meshes;
    c.selection.bodies = bodies;
    const auto fits = fittingSkeletonsFor(sources, c.selection);
    if (skeleton && std::find(fits.begin(), fits.end(), *skeleton) == fits.end())
      c.selection.skeleton.reset();  // chosen for other meshes
    c.chosenSkeleton = c.selection.skeleton;
    return c;
  }
  if (!animations.empty()) {
    c.show = ArchiveChoice::Show::Records;
    c.selection.meshes = shown.meshes ? *shown.meshes : brf::allRecords(sources, Section::Mesh);
    c.selection.bodies = shown.bodies ? *shown.bodies : brf::allRecords(sources, Section::Body);
    pickForAnimation(sources, animations.front(), skeleton, c);
    if (skeleton && c.selection.skeleton == skeleton) c.chosenSkeleton = skeleton;
    return c;
  }
  if (!skeletons.empty()) {
    // The skeleton alone, with the animations made for its bone count.
    c.show = ArchiveChoice::Show::Records;
    c.shown = {std::vector<RecordRef>{}, std::vector<RecordRef>{}};
    c.selection.meshes = std::vector<RecordRef>{};
    c.selection.bodies = std::vector<RecordRef>{};
    c.selection.skeleton = skeletons.front();
    const std::size_t bones = bonesOf(sources, skeletons.front());
    std::erase_if(*c.selection.animations,
                  [&](const RecordRef& a) { return tracksOf(sources, a) != bones; });
    return c;
  }
  if (!picked.empty()) {
    c.show = ArchiveChoice::Show::KeepModel;
    return c;
  }
  // Nothing picked: the whole files, on the skeleton the user chose if there is one.
  c.shown = {};
  c.selection = {};
  c.selection.skeleton = skeleton;
  c.chosenSkeleton = skeleton;
  c.show = skeleton ? ArchiveChoice::Show::Records : ArchiveChoice::Show::WholeFiles;
  return c;
}

std::vector<RecordRef> fittingSkeletonsFor(std::span<const brf::Source> sources,
                                           const brf::Selection& selection) {
  const auto meshes = selection.meshes ? *selection.meshes : brf::allRecords(sources, Section::Mesh);
  const auto animations =
      selection.animations ? *selection.animations : brf::allRecords(sources, Section::Animation);
  return brf::fittingSkeletons(sources, meshes, animations);
}

}  // namespace marrow::app
