#include "render/gl/offscreen.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>

namespace marrow::render {

namespace {

// GL 3.3 core with a depth buffer: what every context and surface of the program asks for.
QSurfaceFormat coreFormat() {
  QSurfaceFormat f;
  f.setVersion(3, 3);
  f.setProfile(QSurfaceFormat::CoreProfile);
  f.setDepthBufferSize(24);
  return f;
}

}  // namespace

void setDefaultSurfaceFormat() {
  // No multisampling for every window: with Qt compositing a window that holds a GL widget
  // through GL, a multisampled window costs llvmpipe half its frame rate. The viewport asks for
  // it for its own framebuffer (app/gui/viewport.cpp), OffscreenGL::render for its own.
  QSurfaceFormat::setDefaultFormat(coreFormat());
}

std::string probeRendererName() {
  QOpenGLContext context;
  if (!context.create()) return {};
  QOffscreenSurface surface;
  surface.setFormat(context.format());
  surface.create();
  if (!context.makeCurrent(&surface)) return {};
  const auto* name = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
  std::string out = name ? name : "";
  context.doneCurrent();
  return out;
}

bool isSoftwareRenderer(const std::string& name) {
  for (const char* cpu : {"llvmpipe", "softpipe", "swrast", "Software Rasterizer", "GDI Generic"})
    if (name.find(cpu) != std::string::npos) return true;
  return false;
}

OffscreenGL::OffscreenGL() = default;

OffscreenGL::~OffscreenGL() {
  if (context_ && surface_) {
    if (framebuffer_ && makeCurrent()) framebuffer_.reset();  // GL objects go with their context
    context_->doneCurrent();
  }
}

std::unique_ptr<QOffscreenSurface> OffscreenGL::makeSurface() {
  auto surface = std::make_unique<QOffscreenSurface>();
  surface->setFormat(coreFormat());
  surface->create();
  return surface;
}

bool OffscreenGL::create(std::string* error) {
  ownSurface_ = makeSurface();
  return create(ownSurface_.get(), error);
}

bool OffscreenGL::create(QOffscreenSurface* surface, std::string* error) {
  surface_ = surface;
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(surface ? surface->format() : coreFormat());
  if (!surface || !context_->create()) {
    if (error) *error = "no OpenGL context could be created (is there an X display? try xvfb-run)";
    context_.reset();
    return false;
  }
  if (!makeCurrent()) {
    if (error) *error = "the OpenGL context could not be made current";
    return false;
  }
  const auto fmt = context_->format();
  if (fmt.majorVersion() * 10 + fmt.minorVersion() < 33) {
    if (error)
      *error = "OpenGL " + std::to_string(fmt.majorVersion()) + "." +
               std::to_string(fmt.minorVersion()) + " found; Marrow needs 3.3 core";
    return false;
  }
  return true;
}

bool OffscreenGL::makeCurrent() { return context_ && surface_ && context_->makeCurrent(surface_); }

QImage OffscreenGL::render(Renderer& renderer, const Camera& camera, int width, int height,
                           const ViewOptions& options) {
  if (!makeCurrent()) return {};
  if (!framebuffer_ || framebuffer_->size() != QSize(width, height)) {
    framebuffer_.reset();
    QOpenGLFramebufferObjectFormat ms;
    ms.setAttachment(QOpenGLFramebufferObject::Depth);
    ms.setSamples(kViewportSamples);
    framebuffer_ = std::make_unique<QOpenGLFramebufferObject>(width, height, ms);
  }
  if (!framebuffer_->bind()) {
    framebuffer_.reset();
    return {};
  }
  renderer.render(camera, width, height, options);
  framebuffer_->release();
  return framebuffer_->toImage();  // resolved, flipped to top-down rows
}

}  // namespace marrow::render
