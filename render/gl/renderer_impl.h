// The renderer's state, shared by its source files (renderer.cpp: GL; renderer_inspect.cpp: the
// CPU side of picking and the inspection overlays). Private to render/gl.
#pragma once

#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>
#include <memory>
#include <optional>
#include <vector>

#include "render/anim/skinning.h"
#include "render/gl/bodies.h"
#include "render/gl/gpu_mesh.h"
#include "render/gl/renderer.h"
#include "render/gl/shaders.h"
#include "render/gl/weight_view.h"

namespace marrow::render {

using LineVertex = ColoredVertex;

// One skin palette on the GPU: a uniform block up to 256 bones, a texture buffer beyond.
struct PaletteBuffer {
  std::vector<glm::mat4> matrices;
  std::vector<glm::mat4> encoded;  // the dual quaternions of `matrices` (DQ skinning only)
  GLuint buffer = 0;
  GLuint texture = 0;  // texture buffer view (TBO path only)
  bool dirty = true;
};

// What the CPU keeps of one mesh besides its GPU buffers.
struct MeshState {
  const anim::PackedInfluences* packed = nullptr;  // in Renderer::Impl::packed
  std::vector<std::uint32_t> indices;  // the triangles drawn when `filtered`, else mesh.indices
  bool filtered = false;
  std::vector<int> dominant;  // per vertex (weight_view.h dominantBone), made on need
  // Caches of the mesh's own data, made on first need (also from const queries).
  mutable std::vector<glm::vec3> smoothNormals;  // for a mesh without normals
  mutable std::optional<InfluenceView> influence;
  GLuint influenceColors = 0;  // GL buffer of influence->colors
  bool influenceBound = false;
  // Renderer::setPlacedVertices: what is drawn instead of skinning (empty: nothing placed).
  std::vector<glm::vec3> placedPositions, placedNormals;
};

// The current pose's CPU-skinned vertices of one mesh (native space).
struct SkinnedMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<glm::vec3> tangents;
};

struct Renderer::Impl {
  QOpenGLFunctions_3_3_Core* gl = nullptr;
  ShaderSet shaders;
  std::shared_ptr<const formats::Scene> scene;
  std::vector<GpuMesh> meshes;
  std::vector<MeshState> state;         // per mesh
  std::shared_ptr<const anim::PackedScene> packed;  // the scene's influences, packed
  std::vector<GLuint> textures;         // one per Scene::textures entry, 0 when missing
  bool s3tc = false;                    // the driver takes DXT1/3/5 blocks as they are
  std::vector<int> paletteOfMesh;       // index into palettes
  std::vector<PaletteBuffer> palettes;  // [0]: the skeleton's inverse binds; then per-mesh ones
  bool useTbo = false;
  std::vector<std::vector<float>> morphWeights;  // per mesh
  std::vector<float> levels;                     // per mesh
  glm::mat4 display{1.0f};
  bool flipWinding = false;
  anim::Pose pose;
  Bounds rest;
  GLuint lineVao = 0, lineVbo = 0;
  BodyGeometry bodies;  // display space, drawn through the line program
  bool bodiesVisible = true;
  SkinningMethod skinning = SkinningMethod::LinearBlend;
  std::vector<bool> hiddenBones;
  std::vector<bool> hiddenMaterials;
  std::vector<bool> hiddenMeshes;  // one per mesh (Renderer::setMeshVisible)
  std::vector<LineVertex> lineScratch;

  // CPU skinning of the current pose, made when picking or an overlay needs it.
  mutable std::vector<SkinnedMesh> skinned;
  mutable bool skinnedValid = false;
  mutable bool skinnedNormals = false;  // normals (and tangents) in `skinned` too
  mutable bool skinnedTangents = false;

  bool boneHidden(int bone) const {
    return bone >= 0 && static_cast<std::size_t>(bone) < hiddenBones.size() && hiddenBones[bone];
  }
  bool meshHidden(std::size_t mesh) const;
  bool anyBoneHidden() const;
  const std::vector<std::uint32_t>& drawnIndices(std::size_t mesh) const;
  // Recomputes the triangles mesh m draws (level of detail, hidden bones) and uploads them.
  void refreshIndices(std::size_t m);
  void invalidateSkinned() { skinnedValid = skinnedNormals = skinnedTangents = false; }
  void ensureSkinned(bool normals, bool tangents) const;
  void encodePalettes();

  void uploadPalettes();
  void bindPalette(std::size_t index, QOpenGLShaderProgram& program);
  void drawLines(const std::vector<LineVertex>& v, GLenum mode, const glm::mat4& viewProj,
                 float pointSize);
  void drawGrid(const glm::mat4& viewProj);
  void drawGroundContact(const glm::mat4& viewProj);
  void drawSkeleton(const glm::mat4& viewProj, int selected, int hovered, bool onlyMarked);
  void drawBodies(const glm::mat4& viewProj);
  void drawAttachments(const glm::mat4& viewProj);
  void drawInspection(const glm::mat4& viewProj, const ViewOptions& o);
  void bindInfluenceColors(bool on);
  void freeScene();

  // Overlay geometry (renderer_inspect.cpp), display space.
  void normalLines(bool normals, bool tangents, std::vector<LineVertex>& out) const;
  void boundsLines(std::vector<LineVertex>& out) const;
  void flaggedPoints(std::vector<LineVertex>& out) const;
  void groundDisc(std::vector<LineVertex>& out) const;
};

}  // namespace marrow::render
