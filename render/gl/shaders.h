// The renderer's shader programs, built from the GLSL sources in :/shaders/.
#pragma once

#include <QOpenGLShaderProgram>

#include <memory>
#include <string>

namespace marrow::render {

struct ShaderSet {
  static constexpr unsigned kPaletteBinding = 0;  // uniform block binding of the palette

  std::unique_ptr<QOpenGLShaderProgram> meshUbo;  // palette in a uniform block (≤ 256 bones)
  std::unique_ptr<QOpenGLShaderProgram> meshTbo;  // palette in a texture buffer
  std::unique_ptr<QOpenGLShaderProgram> lines;
  std::unique_ptr<QOpenGLShaderProgram> captureUbo, captureTbo;  // built on first use

  bool build(std::string* error);
  // The mesh program linked with transform feedback of vSkinnedPosition.
  QOpenGLShaderProgram* capture(bool tbo);
  void release();
};

// Source of a shader in :/shaders/ ("mesh.vert"), empty when missing.
std::string shaderSource(const char* name);

}  // namespace marrow::render
