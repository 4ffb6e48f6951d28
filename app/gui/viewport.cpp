#include "app/gui/viewport.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>

namespace marrow::app {

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(160, 120);
}

Viewport::~Viewport() {
  // QOpenGLWidget's own destructor destroys the context later; by then this is no Viewport.
  QObject::disconnect(contextGone_);
  releaseGL();
}

void Viewport::releaseGL() {
  if (!glReady_) return;
  makeCurrent();
  renderer_.release();
  doneCurrent();
  glReady_ = false;
}

void Viewport::initializeGL() {
  std::string error;
  if (!renderer_.initialize(context(), &error)) {
    glError_ = QString::fromStdString(error);
    emit glFailed(glError_);
    return;
  }
  glReady_ = true;
  // The context goes away with the widget's window (re-parenting, docking): free GL objects then.
  QObject::disconnect(contextGone_);
  contextGone_ = connect(context(), &QOpenGLContext::aboutToBeDestroyed, this,
                         [this] { releaseGL(); }, Qt::DirectConnection);
  if (document_) upload();
}

void Viewport::setDocument(const Document& doc, bool frame) {
  document_ = std::make_unique<Document>(doc);
  morphWeights_.assign(doc.scene->meshes.size(), {});
  levels_.assign(doc.scene->meshes.size(), 1.0f);
  frameOnUpload_ = frame;
  if (glReady_) {
    makeCurrent();
    upload();
    doneCurrent();
  }
  update();
}

void Viewport::upload() {
  renderer_.setScene(document_->scene, document_->textures);
  renderer_.setPose(pose_);  // ignored unless it fits the new skeleton
  for (std::size_t m = 0; m < morphWeights_.size(); ++m) {
    if (!morphWeights_[m].empty()) renderer_.setMorphWeights(m, morphWeights_[m]);
    if (levels_[m] < 1.0f) renderer_.setLevelOfDetail(m, levels_[m]);
  }
  if (frameOnUpload_) {
    frameOnUpload_ = false;
    resetView();
  }
}

void Viewport::setPose(const anim::Pose& pose) {
  pose_ = pose;
  renderer_.setPose(pose_);  // CPU work only; the upload happens in paintGL
  update();
}

void Viewport::setMorphWeights(std::size_t mesh, const std::vector<float>& weights) {
  if (mesh >= morphWeights_.size()) return;
  morphWeights_[mesh] = weights;
  if (glReady_ && document_) {
    makeCurrent();
    renderer_.setMorphWeights(mesh, weights);
    doneCurrent();
  }
  update();
}

void Viewport::setLevelOfDetail(std::size_t mesh, float level) {
  if (mesh >= levels_.size()) return;
  levels_[mesh] = level;
  if (glReady_ && document_) {
    makeCurrent();
    renderer_.setLevelOfDetail(mesh, level);
    doneCurrent();
  }
  update();
}

void Viewport::setBodiesVisible(bool visible) {
  renderer_.setBodiesVisible(visible);  // a flag read when drawing: no GL context needed
  update();
}

void Viewport::setSelectedBone(int bone) {
  options_.selectedBone = bone;
  update();
}

void Viewport::frameAll() {
  const render::Bounds b = renderer_.poseBounds();
  if (b.valid) camera_.frame(b.center(), b.radius());
  update();
}

void Viewport::resetView() {
  camera_.setAngles(25.0f, 12.0f);
  frameAll();
}

void Viewport::paintGL() {
  if (!glReady_) return;
  const qreal dpr = devicePixelRatioF();
  renderer_.render(camera_, static_cast<int>(width() * dpr), static_cast<int>(height() * dpr),
                   options_);
}

void Viewport::mousePressEvent(QMouseEvent* e) { lastMouse_ = e->position().toPoint(); }

void Viewport::mouseMoveEvent(QMouseEvent* e) {
  const QPoint p = e->position().toPoint();
  const QPoint d = p - lastMouse_;
  lastMouse_ = p;
  const bool pan = (e->buttons() & (Qt::MiddleButton | Qt::RightButton)) ||
                   ((e->buttons() & Qt::LeftButton) && (e->modifiers() & Qt::ShiftModifier));
  if (pan)
    camera_.pan(static_cast<float>(d.x()), static_cast<float>(d.y()), height());
  else if (e->buttons() & Qt::LeftButton)
    camera_.orbit(static_cast<float>(d.x()), static_cast<float>(d.y()));
  else
    return;
  update();
}

void Viewport::mouseDoubleClickEvent(QMouseEvent*) { frameAll(); }

void Viewport::wheelEvent(QWheelEvent* e) {
  camera_.zoom(static_cast<float>(e->angleDelta().y()) / 120.0f);
  update();
}

void Viewport::keyPressEvent(QKeyEvent* e) {
  switch (e->key()) {
    case Qt::Key_Left: camera_.orbit(-20.0f, 0.0f); break;
    case Qt::Key_Right: camera_.orbit(20.0f, 0.0f); break;
    case Qt::Key_Up: camera_.orbit(0.0f, 20.0f); break;
    case Qt::Key_Down: camera_.orbit(0.0f, -20.0f); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: camera_.zoom(1.0f); break;
    case Qt::Key_Minus: camera_.zoom(-1.0f); break;
    default: QOpenGLWidget::keyPressEvent(e); return;
  }
  update();
}

}  // namespace marrow::app
