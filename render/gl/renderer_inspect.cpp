// The renderer's CPU side of inspection: skinning the current pose on the CPU (as the GPU draws
// it), picking against it, and the overlay geometry (normals, tangents, boxes, flagged vertices,
// the ground contact disc). No GL calls here.
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <limits>

#include "render/anim/morph.h"
#include "render/gl/picking.h"
#include "render/gl/renderer_impl.h"

namespace marrow::render {

namespace {

bool anyNonZero(const std::vector<float>& w) {
  return std::any_of(w.begin(), w.end(), [](float x) { return x != 0.0f; });
}

}  // namespace

void Renderer::Impl::ensureSkinned(bool normals, bool tangents) const {
  if (!scene) return;
  if (skinnedValid && (!normals || skinnedNormals) && (!tangents || skinnedTangents)) return;
  normals = normals || tangents || (skinnedValid && skinnedNormals);
  tangents = tangents || (skinnedValid && skinnedTangents);
  const auto& s = *scene;
  skinned.resize(s.meshes.size());
  const bool dq = skinning == SkinningMethod::DualQuaternion;
  std::vector<glm::vec3> morphedPositions, morphedNormals, tangentIn, scratch;
  for (std::size_t m = 0; m < s.meshes.size(); ++m) {
    const formats::Mesh& mesh = s.meshes[m];
    const MeshState& st = state[m];
    SkinnedMesh& out = skinned[m];
    const auto& palette = palettes[static_cast<std::size_t>(paletteOfMesh[m])].matrices;
    std::span<const glm::vec3> positions = mesh.positions;
    std::span<const glm::vec3> normalsIn = mesh.normals;
    if (normals && normalsIn.size() != mesh.vertexCount()) {
      auto& smooth = st.smoothNormals;
      if (smooth.size() != mesh.vertexCount()) smooth = render::smoothNormals(mesh);
      normalsIn = smooth;
    }
    if (m < morphWeights.size() && anyNonZero(morphWeights[m]) && !mesh.morphs.empty()) {
      anim::applyMorphs(mesh, morphWeights[m], morphedPositions, morphedNormals);
      positions = morphedPositions;
      if (mesh.normals.size() == mesh.vertexCount()) normalsIn = morphedNormals;
    }
    auto run = [&](std::span<const glm::vec3> p, std::span<const glm::vec3> n,
                   std::vector<glm::vec3>& pOut, std::vector<glm::vec3>* nOut) {
      if (dq)
        anim::skinDualQuat(p, n, *st.packed, palette, pOut, nOut);
      else
        anim::skin(p, n, *st.packed, palette, pOut, nOut);
    };
    run(positions, normals ? normalsIn : std::span<const glm::vec3>{}, out.positions,
        normals ? &out.normals : nullptr);
    if (!normals) out.normals.clear();
    if (!st.placedPositions.empty()) {  // simulated cloth: drawn as placed, so picked as placed
      out.positions = st.placedPositions;
      if (normals && st.placedNormals.size() == out.positions.size()) out.normals = st.placedNormals;
    }
    out.tangents.clear();
    if (tangents && mesh.tangents.size() == mesh.vertexCount()) {
      tangentIn.resize(mesh.vertexCount());
      for (std::size_t v = 0; v < tangentIn.size(); ++v) tangentIn[v] = glm::vec3(mesh.tangents[v]);
      run(positions, tangentIn, scratch, &out.tangents);
    }
  }
  skinnedValid = true;
  skinnedNormals = normals;
  skinnedTangents = tangents;
}

// ---- Overlays ----

void Renderer::Impl::normalLines(bool withNormals, bool withTangents,
                                 std::vector<LineVertex>& out) const {
  ensureSkinned(withNormals, withTangents);
  const float length = (rest.valid ? rest.radius() : 1.0f) * 0.03f;
  const glm::mat3 linear(display);
  const glm::mat3 normalMatrix = glm::transpose(glm::inverse(linear));
  const glm::vec4 normalColor(0.35f, 0.65f, 1.0f, 1.0f), tangentColor(1.0f, 0.35f, 0.3f, 1.0f);
  for (std::size_t m = 0; m < skinned.size(); ++m) {
    if (meshHidden(m)) continue;
    const SkinnedMesh& sk = skinned[m];
    const MeshState& st = state[m];
    const bool filterHidden = anyBoneHidden() && st.dominant.size() == sk.positions.size();
    for (std::size_t v = 0; v < sk.positions.size(); ++v) {
      if (filterHidden && boneHidden(st.dominant[v])) continue;
      const glm::vec3 p(display * glm::vec4(sk.positions[v], 1.0f));
      auto line = [&](const glm::vec3& dir, const glm::vec4& color) {
        const float len = glm::length(dir);
        if (!(len > 0.0f)) return;
        out.push_back({p, color});
        out.push_back({p + dir * (length / len), color});
      };
      if (withNormals && v < sk.normals.size()) line(normalMatrix * sk.normals[v], normalColor);
      if (withTangents && v < sk.tangents.size()) line(linear * sk.tangents[v], tangentColor);
    }
  }
}

namespace {

void box(const glm::vec3& lo, const glm::vec3& hi, const glm::vec4& color,
         std::vector<LineVertex>& out) {
  const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z},
                          {lo.x, hi.y, lo.z}, {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z},
                          {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
  static constexpr int kEdges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                        {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& e : kEdges) {
    out.push_back({c[e[0]], color});
    out.push_back({c[e[1]], color});
  }
}

}  // namespace

void Renderer::Impl::boundsLines(std::vector<LineVertex>& out) const {
  ensureSkinned(false, false);
  Bounds all;
  for (std::size_t m = 0; m < skinned.size(); ++m) {
    if (meshHidden(m) || skinned[m].positions.empty()) continue;
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const auto& p : skinned[m].positions) {
      const glm::vec3 q(display * glm::vec4(p, 1.0f));
      lo = glm::min(lo, q);
      hi = glm::max(hi, q);
    }
    box(lo, hi, glm::vec4(0.95f, 0.75f, 0.3f, 0.8f), out);
    for (const auto& q : {lo, hi}) {
      all.lo = all.valid ? glm::min(all.lo, q) : q;
      all.hi = all.valid ? glm::max(all.hi, q) : q;
      all.valid = true;
    }
  }
  if (all.valid) box(all.lo, all.hi, glm::vec4(1.0f, 1.0f, 1.0f, 0.9f), out);
}

void Renderer::Impl::flaggedPoints(std::vector<LineVertex>& out) const {
  ensureSkinned(false, false);
  const glm::vec4 overFour(influenceClassColor(InfluenceClass::MoreThanFour), 1.0f);
  const glm::vec4 unnormalised(unnormalisedColor(), 1.0f);
  for (std::size_t m = 0; m < skinned.size(); ++m) {
    const MeshState& st = state[m];
    if (meshHidden(m) || !st.influence) continue;
    const auto& p = skinned[m].positions;
    for (const std::uint32_t v : st.influence->overFour)
      if (v < p.size()) out.push_back({glm::vec3(display * glm::vec4(p[v], 1.0f)), overFour});
    for (const std::uint32_t v : st.influence->unnormalised)
      if (v < p.size()) out.push_back({glm::vec3(display * glm::vec4(p[v], 1.0f)), unnormalised});
  }
}

// A disc on the ground (the grid's plane) under the model, dark in the middle and fading out:
// where the model stands, without a shadow's dependence on a light. It follows the skeleton's
// joints sideways (cheap each frame), the rest bounds otherwise.
void Renderer::Impl::groundDisc(std::vector<LineVertex>& out) const {
  if (!rest.valid) return;
  const float radius = rest.radius();
  if (!std::isfinite(radius) || radius > 1e15f) return;
  glm::vec2 center(rest.center().x, rest.center().z);
  if (!pose.model.empty()) {
    glm::vec2 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const auto& m : pose.model) {
      const glm::vec3 p(display * m[3]);
      lo = glm::min(lo, glm::vec2(p.x, p.z));
      hi = glm::max(hi, glm::vec2(p.x, p.z));
    }
    const glm::vec2 c = (lo + hi) * 0.5f;
    if (std::isfinite(c.x) && std::isfinite(c.y) && glm::length(c - center) < radius * 4.0f)
      center = c;
  }
  const float extent =
      std::max(std::max(rest.hi.x - rest.lo.x, rest.hi.z - rest.lo.z) * 0.75f, radius * 0.35f);
  const float y = rest.lo.y;
  constexpr int kSegments = 48;
  constexpr int kRings = 4;  // alpha falls off smoothly towards the rim
  auto alphaAt = [](float r) { return 0.42f * (1.0f - r) * (1.0f - r); };
  for (int ring = 0; ring < kRings; ++ring) {
    const float r0 = static_cast<float>(ring) / kRings, r1 = static_cast<float>(ring + 1) / kRings;
    const glm::vec4 c0(0.0f, 0.0f, 0.0f, alphaAt(r0)), c1(0.0f, 0.0f, 0.0f, alphaAt(r1));
    for (int i = 0; i < kSegments; ++i) {
      const float a0 = 6.2831853f * static_cast<float>(i) / kSegments;
      const float a1 = 6.2831853f * static_cast<float>(i + 1) / kSegments;
      auto at = [&](float r, float a) {
        return glm::vec3(center.x + std::cos(a) * r * extent, y,
                         center.y + std::sin(a) * r * extent);
      };
      out.push_back({at(r0, a0), c0});
      out.push_back({at(r1, a0), c1});
      out.push_back({at(r1, a1), c1});
      if (ring > 0) {
        out.push_back({at(r0, a0), c0});
        out.push_back({at(r1, a1), c1});
        out.push_back({at(r0, a1), c0});
      }
    }
  }
}

// ---- Queries ----

Renderer::InfluenceSummary Renderer::influenceSummary() const {
  const Impl& d = *d_;
  InfluenceSummary sum;
  if (!d.scene) return sum;
  for (std::size_t m = 0; m < d.scene->meshes.size(); ++m) {
    const MeshState& st = d.state[m];
    if (!st.influence) st.influence = influenceView(d.scene->meshes[m]);
    for (std::size_t c = 0; c < sum.counts.size(); ++c) sum.counts[c] += st.influence->counts[c];
    sum.overFour += st.influence->overFour.size();
    sum.unnormalised += st.influence->unnormalised.size();
  }
  return sum;
}

std::optional<SurfaceHit> Renderer::pickSurface(const Ray& ray) const {
  const Impl& d = *d_;
  if (!d.scene || d.state.size() != d.scene->meshes.size()) return std::nullopt;
  d.ensureSkinned(false, false);
  // The ray in native coordinates: an affine map keeps the ray parameter t.
  const glm::mat4 toNative = glm::inverse(d.display);
  const Ray native{glm::vec3(toNative * glm::vec4(ray.origin, 1.0f)),
                   glm::mat3(toNative) * ray.direction};
  std::optional<SurfaceHit> best;
  float bestT = std::numeric_limits<float>::max();
  for (std::size_t m = 0; m < d.scene->meshes.size(); ++m) {
    if (d.meshHidden(m)) continue;
    const auto& positions = d.skinned[m].positions;
    const auto& indices = d.drawnIndices(m);
    const auto hit = intersectMesh(native, positions, indices);
    if (!hit || hit->hit.t >= bestT) continue;
    bestT = hit->hit.t;
    SurfaceHit h;
    h.mesh = m;
    h.triangle = hit->triangle;
    const glm::vec3 at = native.origin + native.direction * hit->hit.t;
    float nearest = std::numeric_limits<float>::max();
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t v = indices[hit->triangle * 3 + k];
      const float dist = glm::length(positions[v] - at);
      if (dist < nearest) {
        nearest = dist;
        h.vertex = v;
      }
    }
    h.point = ray.origin + ray.direction * hit->hit.t;
    h.distance = hit->hit.t * glm::length(ray.direction);
    h.bone = dominantBone(d.scene->meshes[m], h.vertex);
    best = h;
  }
  return best;
}

glm::vec3 Renderer::boneDisplayPosition(int bone) const {
  const Impl& d = *d_;
  if (bone < 0 || static_cast<std::size_t>(bone) >= d.pose.model.size()) return glm::vec3(0.0f);
  return glm::vec3(d.display * d.pose.model[bone][3]);
}

int Renderer::pickBone(const Camera& camera, int width, int height, const glm::vec2& pixel,
                       float radius) const {
  const Impl& d = *d_;
  if (!d.scene) return -1;
  const auto& bones = d.scene->skeleton.bones;
  if (bones.empty() || d.pose.model.size() != bones.size()) return -1;
  const glm::mat4 viewProj =
      camera.projection(static_cast<float>(width) / static_cast<float>(std::max(height, 1))) *
      camera.view();
  std::vector<ScreenPoint> screen(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i)
    screen[i] = projectToPixel(viewProj, width, height, boneDisplayPosition(static_cast<int>(i)));
  int best = -1;
  float bestDistance = radius;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    if (!screen[i].inFront || d.boneHidden(static_cast<int>(i))) continue;
    const float dist = glm::length(screen[i].pixel - pixel);
    if (dist <= bestDistance) {
      bestDistance = dist;
      best = static_cast<int>(i);
    }
  }
  if (best >= 0) return best;
  bestDistance = radius * 0.5f;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const int p = bones[i].parent;
    if (p < 0 || !screen[i].inFront || !screen[static_cast<std::size_t>(p)].inFront ||
        d.boneHidden(static_cast<int>(i)) || d.boneHidden(p))
      continue;
    const float dist =
        distanceToSegment(pixel, screen[static_cast<std::size_t>(p)].pixel, screen[i].pixel);
    if (dist <= bestDistance) {
      bestDistance = dist;
      best = static_cast<int>(i);
    }
  }
  return best;
}

std::vector<glm::vec3> Renderer::displayPositions(std::size_t mesh) const {
  const Impl& d = *d_;
  std::vector<glm::vec3> out;
  if (!d.scene || mesh >= d.scene->meshes.size()) return out;
  d.ensureSkinned(false, false);
  out.reserve(d.skinned[mesh].positions.size());
  for (const auto& p : d.skinned[mesh].positions) out.emplace_back(d.display * glm::vec4(p, 1.0f));
  return out;
}

}  // namespace marrow::render
