#include "render/gl/shaders.h"

#include <QFile>
#include <QOpenGLContext>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLVersionFunctionsFactory>

#include "render/gl/gpu_mesh.h"

// Resources compiled into a static library need an explicit initialisation, outside any namespace.
static void initShaderResources() { Q_INIT_RESOURCE(marrow_shaders); }

namespace marrow::render {

std::string shaderSource(const char* name) {
  static const bool once = (initShaderResources(), true);
  (void)once;
  QFile f(QStringLiteral(":/shaders/") + QString::fromLatin1(name));
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().toStdString();
}

namespace {

std::unique_ptr<QOpenGLShaderProgram> makeMeshProgram(bool tbo, bool capture, std::string* error) {
  const std::string header =
      std::string("#version 330 core\n") + (tbo ? "#define MARROW_PALETTE_TBO\n" : "");
  const std::string vert = header + shaderSource("skin.glsl") + shaderSource("mesh.vert");
  const std::string frag = std::string("#version 330 core\n") + shaderSource("mesh.frag");
  auto p = std::make_unique<QOpenGLShaderProgram>();
  if (!p->addShaderFromSourceCode(QOpenGLShader::Vertex, vert.c_str()) ||
      !p->addShaderFromSourceCode(QOpenGLShader::Fragment, frag.c_str())) {
    if (error) *error = "mesh shader: " + p->log().toStdString();
    return nullptr;
  }
  p->bindAttributeLocation("aPosition", kPosition);
  p->bindAttributeLocation("aNormal", kNormal);
  p->bindAttributeLocation("aUv", kUv);
  p->bindAttributeLocation("aColor", kColor);
  p->bindAttributeLocation("aBones0", kBones0);
  p->bindAttributeLocation("aWeights0", kWeights0);
  p->bindAttributeLocation("aBones1", kBones1);
  p->bindAttributeLocation("aWeights1", kWeights1);
  for (int k = 0; k < kMorphSlots; ++k) {
    p->bindAttributeLocation(("aMorphPosition" + std::to_string(k)).c_str(),
                             kMorphPosition0 + static_cast<GLuint>(k));
    p->bindAttributeLocation(("aMorphNormal" + std::to_string(k)).c_str(),
                             kMorphNormal0 + static_cast<GLuint>(k));
  }
  auto* gl = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(
      QOpenGLContext::currentContext());
  if (capture) {
    const char* varyings[] = {"vSkinnedPosition"};
    gl->glTransformFeedbackVaryings(p->programId(), 1, varyings, GL_INTERLEAVED_ATTRIBS);
  }
  if (!p->link()) {
    if (error) *error = "mesh shader link: " + p->log().toStdString();
    return nullptr;
  }
  if (!tbo) {
    const GLuint block = gl->glGetUniformBlockIndex(p->programId(), "Palette");
    if (block != GL_INVALID_INDEX)
      gl->glUniformBlockBinding(p->programId(), block, ShaderSet::kPaletteBinding);
  }
  return p;
}

}  // namespace

bool ShaderSet::build(std::string* error) {
  if (shaderSource("mesh.vert").empty()) {
    if (error) *error = "the shader resources are missing from this build";
    return false;
  }
  meshUbo = makeMeshProgram(false, false, error);
  if (!meshUbo) return false;
  meshTbo = makeMeshProgram(true, false, error);
  if (!meshTbo) return false;
  lines = std::make_unique<QOpenGLShaderProgram>();
  const std::string v = "#version 330 core\n" + shaderSource("lines.vert");
  const std::string f = "#version 330 core\n" + shaderSource("lines.frag");
  lines->addShaderFromSourceCode(QOpenGLShader::Vertex, v.c_str());
  lines->addShaderFromSourceCode(QOpenGLShader::Fragment, f.c_str());
  lines->bindAttributeLocation("aPosition", 0);
  lines->bindAttributeLocation("aColor", 1);
  if (!lines->link()) {
    if (error) *error = "line shader: " + lines->log().toStdString();
    return false;
  }
  return true;
}

QOpenGLShaderProgram* ShaderSet::capture(bool tbo) {
  auto& slot = tbo ? captureTbo : captureUbo;
  if (!slot) slot = makeMeshProgram(tbo, true, nullptr);
  return slot.get();
}

void ShaderSet::release() {
  meshUbo.reset();
  meshTbo.reset();
  lines.reset();
  captureUbo.reset();
  captureTbo.reset();
}

}  // namespace marrow::render
