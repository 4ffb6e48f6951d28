// A channel's value at a time, as playback samples it (render/anim does the same for whole
// poses): held before the first key and after the last, lerp / slerp (the shorter way) between
// keys, or the key at or before the time for Step. For formats/ code that cuts or resamples
// clips; a channel must have at least one key.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::formats {

glm::vec3 sampleAt(const Channel<glm::vec3>& channel, float time);
glm::quat sampleAt(const Channel<glm::quat>& channel, float time);

// For writers of files that count time in frames (BRF at 30 a second, Dragon Nest's ANI at 60):
// the nearest frame of a time, 0 to 2^30 (finite whatever the time);
std::int32_t frameAt(float seconds, float fps);
// whether every time lies on a frame (within a thousandth of one, or the float's own precision:
// frame 100,000 is 3333.333 s, held to 2.4e-4 s), each later than the one before, none past `last`;
bool keysOnFrames(std::span<const float> times, float fps, std::int32_t last);
// the frames 0..last a clip whose keys are not on frames is sampled at: every one, or for a clip
// over 216,000 frames every step-th and the last (so that a hostile duration cannot exhaust
// memory).
std::vector<std::int32_t> sampleFrames(std::int32_t last);

}  // namespace marrow::formats
