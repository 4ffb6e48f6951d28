// The reference side of the cal3d checks: libcal3d 0.11 (Debian's libcal3d12) loading and posing
// cal3d files through its public API only. Nothing here uses Marrow code, so the two sides share
// no conversion (quaternion convention, bone space, winding, looping) that could hide a common
// mistake. glm is used only as a container for the numbers libcal3d produces.
//
// What libcal3d 0.11 really does, found by running it (the tests rely on each point):
// - blendCycle(id, 1, 0) creates the cycle with weight 0; the first updateAnimation(dt) raises it
//   to the full weight (the delay 0 has passed) and only then sets the mixer's cycle duration,
//   after it has advanced the mixer time. So one updateAnimation(0) first, then
//   updateAnimation(t): the mixer time is t, or fmod(t, duration) once t ≥ duration.
// - updateSkeleton samples a synchronised cycle at mixer time × the cycle's duration / the
//   mixer's duration, which with one cycle is the mixer time up to one float rounding (an ulp,
//   3.8e-6 s at 60 s: visible on DokuroChan's 163 s clip, where a fast joint turns 16 rad/s).
// - blendCycle appends a copy of every track's first key at the duration when the *first* track's
//   last key is earlier than the duration (spec §11) — into the core animation, for good. Actions
//   are therefore posed on a second core model that never saw a cycle.
// - executeAction(id, 0, 0) plays the clip once at full weight from time 0; at t ≥ duration the
//   action has ended and the skeleton is back at rest.
// - Key sampling extrapolates outside [first key, last key] (its binary search never reports
//   "before the first" or "after the last" for tracks of two keys or more; spec §11) where the
//   spec clamps: callers compare only inside the key range.
// - Submeshes with springs keep "internal data" that the spring simulation moves, and
//   CalPhysique::calculateVertices leaves their physically weighted vertices unwritten.
//   CalModel::disableInternalData() turns the simulation off: then every vertex is skinned like any
//   other, which is what Marrow does (scene.h, Spring).
// - Levels of detail: a fresh CalModel is at full detail; setLodLevel(1) makes it explicit.
//   CalSubmesh::setLodLevel keeps the core face order: its faces are the first
//   faceCount − Σ faceCollapseCount core faces, each index followed along collapseId while it is
//   ≥ the active vertex count (so a collapseId of −1 ends the walk with the index −1).
#pragma once

#include <array>
#include <glm/vec3.hpp>
#include <memory>
#include <string>
#include <vector>

namespace marrow::reference {

struct Cal3dFiles {
  std::string skeleton;
  std::vector<std::string> meshes, materials, animations;
};

struct Cal3dBone {
  std::string name;
  int parent = -1;
  glm::vec3 origin{0.0f};  // CalBone::getTranslationAbsolute
  // The bone frame's unit axes in model space: each unit vector rotated the way cal3d rotates
  // (CalVector *= getRotationAbsolute()), i.e. the columns of the bone's model rotation.
  std::array<glm::vec3, 3> axes{};
};

struct Cal3dSubmesh {
  std::string name;  // the mesh file's stem, with "#i" when the file has several submeshes
  std::vector<glm::vec3> positions, normals;  // CalPhysique::calculateVertices / calculateNormals
};

struct Cal3dFrame {
  std::vector<Cal3dBone> bones;
  std::vector<Cal3dSubmesh> submeshes;  // meshes in the order given, submeshes in file order
  float mixerTime = 0.0f;               // the time the clip was sampled at
};

// One submesh at a level of detail, as CalModel::setLodLevel leaves it and CalRenderer hands it
// out (selectMeshSubmesh, getVertexCount, getFaceCount, getFaces).
struct Cal3dLodSubmesh {
  std::string name;             // as Cal3dSubmesh::name
  int coreVertexCount = 0;      // CalCoreSubmesh::getVertexCount
  int lodCount = 0;             // CalCoreSubmesh::getLodCount: the collapsible vertices
  int coreFaceCount = 0;        // CalCoreSubmesh::getFaceCount
  int vertexCount = 0;          // CalRenderer::getVertexCount: the active vertices at the level
  std::vector<glm::vec3> restPositions;  // core vertex positions, in file order
  std::vector<std::array<int, 3>> faces;  // CalRenderer::getFaces, in libcal3d's order
};

// Key times of one core animation, read before any cycle could append to it. libcal3d holds a
// single-key track constant but extrapolates a track of two keys or more outside its keys, hence
// the "multi" range.
struct Cal3dKeyRange {
  float duration = 0.0f;
  int tracks = 0;
  float firstKeyMax = 0.0f;          // the latest first key of any track
  float lastKeyMax = 0.0f;           // the latest last key of any track
  float lastKeyOfFirstTrack = 0.0f;  // what decides whether blendCycle appends (see above)
  // Over the tracks of two keys or more (0 and duration when there are none): inside
  // [firstKeyMaxMulti, lastKeyMinMulti] every track is between two of its keys or constant.
  float firstKeyMaxMulti = 0.0f;
  float lastKeyMinMulti = 0.0f;
};

class Libcal3dModel {
 public:
  explicit Libcal3dModel(const Cal3dFiles& files);
  ~Libcal3dModel();
  Libcal3dModel(const Libcal3dModel&) = delete;
  Libcal3dModel& operator=(const Libcal3dModel&) = delete;

  // Empty when every file loaded; else which file libcal3d refused and its error text.
  const std::string& error() const;

  int boneCount() const;
  int animationCount() const;
  const Cal3dKeyRange& keyRange(int animation) const;
  // Rest positions of every vertex (CalCoreSubmesh vertex positions), to size the model.
  std::vector<glm::vec3> restVertices() const;

  Cal3dFrame rest();
  // The clip as a cycle (blendCycle, looping) at mixer time `t` (any t ≥ 0: the mixer wraps it).
  Cal3dFrame cycle(int animation, float t);
  // The clip as a one-shot action (executeAction) `t` seconds after it started.
  Cal3dFrame action(int animation, float t);
  // Every track of the clip held at its first (`last` false) or last key, posed by libcal3d's own
  // bone code (CalBone::blendState, CalSkeleton::calculateState): what the spec says sampling
  // gives before the first and after the last key (§11), where the mixer extrapolates instead.
  Cal3dFrame heldKeys(int animation, bool last);
  // The clip as a cycle on a model with its spring simulation on (internal data kept), stepped
  // by CalModel::update: update(0), then `steps` × update(dt). Per update: the mixer time and
  // every submesh's positions as the model keeps them (CalSubmesh::getVectorVertex: simulated
  // vertices where springs are, skinned elsewhere). Bones are not captured.
  std::vector<Cal3dFrame> springCycle(int animation, float dt, int steps);
  // Every submesh (meshes in the order given, submeshes in file order) after
  // CalModel::setLodLevel(level) on a fresh model.
  std::vector<Cal3dLodSubmesh> levelOfDetail(float level);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace marrow::reference
