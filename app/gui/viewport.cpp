#include "app/gui/viewport.h"

#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <numeric>

#include "render/gl/offscreen.h"
#include "render/gl/picking.h"
#include "render/gl/weight_view.h"

namespace marrow::app {

namespace {

// A press and release closer than this (in pixels) is a click, not an orbit.
constexpr int kClickSlop = 4;
// Joints within this many pixels of the cursor are picked (segments within half).
constexpr float kBoneRadius = 9.0f;
// The mouse must rest this long before hovering picks (a surface pick skins the pose on the CPU).
constexpr int kHoverDelayMs = 120;

QString swatch(const glm::vec3& c) {
  const QColor q = QColor::fromRgbF(c.r, c.g, c.b);
  return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>")
      .arg(q.name());
}

// Multisampling for the view's framebuffer: 4×, except on a renderer that rasterises on the
// CPU, where it halves the frame rate while playing (docs/viewport.md). $MARROW_SAMPLES
// overrides either.
int samplesWanted() {
  bool ok = false;
  const int forced = qEnvironmentVariableIntValue("MARROW_SAMPLES", &ok);
  if (ok) return std::clamp(forced, 0, 16);
  static const bool software = render::isSoftwareRenderer(render::probeRendererName());
  return software ? 0 : render::kViewportSamples;
}

}  // namespace

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent) {
  QSurfaceFormat f = format();
  f.setSamples(samplesWanted());
  setFormat(f);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(160, 120);
  setMouseTracking(true);
  hoverTimer_.setSingleShot(true);
  hoverTimer_.setInterval(kHoverDelayMs);
  connect(&hoverTimer_, &QTimer::timeout, this, &Viewport::hover);
  legend_ = new QLabel(this);
  legend_->setObjectName(QStringLiteral("weightLegend"));
  legend_->setTextFormat(Qt::RichText);
  legend_->setAttribute(Qt::WA_TransparentForMouseEvents);
  legend_->setStyleSheet(
      QStringLiteral("QLabel { background: rgba(20, 21, 23, 200); color: #e8e8e8; padding: 6px; "
                     "border-radius: 4px; }"));
  legend_->hide();
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
  contextGone_ = connect(
      context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] { releaseGL(); },
      Qt::DirectConnection);
  if (document_) upload();
}

void Viewport::setDocument(const Document& doc, bool frame) {
  sinceDocument_.start();
  documentPending_ = true;
  document_ = std::make_unique<Document>(doc);
  morphWeights_.assign(doc.scene->meshes.size(), {});
  placed_.assign(doc.scene->meshes.size(), {});
  levels_.assign(doc.scene->meshes.size(), 1.0f);
  hiddenBones_.clear();
  hiddenMaterials_.clear();
  hiddenMeshes_.clear();
  options_.hoveredBone = -1;
  frameOnUpload_ = frame;
  if (glReady_) {
    makeCurrent();
    upload();
    doneCurrent();
  }
  updateOverlay();
  update();
}

void Viewport::upload() {
  renderer_.setSkinningMethod(skinning_);
  renderer_.setScene(document_->scene, document_->textures, document_->packed);
  renderer_.setPose(pose_);  // ignored unless it fits the new skeleton
  for (std::size_t m = 0; m < morphWeights_.size(); ++m) {
    if (!morphWeights_[m].empty()) renderer_.setMorphWeights(m, morphWeights_[m]);
    if (levels_[m] < 1.0f) renderer_.setLevelOfDetail(m, levels_[m]);
    if (!placed_[m].first.empty()) renderer_.setPlacedVertices(m, placed_[m].first, placed_[m].second);
  }
  renderer_.setHiddenBones(hiddenBones_);
  for (std::size_t i = 0; i < hiddenMaterials_.size(); ++i)
    if (hiddenMaterials_[i]) renderer_.setMaterialVisible(static_cast<int>(i), false);
  for (std::size_t i = 0; i < hiddenMeshes_.size(); ++i)
    if (hiddenMeshes_[i]) renderer_.setMeshVisible(i, false);
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

void Viewport::setPlacedVertices(std::size_t mesh, std::vector<glm::vec3> positions,
                                 std::vector<glm::vec3> normals) {
  if (mesh >= placed_.size()) return;
  placed_[mesh] = {std::move(positions), std::move(normals)};
  if (glReady_ && document_) {
    makeCurrent();
    renderer_.setPlacedVertices(mesh, placed_[mesh].first, placed_[mesh].second);
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
  updateOverlay();
  update();
}

void Viewport::setShading(render::Shading shading) {
  options_.shading = shading;
  updateOverlay();
  update();
}

void Viewport::setSkinningMethod(render::SkinningMethod method) {
  skinning_ = method;
  renderer_.setSkinningMethod(method);  // palettes re-encoded on the CPU, uploaded when drawn
  update();
}

void Viewport::setHiddenBones(const std::vector<bool>& hidden) {
  hiddenBones_ = hidden;
  if (glReady_ && document_) {
    makeCurrent();
    renderer_.setHiddenBones(hidden);
    doneCurrent();
  }
  if (options_.hoveredBone >= 0 && static_cast<std::size_t>(options_.hoveredBone) < hidden.size() &&
      hidden[options_.hoveredBone])
    options_.hoveredBone = -1;
  update();
}

void Viewport::setMaterialVisible(int material, bool visible) {
  if (material < 0) return;
  if (static_cast<std::size_t>(material) >= hiddenMaterials_.size())
    hiddenMaterials_.resize(static_cast<std::size_t>(material) + 1, false);
  hiddenMaterials_[material] = !visible;
  renderer_.setMaterialVisible(material, visible);  // a flag read when drawing
  update();
}

void Viewport::setMeshVisible(std::size_t mesh, bool visible) {
  if (mesh >= hiddenMeshes_.size()) {
    if (visible) return;
    hiddenMeshes_.resize(mesh + 1, false);
  }
  hiddenMeshes_[mesh] = !visible;
  renderer_.setMeshVisible(mesh, visible);  // a flag read when drawing
  update();
}

const QLabel* Viewport::legend() const {
  return legend_->isVisible() ? legend_ : nullptr;
}

void Viewport::updateOverlay() {
  const formats::Scene* scene = document_ ? document_->scene.get() : nullptr;
  if (!scene || options_.shading == render::Shading::Material) {
    legend_->hide();
    return;
  }
  QString text;
  if (options_.shading == render::Shading::BoneWeights) {
    const int b = options_.selectedBone;
    const bool valid = b >= 0 && static_cast<std::size_t>(b) < scene->skeleton.bones.size();
    text = valid ? tr("<b>Weights of %1</b>")
                       .arg(QString::fromStdString(scene->skeleton.bones[b].name).toHtmlEscaped())
                 : tr("<b>Weights</b>: select a bone (Bones dock, or click one)");
    text += QStringLiteral("<br>");
    for (const float w : {0.0f, 0.25f, 0.5f, 0.75f, 1.0f})
      text += swatch(render::weightColor(w)) + QStringLiteral("&nbsp;%1&nbsp; ").arg(w);
  } else if (options_.shading == render::Shading::VertexColors) {
    std::size_t coloured = 0;
    for (const auto& m : scene->meshes) coloured += !m.colors.empty();
    text = tr("<b>Vertex colours</b> (as stored in the file)<br>%1 of %2 meshes have them; "
              "the others are white")
               .arg(coloured)
               .arg(scene->meshes.size());
  } else {
    const auto sum = renderer_.influenceSummary();
    text = tr("<b>Bones per vertex</b> (as stored in the file)");
    for (std::size_t c = 0; c < render::kInfluenceClasses; ++c) {
      const auto cls = static_cast<render::InfluenceClass>(c);
      text += QStringLiteral("<br>") + swatch(render::influenceClassColor(cls)) +
              QStringLiteral("&nbsp;") + tr(render::influenceClassName(cls)) +
              QStringLiteral(": %1").arg(sum.counts[c]);
    }
    text += QStringLiteral("<br>") + swatch(render::unnormalisedColor()) +
            QStringLiteral("&nbsp;") + tr("weights not summing to 1: %1").arg(sum.unnormalised);
    if (sum.counts[0] == std::accumulate(sum.counts.begin(), sum.counts.end(), std::size_t{0}))
      text += QStringLiteral("<br>") + tr("(no mesh is skinned)");
  }
  legend_->setText(text);
  legend_->adjustSize();
  placeLegend();
  legend_->show();
  legend_->raise();
}

// Bottom left, over the ground rather than the model the camera frames.
void Viewport::placeLegend() {
  legend_->move(8, std::max(8, height() - legend_->height() - 8));
}

void Viewport::resizeEvent(QResizeEvent* e) {
  QOpenGLWidget::resizeEvent(e);
  placeLegend();
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

QImage Viewport::renderImage(QSize size) {
  if (!glReady_ || size.isEmpty()) return {};
  makeCurrent();
  QOpenGLFramebufferObjectFormat format;
  format.setAttachment(QOpenGLFramebufferObject::Depth);
  format.setSamples(render::kViewportSamples);
  QImage image;
  {
    QOpenGLFramebufferObject fbo(size, format);
    if (fbo.isValid() && fbo.bind()) {
      renderer_.render(camera_, size.width(), size.height(), options_);
      fbo.release();
      image = fbo.toImage();
    }
  }
  doneCurrent();
  return image;
}

void Viewport::paintGL() {
  if (!glReady_) return;
  const qreal dpr = devicePixelRatioF();
  renderer_.render(camera_, static_cast<int>(width() * dpr), static_cast<int>(height() * dpr),
                   options_);
  if (documentPending_ && document_) {
    documentPending_ = false;
    emit documentDrawn(sinceDocument_.elapsed());
  }
}

bool Viewport::skeletonDrawn() const {
  const formats::Scene* scene = document_ ? document_->scene.get() : nullptr;
  return scene &&
         (options_.showSkeleton || (options_.skeletonWhenNoMeshes && scene->meshes.empty()));
}

int Viewport::boneAt(const QPoint& position) const {
  if (!document_) return -1;
  const glm::vec2 pixel(static_cast<float>(position.x()) + 0.5f,
                        static_cast<float>(position.y()) + 0.5f);
  if (skeletonDrawn()) {
    const int bone = renderer_.pickBone(camera_, width(), height(), pixel, kBoneRadius);
    if (bone >= 0) return bone;
  }
  if (!options_.showMeshes) return -1;
  const render::Ray ray = render::rayThroughPixel(camera_, width(), height(), pixel.x, pixel.y);
  const auto hit = renderer_.pickSurface(ray);
  return hit ? hit->bone : -1;
}

QPointF Viewport::project(const glm::vec3& p) const {
  const glm::mat4 viewProj =
      camera_.projection(static_cast<float>(width()) / std::max(height(), 1)) * camera_.view();
  const auto s = render::projectToPixel(viewProj, width(), height(), p);
  return {s.pixel.x, s.pixel.y};
}

void Viewport::mousePressEvent(QMouseEvent* e) {
  lastMouse_ = pressMouse_ = e->position().toPoint();
  dragged_ = false;
  hoverTimer_.stop();
}

void Viewport::mouseMoveEvent(QMouseEvent* e) {
  const QPoint p = e->position().toPoint();
  const QPoint d = p - lastMouse_;
  lastMouse_ = p;
  if (e->buttons() == Qt::NoButton) {
    hoverAt_ = p;
    hoverTimer_.start();  // picks once the mouse rests
    return;
  }
  if ((p - pressMouse_).manhattanLength() > kClickSlop) dragged_ = true;
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

void Viewport::mouseReleaseEvent(QMouseEvent* e) {
  const QPoint p = e->position().toPoint();
  if (e->button() != Qt::LeftButton || dragged_ ||
      (p - pressMouse_).manhattanLength() > kClickSlop || (e->modifiers() & Qt::ShiftModifier))
    return;
  const int bone = boneAt(p);
  if (bone >= 0) emit bonePicked(bone);
}

void Viewport::hover() {
  if (!underMouse() && !rect().contains(hoverAt_)) return;
  const int bone = boneAt(hoverAt_);
  if (bone != options_.hoveredBone) {
    options_.hoveredBone = bone;
    update();
    emit boneHovered(bone);
  }
  const formats::Scene* scene = document_ ? document_->scene.get() : nullptr;
  if (bone >= 0 && scene && static_cast<std::size_t>(bone) < scene->skeleton.bones.size())
    QToolTip::showText(mapToGlobal(hoverAt_),
                       QString::fromStdString(scene->skeleton.bones[bone].name), this);
  else
    QToolTip::hideText();
}

void Viewport::leaveEvent(QEvent* e) {
  hoverTimer_.stop();
  if (options_.hoveredBone >= 0) {
    options_.hoveredBone = -1;
    update();
    emit boneHovered(-1);
  }
  QOpenGLWidget::leaveEvent(e);
}

void Viewport::mouseDoubleClickEvent(QMouseEvent*) {
  frameAll();
}

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
