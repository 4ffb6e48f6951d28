// cal3d's spring system: cloth and hair vertices (Mesh::physicalWeights > 0) moved by a
// mass-spring simulation while the rest of the mesh is skinned. The steps are libcal3d's
// CalSpringSystem (0.11, unchanged in the fork), which the Cal3dSprings reference test
// (tests/reference/cal3d_reference_test.cpp) steps alongside:
//
//   per vertex of weight w > 0:   f  = force + gravity · w
//                                 p' = p + (p − p_old) · 0.99 + f / w · dt²   (Verlet)
//   per vertex of weight 0:       p' = its skinned position
//   then twice over the springs (a, b, idle length L), d = p_b − p_a, l = |d| > 0:
//       k = (l − L) / l;  both free: a += d·k/2, b −= d·k/2;  a fixed: b −= d·k;  b fixed: a += d·k
//
// gravity is (0, 0, −98.1) and force (0, 0.5, 0) in the mesh's own coordinates (cal3d's Z-up
// centimetres), as libcal3d sets them. The simulated positions start at the mesh's bind
// positions (a fresh CalSubmesh), and normals stay the skinned ones (libcal3d does not recompute
// them). libcal3d's optional collision with bone boxes is off by default and not modelled.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "formats/model/scene.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

namespace marrow::anim {

struct SpringSettings {
  glm::vec3 gravity{0.0f, 0.0f, -98.1f};
  glm::vec3 force{0.0f, 0.5f, 0.0f};
};

// Whether the mesh is simulated: it has springs and one physical weight per vertex, some over 0.
bool hasSprings(const formats::Mesh& mesh);

class SpringSystem {
 public:
  // Starts at the mesh's bind positions (nothing moves until the first step).
  explicit SpringSystem(const formats::Mesh& mesh, SpringSettings settings = {});

  // One step of `dt` seconds (0 is a step too: the springs are relaxed once more). `skinned`: the
  // mesh's skinned positions now, one per vertex (vertices of weight 0 follow them). Returns the
  // positions to draw: `skinned` with the simulated vertices moved. A mesh without springs, or
  // `skinned` of another size, gives `skinned` back.
  const std::vector<glm::vec3>& step(const formats::Mesh& mesh, std::span<const glm::vec3> skinned,
                                     float dt);
  // Back to the bind positions (a jump in time: a scrub, another clip).
  void reset(const formats::Mesh& mesh);
  // The vertices of weight 0 of the positions to draw moved to `skinned` (one per vertex), the
  // simulation untouched: the cloth's fixed edge on the body at a time between two steps.
  void pin(const formats::Mesh& mesh, std::span<const glm::vec3> skinned);

  const std::vector<glm::vec3>& positions() const { return out_; }

 private:
  SpringSettings settings_;
  std::vector<glm::vec3> position_, previous_, out_;
};

// The cloth of every spring mesh of a scene along a clip's time, as the viewer plays it and
// `marrow-cli pose --springs` / `render --springs` show it. The simulation advances in whole
// steps of kStep only (Verlet carries a step's velocity into the next whatever its length, so a
// short step would kick the cloth), the remainder carried to the next call; the cloth's fixed
// edge and the normals are then skinned at the time asked for. A time reached afresh (the first,
// a scrub, another clip) is simulated from the bind positions at max(0, t − kHistory), the clip
// sampled at every step (the damping forgets the start within seconds; a clip of hours would
// otherwise take millions of steps). A time at most kContinue from the last one continues the
// simulation along the way the playhead went: forward, across a looped clip's end, or backward
// (ping-pong, a small scrub back: time still passes for the cloth). Morph weights are left out of
// the simulated meshes' skinning (cal3d applies none to springy submeshes).
class ClothPlayback {
 public:
  static constexpr float kStep = 1.0f / 60.0f;
  static constexpr float kHistory = 60.0f;
  static constexpr float kContinue = 0.25f;
  // The skeleton's pose at a clip time in [0, duration].
  using PoseAt = std::function<Pose(float seconds)>;

  // `scene` must outlive the playback.
  explicit ClothPlayback(const formats::Scene& scene);

  bool empty() const { return meshes_.empty(); }
  // The scene's meshes with springs (hasSprings), in scene order.
  const std::vector<std::size_t>& meshes() const { return meshes_; }

  // The cloth at clip time t of a clip of `duration` seconds (looping: times wrap).
  void moveTo(float t, float duration, bool looping, const PoseAt& poseAt);
  // The next moveTo simulates afresh (another clip, another skeleton pose source).
  void restart() { last_ = -1.0f; }

  // Of meshes()[k], at the last moveTo: the positions to draw (skinned, with the cloth
  // simulated) and the skinned normals.
  const std::vector<glm::vec3>& positions(std::size_t k) const { return systems_[k].positions(); }
  const std::vector<glm::vec3>& normals(std::size_t k) const { return normals_[k]; }

 private:
  void step(float time, float dt, const PoseAt& poseAt, float duration, bool looping);
  // The fixed edge and the normals at clip time t.
  void present(float t, const PoseAt& poseAt, float duration, bool looping);

  const formats::Scene& scene_;
  std::vector<std::size_t> meshes_;
  std::vector<SpringSystem> systems_;
  std::vector<PackedInfluences> packed_;
  std::vector<std::vector<glm::vec3>> normals_;
  std::vector<glm::mat4> palette_;
  std::vector<glm::vec3> skinned_;
  float last_ = -1.0f;  // the clip time of the last moveTo; < 0: none yet
  float carry_ = 0.0f;  // simulated time owed: the part of a step not taken yet
};

}  // namespace marrow::anim
