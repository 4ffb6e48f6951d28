// A GL 3.3 core context without a window, and rendering into an image: for `marrow-cli render`
// and the GL tests. Needs a QGuiApplication on a platform with OpenGL (xcb under Xvfb headless).
#pragma once

#include <QImage>

#include <memory>
#include <string>

#include "render/gl/camera.h"
#include "render/gl/renderer.h"

class QOpenGLContext;
class QOpenGLFramebufferObject;
class QOffscreenSurface;

namespace marrow::render {

// The surface format the whole program should ask for: GL 3.3 core, depth. Multisampling is
// asked for per framebuffer (kViewportSamples), not for every window.
void setDefaultSurfaceFormat();
inline constexpr int kViewportSamples = 4;

// The GL_RENDERER string of a context made with the default surface format ("llvmpipe (LLVM
// 15.0.6, 256 bits)"), empty when none can be made. Makes a context: call it once, early.
std::string probeRendererName();
// Whether that renderer rasterises on the CPU (Mesa's llvmpipe, softpipe, swrast; Microsoft's
// GDI generic): there 4× multisampling halves the frame rate (docs/viewport.md).
bool isSoftwareRenderer(const std::string& rendererName);

class OffscreenGL {
 public:
  OffscreenGL();
  ~OffscreenGL();

  bool create(std::string* error);
  // A surface for a context that another thread makes: Qt makes offscreen surfaces in the GUI
  // thread only. Made with the default GL 3.3 core format.
  static std::unique_ptr<QOffscreenSurface> makeSurface();
  // Makes the context in the calling thread (a worker may), on a surface from makeSurface()
  // that outlives this object. Destroy this object in the thread that created it.
  bool create(QOffscreenSurface* surface, std::string* error);
  bool makeCurrent();
  QOpenGLContext* context() const { return context_.get(); }

  // Renders one frame at width × height into an image (multisampled, then resolved). The
  // multisampled framebuffer is kept for the next frame of the same size.
  QImage render(Renderer& renderer, const Camera& camera, int width, int height,
                const ViewOptions& options);

 private:
  std::unique_ptr<QOpenGLContext> context_;
  std::unique_ptr<QOffscreenSurface> ownSurface_;
  QOffscreenSurface* surface_ = nullptr;
  std::unique_ptr<QOpenGLFramebufferObject> framebuffer_;
};

}  // namespace marrow::render
