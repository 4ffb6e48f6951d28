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

#include <string>

#include "formats/model/scene.h"

namespace marrow::reference {

// Z-up (cal3d's own basis), so that the written files and the scene share coordinates.
formats::Scene syntheticCal3dModel();

// A progressive mesh made in code (cal3d §5 LOD), for the level-of-detail check where the fixtures
// are absent: one bone and two submeshes, "name#0" and "name#1", of the same 5 × 5 grid (in
// shuffled vertex order) with collapse data made by collapsing its vertices last-first — each
// onto a seeded pick among its current neighbours, often a collapsible one, so that indices
// follow chains of collapses — and its faces ordered so that those removed first are at the end.
// The last vertex is used by no face and collapses nowhere (collapseId −1, no faces), as
// cally_hand_*.cmf vertex 6 does. Submesh 0 is wound counter-clockwise about its normals;
// submesh 1 clockwise, so that cal3d's binary loader swaps its faces' winding (§5) on both sides.
formats::Scene syntheticLodModel(const std::string& name);

}  // namespace marrow::reference
