// Binary cal3d writers (.csf .caf .cmf .crf): the reverse of the readers, at the layout the
// version chooses (700–1100 plain, 1300 trunk, 1301 fork). Files at 1100 are what libcal3d 0.11
// reads.
#include <algorithm>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "formats/cal3d/binary_format.h"
#include "formats/cal3d/writers_internal.h"
#include "formats/io/byte_writer.h"

namespace marrow::formats::cal3d {
namespace {

using std::to_string;

FormatError error(std::string field, std::string message) {
  return FormatError{"", std::move(field), kNoOffset, std::move(message)};
}

void header(ByteWriter& w, std::string_view magic, int version) {
  for (char c : magic.substr(0, 4)) w.u8(static_cast<std::uint8_t>(c));
  w.i32(version);
}

void vec3(ByteWriter& w, const glm::vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

void fileQuat(ByteWriter& w, const std::array<float, 4>& q) {
  for (float c : q) w.f32(c);
}

std::int32_t i32(std::size_t n) {
  return static_cast<std::int32_t>(n);
}

}  // namespace

std::string mapFileName(const Scene& scene, const MaterialMap& map) {
  if (map.texture < 0 || static_cast<std::size_t>(map.texture) >= scene.textures.size()) return {};
  const Texture& t = scene.textures[static_cast<std::size_t>(map.texture)];
  return t.name.empty() ? t.path : t.name;
}

// ---- skeleton ----

Result<std::vector<std::byte>> writeCsf(const Scene& scene, int version, Diagnostics& d) {
  if (!writableVersion(version)) return versionError(version);
  const auto& bones = scene.skeleton.bones;
  if (bones.empty()) return error("skeleton", "has no bones; a cal3d skeleton has at least one");
  std::vector<std::vector<std::int32_t>> children(bones.size());
  std::size_t scaled = 0;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const int p = bones[i].parent;
    if (p >= static_cast<int>(i) || p < -1)
      return error("bone '" + bones[i].name + "'",
                   "has parent " + to_string(p) + ", which does not precede it");
    if (p >= 0) children[static_cast<std::size_t>(p)].push_back(i32(i));
    if (bones[i].scale != glm::vec3(1.0f)) ++scaled;
  }
  if (scaled)
    d.warn("", "skeleton", kNoOffset,
           to_string(scaled) + " bone(s) have a rest scale, which cal3d cannot store (left out)");
  const std::vector<glm::mat4> binds = scene.skeleton.inverseBindMatrices();
  const bool lights = csfLightsByDefault(version);
  ByteWriter w;
  header(w, std::string_view("CSF\0", 4), version);
  w.i32(i32(bones.size()));
  if (lights) vec3(w, glm::vec3(0.0f));  // §3: scene ambient; the model has no lights
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const Bone& b = bones[i];
    writeString(w, b.name);
    vec3(w, b.translation);
    fileQuat(w, quatToFile(b.rotation));
    const BoneSpace space = boneSpaceFor(scene.skeleton, i, binds[i]);
    vec3(w, space.translation);
    fileQuat(w, space.rotation);
    w.i32(b.parent);
    if (lights) {
      w.i32(0);  // no light
      vec3(w, glm::vec3(0.0f));
    }
    w.i32(i32(children[i].size()));
    for (std::int32_t c : children[i]) w.i32(c);
  }
  return w.take();
}

// ---- animation ----

Result<std::vector<std::byte>> writeCaf(const Scene& scene, std::size_t clipIndex, int version,
                                        Diagnostics& d) {
  if (!writableVersion(version)) return versionError(version);
  const auto clip = calClipOf(scene, clipIndex, d);
  if (!clip) return clip.error();
  const auto& tracks = clip->tracks;
  const float duration = clip->duration;

  ByteWriter w;
  header(w, std::string_view("CAF\0", 4), version);
  if (cafHasCompressionFlag(version)) w.i32(0);  // §4.1: float tracks
  w.f32(duration);
  w.i32(i32(tracks.size()));
  if (cafFlagsByDefault(version)) w.i32(0);
  for (const auto& t : tracks) {
    w.i32(t.bone);
    w.i32(i32(t.keys.size()));
    for (const Keyframe& k : t.keys) {
      w.f32(k.time);
      vec3(w, k.translation);
      fileQuat(w, quatToFile(k.rotation));
    }
  }
  return w.take();
}

// ---- morph animation (§7.5) ----

// Target names, as IMVU's loader (and the fork's, until it numbered them without saying which
// mesh) reads them, at version 919: both refuse later numbers in a .cpf.
constexpr int kCpfVersion = 919;

Result<std::vector<std::byte>> writeCpf(const Scene& scene, std::size_t clipIndex, int version,
                                        Diagnostics& d) {
  const auto clip = calMorphClipOf(scene, clipIndex, true, d);
  if (!clip) return clip.error();
  if (version != kCpfVersion)
    d.info("", "version", kNoOffset,
           "a binary morph animation is written at version 919, the one cal3d's loaders of "
           "binary morph animations read, whatever the model's version");
  ByteWriter w;
  header(w, std::string_view("CPF\0", 4), kCpfVersion);
  w.f32(clip->duration);
  w.i32(i32(clip->tracks.size()));
  for (const CalMorphTrack& t : clip->tracks) {
    writeString(w, t.name);
    w.i32(i32(t.keys.size()));
    for (const auto& [time, weight] : t.keys) {
      w.f32(time);
      w.f32(weight);
    }
  }
  return w.take();
}

// ---- mesh ----

namespace {

// Whether the reader's winding rule (§5) flips a submesh whose first face is (a, b, c): asked of
// the very function the reader uses, so that the two agree bit for bit.
bool ruleFlips(const Mesh& m, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  if (m.normals.empty()) return false;
  Mesh probe;
  probe.positions = {m.positions[a], m.positions[b], m.positions[c]};
  probe.normals = {m.normals[a], m.normals[b], m.normals[c]};
  probe.indices = {0, 1, 2};
  return applyWindingRule(probe);
}

// The faces as written: the model's winding (counter-clockwise) must survive the reader's rule,
// which looks only at the first face and its first vertex's normal. Rotating a face's indices
// keeps its winding and picks another vertex normal; failing that, another face goes first
// (only without level of detail, whose face order matters).
std::vector<std::uint32_t> facesForWriting(const Mesh& m, const std::string& what, Diagnostics& d) {
  std::vector<std::uint32_t> idx = m.indices;
  const auto good = [&](std::size_t f, int rot) {
    const std::uint32_t v[3] = {idx[f], idx[f + 1], idx[f + 2]};
    return !ruleFlips(m, v[rot % 3], v[(rot + 1) % 3], v[(rot + 2) % 3]);
  };
  const auto rotate = [&](std::size_t f, int rot) {
    const std::uint32_t v[3] = {idx[f], idx[f + 1], idx[f + 2]};
    for (int k = 0; k < 3; ++k) idx[f + static_cast<std::size_t>(k)] = v[(rot + k) % 3];
  };
  if (idx.size() < 3 || good(0, 0)) return idx;
  for (int rot = 1; rot < 3; ++rot)
    if (good(0, rot)) {
      rotate(0, rot);
      return idx;
    }
  if (m.lod.empty())
    for (std::size_t f = 3; f + 2 < idx.size(); f += 3)
      for (int rot = 0; rot < 3; ++rot)
        if (good(f, rot)) {
          rotate(f, rot);
          std::swap_ranges(idx.begin(), idx.begin() + 3, idx.begin() + static_cast<long>(f));
          return idx;
        }
  d.warn("", what, kNoOffset,
         "its first face points away from its vertex normals and no face can take its place: "
         "cal3d's loader will flip the winding of this submesh");
  return idx;
}

}  // namespace

Result<std::vector<std::byte>> writeCmf(const Scene& scene, std::span<const std::size_t> meshes,
                                        int version, Diagnostics& d) {
  if (!writableVersion(version)) return versionError(version);
  const CmfLayout layout = cmfDefaultLayout(version);
  std::size_t droppedColours = 0, droppedMorphs = 0, ownBinds = 0;
  ByteWriter w;
  header(w, std::string_view("CMF\0", 4), version);
  w.i32(i32(meshes.size()));
  for (std::size_t index : meshes) {
    if (index >= scene.meshes.size())
      return error("mesh", "index " + to_string(index) + " is past the " +
                               to_string(scene.meshes.size()) + " meshes");
    const Mesh& m = scene.meshes[index];
    const std::string what = "mesh '" + m.name + "'";
    const std::size_t n = m.vertexCount();
    if (m.indices.size() % 3 != 0 || (!m.normals.empty() && m.normals.size() != n) ||
        (m.lod.empty() ? false
                       : m.lod.collapseTo.size() != n || m.lod.faceCollapseCount.size() != n))
      return error(what, "is inconsistent (validate the scene first)");
    for (std::uint32_t i : m.indices)
      if (i >= n) return error(what, "has an index past its " + to_string(n) + " vertices");
    for (const auto& set : m.uvSets)
      if (set.size() != n) return error(what, "has a uv set of the wrong size");
    const bool colours = layout == CmfLayout::ColourSentinel;
    const bool morphs = layout != CmfLayout::Plain;
    droppedColours += !colours && !m.colors.empty();
    droppedMorphs += morphs ? 0 : m.morphs.size();
    ownBinds += !m.inverseBind.empty();
    const std::size_t maps = m.uvSets.size();
    const bool springs = !m.springs.empty();
    const std::vector<std::uint32_t> faces = facesForWriting(m, what, d);

    w.i32(m.material >= 0 ? m.material : m.materialSlot);
    w.i32(i32(n));
    w.i32(i32(faces.size() / 3));
    w.i32(m.lod.empty() ? 0 : static_cast<std::int32_t>(m.lod.collapsible));
    w.i32(i32(m.springs.size()));
    w.i32(i32(maps));
    if (morphs) w.i32(i32(m.morphs.size()));
    for (std::size_t v = 0; v < n; ++v) {
      vec3(w, m.positions[v]);
      vec3(w, m.normals.empty() ? glm::vec3(0.0f) : m.normals[v]);
      if (colours) vec3(w, m.colors.empty() ? glm::vec3(1.0f) : glm::vec3(m.colors[v]));
      // §5: −1 / 0 mean "never collapses".
      w.i32(m.lod.empty() ? -1 : m.lod.collapseTo[v]);
      w.i32(m.lod.empty() ? 0 : m.lod.faceCollapseCount[v]);
      for (const auto& set : m.uvSets) {
        w.f32(set[v].x);
        w.f32(set[v].y);
      }
      if (m.parentBone >= 0) {  // rigidly attached: one full-weight influence says the same
        w.i32(1);
        w.i32(m.parentBone);
        w.f32(1.0f);
      } else {
        const auto infl = m.skinned() ? m.influencesOf(v) : std::span<const Influence>{};
        w.i32(i32(infl.size()));
        for (const Influence& i : infl) {
          w.i32(static_cast<std::int32_t>(i.bone));
          w.f32(i.weight);
        }
      }
      if (springs) w.f32(m.physicalWeights.size() == n ? m.physicalWeights[v] : 0.0f);
    }
    for (const Spring& s : m.springs) {
      w.i32(static_cast<std::int32_t>(s.a));
      w.i32(static_cast<std::int32_t>(s.b));
      w.f32(s.coefficient);
      w.f32(s.idleLength);
    }
    if (morphs)
      for (const MorphTarget& t : m.morphs) {
        writeString(w, t.name);
        const std::size_t moved = t.movedCount(n);
        if (layout == CmfLayout::CountPrefixed) w.i32(i32(moved));
        for (std::size_t k = 0; k < moved; ++k) {
          const std::size_t v = t.vertexAt(k);
          w.i32(i32(v));
          vec3(w, t.positions[k]);
          vec3(w, !t.normals.empty()  ? t.normals[k]
                  : m.normals.empty() ? glm::vec3(0.0f)
                                      : m.normals[v]);
          for (std::size_t s = 0; s < maps; ++s) {
            const glm::vec2 uv = s < t.uvSets.size() ? t.uvSets[s][k] : m.uvSets[s][v];
            w.f32(uv.x);
            w.f32(uv.y);
          }
        }
        // §5: the trunk's savers end the list with vertexCount + 1.
        if (layout == CmfLayout::ColourSentinel) w.i32(i32(n + 1));
      }
    for (std::uint32_t i : faces) w.i32(static_cast<std::int32_t>(i));
  }
  if (droppedColours)
    d.warn("", "meshes", kNoOffset,
           to_string(droppedColours) +
               " mesh(es) have vertex colours, which only version 1300 "
               "stores (left out)");
  if (droppedMorphs)
    d.warn("", "meshes", kNoOffset,
           to_string(droppedMorphs) + " morph target(s) left out: version " + to_string(version) +
               " has none (1300 or 1301 do)");
  if (ownBinds)
    d.warn("", "meshes", kNoOffset,
           to_string(ownBinds) +
               " mesh(es) have their own bind pose; cal3d has only the "
               "skeleton's, which is used");
  return w.take();
}

// ---- material ----

Result<std::vector<std::byte>> writeCrf(const Scene& scene, std::size_t material, int version,
                                        Diagnostics& d) {
  if (!writableVersion(version)) return versionError(version);
  if (material >= scene.materials.size())
    return error("material", "index " + to_string(material) + " is past the " +
                                 to_string(scene.materials.size()) + " materials");
  const Material& m = scene.materials[material];
  const std::string what = "material '" + m.name + "'";
  ByteWriter w;
  header(w, std::string_view("CRF\0", 4), version);
  for (const glm::vec4& c : {m.ambient, m.diffuse, m.specular})
    for (std::uint8_t b : colorToBytes(c)) w.u8(b);
  w.f32(m.shininess);
  w.i32(i32(m.maps.size()));
  std::size_t otherSets = 0, unnamed = 0;
  for (std::size_t i = 0; i < m.maps.size(); ++i) {
    const MaterialMap& map = m.maps[i];
    const std::string file = mapFileName(scene, map);
    unnamed += file.empty();
    otherSets += map.uvSet != static_cast<int>(i);
    writeString(w, file);
    if (crfHasMapTypes(version)) writeString(w, map.label.empty() ? mapTypeFor(map.kind) : map.label);
  }
  if (otherSets)
    d.warn("", what, kNoOffset,
           to_string(otherSets) +
               " map(s) use another uv set than their own index; cal3d pairs "
               "map i with set i");
  if (unnamed) d.warn("", what, kNoOffset, to_string(unnamed) + " map(s) have no texture file");
  return w.take();
}

}  // namespace marrow::formats::cal3d
