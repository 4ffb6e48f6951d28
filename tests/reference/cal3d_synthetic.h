// A small cal3d-shaped model made in code, so that the writer round trip through libcal3d runs
// where the fixtures folder is absent.
//
// Chosen to catch convention mistakes, not to look like anything: rest rotations about skewed
// axes on every level of a chain (a missing or doubled quaternion conjugation moves every child),
// a bind pose that differs from the rest pose (the bone-space pair must be written, not derived),
// influences of one to three bones, one vertex without influences, springs with physical
// weights, two submeshes of one file (one without a material), a track with rotation keys only
// (the writer must fill in the rest translation), a bone without a track, and two clips: one
// whose keys end before its duration (cycles loop back to the first key, §11) and one with a
// closing key at the duration and a single-key track.
#pragma once

#include "formats/model/scene.h"

namespace marrow::reference {

// Z-up (cal3d's own basis), so that the written files and the scene share coordinates.
formats::Scene syntheticCal3dModel();

}  // namespace marrow::reference
