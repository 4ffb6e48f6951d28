#include "render/gl/gpu_mesh.h"

#include <QImage>

#include <algorithm>
#include <vector>

#include "formats/image/dds.h"
#include "render/anim/morph.h"
#include "render/anim/skinning.h"

namespace marrow::render {

namespace {

template <class T>
void floatAttribute(QOpenGLFunctions_3_3_Core* gl, GLuint& buffer, GLuint location, const std::vector<T>& data,
                    int components) {
  gl->glGenBuffers(1, &buffer);
  gl->glBindBuffer(GL_ARRAY_BUFFER, buffer);
  gl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(T)), data.data(),
                   GL_STATIC_DRAW);
  gl->glEnableVertexAttribArray(location);
  gl->glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, 0, nullptr);
}

// Bone indices as `U` (the shader reads a uvec4 whatever the type in the buffer).
template <class U>
void boneIndicesAs(QOpenGLFunctions_3_3_Core* gl, GLuint location, const std::vector<glm::uvec4>& data, GLenum type) {
  std::vector<glm::vec<4, U>> narrow(data.size());
  for (std::size_t v = 0; v < data.size(); ++v) narrow[v] = glm::vec<4, U>(data[v]);
  gl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(narrow.size() * sizeof(narrow[0])), narrow.data(),
                   GL_STATIC_DRAW);
  gl->glVertexAttribIPointer(location, 4, type, 0, nullptr);
}

// Bone indices in the narrowest unsigned type that holds them: bytes for skeletons of up to 256
// bones, a quarter of the memory of 32-bit indices (4 MB less for a million vertices).
void boneAttribute(QOpenGLFunctions_3_3_Core* gl, GLuint& buffer, GLuint location,
                   const std::vector<glm::uvec4>& data) {
  gl->glGenBuffers(1, &buffer);
  gl->glBindBuffer(GL_ARRAY_BUFFER, buffer);
  gl->glEnableVertexAttribArray(location);
  std::uint32_t highest = 0;
  for (const auto& b : data) highest = std::max({highest, b.x, b.y, b.z, b.w});
  if (highest <= 0xffu) {
    boneIndicesAs<std::uint8_t>(gl, location, data, GL_UNSIGNED_BYTE);
  } else if (highest <= 0xffffu) {
    boneIndicesAs<std::uint16_t>(gl, location, data, GL_UNSIGNED_SHORT);
  } else {
    gl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(glm::uvec4)), data.data(),
                     GL_STATIC_DRAW);
    gl->glVertexAttribIPointer(location, 4, GL_UNSIGNED_INT, 0, nullptr);
  }
}

}  // namespace

GpuMesh GpuMesh::upload(QOpenGLFunctions_3_3_Core* gl, const formats::Mesh& mesh) {
  return upload(gl, mesh, anim::packInfluences(mesh));
}

GpuMesh GpuMesh::upload(QOpenGLFunctions_3_3_Core* gl, const formats::Mesh& mesh,
                        const anim::PackedInfluences& packed) {
  GpuMesh g;
  g.vertexCount = mesh.vertexCount();
  g.indexCount = static_cast<GLsizei>(mesh.indices.size());
  gl->glGenVertexArrays(1, &g.vao);
  gl->glBindVertexArray(g.vao);

  floatAttribute(gl, g.buffers[kPosition], kPosition, mesh.positions, 3);
  if (mesh.normals.size() == mesh.vertexCount())
    floatAttribute(gl, g.buffers[kNormal], kNormal, mesh.normals, 3);
  else
    floatAttribute(gl, g.buffers[kNormal], kNormal, smoothNormals(mesh), 3);
  // A mesh without uvs or colours gets no array for them: a disabled attribute reads the
  // context's constant value, (0, 0) for uvs and the white the renderer sets for colours
  // (kConstantColor). For a million vertices that is 24 MB the GPU does not hold.
  g.hasUv = !mesh.uvSets.empty() && mesh.uvSets[0].size() == mesh.vertexCount();
  if (g.hasUv) floatAttribute(gl, g.buffers[kUv], kUv, mesh.uvSets[0], 2);
  g.hasColors = !mesh.colors.empty() && mesh.colors.size() == mesh.vertexCount();
  if (g.hasColors) floatAttribute(gl, g.buffers[kColor], kColor, mesh.colors, 4);

  g.influenceGroups = packed.groups;
  if (packed.groups >= 1) {
    boneAttribute(gl, g.buffers[kBones0], kBones0, packed.bones0);
    floatAttribute(gl, g.buffers[kWeights0], kWeights0, packed.weights0, 4);
  }
  if (packed.groups == 2) {
    boneAttribute(gl, g.buffers[kBones1], kBones1, packed.bones1);
    floatAttribute(gl, g.buffers[kWeights1], kWeights1, packed.weights1, 4);
  }

  std::vector<glm::vec3> dp, dn;
  for (const auto& target : mesh.morphs) {
    anim::morphDeltas(mesh, target, dp, dn);
    std::pair<GLuint, GLuint> b{0, 0};
    gl->glGenBuffers(1, &b.first);
    gl->glBindBuffer(GL_ARRAY_BUFFER, b.first);
    gl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(dp.size() * sizeof(glm::vec3)),
                     dp.data(), GL_STATIC_DRAW);
    gl->glGenBuffers(1, &b.second);
    gl->glBindBuffer(GL_ARRAY_BUFFER, b.second);
    gl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(dn.size() * sizeof(glm::vec3)),
                     dn.data(), GL_STATIC_DRAW);
    g.morphBuffers.push_back(b);
  }

  gl->glGenBuffers(1, &g.indexBuffer);
  gl->glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.indexBuffer);
  gl->glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                   static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(std::uint32_t)),
                   mesh.indices.data(), mesh.lod.empty() ? GL_STATIC_DRAW : GL_DYNAMIC_DRAW);
  gl->glBindVertexArray(0);
  gl->glBindBuffer(GL_ARRAY_BUFFER, 0);
  return g;
}

void GpuMesh::draw(QOpenGLFunctions_3_3_Core* gl) const {
  if (!vao || indexCount == 0) return;
  gl->glBindVertexArray(vao);
  gl->glDrawElements(GL_TRIANGLES, indexCount, GL_UNSIGNED_INT, nullptr);
  gl->glBindVertexArray(0);
}

void GpuMesh::setMorphWeights(QOpenGLFunctions_3_3_Core* gl, const formats::Mesh& mesh,
                              std::span<const float> weights) {
  std::vector<std::size_t> active;
  for (std::size_t k = 0; k < morphBuffers.size() && k < weights.size(); ++k)
    if (weights[k] != 0.0f) active.push_back(k);
  std::vector<std::pair<GLuint, GLuint>> bound;
  morphWeights = glm::vec4(0.0f);
  if (active.size() <= static_cast<std::size_t>(kMorphSlots)) {
    for (std::size_t i = 0; i < active.size(); ++i) {
      bound.push_back(morphBuffers[active[i]]);
      morphWeights[static_cast<int>(i)] = weights[active[i]];
    }
  } else {
    // Too many at once for the attributes: the weighted sum of all offsets is one target.
    std::vector<glm::vec3> sumP(vertexCount, glm::vec3(0.0f)), sumN(vertexCount, glm::vec3(0.0f));
    std::vector<glm::vec3> dp, dn;
    for (std::size_t k : active) {
      anim::morphDeltas(mesh, mesh.morphs[k], dp, dn);
      for (std::size_t v = 0; v < vertexCount; ++v) {
        sumP[v] += weights[k] * dp[v];
        sumN[v] += weights[k] * dn[v];
      }
    }
    if (!combinedMorph.first) {
      gl->glGenBuffers(1, &combinedMorph.first);
      gl->glGenBuffers(1, &combinedMorph.second);
    }
    const auto bytes = static_cast<GLsizeiptr>(vertexCount * sizeof(glm::vec3));
    gl->glBindBuffer(GL_ARRAY_BUFFER, combinedMorph.first);
    gl->glBufferData(GL_ARRAY_BUFFER, bytes, sumP.data(), GL_DYNAMIC_DRAW);
    gl->glBindBuffer(GL_ARRAY_BUFFER, combinedMorph.second);
    gl->glBufferData(GL_ARRAY_BUFFER, bytes, sumN.data(), GL_DYNAMIC_DRAW);
    bound.push_back(combinedMorph);
    morphWeights.x = 1.0f;
  }
  gl->glBindVertexArray(vao);
  for (int slot = 0; slot < kMorphSlots; ++slot) {
    const GLuint pos = kMorphPosition0 + static_cast<GLuint>(slot);
    const GLuint nrm = kMorphNormal0 + static_cast<GLuint>(slot);
    if (static_cast<std::size_t>(slot) < bound.size()) {
      gl->glBindBuffer(GL_ARRAY_BUFFER, bound[static_cast<std::size_t>(slot)].first);
      gl->glEnableVertexAttribArray(pos);
      gl->glVertexAttribPointer(pos, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
      gl->glBindBuffer(GL_ARRAY_BUFFER, bound[static_cast<std::size_t>(slot)].second);
      gl->glEnableVertexAttribArray(nrm);
      gl->glVertexAttribPointer(nrm, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
    } else {
      // A disabled attribute reads (0, 0, 0, 1): no offset, whatever the weight.
      gl->glDisableVertexAttribArray(pos);
      gl->glDisableVertexAttribArray(nrm);
    }
  }
  gl->glBindVertexArray(0);
  gl->glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuMesh::setIndices(QOpenGLFunctions_3_3_Core* gl, const std::vector<std::uint32_t>& indices) {
  gl->glBindVertexArray(vao);
  gl->glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                   static_cast<GLsizeiptr>(indices.size() * sizeof(std::uint32_t)), indices.data(),
                   GL_DYNAMIC_DRAW);
  gl->glBindVertexArray(0);
  indexCount = static_cast<GLsizei>(indices.size());
}

void GpuMesh::bindColors(QOpenGLFunctions_3_3_Core* gl, GLuint buffer) {
  gl->glBindVertexArray(vao);
  if (const GLuint colors = buffer ? buffer : buffers[kColor]) {
    gl->glBindBuffer(GL_ARRAY_BUFFER, colors);
    gl->glVertexAttribPointer(kColor, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    gl->glEnableVertexAttribArray(kColor);
  } else {
    gl->glDisableVertexAttribArray(kColor);  // the constant colour again
  }
  gl->glBindVertexArray(0);
  gl->glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuMesh::place(QOpenGLFunctions_3_3_Core* gl, std::span<const glm::vec3> positions,
                    std::span<const glm::vec3> normals) {
  const bool on = !positions.empty() && positions.size() == vertexCount;
  const bool withNormals = on && normals.size() == vertexCount;
  gl->glBindVertexArray(vao);
  const auto bind = [&](int slot, GLuint location, std::span<const glm::vec3> data, bool use) {
    if (use) {
      if (!placedBuffers[slot]) gl->glGenBuffers(1, &placedBuffers[slot]);
      gl->glBindBuffer(GL_ARRAY_BUFFER, placedBuffers[slot]);
      gl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size_bytes()), data.data(), GL_STREAM_DRAW);
    } else {
      gl->glBindBuffer(GL_ARRAY_BUFFER, buffers[location]);
    }
    gl->glVertexAttribPointer(location, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  };
  bind(0, kPosition, positions, on);
  bind(1, kNormal, normals, withNormals);
  gl->glBindVertexArray(0);
  gl->glBindBuffer(GL_ARRAY_BUFFER, 0);
  placed = on;
}

void GpuMesh::release(QOpenGLFunctions_3_3_Core* gl) {
  for (GLuint& b : placedBuffers) {
    if (b) gl->glDeleteBuffers(1, &b);
    b = 0;
  }
  placed = false;
  for (GLuint& b : buffers) {
    if (b) gl->glDeleteBuffers(1, &b);
    b = 0;
  }
  for (auto& [p, n] : morphBuffers) {
    gl->glDeleteBuffers(1, &p);
    gl->glDeleteBuffers(1, &n);
  }
  morphBuffers.clear();
  if (combinedMorph.first) {
    gl->glDeleteBuffers(1, &combinedMorph.first);
    gl->glDeleteBuffers(1, &combinedMorph.second);
  }
  combinedMorph = {0, 0};
  if (indexBuffer) gl->glDeleteBuffers(1, &indexBuffer);
  if (vao) gl->glDeleteVertexArrays(1, &vao);
  indexBuffer = vao = 0;
}

namespace {

// The next mip level of an RGBA8 image: each texel the rounded mean of a 2×2 block, a last odd
// row or column left out (a box filter, as glGenerateMipmap is on the common drivers).
std::vector<std::uint8_t> halve(const std::uint8_t* src, int w, int h, int& outW, int& outH) {
  outW = std::max(w / 2, 1);
  outH = std::max(h / 2, 1);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(outW) * static_cast<std::size_t>(outH) *
                                4);
  const auto row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < outH; ++y) {
    const std::uint8_t* r0 = src + static_cast<std::size_t>(std::min(2 * y, h - 1)) * row;
    const std::uint8_t* r1 = src + static_cast<std::size_t>(std::min(2 * y + 1, h - 1)) * row;
    std::uint8_t* o = out.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(outW) * 4;
    for (int x = 0; x < outW; ++x) {
      const auto x0 = static_cast<std::size_t>(std::min(2 * x, w - 1)) * 4;
      const auto x1 = static_cast<std::size_t>(std::min(2 * x + 1, w - 1)) * 4;
      for (std::size_t c = 0; c < 4; ++c)
        o[static_cast<std::size_t>(x) * 4 + c] =
            static_cast<std::uint8_t>((r0[x0 + c] + r0[x1 + c] + r1[x0 + c] + r1[x1 + c] + 2) / 4);
    }
  }
  return out;
}

}  // namespace

GLuint uploadTexture(QOpenGLFunctions_3_3_Core* gl, const QImage& image) {
  if (image.isNull()) return 0;
  // Row 0 of a QImage is the top row; uploaded first, it sits at t = 0: the model's convention.
  const QImage rgba = image.convertToFormat(QImage::Format_RGBA8888);
  GLuint tex = 0;
  gl->glGenTextures(1, &tex);
  gl->glBindTexture(GL_TEXTURE_2D, tex);
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  // The mip levels are made here rather than by glGenerateMipmap: Mesa's llvmpipe compiles a
  // shader for its first glGenerateMipmap, over 100 ms of the first frame (docs/viewport.md);
  // box-filtering a texture on the CPU takes well under a millisecond for game textures.
  int w = rgba.width(), h = rgba.height();
  std::vector<std::uint8_t> level;
  if (rgba.bytesPerLine() == static_cast<qsizetype>(w) * 4) {
    level.assign(rgba.constBits(), rgba.constBits() + static_cast<std::size_t>(rgba.sizeInBytes()));
  } else {
    level.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
    for (int y = 0; y < h; ++y)
      std::copy_n(rgba.constScanLine(y), static_cast<std::size_t>(w) * 4,
                  level.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w) * 4);
  }
  for (GLint i = 0;; ++i) {
    gl->glTexImage2D(GL_TEXTURE_2D, i, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, level.data());
    if (w == 1 && h == 1) break;
    int nw = 0, nh = 0;
    level = halve(level.data(), w, h, nw, nh);
    w = nw;
    h = nh;
  }
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  gl->glBindTexture(GL_TEXTURE_2D, 0);
  return tex;
}

GLuint uploadCompressedTexture(QOpenGLFunctions_3_3_Core* gl, const formats::DdsImage& image) {
  // EXT_texture_compression_s3tc tokens. DXT1 as RGBA: its 3-colour blocks' fourth code is
  // transparent black, as the CPU decoder gives it. *_SRGB DX10 formats go up as the plain ones,
  // as the decoded images do (nothing in the renderer is sRGB).
  constexpr GLenum kDxt1 = 0x83F1, kDxt3 = 0x83F2, kDxt5 = 0x83F3;
  GLenum internalFormat = 0;
  switch (image.format) {
    case formats::DdsFormat::Dxt1: internalFormat = kDxt1; break;
    case formats::DdsFormat::Dxt3: internalFormat = kDxt3; break;
    case formats::DdsFormat::Dxt5: internalFormat = kDxt5; break;
    case formats::DdsFormat::Uncompressed: return 0;
  }
  if (image.levels.empty()) return 0;
  // Errors from before are not ours (bounded: a lost context reports one for ever).
  for (int i = 0; i < 32 && gl->glGetError() != GL_NO_ERROR; ++i) continue;
  GLuint tex = 0;
  gl->glGenTextures(1, &tex);
  gl->glBindTexture(GL_TEXTURE_2D, tex);
  const auto levels = static_cast<GLint>(image.levels.size());
  for (GLint i = 0; i < levels; ++i) {
    const formats::DdsLevel& l = image.levels[static_cast<std::size_t>(i)];
    gl->glCompressedTexImage2D(GL_TEXTURE_2D, i, internalFormat, static_cast<GLsizei>(l.width),
                               static_cast<GLsizei>(l.height), 0,
                               static_cast<GLsizei>(l.data.size()), l.data.data());
  }
  // A chain short of 1×1 is complete up to its last level.
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, levels - 1);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                      levels > 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  gl->glBindTexture(GL_TEXTURE_2D, 0);
  if (gl->glGetError() != GL_NO_ERROR) {
    gl->glDeleteTextures(1, &tex);
    return 0;
  }
  return tex;
}

GLuint uploadSceneTexture(QOpenGLFunctions_3_3_Core* gl, const formats::Texture& texture,
                          const QImage& image, bool s3tc) {
  if (s3tc && !image.isNull() && formats::isDds(texture.data)) {
    const auto dds =
        formats::readDds(texture.data, texture.path.empty() ? texture.name : texture.path);
    if (dds && formats::isBlockCompressed(dds->format) &&
        static_cast<int>(dds->width) == image.width() &&
        static_cast<int>(dds->height) == image.height())
      if (const GLuint tex = uploadCompressedTexture(gl, *dds)) return tex;
  }
  return uploadTexture(gl, image);
}

}  // namespace marrow::render
