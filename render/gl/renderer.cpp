#include "render/gl/renderer.h"

#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLVersionFunctionsFactory>

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/type_ptr.hpp>
#include <glm/mat3x3.hpp>

#include "render/anim/morph.h"
#include "render/gl/attachments.h"
#include "render/gl/renderer_impl.h"
#include "render/gl/surface_look.h"

namespace marrow::render {

float Bounds::radius() const { return valid ? std::max(glm::length(hi - lo) * 0.5f, 1e-4f) : 1.0f; }

namespace {

constexpr int kUboBones = 256;

void extend(Bounds& b, const glm::vec3& p) {
  if (!b.valid) {
    b.lo = b.hi = p;
    b.valid = true;
  } else {
    b.lo = glm::min(b.lo, p);
    b.hi = glm::max(b.hi, p);
  }
}

}  // namespace

Renderer::Renderer() : d_(std::make_unique<Impl>()) {}
Renderer::~Renderer() = default;

bool Renderer::initialized() const { return d_->gl != nullptr; }

bool Renderer::initialize(QOpenGLContext* context, std::string* error) {
  auto* gl = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(context);
  if (!gl || !gl->initializeOpenGLFunctions()) {
    if (error) *error = "this OpenGL context does not offer OpenGL 3.3 core";
    return false;
  }
  d_->gl = gl;
  d_->s3tc = context->hasExtension(QByteArrayLiteral("GL_EXT_texture_compression_s3tc"));
  if (!d_->shaders.build(error)) {
    d_->gl = nullptr;
    return false;
  }
  gl->glGenVertexArrays(1, &d_->lineVao);
  gl->glGenBuffers(1, &d_->lineVbo);
  gl->glBindVertexArray(d_->lineVao);
  gl->glBindBuffer(GL_ARRAY_BUFFER, d_->lineVbo);
  gl->glEnableVertexAttribArray(0);
  gl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
  gl->glEnableVertexAttribArray(1);
  gl->glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                            reinterpret_cast<void*>(offsetof(LineVertex, color)));
  gl->glBindVertexArray(0);
  return true;
}

void Renderer::Impl::freeScene() {
  invalidateSkinned();
  skinned.clear();
  if (!gl) return;
  for (auto& m : meshes) m.release(gl);
  meshes.clear();
  for (auto& st : state)
    if (st.influenceColors) gl->glDeleteBuffers(1, &st.influenceColors);
  state.clear();
  packed.reset();
  hiddenBones.clear();
  hiddenMaterials.clear();
  hiddenMeshes.clear();
  for (GLuint t : textures)
    if (t) gl->glDeleteTextures(1, &t);
  textures.clear();
  for (auto& p : palettes) {
    if (p.buffer) gl->glDeleteBuffers(1, &p.buffer);
    if (p.texture) gl->glDeleteTextures(1, &p.texture);
  }
  palettes.clear();
  paletteOfMesh.clear();
  morphWeights.clear();
  levels.clear();
  bodies = {};
  scene.reset();
  rest = {};
}

void Renderer::clearScene() { d_->freeScene(); }

void Renderer::setScene(std::shared_ptr<const formats::Scene> scene,
                        const std::vector<QImage>& images,
                        std::shared_ptr<const anim::PackedScene> packed) {
  Impl& d = *d_;
  d.freeScene();
  if (!d.gl || !scene) return;
  d.scene = std::move(scene);
  const formats::Scene& s = *d.scene;
  d.display = formats::toDisplay(s.basis);
  d.flipWinding = formats::flipsWinding(s.basis);
  d.useTbo = s.skeleton.bones.size() > kUboBones;

  d.textures.assign(s.textures.size(), 0);
  for (std::size_t i = 0; i < s.textures.size() && i < images.size(); ++i)
    d.textures[i] = uploadSceneTexture(d.gl, s.textures[i], images[i], d.s3tc);

  d.packed = packed && packed->packs(d.scene) ? std::move(packed) : anim::packScene(d.scene);
  d.palettes.resize(1);
  d.state.resize(s.meshes.size());
  for (std::size_t m = 0; m < s.meshes.size(); ++m) {
    const auto& mesh = s.meshes[m];
    d.state[m].packed = &(*d.packed->meshes)[m];
    GpuMesh g = GpuMesh::upload(d.gl, mesh, *d.state[m].packed);
    const SurfaceLook look = surfaceLook(s, mesh);
    g.baseColor = look.baseColor;
    g.vertexColors = static_cast<int>(look.vertexColors);
    if (mesh.material >= 0) {
      const auto& mat = s.materials[mesh.material];
      g.specular = glm::vec3(mat.specular);
      g.shininess = mat.shininess;
      const int tex = mat.diffuseTexture();
      g.texture = tex >= 0 && static_cast<std::size_t>(tex) < d.textures.size() ? d.textures[tex] : 0;
    }
    d.meshes.push_back(std::move(g));
    if (mesh.inverseBind.empty()) {
      d.paletteOfMesh.push_back(0);
    } else {
      d.paletteOfMesh.push_back(static_cast<int>(d.palettes.size()));
      d.palettes.emplace_back();
    }
  }
  d.morphWeights.assign(s.meshes.size(), {});
  d.levels.assign(s.meshes.size(), 1.0f);
  d.hiddenMaterials.assign(s.materials.size(), false);
  d.hiddenMeshes.assign(s.meshes.size(), false);
  for (const auto& mesh : s.meshes)
    for (const auto& p : mesh.positions) extend(d.rest, glm::vec3(d.display * glm::vec4(p, 1.0f)));
  d.bodies = tessellateBodies(s.bodies, d.display);
  // Bodies frame the view only without meshes: a file of objects keeps each one's bodies beside
  // its meshes, but a file of bodies alone must show them.
  if (!d.rest.valid)
    for (const auto& v : d.bodies.triangles) extend(d.rest, v.position);
  d.pose = anim::restPose(s.skeleton);
  anim::computeModel(s.skeleton, d.pose);
  // Bones frame the view only without meshes: helper nodes (lamps, cameras) sit far away.
  if (!d.rest.valid)
    for (const auto& m : d.pose.model) extend(d.rest, glm::vec3(d.display * m[3]));
  setPose(d.pose);
}

void Renderer::setPose(const anim::Pose& pose) {
  Impl& d = *d_;
  if (!d.scene) return;
  const auto& s = *d.scene;
  if (pose.model.size() != s.skeleton.bones.size()) return;  // a pose of another skeleton
  if (&pose != &d.pose) d.pose = pose;
  // Palette 0 serves every mesh that uses the skeleton's inverse binds; the rest have their own.
  static const formats::Mesh kUsesSkeletonBinds;
  anim::skinPalette(s.skeleton, kUsesSkeletonBinds, d.pose, d.palettes[0].matrices);
  d.palettes[0].dirty = true;
  for (std::size_t m = 0; m < s.meshes.size(); ++m) {
    const int p = d.paletteOfMesh[m];
    if (p == 0) continue;
    anim::skinPalette(s.skeleton, s.meshes[m], d.pose, d.palettes[p].matrices);
    d.palettes[p].dirty = true;
  }
  if (d.skinning == SkinningMethod::DualQuaternion) d.encodePalettes();
  d.invalidateSkinned();
}

void Renderer::Impl::encodePalettes() {
  for (auto& p : palettes) {
    anim::encodeDualQuats(p.matrices, p.encoded);
    p.dirty = true;
  }
}

void Renderer::setSkinningMethod(SkinningMethod method) {
  Impl& d = *d_;
  if (method == d.skinning) return;
  d.skinning = method;
  if (method == SkinningMethod::DualQuaternion) d.encodePalettes();
  for (auto& p : d.palettes) p.dirty = true;
  d.invalidateSkinned();
}

SkinningMethod Renderer::skinningMethod() const { return d_->skinning; }

void Renderer::Impl::uploadPalettes() {
  const bool dq = skinning == SkinningMethod::DualQuaternion;
  for (auto& p : palettes) {
    const std::vector<glm::mat4>& data = dq ? p.encoded : p.matrices;
    if (!p.dirty || data.empty()) continue;
    const auto bytes = static_cast<GLsizeiptr>(data.size() * sizeof(glm::mat4));
    if (useTbo) {
      if (!p.buffer) {
        gl->glGenBuffers(1, &p.buffer);
        gl->glGenTextures(1, &p.texture);
      }
      gl->glBindBuffer(GL_TEXTURE_BUFFER, p.buffer);
      gl->glBufferData(GL_TEXTURE_BUFFER, bytes, data.data(), GL_STREAM_DRAW);
      gl->glBindTexture(GL_TEXTURE_BUFFER, p.texture);
      gl->glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, p.buffer);
      gl->glBindTexture(GL_TEXTURE_BUFFER, 0);
      gl->glBindBuffer(GL_TEXTURE_BUFFER, 0);
    } else {
      if (!p.buffer) gl->glGenBuffers(1, &p.buffer);
      gl->glBindBuffer(GL_UNIFORM_BUFFER, p.buffer);
      // Always the full block: std140 arrays are read whole, whatever the bone count.
      gl->glBufferData(GL_UNIFORM_BUFFER, kUboBones * sizeof(glm::mat4), nullptr, GL_STREAM_DRAW);
      gl->glBufferSubData(GL_UNIFORM_BUFFER, 0, bytes, data.data());
      gl->glBindBuffer(GL_UNIFORM_BUFFER, 0);
    }
    p.dirty = false;
  }
}

void Renderer::Impl::bindPalette(std::size_t index, QOpenGLShaderProgram& program) {
  if (index >= palettes.size() || !palettes[index].buffer) return;
  if (useTbo) {
    gl->glActiveTexture(GL_TEXTURE1);
    gl->glBindTexture(GL_TEXTURE_BUFFER, palettes[index].texture);
    program.setUniformValue("uPaletteTexture", 1);
    gl->glActiveTexture(GL_TEXTURE0);
  } else {
    gl->glBindBufferBase(GL_UNIFORM_BUFFER, ShaderSet::kPaletteBinding, palettes[index].buffer);
  }
}

void Renderer::setMorphWeights(std::size_t mesh, std::span<const float> weights) {
  Impl& d = *d_;
  if (!d.gl || !d.scene || mesh >= d.meshes.size()) return;
  d.morphWeights[mesh].assign(weights.begin(), weights.end());
  d.meshes[mesh].setMorphWeights(d.gl, d.scene->meshes[mesh], weights);
  d.invalidateSkinned();
}

void Renderer::setPlacedVertices(std::size_t mesh, std::span<const glm::vec3> positions,
                                 std::span<const glm::vec3> normals) {
  Impl& d = *d_;
  if (!d.gl || !d.scene || mesh >= d.meshes.size()) return;
  MeshState& st = d.state[mesh];
  if (positions.size() != d.scene->meshes[mesh].vertexCount()) positions = {};
  if (positions.empty()) normals = {};
  if (positions.empty() && !d.meshes[mesh].placed) return;
  d.meshes[mesh].place(d.gl, positions, normals);
  st.placedPositions.assign(positions.begin(), positions.end());
  st.placedNormals.assign(normals.begin(), normals.end());
  d.invalidateSkinned();
}

bool Renderer::placed(std::size_t mesh) const {
  const Impl& d = *d_;
  return mesh < d.meshes.size() && d.meshes[mesh].placed;
}

void Renderer::setLevelOfDetail(std::size_t mesh, float level) {
  Impl& d = *d_;
  if (!d.gl || !d.scene || mesh >= d.meshes.size() || d.scene->meshes[mesh].lod.empty()) return;
  d.levels[mesh] = level;
  d.refreshIndices(mesh);
}

void Renderer::Impl::refreshIndices(std::size_t m) {
  const formats::Mesh& mesh = scene->meshes[m];
  MeshState& st = state[m];
  const bool lod = !mesh.lod.empty() && levels[m] < 1.0f;
  const bool hide = anyBoneHidden();
  if (!lod && !hide) {
    if (st.filtered) meshes[m].setIndices(gl, mesh.indices);
    st.filtered = false;
    st.indices.clear();
    return;
  }
  if (lod)
    anim::lodIndices(mesh, levels[m], st.indices);
  else
    st.indices = mesh.indices;
  if (hide) {
    if (st.dominant.size() != mesh.vertexCount()) {
      st.dominant.resize(mesh.vertexCount());
      for (std::size_t v = 0; v < st.dominant.size(); ++v) st.dominant[v] = dominantBone(mesh, v);
    }
    const std::size_t n = st.dominant.size();
    auto hiddenCorner = [&](std::uint32_t v) { return v < n && boneHidden(st.dominant[v]); };
    std::size_t kept = 0;
    for (std::size_t i = 0; i + 2 < st.indices.size(); i += 3) {
      if (hiddenCorner(st.indices[i]) || hiddenCorner(st.indices[i + 1]) ||
          hiddenCorner(st.indices[i + 2]))
        continue;
      for (int k = 0; k < 3; ++k) st.indices[kept++] = st.indices[i + static_cast<std::size_t>(k)];
    }
    st.indices.resize(kept);
  }
  st.filtered = true;
  meshes[m].setIndices(gl, st.indices);
}

bool Renderer::Impl::anyBoneHidden() const {
  return std::find(hiddenBones.begin(), hiddenBones.end(), true) != hiddenBones.end();
}

bool Renderer::Impl::meshHidden(std::size_t mesh) const {
  if (mesh < hiddenMeshes.size() && hiddenMeshes[mesh]) return true;
  const int mat = scene->meshes[mesh].material;
  return mat >= 0 && static_cast<std::size_t>(mat) < hiddenMaterials.size() && hiddenMaterials[mat];
}

const std::vector<std::uint32_t>& Renderer::Impl::drawnIndices(std::size_t mesh) const {
  return state[mesh].filtered ? state[mesh].indices : scene->meshes[mesh].indices;
}

void Renderer::setHiddenBones(std::vector<bool> hidden) {
  Impl& d = *d_;
  if (!d.scene) return;
  hidden.resize(d.scene->skeleton.bones.size(), false);
  if (hidden == d.hiddenBones) return;
  d.hiddenBones = std::move(hidden);
  if (!d.gl) return;
  for (std::size_t m = 0; m < d.meshes.size(); ++m) d.refreshIndices(m);
}

const std::vector<bool>& Renderer::hiddenBones() const { return d_->hiddenBones; }

void Renderer::setMaterialVisible(int material, bool visible) {
  Impl& d = *d_;
  if (material < 0 || static_cast<std::size_t>(material) >= d.hiddenMaterials.size()) return;
  d.hiddenMaterials[material] = !visible;
}

void Renderer::setMeshVisible(std::size_t mesh, bool visible) {
  Impl& d = *d_;
  if (mesh < d.hiddenMeshes.size()) d.hiddenMeshes[mesh] = !visible;
}

bool Renderer::meshVisible(std::size_t mesh) const {
  const Impl& d = *d_;
  return mesh >= d.hiddenMeshes.size() || !d.hiddenMeshes[mesh];
}

bool Renderer::materialVisible(int material) const {
  const Impl& d = *d_;
  return material < 0 || static_cast<std::size_t>(material) >= d.hiddenMaterials.size() ||
         !d.hiddenMaterials[material];
}

void Renderer::setBodiesVisible(bool visible) { d_->bodiesVisible = visible; }
bool Renderer::bodiesVisible() const { return d_->bodiesVisible; }

Bounds Renderer::restBounds() const { return d_->rest; }

Bounds Renderer::poseBounds() const {
  const Impl& d = *d_;
  Bounds b;
  if (!d.scene) return b;
  d.ensureSkinned(false, false);
  for (const auto& sk : d.skinned)
    for (const auto& p : sk.positions) extend(b, glm::vec3(d.display * glm::vec4(p, 1.0f)));
  if (!b.valid)
    for (const auto& v : d.bodies.triangles) extend(b, v.position);
  if (!b.valid)
    for (const auto& m : d.pose.model) extend(b, glm::vec3(d.display * m[3]));
  return b;
}

void Renderer::Impl::drawLines(const std::vector<LineVertex>& v, GLenum mode,
                               const glm::mat4& viewProj, float pointSize) {
  if (v.empty()) return;
  auto& prog = *shaders.lines;
  prog.bind();
  prog.setUniformValue("uPointSize", pointSize);
  prog.setUniformValue("uRoundPoints", mode == GL_POINTS);
  gl->glUniformMatrix4fv(prog.uniformLocation("uViewProjection"), 1, GL_FALSE,
                         glm::value_ptr(viewProj));
  gl->glBindVertexArray(lineVao);
  gl->glBindBuffer(GL_ARRAY_BUFFER, lineVbo);
  gl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(LineVertex)),
                   v.data(), GL_STREAM_DRAW);
  gl->glDrawArrays(mode, 0, static_cast<GLsizei>(v.size()));
  gl->glBindVertexArray(0);
}

void Renderer::Impl::drawGrid(const glm::mat4& viewProj) {
  const float radius = rest.valid ? rest.radius() : 1.0f;
  if (!std::isfinite(radius) || radius > 1e15f) return;  // no sensible grid for such a model
  const glm::vec3 c = rest.valid ? rest.center() : glm::vec3(0.0f);
  const float ground = rest.valid ? rest.lo.y : 0.0f;
  const float step = std::pow(10.0f, std::floor(std::log10(radius * 0.4f)));
  const int half = static_cast<int>(std::ceil(radius * 2.0f / step));
  const float cx = std::round(c.x / step) * step;
  const float cz = std::round(c.z / step) * step;
  lineScratch.clear();
  auto colorAt = [step](float coordinate) {
    const bool major = std::fabs(std::remainder(coordinate, step * 10.0f)) < step * 0.5f;
    return major ? glm::vec4(0.45f, 0.46f, 0.48f, 1.0f) : glm::vec4(0.31f, 0.32f, 0.34f, 1.0f);
  };
  const float extent = static_cast<float>(half) * step;
  for (int i = -half; i <= half; ++i) {
    const float o = static_cast<float>(i) * step;
    const glm::vec4 xColor = colorAt(cx + o);
    const glm::vec4 zColor = colorAt(cz + o);
    lineScratch.push_back({{cx + o, ground, cz - extent}, xColor});
    lineScratch.push_back({{cx + o, ground, cz + extent}, xColor});
    lineScratch.push_back({{cx - extent, ground, cz + o}, zColor});
    lineScratch.push_back({{cx + extent, ground, cz + o}, zColor});
  }
  drawLines(lineScratch, GL_LINES, viewProj, 1.0f);
}

// Hidden bones and the segments to them are left out, even selected; the selected and the
// hovered bone (its segment from the parent and its joint) are drawn over the rest, and alone
// with `onlyMarked`.
void Renderer::Impl::drawSkeleton(const glm::mat4& viewProj, int selected, int hovered,
                                  bool onlyMarked) {
  const auto& bones = scene->skeleton.bones;
  if (bones.empty() || pose.model.size() != bones.size()) return;
  const auto valid = [&](int b) { return b >= 0 && static_cast<std::size_t>(b) < bones.size(); };
  auto shown = [&](int i) { return !boneHidden(i); };
  if (!valid(selected) || !shown(selected)) selected = -1;
  if (!valid(hovered) || !shown(hovered)) hovered = -1;
  if (onlyMarked && selected < 0 && hovered < 0) return;
  const glm::vec4 boneColor(0.55f, 0.8f, 1.0f, 0.9f);
  const glm::vec4 selectedColor(1.0f, 0.65f, 0.1f, 1.0f);
  const glm::vec4 hoveredColor(1.0f, 1.0f, 0.85f, 1.0f);
  auto at = [&](std::size_t i) { return glm::vec3(display * pose.model[i][3]); };
  lineScratch.clear();
  for (std::size_t i = 0; i < bones.size() && !onlyMarked; ++i) {
    const int p = bones[i].parent;
    if (p < 0 || !shown(p) || !shown(static_cast<int>(i))) continue;
    lineScratch.push_back({at(p), boneColor});
    lineScratch.push_back({at(i), boneColor});
  }
  const std::pair<int, glm::vec4> marked[] = {{hovered, hoveredColor}, {selected, selectedColor}};
  for (const auto& [bone, color] : marked) {
    if (bone < 0 || bones[bone].parent < 0) continue;
    lineScratch.push_back({at(bones[bone].parent), color});
    lineScratch.push_back({at(bone), color});
  }
  drawLines(lineScratch, GL_LINES, viewProj, 1.0f);
  lineScratch.clear();
  for (std::size_t i = 0; i < bones.size() && !onlyMarked; ++i)
    if (shown(static_cast<int>(i))) lineScratch.push_back({at(i), boneColor});
  drawLines(lineScratch, GL_POINTS, viewProj, 6.0f);
  for (const auto& [bone, color] : marked) {
    if (bone < 0) continue;
    lineScratch.assign(1, {at(bone), color});
    drawLines(lineScratch, GL_POINTS, viewProj, 10.0f);
  }
}

void Renderer::Impl::drawAttachments(const glm::mat4& viewProj) {
  if (scene->attachments.empty()) return;
  const float size = attachmentCrossSize(rest.valid ? rest.radius() : 1.0f);
  drawLines(attachmentCrosses(scene->attachments, scene->skeleton, pose, display, size), GL_LINES,
            viewProj, 1.0f);
}

// Translucent, so after the opaque meshes; both faces, and without depth writes so that a
// body's far side and the bodies behind it show through.
void Renderer::Impl::drawBodies(const glm::mat4& viewProj) {
  if (bodies.empty()) return;
  gl->glDepthMask(GL_FALSE);
  drawLines(bodies.triangles, GL_TRIANGLES, viewProj, 1.0f);
  drawLines(bodies.lines, GL_LINES, viewProj, 1.0f);
  gl->glDepthMask(GL_TRUE);
}

void Renderer::render(const Camera& camera, int width, int height, const ViewOptions& o) {
  Impl& d = *d_;
  if (!d.gl) return;
  auto* gl = d.gl;
  gl->glViewport(0, 0, width, height);
  gl->glClearColor(o.background.r, o.background.g, o.background.b, 1.0f);
  gl->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  gl->glEnable(GL_DEPTH_TEST);
  gl->glEnable(GL_BLEND);
  // The frame stays opaque (alpha 1) under translucent surfaces: an image or a widget with alpha
  // below 1 would be composited over whatever is behind it.
  gl->glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  gl->glEnable(GL_PROGRAM_POINT_SIZE);
  gl->glDisable(GL_CULL_FACE);
  gl->glEnable(GL_MULTISAMPLE);

  const glm::mat4 view = camera.view();
  const glm::mat4 proj = camera.projection(static_cast<float>(width) / std::max(height, 1));
  const glm::mat4 viewProj = proj * view;

  if (o.showGrid) {
    d.drawGrid(viewProj);
    if (o.groundContact && d.scene) d.drawGroundContact(viewProj);
  }

  if (d.scene && o.showMeshes && !d.meshes.empty()) {
    d.uploadPalettes();
    d.bindInfluenceColors(o.shading == Shading::InfluenceCount);
    auto& prog = d.useTbo ? *d.shaders.meshTbo : *d.shaders.meshUbo;
    prog.bind();
    gl->glUniformMatrix4fv(prog.uniformLocation("uDisplay"), 1, GL_FALSE, glm::value_ptr(d.display));
    gl->glUniformMatrix4fv(prog.uniformLocation("uView"), 1, GL_FALSE, glm::value_ptr(view));
    gl->glUniformMatrix4fv(prog.uniformLocation("uProjection"), 1, GL_FALSE, glm::value_ptr(proj));
    const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(d.display)));
    gl->glUniformMatrix3fv(prog.uniformLocation("uDisplayNormal"), 1, GL_FALSE,
                           glm::value_ptr(normalMatrix));
    prog.setUniformValue("uDiffuse", 0);
    prog.setUniformValue("uLit", o.lit);
    prog.setUniformValue("uMatcap", o.matcap);
    prog.setUniformValue("uShading", static_cast<int>(o.shading));
    prog.setUniformValue("uWeightBone", o.shading == Shading::BoneWeights ? o.selectedBone : -1);
    prog.setUniformValue("uDualQuat", d.skinning == SkinningMethod::DualQuaternion);
    gl->glFrontFace(d.flipWinding ? GL_CW : GL_CCW);
    if (o.cullBackfaces) {
      gl->glEnable(GL_CULL_FACE);
      gl->glCullFace(GL_BACK);
    }
    if (o.wireframe) gl->glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    // Meshes without colours have no colour array: the attribute reads this constant (a context
    // state, which Qt's 3.3 core wrapper cannot set: the context's own functions can).
    QOpenGLContext::currentContext()->functions()->glVertexAttrib4fv(kColor, kConstantColor);
    for (std::size_t m = 0; m < d.meshes.size(); ++m) {
      if (d.meshHidden(m)) continue;
      const GpuMesh& g = d.meshes[m];
      d.bindPalette(static_cast<std::size_t>(d.paletteOfMesh[m]), prog);
      prog.setUniformValue("uInfluenceGroups", g.influenceGroups);
      prog.setUniformValue("uPlaced", g.placed);
      gl->glUniform4fv(prog.uniformLocation("uMorphWeights"), 1, glm::value_ptr(g.drawnMorphWeights()));
      gl->glUniform4fv(prog.uniformLocation("uBaseColor"), 1, glm::value_ptr(g.baseColor));
      prog.setUniformValue("uVertexColors", g.vertexColors);
      gl->glUniform3fv(prog.uniformLocation("uSpecular"), 1, glm::value_ptr(g.specular));
      prog.setUniformValue("uShininess", g.shininess);
      const bool textured = o.textured && g.texture != 0 && g.hasUv;
      prog.setUniformValue("uHasTexture", textured);
      gl->glActiveTexture(GL_TEXTURE0);
      gl->glBindTexture(GL_TEXTURE_2D, textured ? g.texture : 0);
      g.draw(gl);
    }
    if (o.wireframe) gl->glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    gl->glDisable(GL_CULL_FACE);
    gl->glFrontFace(GL_CCW);
  }

  if (d.scene) d.drawInspection(viewProj, o);
  if (d.scene && d.bodiesVisible) d.drawBodies(viewProj);

  const bool skeleton = o.showSkeleton || (o.skeletonWhenNoMeshes && d.meshes.empty());
  if (d.scene && (skeleton || o.selectedBone >= 0 || o.hoveredBone >= 0)) {
    // The selected bone shows even with the overlay off, so that picking it in a list shows it.
    gl->glDisable(GL_DEPTH_TEST);
    d.drawSkeleton(viewProj, o.selectedBone, o.hoveredBone, !skeleton);
    if (skeleton) d.drawAttachments(viewProj);  // dummies belong to the skeleton overlay
    gl->glEnable(GL_DEPTH_TEST);
  }
}

void Renderer::Impl::drawGroundContact(const glm::mat4& viewProj) {
  lineScratch.clear();
  groundDisc(lineScratch);
  if (lineScratch.empty()) return;
  // Over the grid lines it lies on, under everything else: no depth writes.
  gl->glDepthMask(GL_FALSE);
  gl->glDepthFunc(GL_LEQUAL);
  drawLines(lineScratch, GL_TRIANGLES, viewProj, 1.0f);
  gl->glDepthFunc(GL_LESS);
  gl->glDepthMask(GL_TRUE);
}

void Renderer::Impl::bindInfluenceColors(bool on) {
  for (std::size_t m = 0; m < meshes.size(); ++m) {
    MeshState& st = state[m];
    if (st.influenceBound == on) continue;
    if (on && !st.influenceColors) {
      if (!st.influence) st.influence = influenceView(scene->meshes[m]);
      gl->glGenBuffers(1, &st.influenceColors);
      gl->glBindBuffer(GL_ARRAY_BUFFER, st.influenceColors);
      gl->glBufferData(GL_ARRAY_BUFFER,
                       static_cast<GLsizeiptr>(st.influence->colors.size() * sizeof(glm::vec4)),
                       st.influence->colors.data(), GL_STATIC_DRAW);
      gl->glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    meshes[m].bindColors(gl, on ? st.influenceColors : 0);
    st.influenceBound = on;
  }
}

// Normals and tangents (depth tested: they belong to the surface), the influence view's flagged
// vertices and the bounding boxes (over everything: they are looked for).
void Renderer::Impl::drawInspection(const glm::mat4& viewProj, const ViewOptions& o) {
  if (o.showMeshes && (o.showNormals || o.showTangents)) {
    lineScratch.clear();
    normalLines(o.showNormals, o.showTangents, lineScratch);
    drawLines(lineScratch, GL_LINES, viewProj, 1.0f);
  }
  gl->glDisable(GL_DEPTH_TEST);
  if (o.showMeshes && o.shading == Shading::InfluenceCount) {
    lineScratch.clear();
    flaggedPoints(lineScratch);
    drawLines(lineScratch, GL_POINTS, viewProj, 5.0f);
  }
  if (o.showBounds) {
    lineScratch.clear();
    boundsLines(lineScratch);
    drawLines(lineScratch, GL_LINES, viewProj, 1.0f);
  }
  gl->glEnable(GL_DEPTH_TEST);
}

std::vector<glm::vec3> Renderer::captureSkinnedPositions(std::size_t meshIndex) {
  Impl& d = *d_;
  std::vector<glm::vec3> out;
  if (!d.gl || !d.scene || meshIndex >= d.meshes.size()) return out;
  auto* gl = d.gl;
  QOpenGLShaderProgram* prog = d.shaders.capture(d.useTbo);
  if (!prog) return out;
  d.uploadPalettes();
  const GpuMesh& g = d.meshes[meshIndex];
  prog->bind();
  d.bindPalette(static_cast<std::size_t>(d.paletteOfMesh[meshIndex]), *prog);
  prog->setUniformValue("uInfluenceGroups", g.influenceGroups);
  prog->setUniformValue("uPlaced", g.placed);
  prog->setUniformValue("uDualQuat", d.skinning == SkinningMethod::DualQuaternion);
  prog->setUniformValue("uWeightBone", -1);
  gl->glUniform4fv(prog->uniformLocation("uMorphWeights"), 1, glm::value_ptr(g.drawnMorphWeights()));
  const glm::mat4 identity(1.0f);
  for (const char* name : {"uDisplay", "uView", "uProjection"})
    gl->glUniformMatrix4fv(prog->uniformLocation(name), 1, GL_FALSE, glm::value_ptr(identity));

  GLuint tf = 0;
  gl->glGenBuffers(1, &tf);
  gl->glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tf);
  const auto bytes = static_cast<GLsizeiptr>(g.vertexCount * sizeof(glm::vec3));
  gl->glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, nullptr, GL_STATIC_READ);
  gl->glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf);
  gl->glEnable(GL_RASTERIZER_DISCARD);
  gl->glBindVertexArray(g.vao);
  gl->glBeginTransformFeedback(GL_POINTS);
  gl->glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(g.vertexCount));
  gl->glEndTransformFeedback();
  gl->glBindVertexArray(0);
  gl->glDisable(GL_RASTERIZER_DISCARD);
  out.resize(g.vertexCount);
  gl->glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, out.data());
  gl->glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  gl->glDeleteBuffers(1, &tf);
  return out;
}

void Renderer::release() {
  Impl& d = *d_;
  if (!d.gl) return;
  d.freeScene();
  if (d.lineVbo) d.gl->glDeleteBuffers(1, &d.lineVbo);
  if (d.lineVao) d.gl->glDeleteVertexArrays(1, &d.lineVao);
  d.lineVbo = d.lineVao = 0;
  d.shaders.release();
  d.gl = nullptr;
}

}  // namespace marrow::render
