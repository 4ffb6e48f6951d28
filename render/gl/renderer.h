// GL 3.3 core renderer of a Scene in a Pose: GPU-skinned lit meshes, skeleton overlay (bones and
// the attachment points as axis crosses), grid.
// Every call needs the GL context it was initialised in to be current.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <QImage>

#include "formats/model/scene.h"
#include "render/anim/pose.h"
#include "render/gl/camera.h"

class QOpenGLContext;

namespace marrow::render {

struct ViewOptions {
  bool showMeshes = true;
  bool showSkeleton = true;
  bool skeletonWhenNoMeshes = true;  // a model of only bones shows them whatever showSkeleton says
  bool showGrid = true;
  bool wireframe = false;
  bool lit = true;
  bool textured = true;
  int selectedBone = -1;
  glm::vec3 background{0.22f, 0.23f, 0.25f};
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
  // outlive the renderer's use of it or the next setScene.
  void setScene(std::shared_ptr<const formats::Scene> scene, const std::vector<QImage>& textures);
  void clearScene();

  // The pose to draw (one model matrix per bone); skin palettes are computed and uploaded here.
  void setPose(const anim::Pose& pose);

  // Blend shape weights of one mesh (one per morph target; missing ones are 0).
  void setMorphWeights(std::size_t mesh, std::span<const float> weights);
  // Level of detail of one mesh in [0, 1] (1: every triangle), for meshes with collapse data.
  void setLevelOfDetail(std::size_t mesh, float level);

  // Whether the scene's collision bodies are drawn (translucent, over the meshes). Default true.
  void setBodiesVisible(bool visible);
  bool bodiesVisible() const;

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
