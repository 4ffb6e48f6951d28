// Inside formats/brf: the record → model conversion that toScene (scene.cpp) wraps.
#pragma once

#include <span>

#include "formats/brf/brf.h"

namespace marrow::formats::brf::detail {

// May throw FormatException / bad_alloc; toScene turns them into a Result.
Result<Scene> buildScene(std::span<const Source> sources, const Selection& selection);

}  // namespace marrow::formats::brf::detail
