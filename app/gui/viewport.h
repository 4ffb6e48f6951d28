// The 3D view: a QOpenGLWidget around render::Renderer with an orbit camera.
#pragma once

#include <QOpenGLWidget>
#include <QPoint>

#include <memory>
#include <vector>

#include "app/document.h"
#include "render/gl/camera.h"
#include "render/gl/renderer.h"

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

  // Blend shape weights and level of detail of one mesh; kept and re-applied after uploads.
  void setMorphWeights(std::size_t mesh, const std::vector<float>& weights);
  void setLevelOfDetail(std::size_t mesh, float level);

  render::ViewOptions& options() { return options_; }
  // Whether the scene's collision bodies are drawn (translucent, over the meshes).
  void setBodiesVisible(bool visible);
  bool bodiesVisible() const { return renderer_.bodiesVisible(); }
  // What is drawn (null before the first model).
  const Document* document() const { return document_.get(); }
  void setSelectedBone(int bone);

  bool glReady() const { return glReady_; }
  const QString& glError() const { return glError_; }

 public slots:
  void frameAll();
  void resetView();  // front three-quarter view, framed

 signals:
  void glFailed(const QString& message);

 protected:
  void initializeGL() override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;

 private:
  void upload();
  void releaseGL();

  render::Renderer renderer_;
  render::Camera camera_;
  render::ViewOptions options_;
  // What is drawn: kept so that a new GL context (re-parenting, screen change) can upload it again.
  std::unique_ptr<Document> document_;
  anim::Pose pose_;  // the last pose given, re-applied after an upload
  std::vector<std::vector<float>> morphWeights_;
  std::vector<float> levels_;
  bool glReady_ = false;
  bool frameOnUpload_ = false;
  QString glError_;
  QPoint lastMouse_;
  QMetaObject::Connection contextGone_;
};

}  // namespace marrow::app
