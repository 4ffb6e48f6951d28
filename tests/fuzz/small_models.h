// Small, valid files our own writers make: the fixed companions some targets read the fuzzed
// file with (a skeleton for a mesh or an animation, the mesh a skin names), and seeds.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::fuzz {

struct NamedFile {
  std::string name;
  std::vector<std::byte> bytes;
};

// The Dragon Nest test character (tests/support/dragonnest_test_character.h) at MSH `version`
// (10–13): "Character.msh", "Character.skn", "Character.ani".
std::vector<NamedFile> dragonNestCharacter(int version);

// That character as a model (three bones, three meshes, two clips, three materials).
const formats::Scene& smallCharacter();

// The small character as a whole cal3d model written by formats/cal3d/writer.h: "small.cfg",
// "small.csf", meshes, materials and animations, binary or XML, at `version`.
std::vector<NamedFile> smallCal3dModel(bool xml, int version);

// A skeleton of `bones` bones named "b0", "b1", … (bone i's parent (i − 1) / 2) as a CSF 1100:
// cal3d meshes and animations refer to bones by index, and the fixtures name up to ~100.
std::vector<std::byte> wideSkeletonCsf(int bones = 128);

// A head of two submeshes with morph targets ("smile" in both, "blink" in the first) and a clip
// "talk" driving them: for the morph animation targets (its mesh file: morphMeshCmf).
const formats::Scene& morphCharacter();
std::vector<std::byte> morphMeshCmf();

}  // namespace marrow::fuzz
