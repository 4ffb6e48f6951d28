// Internal consistency of a Scene: every index in range, every per-vertex array the right size,
// every number finite. Readers are expected to produce valid scenes; this is the safety net the
// loaders run before anything reaches the animation system or the GPU.
#pragma once

#include <string>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::formats {

// Problems found, each one sentence naming the element ("mesh 'body': index 12 of triangle 4 is
// 9000, past the 812 vertices"); empty when the scene is consistent.
std::vector<std::string> validate(const Scene& scene, std::size_t maxProblems = 20);

}  // namespace marrow::formats
