// Parts of a mesh: the triangles of a progressive-mesh level of detail (cal3d's), and a mesh made
// of some of another's triangles. What the renderer draws at a level and what writers store as
// level meshes or split meshes come from here.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <span>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::formats {

// The triangles to draw at level of detail `level` in [0, 1] (1: all), as cal3d's progressive
// meshes define it (scene.h LevelOfDetail): the last collapsible vertices merge into the ones
// they collapse to and the faces they took are dropped from the end. A mesh without LOD data
// gives its own indices.
void lodIndices(const Mesh& mesh, float level, std::vector<std::uint32_t>& out);

// Level meshes by name, as BRF stores them (Warband's jerkin, jerkin.lod1 … jerkin.lod4): a mesh
// NAME.lodN (N from 1 to 9) beside a mesh NAME is level N of it; one without its NAME is a mesh
// of its own. Per mesh: its level (0: a mesh of its own) and the mesh it is a level of (itself
// at level 0).
// The mesh a name is a level of and the level: "jerkin.lod2" → {"jerkin", 2}; nothing for a name
// not of that form ("helmet.lodge", "boots.lod0", "boots.lod10").
struct LevelName {
  std::string_view of;
  int level = 0;
};
std::optional<LevelName> levelName(std::string_view name);
struct MeshLevels {
  std::vector<int> level, of;
  int deepest = 0;  // the highest level any mesh has; 0: no level meshes
};
MeshLevels meshLevels(const Scene& scene);
// Which meshes are drawn at `level`: of each mesh of its own, its level `level`, or the deepest
// it has above that (a mesh with two levels shows its level 2 at level 4).
std::vector<bool> drawnAtLevel(const MeshLevels& levels, int level);

// A mesh of the triangles `indices` (into `mesh`'s vertices) name: the vertices they use, in
// order of first use, with every per-vertex array, influence and morph target that goes with
// them; its name, material and binds are the mesh's.
Mesh meshOfTriangles(const Mesh& mesh, std::span<const std::uint32_t> indices);

}  // namespace marrow::formats
