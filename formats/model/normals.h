// Vertex normals for meshes that bring none. No Qt, no GL.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::formats {

// Area-weighted smooth normals from the triangles, for a mesh that brings none; a vertex no
// triangle uses gets `none`. (The renderer draws such meshes with them; writers write them.)
std::vector<glm::vec3> smoothNormals(const Mesh& mesh, glm::vec3 none = glm::vec3(0.0f, 1.0f, 0.0f));

// The normals assimp's GenSmoothNormals step gives a mesh without normals (Debian's assimp 5.2,
// at its default smoothing angle), for the files the assimp reader imports: smooth across the
// corners that formats storing a triangle's corners one by one (OBJ, SMD, STL, 3DS…) repeat at
// one place. Every vertex takes the unit normal of the last triangle that uses it (zero for a
// degenerate triangle or none). Then, the vertices taken in order, one that has no result yet
// and every vertex closer to it than 1e-4 of the bounding box's diagonal all get the normalised
// sum of those normals (zero when it is zero); a vertex met again by a later one's neighbourhood
// takes the later result, as in assimp. Sums run in another order than assimp's, so results
// agree to rounding (tests/reference/assimp_normals_test.cpp).
// `triangles`: three indices per triangle; a triangle with an index past the positions is
// skipped. Linear for real meshes: the neighbourhoods come from a grid of cells the size of the
// tolerance, sorted by counting, and the vertices starting a neighbourhood are pairwise apart by
// the tolerance, so however a file crowds its vertices each is looked at a bounded number of
// times. A box whose diagonal is not a finite positive number once squared (all vertices at one
// place, coordinates beyond about 1e18) gets every vertex its own normal.
std::vector<glm::vec3> weldedSmoothNormals(std::span<const glm::vec3> positions,
                                           std::span<const std::uint32_t> triangles);

}  // namespace marrow::formats
