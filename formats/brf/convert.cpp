// BRF records → Scene: skeletons (§8), animations (§9), meshes (§7), materials and textures
// (§4, §6), bodies (§10). Everything stays in file coordinates (§11: Z up, right-handed,
// metres); the renderer turns them upright with a rotation, never a mirror.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/quaternion.hpp>

#include "formats/brf/convert_internal.h"
#include "formats/model/frames.h"
#include "formats/model/texture_table.h"
#include "formats/model/validate.h"

namespace marrow::formats::brf::detail {
namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(const glm::vec2& v) { return std::isfinite(v.x) && std::isfinite(v.y); }

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The record a message is about: "mesh 'boot_nomad_a'".
std::string what(Section kind, const std::string& name) {
  return std::string(kindName(kind)) + " " + quoted(name);
}

// ---- skeletons (§8) -----------------------------------------------------------------------

struct BuiltSkeleton {
  formats::Skeleton skeleton;
  std::vector<int> sceneIndex;  // file bone index → scene bone index
  int root = -1;                // file index of the first root (the translation track's bone, §9)
};

glm::dmat4 localMatrix(const Bone& b) {
  glm::dmat4 m(1.0);
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r) m[c][r] = static_cast<double>(b.m[static_cast<std::size_t>(c * 3 + r)]);
  return m;
}

// Parents before children (the model's rule); the file need not be in that order (§8).
Result<BuiltSkeleton> buildSkeleton(const Source& src, const brf::Skeleton& in) {
  const std::string rec = what(Section::Skeleton, in.name);
  const std::size_t n = in.bones.size();
  BuiltSkeleton out;
  out.skeleton.name = in.name;
  std::vector<std::vector<std::size_t>> children(n);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t p = in.bones[i].parent;
    if (p == -1) {
      order.push_back(i);
      if (out.root < 0) out.root = static_cast<int>(i);
    } else if (p < 0 || static_cast<std::size_t>(p) >= n || static_cast<std::size_t>(p) == i) {
      return FormatError{src.name, rec + " bone " + std::to_string(i) + " parent", kNoOffset,
                         "parent " + std::to_string(p) + " is not a bone of the skeleton (" +
                             std::to_string(n) + " bones)"};
    } else {
      children[static_cast<std::size_t>(p)].push_back(i);
    }
  }
  for (std::size_t k = 0; k < order.size(); ++k)
    for (std::size_t c : children[order[k]]) order.push_back(c);
  if (order.size() != n)
    return FormatError{src.name, rec + " parents", kNoOffset,
                       std::to_string(n - order.size()) + " bones hang in a loop of parents"};
  // A file whose parents come before their children (every real one, §8) keeps its order: bone
  // n of the model is bone n of the file, which is what the game's animations count by.
  bool parentsFirst = true;
  for (std::size_t i = 0; i < n; ++i) parentsFirst = parentsFirst && in.bones[i].parent < static_cast<std::int32_t>(i);
  if (parentsFirst)
    for (std::size_t i = 0; i < n; ++i) order[i] = i;

  out.sceneIndex.assign(n, -1);
  for (std::size_t k = 0; k < n; ++k) out.sceneIndex[order[k]] = static_cast<int>(k);
  std::set<std::string> names;
  std::vector<glm::dmat4> world(n);
  out.skeleton.bones.resize(n);
  out.skeleton.inverseBind.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Bone& b = in.bones[order[k]];
    formats::Bone& o = out.skeleton.bones[k];
    for (float v : b.m)
      if (!std::isfinite(v))
        return FormatError{src.name, rec + " bone " + quoted(b.name) + " matrix", kNoOffset,
                           "a value is not a finite number"};
    const glm::dmat4 local = localMatrix(b);
    const double det = glm::determinant(glm::dmat3(local));
    if (!(std::abs(det - 1.0) < 1e-2))
      return FormatError{src.name, rec + " bone " + quoted(b.name) + " axes", kNoOffset,
                         "the axes are not a rotation (determinant " + std::to_string(det) + ")"};
    // §8.1: A, B, C are the columns of the rest rotation, T its translation.
    o.rotation = glm::normalize(glm::quat_cast(glm::mat3(local)));
    o.translation = glm::vec3(local[3]);
    o.parent = b.parent < 0 ? -1 : out.sceneIndex[static_cast<std::size_t>(b.parent)];
    o.name = b.hasName && !b.name.empty() ? b.name : "bone " + std::to_string(order[k]);
    for (int dup = 2; !names.insert(o.name).second; ++dup)
      o.name = (b.hasName ? b.name : "bone " + std::to_string(order[k])) + " (" + std::to_string(dup) + ")";
    world[k] = o.parent < 0 ? local : world[static_cast<std::size_t>(o.parent)] * local;
    // The bind pose is the rest pose as the file stores it (§12.1: W_rest from the matrices,
    // not from their quaternions).
    out.skeleton.inverseBind[k] = glm::mat4(glm::inverse(world[k]));
  }
  if (const auto deep = boneDeeperThan(out.skeleton, src.ctx.limits.maxHierarchyDepth))
    return FormatError{
        src.name, rec + " bone " + quoted(out.skeleton.bones[deep->bone].name), kNoOffset,
        "is nested " + std::to_string(deep->depth) + " bones deep, over the limit of " +
            std::to_string(src.ctx.limits.maxHierarchyDepth)};
  return out;
}

// ---- animations (§9) ----------------------------------------------------------------------

float seconds(std::int32_t frame) { return static_cast<float>(frame) / kFramesPerSecond; }

// One clip; tracks named after `names` (one per track) and bound to `skeletonName`.
Clip buildClip(const Source& src, const Animation& a, const std::vector<std::string>& names,
               const std::string& skeletonName, int rootTrack, glm::vec3 rootRest,
               Diagnostics& diag) {
  const std::string rec = what(Section::Animation, a.name);
  Clip clip;
  clip.name = a.name;
  clip.frameRate = kFramesPerSecond;
  clip.skeleton = skeletonName;
  std::int32_t last = 0;
  std::size_t dropped = 0, zero = 0;
  clip.tracks.resize(a.tracks.size());
  for (std::size_t b = 0; b < a.tracks.size(); ++b) {
    Track& t = clip.tracks[b];
    t.bone = names[b];
    t.sourceIndex = static_cast<int>(b);
    t.rotation.times.reserve(a.tracks[b].size());
    t.rotation.values.reserve(a.tracks[b].size());
    for (const RotKey& k : a.tracks[b]) {
      // A time repeated in a track (anim_human t = 35520) or going back plays the first key.
      if (!t.rotation.empty() && !(seconds(k.time) > t.rotation.times.back())) {
        ++dropped;
        continue;
      }
      glm::quat q = k.rotation;
      const float len = glm::length(q);
      if (!std::isfinite(len)) {
        ++dropped;
        continue;
      }
      if (len < 1e-6f) {
        ++zero;
        q = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
      } else {
        // Keys are stored a little off unit (anim_human's reach 1.0024): the rotation is the
        // unit quaternion, which the slerp between keys needs (its angle comes from their dot).
        q /= len;
      }
      t.rotation.add(seconds(k.time), q);
      last = std::max(last, k.time);
    }
  }
  if (rootTrack >= 0 && static_cast<std::size_t>(rootTrack) < clip.tracks.size()) {
    // §9: the key is added in front of the root's rest translation.
    Track& t = clip.tracks[static_cast<std::size_t>(rootTrack)];
    for (const TransKey& k : a.translations) {
      if (!finite(k.translation) || (!t.translation.empty() && !(seconds(k.time) > t.translation.times.back()))) {
        ++dropped;
        continue;
      }
      t.translation.add(seconds(k.time), rootRest + k.translation);
      last = std::max(last, k.time);
    }
  } else if (!a.translations.empty()) {
    diag.info(src.name, rec + " translations", kNoOffset,
              "the root translation keys have no root bone to move (no skeleton with " +
                  std::to_string(a.tracks.size()) + " bones is open)");
  }
  clip.duration = std::max(0.0f, seconds(last));
  clip.frameIndexed = true;  // times are frame indices / 30: actions cut it (model/actions.h)
  if (dropped)
    diag.info(src.name, rec + " keys", kNoOffset,
              std::to_string(dropped) +
                  " keys repeat an earlier time of their track (or are not numbers); the first of "
                  "each time plays");
  if (zero)
    diag.warn(src.name, rec + " keys", kNoOffset,
              std::to_string(zero) + " rotation keys are the zero quaternion; they play as no rotation");
  return clip;
}

// ---- meshes (§7) --------------------------------------------------------------------------

glm::vec4 color(std::uint32_t c) {  // §7.5: 0xAARRGGBB
  return glm::vec4(static_cast<float>((c >> 16) & 0xFF), static_cast<float>((c >> 8) & 0xFF),
                   static_cast<float>(c & 0xFF), static_cast<float>(c >> 24)) / 255.0f;
}

// Per position: its (bone, weight) pairs, OpenBRF's way (§7.2): weight-0 pairs add nothing; a
// fifth influence replaces the smallest and the weights are renormalised.
std::vector<std::vector<Influence>> influencesByPosition(const Mesh& m, std::size_t& overflow) {
  std::vector<std::vector<Influence>> out(m.positions.size());
  for (const RigBone& rb : m.rigging)
    for (const RigPair& p : rb.pairs) {
      if (!(p.weight != 0.0f)) continue;
      auto& list = out[static_cast<std::size_t>(p.position)];
      if (list.size() < 4) {
        list.push_back({static_cast<std::uint32_t>(rb.bone), p.weight});
        continue;
      }
      ++overflow;
      auto smallest = std::min_element(list.begin(), list.end(), [](const Influence& x, const Influence& y) {
        return x.weight < y.weight;
      });
      if (smallest->weight < p.weight) *smallest = {static_cast<std::uint32_t>(rb.bone), p.weight};
      float sum = 0.0f;
      for (const auto& i : list) sum += i.weight;
      if (sum > 0.0f)
        for (auto& i : list) i.weight /= sum;
    }
  return out;
}

// Why a mesh cannot be drawn, or "" when it can: every index inside its array, every value a
// number (§7.4).
std::string checkMesh(const Mesh& m) {
  const std::size_t P = m.positions.size(), V = m.vertices.size();
  for (std::size_t i = 0; i < P; ++i)
    if (!finite(m.positions[i])) return "position " + std::to_string(i) + " is not a finite number";
  for (std::size_t i = 0; i < V; ++i) {
    const Vertex& v = m.vertices[i];
    if (v.position < 0 || static_cast<std::size_t>(v.position) >= P)
      return "vertex " + std::to_string(i) + " names position " + std::to_string(v.position) +
             " of " + std::to_string(P);
    if (!finite(v.normal) || !finite(v.tangent))
      return "vertex " + std::to_string(i) + " has a normal or tangent that is not a number";
  }
  for (std::size_t f = 0; f < m.faces.size(); ++f)
    for (std::int32_t c : m.faces[f])
      if (c < 0 || static_cast<std::size_t>(c) >= V)
        return "face " + std::to_string(f) + " names vertex " + std::to_string(c) + " of " +
               std::to_string(V);
  for (const RigBone& rb : m.rigging) {
    if (rb.bone < 0) return "rigging names bone " + std::to_string(rb.bone);
    for (const RigPair& p : rb.pairs) {
      if (p.position < 0 || static_cast<std::size_t>(p.position) >= P)
        return "rigging of bone " + std::to_string(rb.bone) + " names position " +
               std::to_string(p.position) + " of " + std::to_string(P);
      if (!std::isfinite(p.weight)) return "a rigging weight is not a number";
    }
  }
  return "";
}

struct MeshContext {
  const Source& src;
  const BuiltSkeleton* skeleton;  // null: no skeleton in the model
  Diagnostics& diag;
};

std::optional<formats::Mesh> buildMesh(const MeshContext& ctx, const Mesh& m, int version) {
  const std::string rec = what(Section::Mesh, m.name);
  if (const std::string why = checkMesh(m); !why.empty()) {
    ctx.diag.add(Severity::Error, ctx.src.name, rec, kNoOffset, why + "; the mesh is left out");
    return std::nullopt;
  }
  const VertexLayout layout = layoutOf(m, version);
  const std::size_t V = m.vertices.size();
  formats::Mesh out;
  out.name = m.name;
  out.positions.resize(V);
  out.normals.resize(V);
  out.uvSets.assign(layout == VertexLayout::A_1011 ? 2 : 1, std::vector<glm::vec2>(V));
  if (layout == VertexLayout::B_WarbandTangent) out.tangents.resize(V);
  bool coloured = false, badUv = false;
  for (std::size_t i = 0; i < V; ++i) {
    const Vertex& v = m.vertices[i];
    out.positions[i] = m.positions[static_cast<std::size_t>(v.position)];
    out.normals[i] = v.normal;
    // §7.5: v is top-down, the model's convention too.
    glm::vec2 uv = v.uv, uv2 = v.uv2;
    if (!finite(uv) || !finite(uv2)) {
      badUv = true;
      if (!finite(uv)) uv = glm::vec2(0.0f);
      if (!finite(uv2)) uv2 = glm::vec2(0.0f);
    }
    out.uvSets[0][i] = uv;
    if (layout == VertexLayout::A_1011) out.uvSets[1][i] = uv2;
    // §7.5: sign 1 means cross(n, t) points towards increasing v, as the model's w = +1 does.
    if (layout == VertexLayout::B_WarbandTangent)
      out.tangents[i] = glm::vec4(v.tangent, v.bitangentSign ? 1.0f : -1.0f);
    coloured |= v.color != 0xFFFFFFFFu;
  }
  if (coloured) {
    out.colors.resize(V);
    for (std::size_t i = 0; i < V; ++i) out.colors[i] = color(m.vertices[i].color);
  }
  if (badUv)
    ctx.diag.warn(ctx.src.name, rec + " uv", kNoOffset,
                  "some texture coordinates are not numbers; they are drawn as (0, 0)");
  out.indices.reserve(m.faces.size() * 3);
  for (const auto& f : m.faces)
    for (std::int32_t c : f) out.indices.push_back(static_cast<std::uint32_t>(c));

  // Rigging (§7.2) needs a skeleton with the bones it names.
  const int highest = maxRiggedBone(m);
  if (highest >= 0) {
    const std::size_t bones = ctx.skeleton ? ctx.skeleton->skeleton.bones.size() : 0;
    if (static_cast<std::size_t>(highest) >= bones) {
      ctx.diag.warn(ctx.src.name, rec + " rigging", kNoOffset,
                    "rigged to bones 0–" + std::to_string(highest) +
                        (ctx.skeleton ? ", but the skeleton " + quoted(ctx.skeleton->skeleton.name) +
                                            " has " + std::to_string(bones)
                                      : ", and no skeleton with that many bones is open") +
                        ": shown at rest");
    } else {
      std::size_t overflow = 0;
      const auto byPosition = influencesByPosition(m, overflow);
      std::vector<Influence> scratch;
      for (const Vertex& v : m.vertices) {
        scratch = byPosition[static_cast<std::size_t>(v.position)];
        for (auto& inf : scratch)
          inf.bone = static_cast<std::uint32_t>(ctx.skeleton->sceneIndex[inf.bone]);
        out.addInfluences(scratch);
      }
      if (overflow)
        ctx.diag.info(ctx.src.name, rec + " rigging", kNoOffset,
                      "some positions have more than 4 influences; the 4 largest are kept and "
                      "renormalised, as the game does");
    }
  }

  // Vertex animation (§7.3): every stored frame is a morph target (frame 0 is the mesh itself).
  for (std::size_t k = 0; k < m.frames.size(); ++k) {
    const VertexFrame& fr = m.frames[k];
    const std::string name = frameTarget(k);
    bool ok = fr.positions.size() == m.positions.size() && fr.normals.size() == V;
    for (const auto& p : fr.positions) ok = ok && finite(p);
    for (const auto& n : fr.normals) ok = ok && finite(n);
    MorphTarget t;
    t.name = name;
    if (ok) {
      t.positions.resize(V);
      t.normals = fr.normals;
      for (std::size_t i = 0; i < V; ++i)
        t.positions[i] = fr.positions[static_cast<std::size_t>(m.vertices[i].position)];
    } else {
      // An empty target moves nothing: the frame keeps its place and time but shows frame 0.
      ctx.diag.warn(ctx.src.name, rec + " " + name, kNoOffset,
                    "has " + std::to_string(fr.positions.size()) + " positions and " +
                        std::to_string(fr.normals.size()) + " normals for " +
                        std::to_string(m.positions.size()) + " and " + std::to_string(V) +
                        " (or values that are not numbers); it shows the mesh's rest shape");
    }
    out.morphs.push_back(std::move(t));
  }
  return out;
}

// A vertex-animated mesh's frames as a clip (§7.3), as formats/model/frames.h makes one.
std::optional<Clip> frameClip(const Source& src, const Mesh& m, Diagnostics& diag) {
  if (m.frames.size() < 2) return std::nullopt;
  std::vector<float> times;
  bool increasing = true;
  for (std::size_t k = 0; k < m.frames.size(); ++k) {
    times.push_back(seconds(m.frames[k].time));
    increasing = increasing && (k == 0 || times[k] > times[k - 1]);
  }
  if (!increasing) {
    diag.warn(src.name, what(Section::Mesh, m.name) + " frame times", kNoOffset,
              "the frame times do not increase; the frames play one per frame in file order");
    for (std::size_t k = 0; k < times.size(); ++k) times[k] = seconds(static_cast<std::int32_t>(k));
  }
  Clip clip = formats::frameClip(m.name + " (frames)", times, kFramesPerSecond);
  addFrameTracks(clip, m.name, times);
  return clip;
}

// ---- materials and textures (§4, §6) ------------------------------------------------------

struct MaterialTable {
  std::span<const Source> sources;
  Scene& scene;
  std::map<std::string, int> byName;
  std::map<std::string, int> textureByName;
  TextureTable textures{scene.textures};  // each image once, whatever names find it

  const Texture* textureRecord(const std::string& file, const Source** owner) const {
    for (const Source& s : sources)
      for (const Texture& t : s.doc->textures)
        if (t.name == file) {
          *owner = &s;
          return &t;
        }
    return nullptr;
  }

  // A texture the material names (without ".dds", §6), fetched beside the file that names it
  // or in the module's Textures folder.
  int texture(const Source& from, const std::string& named) {
    if (named.empty() || named == "none") return -1;
    std::string file = named;
    if (file.size() < 4 || !std::equal(file.end() - 4, file.end(), ".dds", [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == b;
        }))
      file += ".dds";
    if (auto it = textureByName.find(file); it != textureByName.end()) return it->second;
    formats::Texture t;
    t.name = file;
    t.path = file;
    // An animated texture (§4) names its frames <name>_<i>.dds; frame 0 is drawn.
    const Source* owner = &from;
    const Texture* rec = textureRecord(file, &owner);
    const std::string first =
        rec && rec->frames() > 0 ? file.substr(0, file.size() - 4) + "_0.dds" : file;
    const ReadContext& ctx = from.ctx;
    for (const std::string& candidate : {first, "Textures/" + first, "../Textures/" + first}) {
      if (auto found = fetchNamedFile(ctx, candidate)) {
        t.path = found->name;
        t.data = std::move(found->bytes);
        break;
      }
    }
    if (t.data.empty() && ctx.fetchTextures && ctx.resolve)
      scene.diagnostics.info(from.name, "texture " + quoted(file), kNoOffset,
                             "not found beside the file or in a Textures folder next to it; "
                             "drawn without it");
    const int index = textures.add(std::move(t));
    textureByName[file] = index;
    return index;
  }

  // The material of that name (made once); `mesh`, when a mesh asks, names it in the note a
  // material that is in no open file gets (once per name).
  int material(const std::string& name, const Source* meshSource = nullptr, const std::string& mesh = {}) {
    if (auto it = byName.find(name); it != byName.end()) return it->second;
    formats::Material out;
    out.name = name;
    const Material* rec = nullptr;
    const Source* owner = nullptr;
    for (const Source& s : sources) {
      for (const Material& m : s.doc->materials)
        if (m.name == name) {
          rec = &m;
          owner = &s;
          break;
        }
      if (rec) break;
    }
    if (!rec) {
      out.properties.push_back({"record", "not in the open files"});
      if (meshSource && !name.empty())
        scene.diagnostics.info(meshSource->name, "material " + quoted(name), kNoOffset,
                               "not in the open files: mesh " + quoted(mesh) +
                                   " (and any other using it) draws white; open the file that defines it too");
    } else {
      fill(out, *rec, *owner);
    }
    const int index = static_cast<int>(scene.materials.size());
    scene.materials.push_back(std::move(out));
    byName[name] = index;
    return index;
  }

  void fill(formats::Material& out, const Material& m, const Source& owner) {
    const unsigned blend = (m.flags >> 8) & 7u, alphaTest = (m.flags >> 12) & 3u;
    out.specular = glm::vec4(m.specular, 1.0f);
    out.shininess = m.specularCoefficient;
    // §6: the diffuse map's alpha is opacity only when the material blends or alpha-tests;
    // otherwise Warband keeps other data there (a specular mask).
    out.diffuseAlphaIsOpacity = blend != 0 || alphaTest != 0;
    const auto map = [&](const char* kind, const std::string& tex, const char* label) {
      if (const int t = texture(owner, tex); t >= 0) out.maps.push_back({kind, t, 0, label});
    };
    map("diffuse", m.diffuseA, "diffuseA");
    map("diffuse2", m.diffuseB, "diffuseB");
    map("normal", m.bump, "bump");
    map("environment", m.enviro, "enviro");
    if (m.spec) map("specular", *m.spec, "spec");
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", m.flags);
    static const char* const kBlend[] = {"opaque", "alpha", "additive alpha", "multiply",
                                         "add", "5", "6", "auto"};
    static const char* const kAlphaTest[] = {"none", "a < 8/256", "a < 136/256", "a < 251/256"};
    int order = static_cast<int>((m.flags >> 24) & 0xF);
    if (order >= 8) order -= 16;
    out.properties = {
        {"record", "material in " + owner.name},
        {"flags", hex},
        {"shader", m.shader},
        {"diffuseA", m.diffuseA},
        {"diffuseB", m.diffuseB},
        {"bump", m.bump},
        {"enviro", m.enviro},
        {"spec", m.spec ? *m.spec : std::string("(absent)")},
        {"specular coefficient", std::to_string(m.specularCoefficient)},
        {"blend", kBlend[blend]},
        {"alpha test", kAlphaTest[alphaTest]},
        {"render order", std::to_string(order)},
    };
    for (const Source& s : sources)
      for (const Shader& sh : s.doc->shaders)
        if (sh.name == m.shader) {
          out.properties.push_back({"shader technique", sh.technique});
          if (sh.fallback) out.properties.push_back({"shader fallback", *sh.fallback});
        }
  }
};

// ---- bodies (§10) -------------------------------------------------------------------------

std::optional<formats::BodyPart> buildPart(const brf::BodyPart& in, std::string& why) {
  using Kind = formats::BodyPart::Kind;
  formats::BodyPart out;
  if (in.kind == "manifold") out.kind = Kind::Manifold;
  else if (in.kind == "face") out.kind = Kind::Face;
  else if (in.kind == "sphere") out.kind = Kind::Sphere;
  else if (in.kind == "capsule") out.kind = Kind::Capsule;
  else {
    why = "part kind '" + in.kind + "' is not one of manifold, face, sphere, capsule";
    return std::nullopt;
  }
  out.positions = in.positions;
  out.radius = in.radius;
  out.a = in.a;
  out.b = in.b;
  out.flags = in.flags;
  bool ok = std::isfinite(in.radius) && finite(in.a) && finite(in.b);
  for (const auto& p : in.positions) ok = ok && finite(p);
  if (!ok) {
    why = "a value is not a finite number";
    return std::nullopt;
  }
  for (const Polygon& poly : in.polygons) {
    auto& o = out.polygons.emplace_back();
    for (std::int32_t i : poly.positions) {
      if (i < 0 || static_cast<std::size_t>(i) >= in.positions.size()) {
        why = "a polygon names point " + std::to_string(i) + " of " + std::to_string(in.positions.size());
        return std::nullopt;
      }
      o.push_back(static_cast<std::uint32_t>(i));
    }
  }
  return out;
}

}  // namespace

Result<Scene> buildScene(std::span<const Source> sources, const Selection& selection) {
  Scene scene;
  scene.basis = Basis{Axis::Z, true, 1.0f, +1};  // §11: characters face +Y
  int version = -1;
  for (const Source& s : sources)
    version = version < 0 || version == s.doc->version ? s.doc->version : 2;
  scene.format = version == 0 ? "BRF (M&B 1.011)" : version == 1 ? "BRF (Warband)" : "BRF";

  const std::vector<RecordRef> meshes = selection.meshes ? *selection.meshes : allRecords(sources, Section::Mesh);
  const std::vector<RecordRef> bodies = selection.bodies ? *selection.bodies : allRecords(sources, Section::Body);
  const std::vector<RecordRef> animations =
      selection.animations ? *selection.animations : allRecords(sources, Section::Animation);

  // The skeleton: the one chosen, or the first that fits (brf.h fittingSkeletons), or, with
  // nothing rigged and no animation, the first there is.
  std::optional<RecordRef> skel = selection.skeleton;
  if (!skel && !selection.noSkeleton) {
    const auto fits = fittingSkeletons(sources, meshes, animations);
    if (!fits.empty()) {
      skel = fits.front();
    } else {
      bool rigged = false;
      for (const RecordRef& m : meshes) rigged |= maxRiggedBone(sources[m.source].doc->meshes[m.index]) >= 0;
      const auto skeletons = allRecords(sources, Section::Skeleton);
      if (!rigged && animations.empty() && !skeletons.empty()) skel = skeletons.front();
    }
  }
  std::optional<BuiltSkeleton> built;
  std::size_t failed = 0;
  if (skel) {
    auto b = buildSkeleton(sources[skel->source], sources[skel->source].doc->skeletons.at(skel->index));
    if (b) {
      built = std::move(b).value();
      scene.skeleton = built->skeleton;
    } else {
      scene.diagnostics.add(Severity::Error, b.error().file, b.error().field, b.error().offset,
                            b.error().message + "; the model has no skeleton");
      ++failed;
    }
  }

  MaterialTable materials{sources, scene, {}, {}};
  for (const RecordRef& r : meshes) {
    const Source& src = sources[r.source];
    const Mesh& m = src.doc->meshes.at(r.index);
    auto mesh = buildMesh({src, built ? &*built : nullptr, scene.diagnostics}, m, src.doc->version);
    if (!mesh) {
      ++failed;
      continue;
    }
    mesh->material = materials.material(m.material, &src, m.name);
    if (maxRiggedBone(m) < 0)
      if (auto clip = frameClip(src, m, scene.diagnostics)) scene.clips.push_back(std::move(*clip));
    scene.meshes.push_back(std::move(*mesh));
  }
  for (const RecordRef& r : selection.materials ? *selection.materials : allRecords(sources, Section::Material))
    materials.material(recordName(sources[r.source], Section::Material, r.index));

  // Animations name their bones after a skeleton of their bone count (§9): the model's when it
  // fits, else another open one; a clip made for another skeleton is listed but plays nothing.
  // The other skeletons are built once per bone count, however many animations need them.
  std::map<std::size_t, std::optional<BuiltSkeleton>> others;
  const auto otherFor = [&](std::size_t bones) -> const BuiltSkeleton* {
    auto [it, added] = others.try_emplace(bones);
    if (added)
      for (const RecordRef& s : allRecords(sources, Section::Skeleton)) {
        if (sources[s.source].doc->skeletons[s.index].bones.size() != bones) continue;
        auto b = buildSkeleton(sources[s.source], sources[s.source].doc->skeletons[s.index]);
        if (!b) continue;
        it->second = std::move(b).value();
        break;
      }
    return it->second ? &*it->second : nullptr;
  };
  for (const RecordRef& r : animations) {
    const Source& src = sources[r.source];
    const Animation& a = src.doc->animations.at(r.index);
    std::vector<std::string> names(a.tracks.size());
    std::string skeletonName;
    int rootTrack = -1;
    glm::vec3 rootRest(0.0f);
    const BuiltSkeleton* namer = built && built->skeleton.bones.size() == a.tracks.size()
                                     ? &*built
                                     : otherFor(a.tracks.size());
    if (namer) {
      skeletonName = namer->skeleton.name;
      rootTrack = namer->root;
      if (rootTrack >= 0)
        rootRest = namer->skeleton.bones[static_cast<std::size_t>(namer->sceneIndex[static_cast<std::size_t>(rootTrack)])].translation;
      for (std::size_t b = 0; b < names.size(); ++b)
        names[b] = namer->skeleton.bones[static_cast<std::size_t>(namer->sceneIndex[b])].name;
      if (built && namer != &*built)
        scene.diagnostics.info(src.name, what(Section::Animation, a.name), kNoOffset,
                               "has " + std::to_string(a.tracks.size()) + " bone tracks: it plays on " +
                                   quoted(skeletonName) + ", not on the model's skeleton " +
                                   quoted(built->skeleton.name) + " (" +
                                   std::to_string(built->skeleton.bones.size()) + " bones)");
    } else {
      for (std::size_t b = 0; b < names.size(); ++b) names[b] = "bone " + std::to_string(b);
      skeletonName = "(" + std::to_string(a.tracks.size()) + " bones)";
      rootTrack = a.tracks.empty() ? -1 : 0;
      scene.diagnostics.info(src.name, what(Section::Animation, a.name), kNoOffset,
                             "no open skeleton has its " + std::to_string(a.tracks.size()) +
                                 " bones; open one to play it");
    }
    scene.clips.push_back(buildClip(src, a, names, skeletonName, rootTrack, rootRest, scene.diagnostics));
  }

  for (const RecordRef& r : bodies) {
    const Source& src = sources[r.source];
    const brf::Body& b = src.doc->bodies.at(r.index);
    formats::Body out;
    out.name = b.name;
    for (std::size_t p = 0; p < b.parts.size(); ++p) {
      std::string why;
      if (auto part = buildPart(b.parts[p], why))
        out.parts.push_back(std::move(*part));
      else
        scene.diagnostics.warn(src.name, what(Section::Body, b.name) + " part " + std::to_string(p),
                               kNoOffset, why + "; the part is left out");
    }
    scene.bodies.push_back(std::move(out));
  }
  for (const Source& s : sources)
    if (!s.doc->trailing.empty())
      scene.diagnostics.warn(s.name, "end", kNoOffset,
                             std::to_string(s.doc->trailing.size()) +
                                 " bytes follow the \"end\" token; the game does not read them");
  // A damaged file read in part (ReadContext::partial): the model is what came before the damage.
  for (const Source& s : sources)
    if (const auto& d = s.doc->damage) {
      scene.partial = true;
      scene.diagnostics.add(Severity::Error, d->file, d->field, d->offset,
                            d->message + " — the file is damaged here; what comes before it is shown (partial)");
    }
  if (scene.partial && scene.meshes.empty() && scene.clips.empty() && scene.bodies.empty() &&
      scene.skeleton.empty() && scene.materials.empty())
    for (const Source& s : sources)
      if (s.doc->damage) return *s.doc->damage;  // nothing came before the damage

  const bool selectedSomething = !meshes.empty() || !bodies.empty() || !animations.empty() || skel;
  if (failed && selectedSomething && scene.meshes.empty() && scene.clips.empty() &&
      scene.bodies.empty() && scene.skeleton.empty()) {
    for (const auto& d : scene.diagnostics.items)
      if (d.severity == Severity::Error) return FormatError{d.file, d.field, d.offset, d.message};
  }
  return scene;
}

}  // namespace marrow::formats::brf::detail
