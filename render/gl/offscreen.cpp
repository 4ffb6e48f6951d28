#include "render/gl/offscreen.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>

namespace marrow::render {

void setDefaultSurfaceFormat() {
  QSurfaceFormat f;
  f.setVersion(3, 3);
  f.setProfile(QSurfaceFormat::CoreProfile);
  f.setDepthBufferSize(24);
  // No multisampling for every window: with Qt compositing a window that holds a GL widget
  // through GL, a multisampled window costs llvmpipe half its frame rate. The viewport asks for
  // it for its own framebuffer (app/gui/viewport.cpp), OffscreenGL::render for its own.
  QSurfaceFormat::setDefaultFormat(f);
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
  if (context_ && surface_) context_->doneCurrent();
}

bool OffscreenGL::create(std::string* error) {
  QSurfaceFormat f;
  f.setVersion(3, 3);
  f.setProfile(QSurfaceFormat::CoreProfile);
  f.setDepthBufferSize(24);
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(f);
  if (!context_->create()) {
    if (error) *error = "no OpenGL context could be created (is there an X display? try xvfb-run)";
    context_.reset();
    return false;
  }
  surface_ = std::make_unique<QOffscreenSurface>();
  surface_->setFormat(context_->format());
  surface_->create();
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

bool OffscreenGL::makeCurrent() { return context_ && context_->makeCurrent(surface_.get()); }

QImage OffscreenGL::render(Renderer& renderer, const Camera& camera, int width, int height,
                           const ViewOptions& options) {
  if (!makeCurrent()) return {};
  QOpenGLFramebufferObjectFormat ms;
  ms.setAttachment(QOpenGLFramebufferObject::Depth);
  ms.setSamples(kViewportSamples);
  QOpenGLFramebufferObject fbo(width, height, ms);
  if (!fbo.bind()) return {};
  renderer.render(camera, width, height, options);
  fbo.release();
  return fbo.toImage();  // flipped to top-down rows
}

}  // namespace marrow::render
