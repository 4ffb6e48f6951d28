#include "render/gl/surface_look.h"

#include <algorithm>
#include <functional>

namespace marrow::render {

namespace {

bool black(const glm::vec3& c) { return c.r <= kBlack && c.g <= kBlack && c.b <= kBlack; }

}  // namespace

std::string SurfaceLook::why() const {
  std::string s;
  const auto add = [&s](const char* part) {
    if (!s.empty()) s += "; ";
    s += part;
  };
  if (blackVertexColors) add("its vertex colours are all black: drawn without them");
  if (zeroVertexAlpha) add("its vertex colours' alphas are all 0: drawn opaque");
  if (blackMaterial) add("its material's diffuse colour is black: drawn in the default shade");
  if (noMaterial) add("no material: drawn in the default shade");
  return s;
}

SurfaceLook surfaceLook(const formats::Scene& scene, const formats::Mesh& mesh) {
  SurfaceLook look;
  look.baseColor = glm::vec4(kDefaultShade, 1.0f);
  const bool hasMaterial = mesh.material >= 0 && static_cast<std::size_t>(mesh.material) < scene.materials.size();
  look.noMaterial = !hasMaterial;
  if (hasMaterial) {
    const formats::Material& mat = scene.materials[static_cast<std::size_t>(mesh.material)];
    look.baseColor = mat.diffuse;
    if (!mat.diffuseAlphaIsOpacity) look.baseColor.a = 1.0f;
    if (black(glm::vec3(mat.diffuse))) {
      look.blackMaterial = true;
      look.baseColor = glm::vec4(kDefaultShade, look.baseColor.a);
    }
  }
  if (!mesh.colors.empty() && mesh.colors.size() == mesh.vertexCount()) {
    const auto& c = mesh.colors;
    look.blackVertexColors =
        std::all_of(c.begin(), c.end(), [](const glm::vec4& v) { return black(glm::vec3(v)); });
    look.zeroVertexAlpha = !look.blackVertexColors &&
                           std::all_of(c.begin(), c.end(), [](const glm::vec4& v) { return v.a <= kBlack; });
    look.vertexColors = look.blackVertexColors ? VertexColorUse::None
                        : look.zeroVertexAlpha ? VertexColorUse::RgbOnly
                                               : VertexColorUse::Rgba;
  }
  return look;
}

formats::Diagnostics surfaceNotes(const formats::Scene& scene) {
  formats::Diagnostics notes;
  std::vector<SurfaceLook> looks;
  looks.reserve(scene.meshes.size());
  for (const auto& m : scene.meshes) looks.push_back(surfaceLook(scene, m));
  const auto note = [&](const std::function<bool(const SurfaceLook&)>& has, const char* one,
                        const char* many, const char* what) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < looks.size(); ++i)
      if (has(looks[i])) names.push_back(scene.meshes[i].name.empty() ? "mesh " + std::to_string(i)
                                                                      : scene.meshes[i].name);
    if (names.empty()) return;
    constexpr std::size_t kNamed = 4;
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < kNamed; ++i)
      list += (i ? ", '" : "'") + names[i] + "'";
    if (names.size() > kNamed) list += " and " + std::to_string(names.size() - kNamed) + " more";
    const std::string subject =
        names.size() == 1 ? std::string("mesh ") + list + " " + one
                          : std::to_string(names.size()) + " meshes (" + list + ") " + many;
    notes.info("", "", formats::kNoOffset, subject + what);
  };
  note([](const SurfaceLook& l) { return l.blackVertexColors; }, "has", "have",
       " vertex colours that are all black: the Materials view draws them without them, so that "
       "the model is not a black silhouette (View › Surface Colour › Vertex Colours shows the "
       "file's colours)");
  note([](const SurfaceLook& l) { return l.zeroVertexAlpha; }, "has", "have",
       " vertex colours whose alphas are all 0: drawn opaque, with the colours");
  note([](const SurfaceLook& l) { return l.blackMaterial; }, "has a material", "have materials",
       " whose diffuse colour is black: drawn in the default shade (white), with their textures");
  note([](const SurfaceLook& l) { return l.noMaterial; }, "has", "have",
       " no material: drawn in the default shade (white)");
  return notes;
}

}  // namespace marrow::render
