// The XML writers (§7): a HEADER element and the body, upper-case names, floats as the shortest
// text that reads back to the same float, so that XML → model → XML keeps every value. Files at
// version ≤ 1100 hold only what libcal3d 0.11's XML loader reads (it reads children by position
// and needs every attribute it asks for, §7); 1300 adds COLOR, MORPH and map TYPE.
#include <charconv>
#include <pugixml.hpp>
#include <string>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/writers_internal.h"

namespace marrow::formats::cal3d {
namespace {

using std::to_string;

constexpr int kFirstTrunkVersion = 1300;  // COLOR, MORPH, map TYPE

std::string num(float f) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, f);
  return std::string(buf, r.ptr);
}

std::string nums(std::initializer_list<float> fs) {
  std::string out;
  for (float f : fs) {
    if (!out.empty()) out += ' ';
    out += num(f);
  }
  return out;
}

std::string vec(const glm::vec3& v) {
  return nums({v.x, v.y, v.z});
}
std::string fileQuat(const std::array<float, 4>& q) {
  return nums({q[0], q[1], q[2], q[3]});
}

FormatError error(std::string field, std::string message) {
  return FormatError{"", std::move(field), kNoOffset, std::move(message)};
}

// One XML file: the HEADER (§7 shape 1, what the 0.11 savers write) and the body element.
class XmlFile {
 public:
  XmlFile(const char* magic, int version) {
    pugi::xml_node header = doc_.append_child("HEADER");
    header.append_attribute("MAGIC") = magic;
    header.append_attribute("VERSION") = version;
  }
  pugi::xml_node body(const char* name) { return doc_.append_child(name); }

  std::vector<std::byte> bytes() const {
    struct Sink : pugi::xml_writer {
      std::vector<std::byte> out;
      void write(const void* data, std::size_t size) override {
        const auto* p = static_cast<const std::byte*>(data);
        out.insert(out.end(), p, p + size);
      }
    } sink;
    doc_.save(sink, "  ", pugi::format_indent | pugi::format_no_declaration, pugi::encoding_utf8);
    return std::move(sink.out);
  }

 private:
  pugi::xml_document doc_;
};

pugi::xml_node child(pugi::xml_node parent, const char* name, const std::string& text) {
  pugi::xml_node n = parent.append_child(name);
  n.text().set(text.c_str());
  return n;
}

void attr(pugi::xml_node n, const char* name, const std::string& value) {
  n.append_attribute(name) = value.c_str();
}
void attr(pugi::xml_node n, const char* name, long long value) {
  n.append_attribute(name) = value;
}

}  // namespace

// ---- skeleton (§7.1) ----

Result<std::vector<std::byte>> writeXsf(const Scene& scene, int version, Diagnostics& d) {
  const auto& bones = scene.skeleton.bones;
  if (bones.empty()) return error("skeleton", "has no bones; a cal3d skeleton has at least one");
  std::vector<std::vector<std::size_t>> children(bones.size());
  std::size_t scaled = 0;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const int p = bones[i].parent;
    if (p < -1 || p >= static_cast<int>(i))
      return error("bone '" + bones[i].name + "'",
                   "has parent " + to_string(p) + ", which does not precede it");
    if (p >= 0) children[static_cast<std::size_t>(p)].push_back(i);
    scaled += bones[i].scale != glm::vec3(1.0f);
  }
  if (scaled)
    d.warn("", "skeleton", kNoOffset,
           to_string(scaled) + " bone(s) have a rest scale, which cal3d cannot store (left out)");
  const std::vector<glm::mat4> binds = scene.skeleton.inverseBindMatrices();
  XmlFile file("XSF", version);
  pugi::xml_node skeleton = file.body("SKELETON");
  attr(skeleton, "NUMBONES", static_cast<long long>(bones.size()));
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const Bone& b = bones[i];
    pugi::xml_node bone = skeleton.append_child("BONE");
    attr(bone, "ID", static_cast<long long>(i));
    attr(bone, "NAME", b.name);
    attr(bone, "NUMCHILDS", static_cast<long long>(children[i].size()));
    child(bone, "TRANSLATION", vec(b.translation));
    child(bone, "ROTATION", fileQuat(quatToFile(b.rotation)));
    const BoneSpace space = boneSpaceFor(scene.skeleton, i, binds[i]);
    child(bone, "LOCALTRANSLATION", vec(space.translation));
    child(bone, "LOCALROTATION", fileQuat(space.rotation));
    child(bone, "PARENTID", to_string(b.parent));
    for (std::size_t c : children[i]) child(bone, "CHILDID", to_string(c));
  }
  return file.bytes();
}

// ---- animation (§7.2) ----

Result<std::vector<std::byte>> writeXaf(const Scene& scene, std::size_t clipIndex, int version,
                                        Diagnostics& d) {
  const auto clip = calClipOf(scene, clipIndex, d);
  if (!clip) return clip.error();
  const auto& tracks = clip->tracks;
  const float duration = clip->duration;

  XmlFile file("XAF", version);
  pugi::xml_node animation = file.body("ANIMATION");
  attr(animation, "DURATION", num(duration));
  attr(animation, "NUMTRACKS", static_cast<long long>(tracks.size()));
  for (const CalTrack& t : tracks) {
    pugi::xml_node track = animation.append_child("TRACK");
    attr(track, "BONEID", t.bone);
    attr(track, "NUMKEYFRAMES", static_cast<long long>(t.keys.size()));
    for (const Keyframe& k : t.keys) {
      pugi::xml_node key = track.append_child("KEYFRAME");
      attr(key, "TIME", num(k.time));
      // §7.2: mandatory before 1300, and always meaningful: written at every version.
      child(key, "TRANSLATION", vec(k.translation));
      child(key, "ROTATION", fileQuat(quatToFile(k.rotation)));
    }
  }
  return file.bytes();
}

// ---- morph animation (§7.5) ----

// IMVU versions name each track's target (what IMVU's loader reads); the fork's, from 1300,
// number it (MORPHID, MESHID and the SUBMESH it is in), as the fork's exporter writes them.
Result<std::vector<std::byte>> writeXpf(const Scene& scene, std::size_t clipIndex, int version,
                                        Diagnostics& d) {
  // From 1300 the fork's numbers, unless some tracks have none (their meshes were not loaded:
  // a named file read alone): then the names, which the 0.13 trunk reads too.
  bool named = version < kFirstTrunkVersion;
  Diagnostics numberedNotes;
  auto clip = calMorphClipOf(scene, clipIndex, named, named ? d : numberedNotes);
  if (!named && (!clip || clip->unplaced > 0)) {
    if (auto byName = calMorphClipOf(scene, clipIndex, true, d)) {
      d.info("", "clip '" + scene.clips[clipIndex].name + "'", kNoOffset,
             "written with target names (MORPHNAME), not the fork's numbers: some tracks drive "
             "targets of meshes the model does not have");
      clip = std::move(byName);
      named = true;
    }
  }
  if (!named) d.append(numberedNotes);
  if (!clip) return clip.error();
  XmlFile file("XPF", version);
  pugi::xml_node animation = file.body("ANIMATION");
  attr(animation, "DURATION", num(clip->duration));
  attr(animation, "NUMTRACKS", static_cast<long long>(clip->tracks.size()));
  for (const CalMorphTrack& t : clip->tracks) {
    pugi::xml_node track = animation.append_child("TRACK");
    if (named) {
      attr(track, "MORPHNAME", t.name);
      attr(track, "NUMKEYFRAMES", static_cast<long long>(t.keys.size()));
    } else {
      attr(track, "MORPHID", t.morphId);
      attr(track, "NUMKEYFRAMES", static_cast<long long>(t.keys.size()));
      attr(track, "MESHID", t.meshId);
      attr(track, "NUMSUBTARGET", 1);
      attr(track.append_child("SUBMESH"), "ID", t.submesh);
    }
    for (const auto& [time, weight] : t.keys) {
      pugi::xml_node key = track.append_child("KEYFRAME");
      attr(key, "TIME", num(time));
      child(key, "WEIGHT", num(weight));
    }
  }
  return file.bytes();
}

// ---- mesh (§7.3) ----

Result<std::vector<std::byte>> writeXmf(const Scene& scene, std::span<const std::size_t> meshes,
                                        int version, Diagnostics& d) {
  const bool trunk = version >= kFirstTrunkVersion;
  std::size_t droppedColours = 0, droppedMorphs = 0, ownBinds = 0, noNormals = 0, lostAlpha = 0;
  std::size_t droppedWeights = 0;
  XmlFile file("XMF", version);
  pugi::xml_node root = file.body("MESH");
  attr(root, "NUMSUBMESH", static_cast<long long>(meshes.size()));
  for (std::size_t index : meshes) {
    if (index >= scene.meshes.size())
      return error("mesh", "index " + to_string(index) + " is past the " +
                               to_string(scene.meshes.size()) + " meshes");
    const Mesh& m = scene.meshes[index];
    const std::string what = "mesh '" + m.name + "'";
    const std::size_t n = m.vertexCount();
    if (m.indices.size() % 3 != 0 || (!m.normals.empty() && m.normals.size() != n) ||
        (!m.colors.empty() && m.colors.size() != n) ||
        (!m.physicalWeights.empty() && m.physicalWeights.size() != n) ||
        (m.skinned() && m.influenceStart.size() != n + 1) ||
        (!m.lod.empty() && (m.lod.collapseTo.size() != n || m.lod.faceCollapseCount.size() != n)))
      return error(what, "is inconsistent (validate the scene first)");
    for (std::uint32_t i : m.indices)
      if (i >= n) return error(what, "has an index past its " + to_string(n) + " vertices");
    for (const auto& set : m.uvSets)
      if (set.size() != n) return error(what, "has a uv set of the wrong size");
    const bool colours = trunk && !m.colors.empty();
    droppedColours += !trunk && !m.colors.empty();
    droppedMorphs += trunk ? 0 : m.morphs.size();
    ownBinds += !m.inverseBind.empty();
    noNormals += m.normals.empty() && n > 0;
    const bool springs = !m.springs.empty();
    droppedWeights += !springs && !m.physicalWeights.empty();

    pugi::xml_node sub = root.append_child("SUBMESH");
    attr(sub, "NUMVERTICES", static_cast<long long>(n));
    attr(sub, "NUMFACES", static_cast<long long>(m.indices.size() / 3));
    attr(sub, "MATERIAL", m.material >= 0 ? m.material : m.materialSlot);
    attr(sub, "NUMLODSTEPS", m.lod.empty() ? 0LL : static_cast<long long>(m.lod.collapsible));
    attr(sub, "NUMSPRINGS", static_cast<long long>(m.springs.size()));
    attr(sub, "NUMTEXCOORDS", static_cast<long long>(m.uvSets.size()));
    if (trunk) attr(sub, "NUMMORPHS", static_cast<long long>(m.morphs.size()));
    for (std::size_t v = 0; v < n; ++v) {
      // Rigidly attached meshes: one full-weight influence says the same (as in the binary writer).
      std::vector<Influence> rigid;
      if (m.parentBone >= 0) rigid.push_back({static_cast<std::uint32_t>(m.parentBone), 1.0f});
      const std::span<const Influence> infl = m.parentBone >= 0 ? std::span<const Influence>(rigid)
                                              : m.skinned()     ? m.influencesOf(v)
                                                                : std::span<const Influence>{};
      pugi::xml_node vertex = sub.append_child("VERTEX");
      attr(vertex, "ID", static_cast<long long>(v));
      attr(vertex, "NUMINFLUENCES", static_cast<long long>(infl.size()));
      child(vertex, "POS", vec(m.positions[v]));
      child(vertex, "NORM", vec(m.normals.empty() ? glm::vec3(0.0f) : m.normals[v]));
      if (colours) {
        child(vertex, "COLOR", vec(glm::vec3(m.colors[v])));
        lostAlpha += m.colors[v].a != 1.0f;
      }
      // §7.3: absent means -1 / 0, so only vertices that collapse say so.
      if (!m.lod.empty() && (m.lod.collapseTo[v] != -1 || m.lod.faceCollapseCount[v] != 0)) {
        child(vertex, "COLLAPSEID", to_string(m.lod.collapseTo[v]));
        child(vertex, "COLLAPSECOUNT", to_string(m.lod.faceCollapseCount[v]));
      }
      for (const auto& set : m.uvSets) child(vertex, "TEXCOORD", nums({set[v].x, set[v].y}));
      for (const Influence& i : infl) {
        pugi::xml_node influence = child(vertex, "INFLUENCE", num(i.weight));
        attr(influence, "ID", static_cast<long long>(i.bone));
      }
      // §7.3: PHYSIQUE exactly when the submesh has springs (0.11 reads it by position).
      if (springs)
        child(vertex, "PHYSIQUE", num(m.physicalWeights.empty() ? 0.0f : m.physicalWeights[v]));
    }
    for (const Spring& s : m.springs) {
      pugi::xml_node spring = sub.append_child("SPRING");
      attr(spring, "VERTEXID", to_string(s.a) + " " + to_string(s.b));
      attr(spring, "COEF", num(s.coefficient));
      attr(spring, "LENGTH", num(s.idleLength));
    }
    if (trunk)
      for (const MorphTarget& t : m.morphs) {
        pugi::xml_node morph = sub.append_child("MORPH");
        attr(morph, "NAME", t.name);
        attr(morph, "NUMBLENDVERTS", static_cast<long long>(t.movedCount(n)));
        for (std::size_t k = 0; k < t.movedCount(n); ++k) {
          const std::size_t v = t.vertexAt(k);
          pugi::xml_node blend = morph.append_child("BLENDVERTEX");
          attr(blend, "VERTEXID", static_cast<long long>(v));
          child(blend, "POSITION", vec(t.positions[k]));
          child(blend, "NORMAL",
                vec(!t.normals.empty()  ? t.normals[k]
                    : m.normals.empty() ? glm::vec3(0.0f)
                                        : m.normals[v]));
          for (std::size_t s = 0; s < m.uvSets.size(); ++s) {
            const glm::vec2 uv = s < t.uvSets.size() ? t.uvSets[s][k] : m.uvSets[s][v];
            child(blend, "TEXCOORD", nums({uv.x, uv.y}));
          }
        }
      }
    for (std::size_t f = 0; f + 2 < m.indices.size(); f += 3) {
      pugi::xml_node face = sub.append_child("FACE");
      attr(face, "VERTEXID",
           to_string(m.indices[f]) + " " + to_string(m.indices[f + 1]) + " " +
               to_string(m.indices[f + 2]));
    }
  }
  if (droppedColours)
    d.warn("", "meshes", kNoOffset,
           to_string(droppedColours) +
               " mesh(es) have vertex colours, which only version 1300 "
               "and later store (left out)");
  if (lostAlpha)
    d.warn("", "meshes", kNoOffset,
           to_string(lostAlpha) + " vertex colour(s) are not opaque; cal3d stores RGB only");
  if (droppedMorphs)
    d.warn("", "meshes", kNoOffset,
           to_string(droppedMorphs) + " morph target(s) left out: version " + to_string(version) +
               " has none (1300 or 1301 do)");
  if (ownBinds)
    d.warn("", "meshes", kNoOffset,
           to_string(ownBinds) +
               " mesh(es) have their own bind pose; cal3d has only the "
               "skeleton's, which is used");
  if (noNormals)
    d.warn("", "meshes", kNoOffset,
           to_string(noNormals) + " mesh(es) have no normals; 0 0 0 is written");
  if (droppedWeights)
    d.warn("", "meshes", kNoOffset,
           to_string(droppedWeights) +
               " mesh(es) have physical weights but no springs; cal3d "
               "stores weights only with springs (left out)");
  return file.bytes();
}

// ---- material (§7.4) ----

Result<std::vector<std::byte>> writeXrf(const Scene& scene, std::size_t material, int version,
                                        Diagnostics& d) {
  if (material >= scene.materials.size())
    return error("material", "index " + to_string(material) + " is past the " +
                                 to_string(scene.materials.size()) + " materials");
  const bool trunk = version >= kFirstTrunkVersion;
  const Material& m = scene.materials[material];
  const std::string what = "material '" + m.name + "'";
  XmlFile file("XRF", version);
  pugi::xml_node root = file.body("MATERIAL");
  attr(root, "NUMMAPS", static_cast<long long>(m.maps.size()));
  const auto color = [&](const char* name, const glm::vec4& c) {
    const auto b = colorToBytes(c);
    child(root, name,
          to_string(b[0]) + " " + to_string(b[1]) + " " + to_string(b[2]) + " " + to_string(b[3]));
  };
  color("AMBIENT", m.ambient);
  color("DIFFUSE", m.diffuse);
  color("SPECULAR", m.specular);
  child(root, "SHININESS", num(m.shininess));
  std::size_t otherSets = 0, unnamed = 0, droppedTypes = 0;
  for (std::size_t i = 0; i < m.maps.size(); ++i) {
    const MaterialMap& map = m.maps[i];
    const std::string name = mapFileName(scene, map);
    unnamed += name.empty();
    otherSets += map.uvSet != static_cast<int>(i);
    pugi::xml_node node = child(root, "MAP", name);
    if (trunk) {
      // §7.4: no TYPE reads as "Diffuse Color"; a map whose kind says nothing more needs none.
      const std::string type = !map.label.empty()           ? map.label
                               : map.kind == mapKind("", i) ? std::string()
                                                            : mapTypeFor(map.kind);
      if (!type.empty()) attr(node, "TYPE", type);
    } else {
      droppedTypes += !map.label.empty() || map.kind != mapKind("", i);
    }
  }
  if (droppedTypes)
    d.warn("", what, kNoOffset,
           to_string(droppedTypes) + " map type(s) left out: version " + to_string(version) +
               " stores none (1300 does)");
  if (otherSets)
    d.warn("", what, kNoOffset,
           to_string(otherSets) +
               " map(s) use another uv set than their own index; cal3d pairs "
               "map i with set i");
  if (unnamed) d.warn("", what, kNoOffset, to_string(unnamed) + " map(s) have no texture file");
  return file.bytes();
}

}  // namespace marrow::formats::cal3d
