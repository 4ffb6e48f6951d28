// Marrow's side of the cal3d reference checks and the comparison with libcal3d's frames
// (cal3d_libcal3d.h). Both sides stay in native cal3d coordinates (Z-up, file units).
#pragma once

#include <string>
#include <vector>

#include "formats/model/scene.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"
#include "tests/reference/cal3d_libcal3d.h"

namespace marrow::reference {

// A pose of a Marrow scene: bone model matrices and the skinned vertices of every mesh, through
// anim::evaluate, skinPalette, packInfluences and skin — what marrow-cli pose prints.
struct OurFrame {
  std::vector<glm::mat4> bones;
  std::vector<std::vector<glm::vec3>> positions, normals;  // per Scene mesh
};

class OurModel {
 public:
  explicit OurModel(formats::Scene scene);
  const formats::Scene& scene() const { return scene_; }
  int findClip(const std::string& name) const;  // -1 when absent
  // The clip at clip time t (nullptr: the rest pose). `looping`: as a cycle (§11).
  OurFrame pose(const formats::Clip* clip, float t, bool looping) const;

 private:
  formats::Scene scene_;
  std::vector<anim::PackedInfluences> packed_;
};

// Which of ours is each of theirs: bones by name, submeshes by name ("stem" / "stem#i").
struct Correspondence {
  std::vector<int> bone;     // per libcal3d bone: our bone index
  std::vector<int> submesh;  // per libcal3d submesh: our mesh index
  std::string problem;       // empty when everything has a partner of the same size
};
Correspondence correspond(const Cal3dFrame& theirs, const formats::Scene& ours);

// The model's size (§ the tolerance): the diagonal of the bounding box of the rest mesh,
// or of the rest bone origins when there is no mesh.
double modelSize(const std::vector<glm::vec3>& restVertices, const Cal3dFrame& restFrame);

// Largest differences, as fractions of the model's size (normals: absolute, they are unit).
struct Errors {
  double bonePosition = 0;  // |our bone origin − libcal3d's| / size
  double boneFrame = 0;     // max over the 3 unit axes of |ours − theirs|: how far a point one
                            // model size from the bone moves, as a fraction of the size
  double vertex = 0;        // |our skinned vertex − libcal3d's| / size
  double normal = 0;        // |our skinned normal − libcal3d's|
  std::string worstBone, worstVertex, worstNormal;  // where, with both values
  std::size_t vertices = 0;                         // vertices compared

  void add(const Errors& e);
};
Errors compare(const Cal3dFrame& theirs, const OurFrame& ours, const Correspondence& c,
               const formats::Scene& scene, double size);

std::string describe(const glm::vec3& v);

}  // namespace marrow::reference
