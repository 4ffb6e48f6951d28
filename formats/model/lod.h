// Parts of a mesh: the triangles of a progressive-mesh level of detail (cal3d's), and a mesh made
// of some of another's triangles. What the renderer draws at a level and what writers store as
// level meshes or split meshes come from here.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::formats {

// The triangles to draw at level of detail `level` in [0, 1] (1: all), as cal3d's progressive
// meshes define it (scene.h LevelOfDetail): the last collapsible vertices merge into the ones
// they collapse to and the faces they took are dropped from the end. A mesh without LOD data
// gives its own indices.
void lodIndices(const Mesh& mesh, float level, std::vector<std::uint32_t>& out);

// A mesh of the triangles `indices` (into `mesh`'s vertices) name: the vertices they use, in
// order of first use, with every per-vertex array, influence and morph target that goes with
// them; its name, material and binds are the mesh's.
Mesh meshOfTriangles(const Mesh& mesh, std::span<const std::uint32_t> indices);

}  // namespace marrow::formats
