// Internal consistency of a Scene: every index in range, every per-vertex array the right size,
// every number finite. Readers are expected to produce valid scenes; this is the safety net the
// loaders run before anything reaches the animation system or the GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::formats {

// Problems found, each one sentence naming the element ("mesh 'body': index 12 of triangle 4 is
// 9000, past the 812 vertices"); empty when the scene is consistent.
std::vector<std::string> validate(const Scene& scene, std::size_t maxProblems = 20);

// The first bone (in model order) nested more than `maxDepth` bones deep, a root being 1 deep,
// and its depth; nothing when none is. Readers whose formats allow any depth refuse a skeleton
// deeper than Limits::maxHierarchyDepth with it, so that nothing walking a hierarchy (a tree
// view, a recursive exporter) meets one deeper than that. Parents must precede their children
// (a bone whose parent does not counts as a root here; validate() reports it).
struct TooDeep {
  std::size_t bone = 0;
  std::uint32_t depth = 0;
};
std::optional<TooDeep> boneDeeperThan(const Skeleton& skeleton, std::uint32_t maxDepth);

}  // namespace marrow::formats
