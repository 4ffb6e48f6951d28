// What a game cannot hold of a model, or will show wrong, before it is written for that game
// (`marrow-cli check --target`, `convert --fix`, File › Export's report), and the fixes that lose
// nothing important. No Qt.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/diagnostics.h"
#include "formats/model/scene.h"

namespace marrow::formats {

struct Problem {
  Severity severity = Severity::Error;  // Error: the game refuses it or breaks; Warning: shows it wrong
  std::string code;                     // "influences.count", stable for scripts
  std::string where;                    // "mesh 'body'", "" for the whole model
  std::string message;
  std::string fix;  // what to do about it; "" when nothing
  bool fixable = false;  // `fix` is what fixModel (convert --fix, Fix and Export) does
};

// A game or engine a model is written for, and the limits it has.
struct CheckTarget {
  std::string_view id;         // "warband"
  std::string_view name;       // for people
  std::string_view extension;  // the output written for it: "brf", "skn", "cfg"
  int version = -1;            // the output's version (BRF: 0 or 1), -1: the writer's default
  std::size_t maxInfluences = 0;    // per vertex (0: no limit)
  std::size_t maxVertices = 0;      // per mesh or submesh: 16-bit indices
  std::size_t maxTriangles = 0;     // per mesh
  std::size_t maxMeshBones = 0;     // bones one mesh (a palette) may use
  std::size_t maxNameBytes = 0;     // meshes, materials, clips, skeletons
  std::size_t maxBoneNameBytes = 0;
  bool spacedNames = true;          // false: names may not hold spaces (module text files split at them)
  bool boneScale = true;            // false: the format's bones have no scale
  float frameRate = 0.0f;           // the frames per second its animations are keyed on (0: any time)
  bool morphs = true;               // false: no morph targets, no morph animation
};

// warband, mb1011, dragonnest, cal3d.
std::span<const CheckTarget> checkTargets();
const CheckTarget* findCheckTarget(std::string_view id);
// The target an output is written for: .brf → warband (mb1011 with version 0), cal3d's files →
// cal3d, Dragon Nest's → dragonnest; nothing for outputs of no game (glTF, OMF).
const CheckTarget* checkTargetFor(std::string_view outputExtension, std::optional<int> version);
// "warband, mb1011, dragonnest or cal3d"
std::string checkTargetList();

// Every problem, errors first. Influences per vertex, weights that do not sum to 1, vertices,
// triangles and bones per mesh, name lengths and characters, degenerate triangles, textures
// not found, bone scale where bones have none; for BRF also a skeleton that is not the game's
// and what the BRF writer would have to leave out (translation of bones other than the root).
std::vector<Problem> checkModel(const Scene& scene, const CheckTarget& target);
bool hasErrors(std::span<const Problem> problems);

// The model with the fixes that lose nothing important: the strongest influences kept and
// renormalised, weights renormalised, degenerate triangles removed, meshes split to the
// vertex and bone limits (NAME, NAME_2, …), names shortened and spaces made '_'. `changes`
// receives each change in words.
Scene fixModel(const Scene& scene, const CheckTarget& target, std::vector<std::string>& changes);

}  // namespace marrow::formats
