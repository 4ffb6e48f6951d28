// One mesh's vertex array on the GPU, in the attribute layout the mesh shader reads.
#pragma once

#include <QOpenGLFunctions_3_3_Core>

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "formats/model/normals.h"
#include "formats/model/scene.h"

class QImage;

namespace marrow::formats {
struct DdsImage;
}
namespace marrow::anim {
struct PackedInfluences;
}

namespace marrow::render {

// Attribute locations shared by gpu_mesh.cpp and the mesh shader program.
enum Attribute : GLuint {
  kPosition = 0,
  kNormal = 1,
  kUv = 2,
  kColor = 3,
  kBones0 = 4,
  kWeights0 = 5,
  kBones1 = 6,
  kWeights1 = 7,
  kAttributeCount = 8,
  // Morph target offsets: kMorphSlots targets at a time, positions then normals (16 attributes
  // in all, the least every GL 3.3 implementation offers).
  kMorphPosition0 = 8,
  kMorphNormal0 = 12,
};

inline constexpr int kMorphSlots = 4;

// What the colour attribute of a mesh without colours reads (the renderer sets it as the
// attribute's constant value before drawing meshes): white, as if every vertex had it.
inline constexpr float kConstantColor[4] = {1.0f, 1.0f, 1.0f, 1.0f};

struct GpuMesh {
  GLuint vao = 0;
  GLuint buffers[kAttributeCount] = {};
  GLuint indexBuffer = 0;
  GLsizei indexCount = 0;
  std::size_t vertexCount = 0;
  int influenceGroups = 0;
  bool hasUv = false;      // else no uv array: the attribute reads (0, 0)
  bool hasColors = false;  // else no colour array: the attribute reads kConstantColor
  GLuint texture = 0;  // not owned
  glm::vec4 baseColor{1.0f};
  int vertexColors = 1;  // render::VertexColorUse: 0 left out, 1 RGBA, 2 RGB only
  glm::vec3 specular{0.0f};
  float shininess = 0.0f;

  // Per morph target: its offsets (position, normal) for every vertex.
  std::vector<std::pair<GLuint, GLuint>> morphBuffers;
  // Beyond kMorphSlots active targets the CPU sums the offsets into these, drawn as one target.
  std::pair<GLuint, GLuint> combinedMorph{0, 0};
  glm::vec4 morphWeights{0.0f};  // of the targets bound to the morph slots
  // Vertices placed on the CPU (simulated cloth): drawn as given, neither skinned nor morphed.
  bool placed = false;
  GLuint placedBuffers[2] = {0, 0};  // positions, normals

  // The morph weights the shader is given: none while placed (uPlaced skips the skinning; the
  // influences stay bound for the weight views).
  glm::vec4 drawnMorphWeights() const { return placed ? glm::vec4(0.0f) : morphWeights; }

  // Packs the mesh's influences (anim::packInfluences) and uploads every attribute; missing
  // normals are computed smooth, missing colours are white.
  static GpuMesh upload(QOpenGLFunctions_3_3_Core* gl, const formats::Mesh& mesh);
  // The same with the influences packed already (packInfluences(mesh)).
  static GpuMesh upload(QOpenGLFunctions_3_3_Core* gl, const formats::Mesh& mesh,
                        const anim::PackedInfluences& packed);
  void draw(QOpenGLFunctions_3_3_Core* gl) const;
  void release(QOpenGLFunctions_3_3_Core* gl);

  // Binds the targets with non-zero weight to the morph slots (up to kMorphSlots; more are
  // summed on the CPU into one), so that drawing applies `weights`.
  void setMorphWeights(QOpenGLFunctions_3_3_Core* gl, const formats::Mesh& mesh,
                       std::span<const float> weights);
  // Draws only these triangles from now on (level of detail).
  void setIndices(QOpenGLFunctions_3_3_Core* gl, const std::vector<std::uint32_t>& indices);
  // Draws these positions and normals (native space, skinned already; one per vertex; normals may
  // be empty: the mesh's own are kept) instead of skinning the mesh; `positions` empty puts the
  // mesh's own vertices and skinning back.
  void place(QOpenGLFunctions_3_3_Core* gl, std::span<const glm::vec3> positions,
             std::span<const glm::vec3> normals);
  // The colour attribute reads `buffer` (RGBA floats, one per vertex) from now on; 0 puts the
  // mesh's own colours back.
  void bindColors(QOpenGLFunctions_3_3_Core* gl, GLuint buffer);
};

// Area-weighted smooth normals, for meshes that bring none (formats/model/normals.h).
using formats::smoothNormals;

// RGBA8 texture with mipmaps; 0 for a null image.
GLuint uploadTexture(QOpenGLFunctions_3_3_Core* gl, const QImage& image);

// The DXT1/3/5 levels of a DDS as the file stores them (GL_EXT_texture_compression_s3tc, which
// the caller checked), mip levels as the file has them. Level 0's top row goes first, as in
// uploadTexture, so both sample alike. 0 when the image is not DXT or the driver refused it.
GLuint uploadCompressedTexture(QOpenGLFunctions_3_3_Core* gl, const formats::DdsImage& image);

// One Scene::textures entry: its DDS bytes compressed as they are when they are DXT, `s3tc` says
// the driver takes that, and `image` is their decoded level 0 (same size, not null); otherwise
// `image` as RGBA8. 0 when there is nothing to upload.
GLuint uploadSceneTexture(QOpenGLFunctions_3_3_Core* gl, const formats::Texture& texture,
                          const QImage& image, bool s3tc);

}  // namespace marrow::render
