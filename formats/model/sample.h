// A channel's value at a time, as playback samples it (render/anim does the same for whole
// poses): held before the first key and after the last, lerp / slerp (the shorter way) between
// keys, or the key at or before the time for Step. For formats/ code that cuts or resamples
// clips; a channel must have at least one key.
#pragma once

#include "formats/model/scene.h"

namespace marrow::formats {

glm::vec3 sampleAt(const Channel<glm::vec3>& channel, float time);
glm::quat sampleAt(const Channel<glm::quat>& channel, float time);

}  // namespace marrow::formats
