// Any model → BRF records (from_scene.h).
#include "formats/brf/from_scene.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include <glm/gtc/quaternion.hpp>

#include "formats/brf/brf.h"
#include "formats/model/convert.h"
#include "formats/model/normals.h"
#include "formats/model/lod.h"
#include "formats/model/sample.h"
#include "formats/write_support.h"

namespace marrow::formats::brf {
namespace {

constexpr std::size_t kMaxInfluences = 4;  // §7.2: OpenBRF keeps 4 per position
constexpr std::size_t kMaxBoneName = 98;   // §8: a bone name is read when its length is 1..98

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Names unique within one kind of record; empty ones get a fallback.
class UniqueNames {
 public:
  std::string take(std::string name, const std::string& fallback, std::size_t maxBytes = std::string::npos) {
    if (name.empty()) name = fallback;
    if (name.size() > maxBytes) name.resize(maxBytes);
    std::string out = name;
    for (int k = 2; !used_.insert(out).second; ++k) {
      const std::string suffix = "_" + std::to_string(k);
      out = name.substr(0, std::min(name.size(), maxBytes == std::string::npos ? name.size() : maxBytes - suffix.size())) + suffix;
    }
    return out;
  }

 private:
  std::set<std::string> used_;
};

// ---- the skeleton (§8) --------------------------------------------------------------------

struct Rigid {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 translation{0.0f};
};

bool nearIdentity(const glm::mat4& m, float size) {
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r)
      if (std::abs(m[c][r] - (c == r ? 1.0f : 0.0f)) > 1e-4f) return false;
  return glm::length(glm::vec3(m[3])) <= 1e-5f * size;
}

// The local rest transforms BRF stores: the bind pose, which is the rest pose unless the model
// was bound in another pose (then the rest pose comes back through the clips' keys).
std::vector<Rigid> armatureOf(const formats::Skeleton& sk, float size, bool& fromBind) {
  const std::size_t n = sk.bones.size();
  const auto inverseBind = sk.inverseBindMatrices();
  const auto rest = sk.restModelMatrices();
  fromBind = false;
  for (std::size_t b = 0; b < n && !fromBind; ++b) fromBind = !nearIdentity(inverseBind[b] * rest[b], size);
  std::vector<Rigid> out(n);
  if (!fromBind) {
    for (std::size_t b = 0; b < n; ++b) out[b] = {glm::normalize(sk.bones[b].rotation), sk.bones[b].translation};
    return out;
  }
  std::vector<glm::dmat4> world(n);
  for (std::size_t b = 0; b < n; ++b) {
    world[b] = glm::inverse(glm::dmat4(inverseBind[b]));
    const int p = sk.bones[b].parent;
    const glm::dmat4 local = p < 0 ? world[b] : glm::inverse(world[static_cast<std::size_t>(p)]) * world[b];
    out[b] = {glm::normalize(glm::quat(glm::quat_cast(glm::dmat3(local)))), glm::vec3(local[3])};
  }
  return out;
}

// The bone whose translation the root's keys carry (see animationRecord), and the chain of
// bones above it, from the root.
struct Carrier {
  std::size_t bone = 0;
  std::vector<std::size_t> chain;
  bool carries(std::size_t b) const { return b == bone || std::find(chain.begin(), chain.end(), b) != chain.end(); }
};

// Down from the root while no vertex is rigged to a bone and it has one child that matters (the
// others neither move nor carry vertices): an armature node above the hips, 3ds Max's Bip01
// above its pelvis.
Carrier carrierOf(const Scene& s, float size) {
  const auto& bones = s.skeleton.bones;
  const std::size_t n = bones.size();
  Carrier out;
  if (n == 0 || s.skeleton.rootCount() != 1) return out;
  std::vector<int> children(n, 0), onlyChild(n, -1);
  std::vector<char> rigged(n, 0), moves(n, 0);
  for (const formats::Mesh& m : s.meshes) {
    if (m.parentBone >= 0 && static_cast<std::size_t>(m.parentBone) < n) rigged[static_cast<std::size_t>(m.parentBone)] = 1;
    for (const Influence& i : m.influences)
      if (i.weight > 0.0f && i.bone < n) rigged[i.bone] = 1;
  }
  for (const Clip& c : s.clips)
    for (const Track& t : c.tracks) {
      const int b = s.skeleton.find(t.bone);
      if (b < 0) continue;
      const formats::Bone& rest = bones[static_cast<std::size_t>(b)];
      for (const glm::quat& q : t.rotation.values) moves[static_cast<std::size_t>(b)] |= std::abs(glm::dot(q, rest.rotation)) < 1.0f - 1e-6f;
      for (const glm::vec3& v : t.translation.values) moves[static_cast<std::size_t>(b)] |= glm::length(v - rest.translation) > 1e-6f * size;
    }
  // A bone matters when something is rigged to it or moves at or below it (children after parents).
  std::vector<char> matters(n, 0);
  for (std::size_t b = n; b-- > 0;) {
    matters[b] = matters[b] || rigged[b] || moves[b];
    if (const int p = bones[b].parent; p >= 0 && matters[b]) matters[static_cast<std::size_t>(p)] = 1;
  }
  for (std::size_t b = 0; b < n; ++b)
    if (const int p = bones[b].parent; p >= 0 && matters[b])
      ++children[static_cast<std::size_t>(p)], onlyChild[static_cast<std::size_t>(p)] = static_cast<int>(b);
  while (!rigged[out.bone] && children[out.bone] == 1) {
    out.chain.push_back(out.bone);
    out.bone = static_cast<std::size_t>(onlyChild[out.bone]);
  }
  return out;
}

// How far the clips (or the rest pose) put a bone other than the root from where `armature`
// holds it: what §9 cannot store, since only the root's translation is keyed.
float heldTranslationError(const Scene& s, const std::vector<Rigid>& armature, const Carrier& carrier) {
  float worst = 0.0f;
  const auto& bones = s.skeleton.bones;
  for (std::size_t b = 1; b < bones.size(); ++b)
    if (!carrier.carries(b)) worst = std::max(worst, glm::length(bones[b].translation - armature[b].translation));
  for (const Clip& c : s.clips)
    for (const Track& t : c.tracks) {
      const int b = s.skeleton.find(t.bone);
      if (b <= 0 || carrier.carries(static_cast<std::size_t>(b))) continue;
      for (const glm::vec3& v : t.translation.values)
        worst = std::max(worst, glm::length(v - armature[static_cast<std::size_t>(b)].translation));
    }
  return worst;
}

Skeleton skeletonRecord(const formats::Skeleton& sk, const std::vector<Rigid>& armature,
                        const std::string& name, std::size_t& cut) {
  Skeleton out;
  out.name = name;
  UniqueNames names;
  for (std::size_t b = 0; b < sk.bones.size(); ++b) {
    Bone bone;
    bone.parent = sk.bones[b].parent;
    bone.name = names.take(sk.bones[b].name, "bone" + std::to_string(b), kMaxBoneName);
    cut += bone.name.size() < sk.bones[b].name.size();
    const glm::mat3 r = glm::mat3_cast(armature[b].rotation);  // §8.1: A, B, C are its columns
    const glm::vec3& t = armature[b].translation;
    bone.m = {r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2], t.x, t.y, t.z};
    out.bones.push_back(std::move(bone));
  }
  return out;
}

// ---- animations (§9) ----------------------------------------------------------------------

std::int32_t frameOf(float seconds) { return frameAt(seconds, kFramesPerSecond); }

// The channel's keys at their own frames when they all lie on frames and play linearly; else the
// channel sampled at the frames of 0..last (sampleFrames).
template <class T, class Put>
void keysOf(const Channel<T>& ch, std::int32_t last, Put put) {
  if ((ch.interpolation == Interpolation::Linear || ch.size() == 1) &&
      keysOnFrames(ch.times, kFramesPerSecond, std::numeric_limits<std::int32_t>::max())) {
    for (std::size_t k = 0; k < ch.size(); ++k) put(frameOf(ch.times[k]), ch.values[k]);
    return;
  }
  for (std::int32_t f : sampleFrames(last)) put(f, sampleAt(ch, static_cast<float>(f) / kFramesPerSecond));
}

struct AnimationNotes {
  std::size_t resampled = 0;  // clips with keys off the frames (or stepped)
  std::size_t scaled = 0;     // clips that scale a bone
  float moved = 0.0f;         // the farthest a bone other than the root moves from its rest place
  std::string movedBone, movedClip;
};

Animation animationRecord(const Clip& clip, const formats::Skeleton& sk, const std::vector<Rigid>& armature,
                          const Carrier& carrier, const std::string& name, float size, AnimationNotes& notes) {
  Animation out;
  out.name = name;
  const std::size_t n = sk.bones.size();
  const std::int32_t last = std::max(0, frameOf(clip.duration));
  std::vector<const Track*> trackOf(n, nullptr);
  for (const Track& t : clip.tracks)
    if (const int b = sk.find(t.bone); b >= 0 && !trackOf[static_cast<std::size_t>(b)])
      trackOf[static_cast<std::size_t>(b)] = &t;
  bool resampled = false, scaled = false;
  const auto offFrames = [&](const auto& ch) {
    return !keysOnFrames(ch.times, kFramesPerSecond, std::numeric_limits<std::int32_t>::max()) ||
           (ch.interpolation == Interpolation::Step && ch.size() > 1);
  };
  out.tracks.resize(n);
  for (std::size_t b = 0; b < n; ++b) {
    const Track* t = trackOf[b];
    auto& keys = out.tracks[b];
    if (t && !t->rotation.empty()) {
      resampled = resampled || offFrames(t->rotation);
      keysOf(t->rotation, last, [&](std::int32_t f, const glm::quat& q) { keys.push_back({f, glm::normalize(q)}); });
    } else {
      keys.push_back({0, glm::normalize(sk.bones[b].rotation)});  // the rest pose, which may not be the bind pose
    }
    if (t)
      for (const glm::vec3& s : t->scale.values) scaled = scaled || glm::any(glm::greaterThan(glm::abs(s - 1.0f), glm::vec3(1e-4f)));
  }
  // §9: only the root's translation is keyed, as an offset in front of its rest translation. The
  // bone that carries the model's motion may hang below a chain of unrigged bones (an armature
  // node, Bip01 above its pelvis): the root's keys then move it where the chain and its own
  // translation put it, the bones of the chain keeping their turns.
  const std::size_t c = carrier.bone;
  const auto rotationAt = [&](std::size_t b, float t) {
    const Track* tr = trackOf[b];
    return tr && !tr->rotation.empty() ? glm::normalize(sampleAt(tr->rotation, t)) : glm::normalize(sk.bones[b].rotation);
  };
  const auto translationAt = [&](std::size_t b, float t) {
    const Track* tr = trackOf[b];
    return tr && !tr->translation.empty() ? sampleAt(tr->translation, t) : sk.bones[b].translation;
  };
  bool chainStill = true;  // the chain neither turns nor moves: the carrier's keys map one to one
  for (std::size_t b : carrier.chain)
    if (const Track* tr = trackOf[b]) {
      for (const glm::quat& q : tr->rotation.values) chainStill = chainStill && std::abs(glm::dot(q, sk.bones[b].rotation)) >= 1.0f - 1e-6f;
      for (const glm::vec3& v : tr->translation.values) chainStill = chainStill && glm::length(v - sk.bones[b].translation) <= 1e-6f * size;
    }
  if (c == 0 || chainStill) {
    glm::quat turn(1.0f, 0.0f, 0.0f, 0.0f);
    for (std::size_t b : carrier.chain) turn = turn * glm::normalize(sk.bones[b].rotation);
    const glm::vec3 rootOffset = sk.bones[0].translation - armature[0].translation;
    const auto rootKey = [&](const glm::vec3& v) {
      return c == 0 ? v - armature[0].translation : rootOffset + turn * (v - armature[c].translation);
    };
    if (const Track* t = trackOf[c]; t && !t->translation.empty()) {
      resampled = resampled || offFrames(t->translation);
      keysOf(t->translation, last, [&](std::int32_t f, const glm::vec3& v) { out.translations.push_back({f, rootKey(v)}); });
    } else if (const glm::vec3 k = rootKey(sk.bones[c].translation); glm::length(k) > 1e-6f * size) {
      out.translations.push_back({0, k});
    }
  } else {
    for (std::int32_t f : sampleFrames(last)) {
      const float t = static_cast<float>(f) / kFramesPerSecond;
      glm::vec3 source = translationAt(0, t), written = armature[0].translation;
      glm::quat turn = rotationAt(0, t);
      for (std::size_t k = 1; k < carrier.chain.size(); ++k) {
        source += turn * translationAt(carrier.chain[k], t);
        written += turn * armature[carrier.chain[k]].translation;
        turn = turn * rotationAt(carrier.chain[k], t);
      }
      source += turn * translationAt(c, t);
      written += turn * armature[c].translation;
      out.translations.push_back({f, source - written});
    }
  }
  // The other bones keep their rest translation: how far the clip would move them is said.
  for (std::size_t b = 1; b < n; ++b) {
    if (carrier.carries(b)) continue;
    const auto far = [&](const glm::vec3& v) {
      const float d = glm::length(v - armature[b].translation);
      if (d > notes.moved) notes.moved = d, notes.movedBone = sk.bones[b].name, notes.movedClip = clip.name;
    };
    if (const Track* t = trackOf[b]; t && !t->translation.empty())
      for (const glm::vec3& v : t->translation.values) far(v);
    else
      far(sk.bones[b].translation);
  }
  notes.resampled += resampled;
  notes.scaled += scaled;
  return out;
}

// ---- meshes (§7) --------------------------------------------------------------------------


// At most 4 influences of weight above 0, the strongest; renormalised when some were dropped.
std::vector<Influence> rigOf(const formats::Mesh& m, std::size_t v, bool& trimmed) {
  std::vector<Influence> out;
  if (m.parentBone >= 0) return {{static_cast<std::uint32_t>(m.parentBone), 1.0f}};
  if (!m.skinned()) return out;
  for (const Influence& i : m.influencesOf(v))
    if (i.weight > 0.0f) out.push_back(i);
  if (out.size() <= kMaxInfluences) return out;
  trimmed = true;
  std::stable_sort(out.begin(), out.end(), [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
  out.resize(kMaxInfluences);
  float total = 0.0f;
  for (const auto& i : out) total += i.weight;
  for (auto& i : out) i.weight /= total;
  return out;
}

// The frame each morph target peaks at in some clip (its weight's first largest key), if any.
std::int32_t peakFrame(const Scene& s, const std::string& mesh, const std::string& target, std::int32_t fallback) {
  for (const Clip& c : s.clips)
    for (const MorphTrack& t : c.morphTracks) {
      if (t.mesh != mesh || t.target != target || t.weight.empty()) continue;
      const auto best = std::max_element(t.weight.values.begin(), t.weight.values.end());
      return frameOf(t.weight.times[static_cast<std::size_t>(best - t.weight.values.begin())]);
    }
  return fallback;
}

struct MeshNotes {
  std::size_t trimmed = 0, madeNormals = 0, attached = 0;
  std::size_t framesOutOfOrder = 0;  // meshes whose targets peak out of their order
};

Mesh meshRecord(const Scene& s, const formats::Mesh& m, int version, const std::string& name,
                const std::string& material, MeshNotes& notes) {
  Mesh out;
  out.name = name;
  out.material = material;
  const bool tangents = version >= 1 && m.tangents.size() == m.vertexCount();
  out.flags = version >= 1 ? (1u << 17) | (tangents ? 1u << 16 : 0u) : 0u;  // §3, §7
  const std::size_t V = m.vertexCount();
  std::vector<glm::vec3> normals = m.normals.size() == V ? m.normals : smoothNormals(m, glm::vec3(0.0f, 0.0f, 1.0f));
  notes.madeNormals += m.normals.size() != V;
  notes.attached += m.parentBone >= 0;

  // Positions: vertices that agree on place and rigging share one (the morph frames are per
  // position, so a mesh with morph targets keeps one per vertex).
  bool trimmed = false;
  std::vector<std::vector<Influence>> rigs(V);
  for (std::size_t v = 0; v < V; ++v) rigs[v] = rigOf(m, v, trimmed);
  notes.trimmed += trimmed;
  std::vector<std::int32_t> positionOf(V);
  std::unordered_map<std::string, std::int32_t> shared;
  std::vector<std::size_t> firstVertex;  // per position
  for (std::size_t v = 0; v < V; ++v) {
    std::string key;
    if (m.morphs.empty()) {
      key.assign(reinterpret_cast<const char*>(&m.positions[v]), sizeof(glm::vec3));
      for (const Influence& i : rigs[v]) key.append(reinterpret_cast<const char*>(&i), sizeof(Influence));
    } else {
      key = std::to_string(v);
    }
    const auto [it, added] = shared.try_emplace(std::move(key), static_cast<std::int32_t>(out.positions.size()));
    if (added) {
      out.positions.push_back(m.positions[v]);
      firstVertex.push_back(v);
    }
    positionOf[v] = it->second;
  }
  // §7.2: per bone, sorted, only the bones that move something.
  std::map<std::uint32_t, std::vector<RigPair>> byBone;
  for (std::size_t p = 0; p < firstVertex.size(); ++p)
    for (const Influence& i : rigs[firstVertex[p]]) byBone[i.bone].push_back({static_cast<std::int32_t>(p), i.weight});
  for (auto& [bone, pairs] : byBone) out.rigging.push_back({static_cast<std::int32_t>(bone), std::move(pairs)});

  out.vertices.resize(V);
  for (std::size_t v = 0; v < V; ++v) {
    Vertex& o = out.vertices[v];
    o.position = positionOf[v];
    o.normal = normals[v];
    if (!m.colors.empty()) o.color = writing::argb8(m.colors[v]);  // §7.5: 0xAARRGGBB
    if (!m.uvSets.empty()) o.uv = m.uvSets[0][v];  // §7.5: v = 0 at the top, as the model's
    o.uv2 = m.uvSets.size() > 1 ? m.uvSets[1][v] : o.uv;
    if (tangents) {
      o.tangent = glm::vec3(m.tangents[v]);
      o.bitangentSign = m.tangents[v].w > 0.0f ? 1 : 0;
    }
  }
  for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3)
    out.faces.push_back({static_cast<std::int32_t>(m.indices[i]), static_cast<std::int32_t>(m.indices[i + 1]),
                         static_cast<std::int32_t>(m.indices[i + 2])});

  // §7.3: each morph target a frame, its whole shape (positions per position, normals per vertex).
  std::int32_t previous = -1;
  std::size_t outOfOrder = 0;
  for (std::size_t k = 0; k < m.morphs.size(); ++k) {
    const MorphTarget& t = m.morphs[k];
    VertexFrame f;
    const std::int32_t peak = peakFrame(s, m.name, t.name, static_cast<std::int32_t>(10 * k));
    outOfOrder += peak <= previous;
    f.time = std::max(previous + 1, peak);
    previous = f.time;
    f.positions = out.positions;
    f.normals = normals;
    for (std::size_t j = 0; j < t.movedCount(V); ++j) {
      const std::size_t v = t.vertexAt(j);
      if (v >= V) continue;
      f.positions[static_cast<std::size_t>(positionOf[v])] = t.positions[j];
      if (j < t.normals.size()) f.normals[v] = t.normals[j];
    }
    out.frames.push_back(std::move(f));
  }
  notes.framesOutOfOrder += outOfOrder > 0;
  return out;
}

// ---- materials and textures (§4, §6) ------------------------------------------------------

bool isDds(const formats::Texture& t) {
  const std::string& n = t.name.empty() ? t.path : t.name;
  return n.size() >= 4 && (n.compare(n.size() - 4, 4, ".dds") == 0 || n.compare(n.size() - 4, 4, ".DDS") == 0);
}

}  // namespace

Result<Document> fromScene(const Scene& scene, int version, const std::string& stem, Diagnostics& d) {
  Scene s = scene;
  convertBasis(s, Basis{Axis::Z, true, 1.0f, +1});  // §11
  removeBoneScale(s, d);
  unifyBindPoses(s, d);

  Document doc;
  doc.version = version;
  doc.hasVersionToken = version >= 1;
  const std::string base = stem.empty() ? std::string("model") : stem;
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const auto& m : s.meshes)
    for (const auto& p : m.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const float size = hi.x >= lo.x ? std::max(glm::length(hi - lo), 1e-6f) : 1.0f;

  // Textures and materials, by the names BRF gives them.
  std::vector<std::string> textureName(s.textures.size());
  std::set<std::string> textureRecords;
  std::size_t notDds = 0;
  const auto textureFor = [&](int t) -> std::string {
    if (t < 0 || static_cast<std::size_t>(t) >= s.textures.size()) return "none";
    auto& name = textureName[static_cast<std::size_t>(t)];
    if (name.empty()) {
      name = writing::ddsName(s.textures[static_cast<std::size_t>(t)]);
      if (textureRecords.insert(name).second) {
        doc.textures.push_back({name, 0});
        notDds += !isDds(s.textures[static_cast<std::size_t>(t)]);
      }
    }
    return name.substr(0, name.size() - 4);  // §6: materials name textures without ".dds"
  };
  UniqueNames materialNames;
  std::vector<std::string> materialName(s.materials.size());
  for (std::size_t i = 0; i < s.materials.size(); ++i) {
    const formats::Material& m = s.materials[i];
    Material out;
    out.name = materialNames.take(m.name, base + "_material" + std::to_string(i));
    materialName[i] = out.name;
    out.shader = "simple_shader";
    const auto mapOf = [&](std::string_view kind) {
      for (const MaterialMap& map : m.maps)
        if (map.kind == kind) return textureFor(map.texture);
      return std::string("none");
    };
    out.diffuseA = mapOf("diffuse");
    out.diffuseB = "none";
    out.bump = mapOf("normal");
    out.enviro = "none";
    out.spec = mapOf("specular");
    out.specularCoefficient = m.shininess;
    out.specular = glm::vec3(m.specular);
    if (m.diffuse.a < 1.0f) out.flags |= 1u << 8;  // §6 blend mode 1: S·a + D·(1−a)
    doc.materials.push_back(std::move(out));
  }
  std::string fallbackMaterial;
  const auto materialOf = [&](const formats::Mesh& m) {
    if (m.material >= 0 && static_cast<std::size_t>(m.material) < materialName.size())
      return materialName[static_cast<std::size_t>(m.material)];
    if (fallbackMaterial.empty()) {
      Material out;
      out.name = fallbackMaterial = materialNames.take(base, base + "_material");
      out.shader = "simple_shader";
      out.diffuseA = out.diffuseB = out.bump = out.enviro = "none";
      out.spec = "none";
      doc.materials.push_back(std::move(out));
    }
    return fallbackMaterial;
  };

  // The armature BRF stores is also the bind pose (§7.1). A model bound in another pose is either
  // re-posed into its rest pose (exact when the bind differs by one transform for all bones of a
  // vertex) or keeps its bind pose as the armature (exact when the clips move no bone but the
  // root by translation): whichever is closer.
  std::vector<Rigid> armature;
  bool fromBind = false;
  const Carrier carrier = carrierOf(s, size);
  if (!s.skeleton.empty()) {
    armature = armatureOf(s.skeleton, size, fromBind);
    if (fromBind) {
      Scene atRest = s;
      const float reposed = bindAtRest(atRest);
      const float held = heldTranslationError(s, armature, carrier);
      if (reposed <= held) {
        s = std::move(atRest);
        armature = armatureOf(s.skeleton, size, fromBind);
        d.info("", "bind pose", kNoOffset,
               reposed <= 1e-5f * size
                   ? std::string("the model was bound in a pose other than its rest pose: its meshes were moved into the "
                                 "rest pose, which BRF binds to")
                   : "the model was bound in a pose other than its rest pose: its meshes were moved into the rest "
                     "pose, which BRF binds to (up to " + std::to_string(reposed) + " m apart at a joint)");
      } else {
        d.info("", "bind pose", kNoOffset,
               "the model was bound in a pose other than its rest pose: the skeleton is written in the bind "
               "pose (BRF's rest pose) and the animations hold the rest pose on the bones they leave alone");
      }
    }
  }

  // Meshes; a progressive mesh (cal3d's level of detail) also as the game's levels NAME.lod1 …
  // .lod3, at a half, a quarter and an eighth of its collapsible vertices (lod.h).
  UniqueNames meshNames;
  MeshNotes meshNotes;
  std::size_t lod = 0, springs = 0;
  for (std::size_t i = 0; i < s.meshes.size(); ++i) {
    const formats::Mesh& m = s.meshes[i];
    springs += !m.springs.empty();
    const std::string name = meshNames.take(m.name, base + "_mesh" + std::to_string(i));
    doc.meshes.push_back(meshRecord(s, m, version, name, materialOf(m), meshNotes));
    if (m.lod.empty() || m.lod.collapsible == 0) continue;
    ++lod;
    std::vector<std::uint32_t> indices;
    std::size_t previous = m.indices.size();
    for (int level = 1; level <= 3; ++level) {
      lodIndices(m, std::ldexp(1.0f, -level), indices);
      if (indices.empty() || indices.size() >= previous) continue;  // nothing left, or nothing collapsed
      previous = indices.size();
      formats::Mesh reduced = meshOfTriangles(m, indices);
      reduced.morphs.clear();  // the frames belong to the full mesh
      doc.meshes.push_back(meshRecord(s, reduced, version, meshNames.take(name + ".lod" + std::to_string(level), name),
                                      materialOf(m), meshNotes));
    }
  }

  // The skeleton and its animations.
  if (!s.skeleton.empty()) {
    std::size_t cut = 0;
    doc.skeletons.push_back(skeletonRecord(
        s.skeleton, armature, s.skeleton.name.empty() ? "skel_" + base : s.skeleton.name, cut));
    if (cut)
      d.warn("", "bone names", kNoOffset,
             std::to_string(cut) + " bone names were cut to " + std::to_string(kMaxBoneName) + " bytes (§8)");
    if (s.skeleton.rootCount() > 1)
      d.warn("", "skeleton", kNoOffset,
             "the skeleton has " + std::to_string(s.skeleton.rootCount()) +
                 " roots; BRF animates the translation of the first only");
    UniqueNames clipNames;
    AnimationNotes notes;
    for (std::size_t c = 0; c < s.clips.size(); ++c) {
      const Clip& clip = s.clips[c];
      if (clip.tracks.empty()) continue;  // morph-only clips are the meshes' frames
      doc.animations.push_back(animationRecord(clip, s.skeleton, armature, carrier,
                                               clipNames.take(clip.name, "anim_" + base + std::to_string(c)),
                                               size, notes));
    }
    if (notes.resampled)
      d.info("", "animations", kNoOffset,
             std::to_string(notes.resampled) + " clips have keys between frames (or stepped keys): sampled at every "
             "frame of " + std::to_string(static_cast<int>(kFramesPerSecond)) + " per second");
    if (notes.scaled) d.warn("", "animations", kNoOffset, std::to_string(notes.scaled) + " clips scale bones, which BRF cannot store: written without scale");
    if (notes.moved > 1e-4f * size)
      d.warn("", "animations", kNoOffset,
             "BRF animates only the root's translation: bone " + quoted(notes.movedBone) + " moves up to " +
                 std::to_string(notes.moved) + " m in clip " + quoted(notes.movedClip) +
                 " (or rests elsewhere), and is held at its bind position");
  } else {
    for (const Clip& c : s.clips)
      if (!c.tracks.empty()) {
        d.warn("", "animations", kNoOffset, "the model has no skeleton: its skeleton animations are not written");
        break;
      }
  }
  if (meshNotes.trimmed)
    d.warn("", "rigging", kNoOffset,
           std::to_string(meshNotes.trimmed) + " meshes have positions with more than 4 influences: the 4 strongest "
           "were kept and renormalised, as the game does (§7.2)");
  if (meshNotes.framesOutOfOrder)
    d.warn("", "frames", kNoOffset,
           std::to_string(meshNotes.framesOutOfOrder) + " meshes have morph targets that peak out of their order in the "
           "clips: BRF's frames play in the order they are stored (§7.3), so they were written in target order, "
           "each a frame after the one before");
  if (meshNotes.madeNormals) d.info("", "normals", kNoOffset, std::to_string(meshNotes.madeNormals) + " meshes had no normals: made from their faces");
  if (meshNotes.attached)
    d.info("", "rigging", kNoOffset,
           std::to_string(meshNotes.attached) + " meshes follow one bone: rigged wholly to it");
  if (lod)
    d.info("", "level of detail", kNoOffset,
           std::to_string(lod) + " progressive meshes were written with their levels as NAME.lod1 … NAME.lod3 (a "
           "half, a quarter and an eighth of their collapsible vertices)");
  if (springs)
    d.warn("", "springs", kNoOffset,
           std::to_string(springs) + " meshes have cloth springs, which BRF cannot store: not written (the "
           "vertices follow the skinning)");
  if (notDds)
    d.warn("", "textures", kNoOffset,
           std::to_string(notDds) + " textures are not DDS files: their records name NAME.dds, which the game "
           "looks for in the module's Textures folder (convert them to DDS)");

  // Collision bodies (§10).
  for (const formats::Body& b : s.bodies) {
    Body out;
    out.name = b.name;
    out.composite = b.parts.size() != 1;
    for (const formats::BodyPart& p : b.parts) {
      BodyPart o;
      using Kind = formats::BodyPart::Kind;
      o.kind = p.kind == Kind::Manifold ? "manifold" : p.kind == Kind::Face ? "face" : p.kind == Kind::Sphere ? "sphere" : "capsule";
      o.positions = p.positions;
      for (const auto& poly : p.polygons) {
        Polygon q;
        q.ori = 1;
        for (std::uint32_t i : poly) q.positions.push_back(static_cast<std::int32_t>(i));
        o.polygons.push_back(std::move(q));
      }
      o.radius = p.radius;
      o.a = p.a;
      o.b = p.b;
      o.flags = p.flags;
      out.parts.push_back(std::move(o));
    }
    doc.bodies.push_back(std::move(out));
  }
  if (!s.attachments.empty())
    d.warn("", "attachments", kNoOffset,
           std::to_string(s.attachments.size()) + " attachment points are not written: BRF has no place for them");
  if (!s.tables.empty())
    d.warn("", "tables", kNoOffset, std::to_string(s.tables.size()) + " data tables are not written: BRF holds models");
  return doc;
}

}  // namespace marrow::formats::brf
