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

#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "formats/model/scene.h"

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

  const std::vector<glm::vec3>& positions() const { return out_; }

 private:
  SpringSettings settings_;
  std::vector<glm::vec3> position_, previous_, out_;
};

}  // namespace marrow::anim
