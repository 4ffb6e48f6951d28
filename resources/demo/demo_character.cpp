#include "resources/demo/demo_character.h"

namespace marrow::demo {

formats::Scene makeDemoCharacter() {
  formats::Scene scene;
  scene.format = "Marrow demo character";
  scene.basis = formats::Basis{};  // OMF's own: Y-up, right-handed, metres
  scene.skeleton = makeDemoSkeleton();
  scene.meshes.push_back(makeDemoMesh());
  scene.clips = makeDemoClips();
  // The colours live in the vertices; the material only has to leave them unchanged.
  formats::Material material;
  material.name = "mannequin";
  material.diffuse = glm::vec4(1.0f);
  material.ambient = glm::vec4(0.25f, 0.25f, 0.25f, 1.0f);
  material.specular = glm::vec4(0.15f, 0.15f, 0.15f, 1.0f);
  material.shininess = 24.0f;
  scene.materials.push_back(material);
  return scene;
}

}  // namespace marrow::demo
