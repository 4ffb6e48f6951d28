// Any model → Dragon Nest records (from_scene.h).
#include "formats/dragonnest/from_scene.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "formats/check.h"
#include "formats/dragonnest/dragonnest.h"
#include "formats/dragonnest/dragonnest_internal.h"
#include "formats/model/convert.h"
#include "formats/model/normals.h"
#include "formats/model/sample.h"
#include "formats/write_support.h"

namespace marrow::formats::dragonnest {
namespace {

constexpr std::size_t kSlots = 4;  // §3.3: four bone indices and weights a vertex

glm::vec4 vec(const glm::vec3& v) { return glm::vec4(v, 0.0f); }
glm::vec4 vec(const glm::quat& q) { return q.w < 0.0f ? -glm::vec4(q.x, q.y, q.z, q.w) : glm::vec4(q.x, q.y, q.z, q.w); }

std::int32_t frameOf(float seconds) { return frameAt(seconds, kFramesPerSecond); }

// The channel's keys at their own frames when they all lie on frames and play as the ANI
// plays them (linear; scale steps, §6), else sampled at every frame 0..last.
template <class T, class Put>
bool keysOf(const Channel<T>& ch, const T& base, std::int32_t last, Interpolation plays, Put put) {
  // No keys, or every key the base value: none written, the base holds (§6).
  bool still = true;
  for (const T& v : ch.values) still = still && glm::all(glm::lessThanEqual(glm::abs(vec(v) - vec(base)), glm::vec4(1e-6f)));
  if (still) return false;
  if ((ch.interpolation == plays || ch.size() == 1) && keysOnFrames(ch.times, kFramesPerSecond, last)) {
    for (std::size_t k = 0; k < ch.size(); ++k) put(frameOf(ch.times[k]), ch.values[k]);
    return false;
  }
  for (std::int32_t f : sampleFrames(last)) put(f, sampleAt(ch, static_cast<float>(f) / kFramesPerSecond));
  return true;
}

MshSubmesh submeshOf(const Scene& s, const Mesh& m, std::size_t& madeNormalCount, std::size_t& unrigged) {
  MshSubmesh out;
  out.name = m.name;
  const std::size_t V = m.vertexCount();
  out.positions = m.positions;
  if (m.normals.size() == V) {
    out.normals = m.normals;
  } else {
    out.normals = smoothNormals(m);
    ++madeNormalCount;
  }
  out.uvSets = m.uvSets.empty() ? std::vector<std::vector<glm::vec2>>{std::vector<glm::vec2>(V, glm::vec2(0.0f))} : m.uvSets;
  if (!m.colors.empty()) {
    out.hasColors = true;
    for (const auto& c : m.colors) out.colors.push_back(writing::argb8(c));  // D3DCOLOR
  }
  out.indices.assign(m.indices.begin(), m.indices.end());  // fixModel kept V within 16 bits
  if (m.parentBone >= 0) {
    out.parent = s.skeleton.bones[static_cast<std::size_t>(m.parentBone)].name;  // §3.3: rigid
  } else if (std::any_of(m.influences.begin(), m.influences.end(), [](const Influence& i) { return i.weight > 0.0f; })) {
    out.skinned = true;
    std::map<std::uint32_t, std::int16_t> slotOf;  // bone → palette index, in first use
    const auto slot = [&](std::uint32_t bone) {
      auto [it, added] = slotOf.try_emplace(bone, static_cast<std::int16_t>(out.palette.size()));
      if (added) out.palette.push_back(s.skeleton.bones[bone].name);
      return it->second;
    };
    for (std::size_t v = 0; v < V; ++v) {
      std::array<std::int16_t, 4> bones{0, 0, 0, 0};
      std::array<float, 4> weights{0.0f, 0.0f, 0.0f, 0.0f};
      std::size_t k = 0;
      for (const Influence& i : m.influencesOf(v)) {
        if (!(i.weight > 0.0f) || k == kSlots) continue;
        bones[k] = slot(i.bone);
        weights[k] = i.weight;
        ++k;
      }
      if (k == 0) {  // §6: the engine sums weighted bones; none would put the vertex at the origin
        bones[0] = slot(0);
        weights[0] = 1.0f;
        ++unrigged;
      }
      out.boneIndices.push_back(bones);
      out.weights.push_back(weights);
    }
  }
  return out;
}

// §3.4: spheres and capsules as they are, every polygon of a manifold or face as triangles
// (origin and two edges).
std::vector<MshCollision> collisionsOf(const Scene& s) {
  std::vector<MshCollision> out;
  for (const Body& b : s.bodies)
    for (const BodyPart& p : b.parts) {
      MshCollision c;
      switch (p.kind) {
        case BodyPart::Kind::Sphere:
          c.type = MshCollision::Sphere;
          c.centre = p.a;
          c.radius = p.radius;
          break;
        case BodyPart::Kind::Capsule:
          c.type = MshCollision::Capsule;
          c.centre = p.a;
          c.segment = p.b - p.a;
          c.radius = p.radius;
          break;
        default: {
          c.type = MshCollision::Triangles;
          std::vector<std::vector<std::uint32_t>> polygons = p.polygons;
          if (polygons.empty()) {  // a face: its points in order
            polygons.emplace_back();
            for (std::uint32_t i = 0; i < p.positions.size(); ++i) polygons.back().push_back(i);
          }
          for (const auto& poly : polygons)
            for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
              if (poly[0] >= p.positions.size() || poly[k] >= p.positions.size() || poly[k + 1] >= p.positions.size()) continue;
              const glm::vec3 o = p.positions[poly[0]];
              c.triangles.push_back({o, p.positions[poly[k]] - o, p.positions[poly[k + 1]] - o});
            }
          if (c.triangles.empty()) continue;
        }
      }
      out.push_back(std::move(c));
    }
  return out;
}

// The ANI (§5): every bone with its parent's name and its rest pose as each animation's base;
// keys at 60 frames per second.
Ani aniOf(const Scene& s, std::int32_t version, Diagnostics& d) {
  Ani ani;
  ani.version = version;
  const auto& bones = s.skeleton.bones;
  for (const Bone& b : bones)
    ani.bones.push_back({b.name, b.parent < 0 ? std::string(detail::kSceneRoot) : bones[static_cast<std::size_t>(b.parent)].name, {}});
  std::vector<const Clip*> clips;
  for (const Clip& c : s.clips)
    if (!c.tracks.empty()) clips.push_back(&c);
  Clip rest;  // no clip: the rest pose, one frame, so that the hierarchy is written (§5.2)
  rest.name = "rest";
  if (clips.empty()) clips.push_back(&rest);
  const std::int32_t maxFrame = version >= 11 ? 32767 : 0x7FFFFFFF;  // v11 frames are int16
  std::size_t resampled = 0, cut = 0;
  for (const Clip* c : clips) {
    // Keys run from 0 to length − 1 (§5.2): a clip whose last key is at its end needs one more.
    float lastKey = 0.0f;
    for (const Track& t : c->tracks)
      for (const auto* times : {&t.translation.times, &t.rotation.times, &t.scale.times})
        if (!times->empty()) lastKey = std::max(lastKey, times->back());
    // A clip read from an ANI (duration = length / 60, keys up to length − 1) keeps its length.
    const std::int32_t end = frameOf(c->duration);
    std::int32_t last = frameOf(lastKey) >= end ? end : std::max(end - 1, frameOf(lastKey));
    if (last > maxFrame - 1) {
      last = maxFrame - 1;
      ++cut;
    }
    ani.names.push_back(c->name);
    ani.lengths.push_back(last + 1);
    bool sampled = false;
    for (std::size_t b = 0; b < bones.size(); ++b) {
      AniTrack t;
      t.basePosition = bones[b].translation;
      t.baseRotation = bones[b].rotation;
      t.baseScale = bones[b].scale;
      const Track* track = nullptr;
      for (const Track& x : c->tracks)
        if (x.bone == bones[b].name) {
          track = &x;
          break;
        }
      if (track) {
        sampled |= keysOf(track->translation, t.basePosition, last, Interpolation::Linear, [&](std::int32_t f, const glm::vec3& v) { t.positions.push_back({f, v}); });
        sampled |= keysOf(track->rotation, t.baseRotation, last, Interpolation::Linear, [&](std::int32_t f, const glm::quat& q) { t.rotations.push_back({f, glm::normalize(q)}); });
        sampled |= keysOf(track->scale, t.baseScale, last, Interpolation::Step, [&](std::int32_t f, const glm::vec3& v) { t.scales.push_back({f, v}); });
      }
      ani.bones[b].tracks.push_back(std::move(t));
    }
    resampled += sampled;
  }
  if (resampled)
    d.info("", "animations", kNoOffset,
           std::to_string(resampled) + " clips have keys between frames (or that play otherwise): sampled at every frame of 60 per second");
  if (cut) d.warn("", "animations", kNoOffset, std::to_string(cut) + " clips are longer than ANI v11's 32,767 frames: cut there (version 10 holds them)");
  return ani;
}

}  // namespace

Result<Records> fromScene(const Scene& scene, const std::string& stem, RecordVersions versions, Diagnostics& d) {
  // The engine's limits first (they do not depend on the basis), each change said.
  std::vector<std::string> changes;
  Scene s = fixModel(scene, *findCheckTarget("dragonnest"), changes);
  for (const std::string& c : changes) d.warn("", "limits", kNoOffset, c);
  convertBasis(s, dragonNestBasis());
  unifyBindPoses(s, d);  // §3.2: one inverse bind per bone

  // Names are compared without case (§1): two bones or meshes that differ only in case get apart.
  std::size_t renamed = 0;
  const auto apart = [&](auto& items, auto nameOf) {
    std::set<std::string> seen, original;
    std::map<std::string, std::string> changed;  // for the first of a name: what finds it
    for (auto& item : items) {
      std::string& name = nameOf(item);
      std::string unique = name;
      for (int k = 2; !seen.insert(detail::lower(unique)).second; ++k) {
        const std::string suffix = "_" + std::to_string(k);  // within the 255 bytes of a name field
        unique = name.substr(0, std::min(name.size(), detail::kName - 1 - suffix.size())) + suffix;
      }
      const bool first = original.insert(name).second;
      if (unique != name) {
        if (first) changed[name] = unique;
        name = unique;
        ++renamed;
      }
    }
    return changed;
  };
  const auto boneRenames = apart(s.skeleton.bones, [](Bone& b) -> std::string& { return b.name; });
  for (Clip& c : s.clips)
    for (Track& t : c.tracks)
      if (auto it = boneRenames.find(t.bone); it != boneRenames.end()) t.bone = it->second;
  for (Attachment& a : s.attachments)
    if (auto it = boneRenames.find(a.parent); it != boneRenames.end()) a.parent = it->second;
  const auto meshRenames = apart(s.meshes, [](Mesh& m) -> std::string& { return m.name; });
  for (Clip& c : s.clips)
    for (MorphTrack& t : c.morphTracks)
      if (auto it = meshRenames.find(t.mesh); it != meshRenames.end()) t.mesh = it->second;
  if (renamed) d.warn("", "names", kNoOffset, std::to_string(renamed) + " names that differ from another only in case were made apart (the engine compares names without case)");

  Records out;
  out.msh.version = versions.msh;
  out.skn.version = versions.skn;
  const auto binds = s.skeleton.inverseBindMatrices();
  for (std::size_t b = 0; b < s.skeleton.bones.size(); ++b) out.msh.bones.push_back({s.skeleton.bones[b].name, fromGlm(binds[b])});
  std::size_t madeNormalCount = 0, unrigged = 0;
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const Mesh& m : s.meshes) {
    out.msh.submeshes.push_back(submeshOf(s, m, madeNormalCount, unrigged));
    for (const auto& p : m.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
  }
  if (hi.x >= lo.x) out.msh.boundsMin = lo, out.msh.boundsMax = hi;
  out.msh.collisions = collisionsOf(s);
  for (const Attachment& a : s.attachments) out.msh.dummies.push_back({a.name, a.parent, fromGlm(a.local)});
  if (unrigged)
    d.warn("", "rigging", kNoOffset,
           std::to_string(unrigged) + " vertices of skinned meshes have no influence: rigged to the root bone, as "
           "the engine would otherwise put them at the origin");
  if (madeNormalCount) d.info("", "normals", kNoOffset, std::to_string(madeNormalCount) + " meshes had no normals: made from their faces");
  if (versions.msh < 13 && !s.attachments.empty())
    d.warn("", "attachments", kNoOffset, "MSH before version 13 keeps only the position of an attachment point (§3.5)");

  // §4.1: a material per submesh, in submesh order.
  out.skn.mesh = stem + ".msh";
  for (const Mesh& m : s.meshes) {
    SknMaterial mat;
    mat.effect = "Default.fx";
    const Material* source = m.material >= 0 && static_cast<std::size_t>(m.material) < s.materials.size()
                                 ? &s.materials[static_cast<std::size_t>(m.material)]
                                 : nullptr;
    mat.name = source && !source->name.empty() ? source->name : m.name;
    glm::vec4 diffuse = source ? source->diffuse : glm::vec4(1.0f);
    if (diffuse.a < 1.0f) {
      mat.alpha = diffuse.a;
      mat.alphaBlend = 1;
      diffuse.a = 1.0f;
    }
    SknParameter ambient;
    ambient.name = "g_MaterialAmbient";
    ambient.vector = source ? source->ambient : glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
    SknParameter diffuseColour;
    diffuseColour.name = "g_MaterialDiffuse";
    diffuseColour.vector = diffuse;
    mat.parameters = {ambient, diffuseColour};
    if (source)
      if (const int t = source->diffuseTexture(); t >= 0 && static_cast<std::size_t>(t) < s.textures.size()) {
        SknParameter tex;
        tex.name = "g_DiffuseTex";
        tex.type = SknParameter::Texture;
        tex.texture = writing::ddsName(s.textures[static_cast<std::size_t>(t)]);  // §4.2: a bare DDS name
        mat.parameters.push_back(tex);
      }
    out.skn.materials.push_back(std::move(mat));
  }
  if (!s.skeleton.empty()) out.ani = aniOf(s, versions.ani, d);
  if (!s.tables.empty()) d.warn("", "tables", kNoOffset, std::to_string(s.tables.size()) + " data tables are not written: write them as .dnt");
  return out;
}

}  // namespace marrow::formats::dragonnest
