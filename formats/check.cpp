// The games' limits (check.h).
#include "formats/check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <new>
#include <set>
#include <type_traits>

#include "formats/brf/from_scene.h"
#include "formats/io/codepage.h"
#include "formats/model/lod.h"
#include "formats/model/sample.h"

namespace marrow::formats {

namespace {

// §8 of specs/brf.md: the human skeleton's bones, in index order.
constexpr std::string_view kHumanBones[] = {
    "abdomen", "thigh.L",    "calf.L",    "foot.L", "thigh.R", "calf.R",     "foot.R",
    "spine",   "thorax",     "head",      "shoulder.L", "upperarm.L", "forearm.L", "hand.L",
    "item.L",  "shoulder.R", "upperarm.R", "forearm.R", "hand.R", "item.R"};

constexpr CheckTarget kTargets[] = {
    // BRF: 4 influences a position (OpenBRF's rule, §7.2), 16-bit index buffers, bone names the
    // reader recognises by a length of 1..98 (§8), names up to 255 bytes (OpenBRF refuses
    // longer), and names the module's text files can hold (they split at spaces).
    {"warband", "Mount&Blade: Warband (BRF version 1)", "brf", 1, 4, 65535, 0, 0, 255, 98, false, false, 30.0f},
    {"mb1011", "Mount&Blade 1.011 (BRF version 0)", "brf", 0, 4, 65535, 0, 0, 255, 98, false, false, 30.0f},
    // Dragon Nest MSH: 4 int16 bone indices a vertex into a palette the exporter keeps to 50
    // bones (the shader's constants), uint16 indices, names in char[256] fields; ANI keys 60
    // frames a second.
    {"dragonnest", "Dragon Nest (SKN, MSH, ANI)", "skn", -1, 4, 65535, 0, 50, 255, 255, true, true, 60.0f, false},
    // cal3d: no fixed limits on influences or sizes; its bones have no scale.
    {"cal3d", "cal3d (CFG and its files)", "cfg", -1, 0, 0, 0, 0, 0, 0, true, false},
};

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool hasSpace(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// The first `max` bytes of a UTF-8 name, not cutting a character.
std::string cutName(std::string s, std::size_t max) {
  if (max == 0 || s.size() <= max) return s;
  std::size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  s.resize(n);
  return s;
}

bool degenerate(const Mesh& m, std::size_t t) {
  const std::uint32_t a = m.indices[t], b = m.indices[t + 1], c = m.indices[t + 2];
  if (a == b || b == c || a == c) return true;
  const glm::vec3 n = glm::cross(m.positions[b] - m.positions[a], m.positions[c] - m.positions[a]);
  return !(glm::length(n) > 0.0f);
}

std::size_t bonesUsed(const Mesh& m) {
  std::set<std::uint32_t> bones;
  for (const Influence& i : m.influences)
    if (i.weight > 0.0f) bones.insert(i.bone);
  if (m.parentBone >= 0) bones.insert(static_cast<std::uint32_t>(m.parentBone));
  return bones.size();
}

// Names of one kind: too long, holding spaces (where the target has none), outside ASCII.
void checkNames(std::vector<Problem>& out, const CheckTarget& target, const char* kind,
                const std::vector<std::string>& names, std::size_t maxBytes) {
  std::size_t tooLong = 0, spaced = 0, wide = 0;
  std::string firstLong, firstSpaced, firstWide;
  for (const std::string& n : names) {
    if (maxBytes && n.size() > maxBytes && !tooLong++) firstLong = n;
    if (!target.spacedNames && hasSpace(n) && !spaced++) firstSpaced = n;
    if (!isAscii(n) && !wide++) firstWide = n;
  }
  const std::string k(kind);
  if (tooLong)
    out.push_back({Severity::Error, "name.length", k + " " + quoted(cutName(firstLong, 40) + "…"),
                   plural(tooLong, (k + " name is").c_str(), (k + " names are").c_str()) + " longer than " +
                       std::to_string(maxBytes) + " bytes",
                   "shortened to " + std::to_string(maxBytes) + " bytes", true});
  if (spaced)
    out.push_back({Severity::Error, "name.spaces", k + " " + quoted(firstSpaced),
                   plural(spaced, (k + " name holds").c_str(), (k + " names hold").c_str()) +
                       " spaces, which the module's text files read as the end of the name",
                   "spaces made '_'", true});
  if (wide)
    out.push_back({Severity::Warning, "name.characters", k + " " + quoted(firstWide),
                   plural(wide, (k + " name has").c_str(), (k + " names have").c_str()) +
                       " characters outside ASCII, stored as UTF-8 bytes; the game reads names in its own code page",
                   "rename them in ASCII"});
}

// A mesh cut into parts of at most `maxVertices` vertices and `maxBones` bones (0: no limit),
// triangle by triangle in order; every per-vertex array and morph target follows (lod.h).
std::vector<Mesh> splitMesh(const Mesh& m, std::size_t maxVertices, std::size_t maxBones) {
  struct Part {
    std::set<std::uint32_t> vertices, bones;
    std::vector<std::uint32_t> indices;  // into m's vertices
  };
  const auto bonesOf = [&](std::uint32_t v) {
    std::vector<std::uint32_t> b;
    if (m.parentBone >= 0) b.push_back(static_cast<std::uint32_t>(m.parentBone));
    else if (m.skinned())
      for (const Influence& i : m.influencesOf(v))
        if (i.weight > 0.0f) b.push_back(i.bone);
    return b;
  };
  std::vector<Part> parts(1);
  for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const auto fits = [&](const Part& part) {
      std::set<std::uint32_t> newVertices, newBones;
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t v = m.indices[t + static_cast<std::size_t>(k)];
        if (part.vertices.count(v)) continue;
        newVertices.insert(v);
        for (std::uint32_t b : bonesOf(v))
          if (!part.bones.count(b)) newBones.insert(b);
      }
      return (!maxVertices || part.vertices.size() + newVertices.size() <= maxVertices) &&
             (!maxBones || part.bones.size() + newBones.size() <= maxBones);
    };
    if (!parts.back().indices.empty() && !fits(parts.back())) parts.emplace_back();
    Part& p = parts.back();
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = m.indices[t + static_cast<std::size_t>(k)];
      if (p.vertices.insert(v).second)
        for (std::uint32_t b : bonesOf(v)) p.bones.insert(b);
      p.indices.push_back(v);
    }
  }
  std::vector<Mesh> out;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    out.push_back(meshOfTriangles(m, parts[k].indices));
    if (k > 0) out.back().name = m.name + "_" + std::to_string(k + 1);
  }
  return out;
}

// Unique names after fixing: a repeat gets "_2", "_3" … within the byte limit.
class NameFixer {
 public:
  NameFixer(const CheckTarget& t, std::size_t max) : target_(t), max_(max) {}
  std::string operator()(const std::string& name) {
    std::string n = name;
    if (!target_.spacedNames)
      for (char& c : n)
        if (std::isspace(static_cast<unsigned char>(c))) c = '_';
    n = cutName(n, max_);
    std::string out = n;
    for (int k = 2; !used_.insert(out).second; ++k) {
      const std::string suffix = "_" + std::to_string(k);
      out = cutName(n, max_ ? max_ - suffix.size() : 0) + suffix;
    }
    return out;
  }

 private:
  const CheckTarget& target_;
  std::size_t max_;
  std::set<std::string> used_;
};

// Clips keyed off the target's frames (a 24 fps glTF going to a 30 fps BRF) are resampled on them
// by the writer: what that costs, measured at the clip's own keys and half way between them, the
// resampled channel played as the game plays it (lerp / slerp between frames).
void checkFrameRates(std::vector<Problem>& out, const Scene& s, const CheckTarget& target) {
  const float rate = target.frameRate;
  glm::vec3 lo, hi;
  const float size = restBounds(s, lo, hi) && glm::length(hi - lo) > 0.0f ? glm::length(hi - lo) : 1.0f;
  for (const Clip& c : s.clips) {
    if (c.tracks.empty() || !(c.duration >= 0.0f) || !std::isfinite(c.duration)) continue;
    const std::int32_t last = frameAt(c.duration, rate) + 1;
    std::size_t off = 0, keys = 0;
    float turn = 0.0f, moved = 0.0f;
    const std::vector<std::int32_t> frames = sampleFrames(last);
    const auto measure = [&](const auto& ch, auto distance, float& worst) {
      if (ch.empty()) return;
      keys += ch.size();
      if (keysOnFrames(ch.times, rate, last)) return;
      for (const float t : ch.times) off += std::fabs(t * rate - std::round(t * rate)) > 1e-3f;
      std::remove_cvref_t<decltype(ch)> resampled;
      resampled.interpolation = ch.interpolation;
      for (const std::int32_t f : frames) resampled.add(static_cast<float>(f) / rate, sampleAt(ch, static_cast<float>(f) / rate));
      for (std::size_t k = 0; k < ch.size(); ++k)
        for (const float t : {ch.times[k], k + 1 < ch.size() ? 0.5f * (ch.times[k] + ch.times[k + 1]) : ch.times[k]})
          worst = std::max(worst, distance(sampleAt(ch, t), sampleAt(resampled, t)));
    };
    for (const Track& t : c.tracks) {
      measure(t.rotation, [](const glm::quat& a, const glm::quat& b) {
        return 2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(glm::normalize(a), glm::normalize(b)))));
      }, turn);
      measure(t.translation, [&](const glm::vec3& a, const glm::vec3& b) { return glm::length(a - b) / size; }, moved);
    }
    if (!off) continue;
    char figures[160];
    std::snprintf(figures, sizeof figures, "bones turn by up to %.3g° and move by up to %.2g of the model's size",
                  static_cast<double>(glm::degrees(turn)), static_cast<double>(moved));
    out.push_back({Severity::Warning, "clip.frame_rate", "clip " + quoted(c.name),
                   plural(off, "key lies", "keys lie") + " (of " + std::to_string(keys) + ") off the " +
                       std::to_string(static_cast<int>(rate)) + " frames a second the game keys on (the clip is at " +
                       std::to_string(static_cast<int>(std::lround(c.frameRate))) + "); resampled on them, " + figures,
                   "sampled at " + std::to_string(static_cast<int>(rate)) +
                       " frames a second (the writer does it); author the clip at that rate to keep its keys"});
  }
}

}  // namespace

std::span<const CheckTarget> checkTargets() { return kTargets; }

const CheckTarget* findCheckTarget(std::string_view id) {
  for (const CheckTarget& t : kTargets)
    if (t.id == id) return &t;
  return nullptr;
}

const CheckTarget* checkTargetFor(std::string_view ext, std::optional<int> version) {
  if (ext == "brf") return findCheckTarget(version && *version == 0 ? "mb1011" : "warband");
  for (std::string_view e : {"cfg", "csf", "cmf", "caf", "crf", "xsf", "xmf", "xaf", "xrf"})
    if (ext == e) return findCheckTarget("cal3d");
  for (std::string_view e : {"skn", "msh", "ani"})
    if (ext == e) return findCheckTarget("dragonnest");
  return nullptr;
}

std::string checkTargetList() {
  std::string out;
  for (std::size_t i = 0; i < std::size(kTargets); ++i)
    out += (i == 0 ? "" : i + 1 == std::size(kTargets) ? " or " : ", ") + std::string(kTargets[i].id);
  return out;
}

bool hasErrors(std::span<const Problem> problems) {
  return std::any_of(problems.begin(), problems.end(), [](const Problem& p) { return p.severity == Severity::Error; });
}

std::vector<Problem> checkModel(const Scene& s, const CheckTarget& target) {
  std::vector<Problem> out;
  // Per mesh: influences, weights, sizes, bones, degenerate triangles.
  for (const Mesh& m : s.meshes) {
    const std::string where = "mesh " + quoted(m.name);
    std::size_t over = 0, unbalanced = 0, most = 0;
    float worst = 0.0f;
    if (m.skinned())
      for (std::size_t v = 0; v < m.vertexCount(); ++v) {
        std::size_t n = 0;
        float sum = 0.0f;
        for (const Influence& i : m.influencesOf(v))
          if (i.weight > 0.0f) ++n, sum += i.weight;
        most = std::max(most, n);
        over += target.maxInfluences && n > target.maxInfluences;
        if (n > 0 && std::abs(sum - 1.0f) > 1e-3f) {
          ++unbalanced;
          worst = std::max(worst, std::abs(sum - 1.0f));
        }
      }
    if (over)
      out.push_back({Severity::Error, "influences.count", where,
                     plural(over, "vertex has", "vertices have") + " more than " + std::to_string(target.maxInfluences) +
                         " influences (up to " + std::to_string(most) + ")",
                     "the " + std::to_string(target.maxInfluences) + " strongest kept, renormalised", true});
    if (unbalanced)
      out.push_back({Severity::Warning, "influences.weights", where,
                     plural(unbalanced, "vertex has weights that do not", "vertices have weights that do not") +
                         " sum to 1 (off by up to " + std::to_string(worst) + ")",
                     "renormalised", true});
    if (target.maxVertices && m.vertexCount() > target.maxVertices)
      out.push_back({Severity::Error, "mesh.vertices", where,
                     std::to_string(m.vertexCount()) + " vertices; 16-bit indices reach " +
                         std::to_string(target.maxVertices),
                     "split into meshes of at most " + std::to_string(target.maxVertices) + " vertices", true});
    if (target.maxTriangles && m.triangleCount() > target.maxTriangles)
      out.push_back({Severity::Error, "mesh.triangles", where,
                     std::to_string(m.triangleCount()) + " triangles, over " + std::to_string(target.maxTriangles),
                     "split", true});
    if (target.maxMeshBones)
      if (const std::size_t bones = bonesUsed(m); bones > target.maxMeshBones)
        out.push_back({Severity::Error, "mesh.bones", where,
                       std::to_string(bones) + " bones move it; a palette holds " + std::to_string(target.maxMeshBones),
                       "split into meshes of at most " + std::to_string(target.maxMeshBones) + " bones", true});
    std::size_t flat = 0;
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) flat += degenerate(m, t);
    if (flat)
      out.push_back({Severity::Warning, "mesh.degenerate", where,
                     plural(flat, "triangle has", "triangles have") + " no area (a repeated corner or three in a line)",
                     "removed", true});
  }
  // Names.
  std::vector<std::string> meshes, materials, clips, bones;
  for (const Mesh& m : s.meshes) meshes.push_back(m.name);
  for (const Material& m : s.materials) materials.push_back(m.name);
  // A clip of morph weights alone is no record of its own: the games' vertex animation is the
  // meshes' frames.
  for (const Clip& c : s.clips)
    if (!c.tracks.empty()) clips.push_back(c.name);
  for (const Bone& b : s.skeleton.bones) bones.push_back(b.name);
  checkNames(out, target, "mesh", meshes, target.maxNameBytes);
  checkNames(out, target, "material", materials, target.maxNameBytes);
  checkNames(out, target, "clip", clips, target.maxNameBytes);
  checkNames(out, target, "bone", bones, target.maxBoneNameBytes);
  // Textures the materials name that were not found.
  std::set<int> missing;
  for (const Material& m : s.materials)
    for (const MaterialMap& map : m.maps)
      if (map.texture >= 0 && static_cast<std::size_t>(map.texture) < s.textures.size() &&
          s.textures[static_cast<std::size_t>(map.texture)].data.empty())
        missing.insert(map.texture);
  for (int t : missing)
    out.push_back({Severity::Warning, "texture.missing", "texture " + quoted(s.textures[static_cast<std::size_t>(t)].name),
                   "not found beside the model: it is named, not written", "put the image beside the output"});
  if (target.frameRate > 0.0f) checkFrameRates(out, s, target);
  if (!target.morphs) {
    for (const Mesh& m : s.meshes)
      if (!m.morphs.empty())
        out.push_back({Severity::Warning, "mesh.morphs", "mesh " + quoted(m.name),
                       plural(m.morphs.size(), "morph target", "morph targets") + ", which the game's meshes cannot hold",
                       "written in the base shape"});
    for (const Clip& c : s.clips)
      if (!c.morphTracks.empty())
        out.push_back({Severity::Warning, "clip.morphs", "clip " + quoted(c.name),
                       "animates " + plural(c.morphTracks.size(), "morph weight", "morph weights") +
                           ", which the game's animations cannot hold",
                       c.tracks.empty() ? "not written" : "its bone tracks are written, its morph weights not"});
  }
  const bool brf = target.extension == "brf";
  // Bone scale, where bones have none (BRF says it through its writer, below).
  if (!target.boneScale && !brf) {
    bool scaled = false;
    for (const Bone& b : s.skeleton.bones) scaled = scaled || glm::any(glm::greaterThan(glm::abs(b.scale - 1.0f), glm::vec3(1e-5f)));
    for (const Clip& c : s.clips)
      for (const Track& t : c.tracks)
        for (const glm::vec3& v : t.scale.values) scaled = scaled || glm::any(glm::greaterThan(glm::abs(v - 1.0f), glm::vec3(1e-5f)));
    if (scaled)
      out.push_back({Severity::Warning, "bone.scale", "skeleton", "bones are scaled, and this format's bones have no scale",
                     "the scale is folded into the translations (exact for uniform scale that does not animate)"});
  }
  if (brf) {
    // The game's animations play on its own skeletons: a model meant for the human skeleton
    // that differs from it plays them wrong.
    if (!s.skeleton.empty()) {
      std::size_t shared = 0;
      for (std::string_view n : kHumanBones) shared += s.skeleton.find(n) >= 0;
      bool same = s.skeleton.bones.size() == std::size(kHumanBones);
      for (std::size_t b = 0; same && b < std::size(kHumanBones); ++b) same = s.skeleton.bones[b].name == kHumanBones[b];
      if (!same && shared >= std::size(kHumanBones) / 2)
        out.push_back({Severity::Warning, "skeleton.game", "skeleton",
                       "has " + std::to_string(shared) + " of skel_human's 20 bones, but is not skel_human (" +
                           std::to_string(s.skeleton.bones.size()) +
                           " bones, in another order or with others): the game's human animations play wrong on it",
                       "rig the meshes onto skel_human's 20 bones in their order"});
    }
    // What the BRF writer would leave out or change, as it says it.
    Diagnostics said;
    try {
      auto doc = brf::fromScene(s, target.version < 0 ? 1 : target.version, "check", said);
      if (!doc) out.push_back({Severity::Error, "brf.write", "", doc.error().describe(), ""});
    } catch (const std::bad_alloc&) {
      out.push_back({Severity::Error, "brf.write", "", "the model is too large to write as BRF in the memory there is", ""});
    }
    for (const Diagnostic& d : said.items) {
      if (d.severity != Severity::Warning || d.field == "rigging" || d.field == "bone names") continue;  // checked above
      std::string code = "brf." + d.field;
      std::replace(code.begin(), code.end(), ' ', '-');
      out.push_back({Severity::Warning, code, "", d.message, ""});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Problem& a, const Problem& b) {
    return a.severity == Severity::Error && b.severity != Severity::Error;
  });
  return out;
}

Scene fixModel(const Scene& scene, const CheckTarget& target, std::vector<std::string>& changes) {
  Scene s = scene;
  std::size_t trimmed = 0, renormalised = 0, flat = 0;
  for (Mesh& m : s.meshes) {
    // Influences: the strongest kept, weights summing to 1.
    if (m.skinned()) {
      Mesh rebuilt = m;
      rebuilt.influenceStart.clear();
      rebuilt.influences.clear();
      std::vector<Influence> inf;
      for (std::size_t v = 0; v < m.vertexCount(); ++v) {
        inf.clear();
        for (const Influence& i : m.influencesOf(v))
          if (i.weight > 0.0f) inf.push_back(i);
        if (target.maxInfluences && inf.size() > target.maxInfluences) {
          std::stable_sort(inf.begin(), inf.end(), [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
          inf.resize(target.maxInfluences);
          ++trimmed;
        }
        float sum = 0.0f;
        for (const Influence& i : inf) sum += i.weight;
        if (sum > 0.0f && std::abs(sum - 1.0f) > 1e-6f) {
          for (Influence& i : inf) i.weight /= sum;
          ++renormalised;
        }
        rebuilt.addInfluences(inf);
      }
      m.influenceStart = std::move(rebuilt.influenceStart);
      m.influences = std::move(rebuilt.influences);
    }
    // Degenerate triangles.
    std::vector<std::uint32_t> kept;
    kept.reserve(m.indices.size());
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
      if (degenerate(m, t)) {
        ++flat;
        continue;
      }
      kept.insert(kept.end(), m.indices.begin() + static_cast<std::ptrdiff_t>(t), m.indices.begin() + static_cast<std::ptrdiff_t>(t + 3));
    }
    if (kept.size() != m.indices.size()) {
      m.indices = std::move(kept);
      m.lod = {};  // its collapse order counted the removed triangles
    }
  }
  if (trimmed) changes.push_back(plural(trimmed, "vertex", "vertices") + " kept the " + std::to_string(target.maxInfluences) + " strongest influences");
  if (renormalised) changes.push_back(plural(renormalised, "vertex's weights were", "vertices' weights were") + " renormalised to sum to 1");
  if (flat) changes.push_back(plural(flat, "triangle without area was", "triangles without area were") + " removed");

  // Meshes over the vertex or bone limits, split; their morph tracks follow each part.
  std::vector<Mesh> meshes;
  std::map<std::string, std::vector<std::string>> parts;  // mesh name → its parts' names
  for (Mesh& m : s.meshes) {
    const bool tooBig = target.maxVertices && m.vertexCount() > target.maxVertices;
    const bool tooManyBones = target.maxMeshBones && bonesUsed(m) > target.maxMeshBones;
    if (!tooBig && !tooManyBones) {
      meshes.push_back(std::move(m));
      continue;
    }
    auto split = splitMesh(m, target.maxVertices, target.maxMeshBones);
    changes.push_back("mesh " + quoted(m.name) + " was split into " + std::to_string(split.size()) + " meshes of at most " +
                      (tooBig ? std::to_string(target.maxVertices) + " vertices" : std::string()) +
                      (tooBig && tooManyBones ? " and " : "") +
                      (tooManyBones ? std::to_string(target.maxMeshBones) + " bones" : std::string()));
    for (Mesh& part : split) {
      parts[m.name].push_back(part.name);
      meshes.push_back(std::move(part));
    }
  }
  s.meshes = std::move(meshes);
  if (!parts.empty())
    for (Clip& c : s.clips) {
      std::vector<MorphTrack> tracks;
      for (const MorphTrack& t : c.morphTracks) {
        auto it = parts.find(t.mesh);
        if (it == parts.end()) {
          tracks.push_back(t);
          continue;
        }
        for (const std::string& name : it->second) {
          tracks.push_back(t);
          tracks.back().mesh = name;
        }
      }
      c.morphTracks = std::move(tracks);
    }

  // Names: within the limits, without spaces where the target reads none, unique per kind.
  std::size_t renamed = 0;
  const auto fixAll = [&](auto& items, auto nameOf, std::size_t max) {
    NameFixer fix(target, max);
    // What a name found (Skeleton::find, a morph track's mesh) now reads: the first of that name.
    std::map<std::string, std::string> changed;
    std::set<std::string> seen;
    for (auto& item : items) {
      std::string& name = nameOf(item);
      const std::string fixed = fix(name);
      const bool first = seen.insert(name).second;
      if (fixed != name) {
        if (first) changed[name] = fixed;
        name = fixed;
        ++renamed;
      }
    }
    return changed;
  };
  const auto meshRenames = fixAll(s.meshes, [](Mesh& m) -> std::string& { return m.name; }, target.maxNameBytes);
  fixAll(s.materials, [](Material& m) -> std::string& { return m.name; }, target.maxNameBytes);
  fixAll(s.clips, [](Clip& c) -> std::string& { return c.name; }, target.maxNameBytes);
  const auto boneRenames = fixAll(s.skeleton.bones, [](Bone& b) -> std::string& { return b.name; }, target.maxBoneNameBytes);
  for (Clip& c : s.clips) {
    for (Track& t : c.tracks)
      if (auto it = boneRenames.find(t.bone); it != boneRenames.end()) t.bone = it->second;
    for (MorphTrack& t : c.morphTracks)
      if (auto it = meshRenames.find(t.mesh); it != meshRenames.end()) t.mesh = it->second;
  }
  for (Attachment& a : s.attachments)
    if (auto it = boneRenames.find(a.parent); it != boneRenames.end()) a.parent = it->second;
  if (renamed) changes.push_back(plural(renamed, "name was", "names were") + " shortened or had spaces made '_'");
  return s;
}

}  // namespace marrow::formats
