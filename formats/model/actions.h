// Clips cut out of frame-indexed clips (BRF animations, whose keys sit at integer frame indices,
// Clip::frameIndexed): by the model's actions (Warband's actions.txt, warband_module.md §3), or,
// without actions, at gaps of more than kSplitGap frame indices.
#pragma once

#include <cstdint>
#include <string>

#include "formats/model/scene.h"

namespace marrow::formats {

// Sequences whose keys lie further apart than this are separate motions (OpenBRF's auto-split).
inline constexpr std::int32_t kSplitGap = 11;
// Frame indices beyond this (either sign) are refused by readers and clamped here: float times
// hold whole frames exactly only up to 2^24, and differences of indices stay within int32.
inline constexpr std::int32_t kMaxFrameIndex = 1 << 24;
// All the clips cutClips makes hold at most this many keys together (an actions.txt of 65,536
// sequences each over the whole of a long animation would otherwise copy it 65,536 times).
inline constexpr std::uint64_t kMaxCutKeys = 1ull << 23;
// arf_cyclic: the sequence loops.
inline constexpr std::uint32_t kActionCyclic = 0x10000000u;

// The clip that plays `source`'s keys from frame index `begin` to `end` (backwards when
// begin > end, one pose when equal) over `duration` seconds (0: the frames at the source's
// rate): keys inside the range kept, the poses at both ends sampled, times mapped onto the
// duration. Channels without keys stay empty. `name` and the frame span are set; the caller
// sets loops and group.
Clip cutClip(const Clip& source, std::int32_t begin, std::int32_t end, float duration, std::string name);

// Adds to scene.clips: one clip per action sequence whose animation is a frame-indexed clip of
// the scene (named ACTION, or ACTION:k for the k-th of several sequences; "ACTION (action)"
// when a clip has that name already), filling ActionSequence::clip; without actions, the
// motions of each frame-indexed clip split at gaps (ANIM:FIRST-LAST) when there are several.
// The whole clips stay. What could not be cut (an animation not open; keys past kMaxCutKeys) is
// said in scene.diagnostics.
void cutClips(Scene& scene);

}  // namespace marrow::formats
