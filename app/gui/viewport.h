// The 3D view: a QOpenGLWidget around render::Renderer with an orbit camera, bone and surface
// picking (click selects, hover names), and the legends of the weight views.
#pragma once

#include <QElapsedTimer>
#include <QOpenGLWidget>
#include <QPoint>
#include <QTimer>
#include <memory>
#include <vector>

#include "app/document.h"
#include "render/gl/camera.h"
#include "render/gl/renderer.h"

class QLabel;

namespace marrow::app {

class Viewport : public QOpenGLWidget {
  Q_OBJECT

 public:
  explicit Viewport(QWidget* parent = nullptr);
  ~Viewport() override;

  // Uploads now if GL is ready, else on first paint; `frame` resets the camera to show it all.
  void setDocument(const Document& doc, bool frame = true);
  render::Camera& camera() { return camera_; }
  void setPose(const anim::Pose& pose);
  // The view as drawn now, at any size (the camera's framing kept, the aspect ratio the image's);
  // null when GL is not ready or the framebuffer cannot be made (too large for the driver).
  QImage renderImage(QSize size);

  // Blend shape weights and level of detail of one mesh; kept and re-applied after uploads.
  void setMorphWeights(std::size_t mesh, const std::vector<float>& weights);
  // A mesh drawn with vertices placed on the CPU (simulated cloth; render::Renderer::
  // setPlacedVertices), kept across uploads; empty positions put its skinning back.
  void setPlacedVertices(std::size_t mesh, std::vector<glm::vec3> positions, std::vector<glm::vec3> normals);
  void setLevelOfDetail(std::size_t mesh, float level);

  // The options drawn with; call updateOverlay() after changing the shading or the selection.
  render::ViewOptions& options() { return options_; }
  // Whether the scene's collision bodies are drawn (translucent, over the meshes).
  void setBodiesVisible(bool visible);
  bool bodiesVisible() const { return renderer_.bodiesVisible(); }
  // What is drawn (null before the first model).
  const Document* document() const { return document_.get(); }
  const render::Renderer& renderer() const { return renderer_; }
  void setSelectedBone(int bone);
  void setShading(render::Shading shading);
  void setSkinningMethod(render::SkinningMethod method);
  // Per bone (see Renderer::setHiddenBones); kept across uploads, reset by a new document.
  void setHiddenBones(const std::vector<bool>& hidden);
  void setMaterialVisible(int material, bool visible);
  // Whether a mesh is drawn (one level of level meshes is); every mesh is after setDocument.
  void setMeshVisible(std::size_t mesh, bool visible);

  // The bone under a point of the widget: a joint or segment of the skeleton overlay when it is
  // drawn, else the owner of the surface there (Renderer::pickSurface); -1 for none.
  int boneAt(const QPoint& position) const;
  // Where a display-space point lands in the widget (logical pixels).
  QPointF project(const glm::vec3& displayPoint) const;
  int hoveredBone() const { return options_.hoveredBone; }
  // The legend shown over the view in the weight views (null otherwise).
  const QLabel* legend() const;

  bool glReady() const { return glReady_; }
  const QString& glError() const { return glError_; }

 public slots:
  void frameAll();
  void resetView();  // front three-quarter view, framed
  void updateOverlay();

 signals:
  void glFailed(const QString& message);
  // A click (press and release without a drag) on a bone or a surface with an owner.
  void bonePicked(int bone);
  // The bone under the resting mouse changed (-1: none).
  void boneHovered(int bone);
  // The first frame of a document given to setDocument has been drawn, this long after it.
  void documentDrawn(qint64 sinceSetDocumentMs);

 protected:
  void initializeGL() override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void leaveEvent(QEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  void upload();
  void releaseGL();
  void hover();
  bool skeletonDrawn() const;
  void placeLegend();

  render::Renderer renderer_;
  render::Camera camera_;
  render::ViewOptions options_;
  // What is drawn: kept so that a new GL context (re-parenting, screen change) can upload it again.
  std::unique_ptr<Document> document_;
  anim::Pose pose_;  // the last pose given, re-applied after an upload
  std::vector<std::vector<float>> morphWeights_;
  std::vector<std::pair<std::vector<glm::vec3>, std::vector<glm::vec3>>> placed_;  // per mesh
  std::vector<float> levels_;
  std::vector<bool> hiddenBones_;
  std::vector<bool> hiddenMaterials_;
  std::vector<bool> hiddenMeshes_;
  render::SkinningMethod skinning_ = render::SkinningMethod::LinearBlend;
  bool glReady_ = false;
  bool frameOnUpload_ = false;
  QString glError_;
  QPoint lastMouse_;
  QPoint pressMouse_;
  bool dragged_ = false;
  QTimer hoverTimer_;
  QPoint hoverAt_;
  QLabel* legend_ = nullptr;
  QElapsedTimer sinceDocument_;
  bool documentPending_ = false;
  QMetaObject::Connection contextGone_;
};

}  // namespace marrow::app
