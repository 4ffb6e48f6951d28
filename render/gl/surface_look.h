// What the Materials view draws a mesh's surface with, and why when that is not what the file
// says. A model is never drawn as an unreadable silhouette in silence: vertex colours that are
// all black, a material whose diffuse colour is black, or vertex alphas that are all zero are
// left out of the Materials view (View › Surface Colour › Vertex Colours still shows the file's
// colours), and surfaceNotes() says so for the Log. No GL here: the renderer and the app share it.
#pragma once

#include <string>
#include <vector>

#include "formats/io/diagnostics.h"
#include "formats/model/glm.h"
#include "formats/model/scene.h"

namespace marrow::render {

// The base colour a mesh without a material, or with a black one, is drawn in.
inline constexpr glm::vec3 kDefaultShade{1.0f, 1.0f, 1.0f};

// A colour channel at or below this is black: nothing an 8-bit display shows above 0.
inline constexpr float kBlack = 0.5f / 255.0f;

enum class VertexColorUse {
  None,     // no vertex colours, or left out (all black)
  Rgba,     // colour and alpha multiply the base colour
  RgbOnly,  // colour multiplies; the alphas, all zero, would hide the mesh, so they do not
};

struct SurfaceLook {
  glm::vec4 baseColor{1.0f};  // multiplies vertex colours and the diffuse texture
  VertexColorUse vertexColors = VertexColorUse::None;
  bool blackVertexColors = false;   // the file's colours are all black: left out
  bool zeroVertexAlpha = false;     // the file's alphas are all zero: left out
  bool blackMaterial = false;       // the material's diffuse colour is black: default shade
  bool noMaterial = false;          // drawn in the default shade for want of a material
  bool asTheFileSays() const { return !blackVertexColors && !zeroVertexAlpha && !blackMaterial; }
  // "its vertex colours are all black; drawn without them", … (empty: drawn as the file says).
  std::string why() const;
};

SurfaceLook surfaceLook(const formats::Scene& scene, const formats::Mesh& mesh);

// One Info line per reason, naming the meshes (a few, then how many more), for the Log.
formats::Diagnostics surfaceNotes(const formats::Scene& scene);

}  // namespace marrow::render
