// GL 3.3 core renderer of a Scene in a Pose: GPU-skinned lit meshes (linear blend or dual
// quaternion), skeleton overlay (bones and the attachment points as axis crosses), grid and a
// soft ground contact, and the inspection overlays: weight views, normals and tangents, bounding
// boxes; CPU picking of bones and surfaces.
// Calls that draw or upload need the GL context the renderer was initialised in to be current;
// picking and the CPU queries do not.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <QImage>

#include "formats/model/scene.h"
#include "render/anim/pose.h"
#include "render/gl/camera.h"

class QOpenGLContext;

namespace marrow::anim {
struct PackedScene;
}

namespace marrow::render {

struct Ray;

// How the surface is coloured.
enum class Shading {
  Material,        // material colour × vertex colour × texture
  BoneWeights,     // the weights of ViewOptions::selectedBone on a ramp (weight_view.h)
  InfluenceCount,  // vertices by their number of bones; stored weights not summing to 1 flagged
  VertexColors,    // the file's vertex colours alone (white where a mesh has none)
};

enum class SkinningMethod {
  LinearBlend,     // render/anim/skinning.h: M = Σ w_i palette_i
  DualQuaternion,  // the same file's dual-quaternion blend: no candy-wrapper collapse at twisted
                   // joints, but non-uniform scale and shear in the palette are dropped
};

struct ViewOptions {
  bool showMeshes = true;
  bool showSkeleton = true;
  bool skeletonWhenNoMeshes = true;  // a model of only bones shows them whatever showSkeleton says
  bool showGrid = true;
  bool wireframe = false;
  bool lit = true;
  bool textured = true;
  bool matcap = false;         // a clay matcap instead of the lights (shape over material)
  bool cullBackfaces = false;  // back faces (by the file's winding) are not drawn
  bool showNormals = false;    // short lines along the skinned normals
  bool showTangents = false;   // and tangents (meshes that have them)
  bool showBounds = false;     // bounding boxes of the model and of each mesh, in the pose
  bool groundContact = true;   // a soft dark disc on the ground under the model (with the grid)
  Shading shading = Shading::Material;
  int selectedBone = -1;
  int hoveredBone = -1;        // drawn highlighted with the skeleton
  glm::vec3 background{0.22f, 0.23f, 0.25f};
};

// What a pick hit on a surface: the mesh, the triangle (index into its index list / 3), the
// triangle's corner nearest the hit (a vertex index), where (display space) and the bone that
// owns it (largest stored weight at that vertex; -1 for a mesh without bones).
struct SurfaceHit {
  std::size_t mesh = 0;
  std::size_t triangle = 0;
  std::uint32_t vertex = 0;
  glm::vec3 point{0.0f};
  float distance = 0.0f;  // from the ray's origin, in display units
  int bone = -1;
};

// Bounds of what is drawn, in display space.
struct Bounds {
  glm::vec3 lo{0.0f};
  glm::vec3 hi{0.0f};
  bool valid = false;
  glm::vec3 center() const { return (lo + hi) * 0.5f; }
  float radius() const;
};

class Renderer {
 public:
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Compiles the shaders; false (with a message) when the context cannot do GL 3.3 core.
  bool initialize(QOpenGLContext* context, std::string* error);
  bool initialized() const;

  // Uploads the scene's meshes; `textures` holds one decoded image per Scene::textures entry
  // (null images where a texture could not be found). A DXT1/3/5 .dds goes to the GPU as its
  // Scene::textures bytes store it, mip levels included, where the driver takes S3TC and its
  // image is not null and of the file's size: that image is then not uploaded. The scene must
  // outlive the renderer's use of it or the next setScene. `packed`: the scene's influences
  // packed ahead (anim::packScene, off this thread); when absent or another scene's, they are
  // packed here.
  void setScene(std::shared_ptr<const formats::Scene> scene, const std::vector<QImage>& textures,
                std::shared_ptr<const anim::PackedScene> packed = nullptr);
  void clearScene();

  // The pose to draw (one model matrix per bone); skin palettes are computed and uploaded here.
  void setPose(const anim::Pose& pose);

  // Blend shape weights of one mesh (one per morph target; missing ones are 0).
  void setMorphWeights(std::size_t mesh, std::span<const float> weights);
  // Level of detail of one mesh in [0, 1] (1: every triangle), for meshes with collapse data.
  void setLevelOfDetail(std::size_t mesh, float level);
  // One mesh drawn with vertices placed on the CPU (native space, one per vertex: simulated
  // cloth, render/anim/springs.h) instead of skinned and morphed; normals may be empty (the
  // mesh's own). Picking, capture and the overlays see them too. Empty positions (or a count that
  // is not the mesh's) put the mesh's skinning back; setScene does too.
  void setPlacedVertices(std::size_t mesh, std::span<const glm::vec3> positions,
                         std::span<const glm::vec3> normals = {});
  bool placed(std::size_t mesh) const;

  // Whether the scene's collision bodies are drawn (translucent, over the meshes). Default true.
  void setBodiesVisible(bool visible);
  bool bodiesVisible() const;

  // Linear blend (default) or dual-quaternion skinning, for drawing, capture and picking.
  void setSkinningMethod(SkinningMethod method);
  SkinningMethod skinningMethod() const;

  // Bones hidden (one flag per bone; shorter vectors leave the rest shown): their skeleton lines
  // and joints are not drawn, nor is any triangle with a corner whose largest stored weight is
  // theirs (weight_view.h dominantBone). Such triangles cannot be picked either.
  void setHiddenBones(std::vector<bool> hidden);
  const std::vector<bool>& hiddenBones() const;

  // A hidden mesh (one level of a mesh's levels of detail that is not the level shown) is
  // neither drawn nor picked. Every mesh shows by default, and again after setScene.
  void setMeshVisible(std::size_t mesh, bool visible);
  bool meshVisible(std::size_t mesh) const;

  // Meshes of a hidden material are neither drawn nor picked. Every material shows by default.
  void setMaterialVisible(int material, bool visible);
  bool materialVisible(int material) const;

  // Vertices per influence class over every mesh, and those flagged (weight_view.h).
  struct InfluenceSummary {
    std::array<std::size_t, 6> counts{};  // per InfluenceClass
    std::size_t overFour = 0;
    std::size_t unnormalised = 0;
  };
  InfluenceSummary influenceSummary() const;

  // Picking (CPU; no GL context needed). `ray` in display space (picking.h rayThroughPixel).
  // Surfaces: the nearest drawn triangle of the current pose, skinned as drawn; O(triangles).
  std::optional<SurfaceHit> pickSurface(const Ray& ray) const;
  // Bones: the joint nearest to `pixel` within `radius` pixels, else the bone whose segment (from
  // its parent's joint to its own) passes nearest within radius / 2; hidden bones are skipped.
  int pickBone(const Camera& camera, int width, int height, const glm::vec2& pixel,
               float radius) const;
  // A bone's joint in display space, in the current pose.
  glm::vec3 boneDisplayPosition(int bone) const;
  // The current pose's skinned positions of one mesh in display space (as picking sees them).
  std::vector<glm::vec3> displayPositions(std::size_t mesh) const;

  // Bounds of the scene at rest and of the current pose, in display space: the meshes; without
  // meshes, the collision bodies; without either, the bones.
  Bounds restBounds() const;
  Bounds poseBounds() const;

  void render(const Camera& camera, int width, int height, const ViewOptions& options);

  // GPU skinning of one mesh captured through transform feedback: the skinned position of every
  // vertex in native model space, for comparing against the CPU path.
  std::vector<glm::vec3> captureSkinnedPositions(std::size_t meshIndex);

  // Frees every GL object; call with the context current before it is destroyed.
  void release();

 private:
  struct Impl;
  std::unique_ptr<Impl> d_;
};

}  // namespace marrow::render
