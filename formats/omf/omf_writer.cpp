// OMF 1 writer (../shared/specs/omf.md). Output is deterministic, and a file it wrote reads and
// writes back to the same bytes: what the reader would change (vertex order, names, frames,
// the armature-space rest pose) the writer settles before it writes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "formats/io/byte_writer.h"
#include "formats/io/limits.h"
#include "formats/model/convert.h"
#include "formats/model/validate.h"
#include "formats/omf/omf.h"
#include "formats/omf/omf_layout.h"

namespace marrow::formats {
namespace {

using omf::RigidPose;
using std::to_string;

constexpr double kFrameTolerance = 1e-3;        // in frames: a key this close to one is on it
constexpr double kPoseTolerance = 1e-4;         // bind vs rest, scale vs 1
constexpr std::uint64_t kMaxFile = 0x7FFFFFFF;  // several offsets are i32

// At most n bytes, not splitting a UTF-8 sequence; a NUL would end the name (spec: name16).
std::string cutName(std::string_view s, std::size_t n) {
  s = s.substr(0, s.find('\0'));
  if (s.size() <= n) return std::string(s);
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return std::string(s.substr(0, n));
}

// Names that fit name16 and stay distinct within one set: a clash gets "~2", "~3", ...
class NameSet {
 public:
  std::string add(const std::string& name) {
    std::string n = cutName(name, omf::kNameSize);
    if (n != name) note(cut, cutExample, name, n);
    if (used_.count(n)) {
      const std::string before = n;
      for (int k = 2; used_.count(n); ++k) {
        std::string suffix = "~";
        suffix += to_string(k);
        n = cutName(name, omf::kNameSize - suffix.size()) + suffix;
      }
      note(renamed, renamedExample, before, n);
    }
    used_.insert(n);
    return n;
  }
  void report(Diagnostics& d, const std::string& what) const {
    if (cut)
      d.warn("", what, kNoOffset,
             to_string(cut) + " name(s) longer than 16 bytes were cut (" + cutExample + ")");
    if (renamed)
      d.warn("", what, kNoOffset,
             to_string(renamed) + " name(s) were renamed to stay unique (" + renamedExample + ")");
  }

 private:
  static void note(std::size_t& count, std::string& example, const std::string& from,
                   const std::string& to) {
    if (count++ == 0) example = "'" + from + "' -> '" + to + "'";
  }
  std::unordered_set<std::string> used_;
  std::size_t cut = 0, renamed = 0;
  std::string cutExample, renamedExample;
};

[[noreturn]] void fail(std::string field, std::string message) {
  throw FormatException(FormatError{"", std::move(field), kNoOffset, std::move(message)});
}

bool near(const glm::mat4& a, const glm::mat4& b) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (std::abs(a[c][r] - b[c][r]) > kPoseTolerance * std::max(1.0f, std::abs(a[c][r])))
        return false;
  return true;
}

// The rigid part of a matrix: its translation and the rotation of its orthonormalised axes.
RigidPose rigidPart(const glm::mat4& m) {
  RigidPose p;
  p.position = glm::vec3(m[3]);
  glm::dvec3 x(m[0]), y(m[1]);
  if (glm::length(x) < 1e-12) return p;
  x = glm::normalize(x);
  y -= x * glm::dot(x, y);
  if (glm::length(y) < 1e-12) return p;
  y = glm::normalize(y);
  p.rotation = omf::normalized(glm::quat_cast(glm::dmat3(x, y, glm::cross(x, y))));
  return p;
}

// Armature-space rest poses a re-read gives back bit for bit. Reading turns them into parent-
// relative floats and writing back composes them again; both round, so a plain float can drift
// by an ulp each trip. Positions are therefore snapped to multiples of a power of two 2^-18 of
// the skeleton's extent (rotations to 2^-20), far coarser than that rounding noise: a re-read
// lands on the same grid point. (Cost: under 4 µm on a 2 m skeleton.)
using Poses = std::vector<RigidPose>;

float snap(float v, double step) {
  const double r = std::nearbyint(v / step) * step;
  return r == 0.0 ? 0.0f : static_cast<float>(r);  // -0 and +0 would differ in the file
}

Poses composeSnapped(const std::vector<Bone>& bones, const Poses& local, int coarser) {
  const auto parentOf = [&](const Poses& p, std::size_t i) {
    return bones[i].parent >= 0 ? &p[bones[i].parent] : nullptr;
  };
  Poses exact, out;
  double extent = 0.0;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    exact.push_back(omf::localToArmature(parentOf(exact, i), local[i]));
    for (int k = 0; k < 3; ++k) extent = std::max(extent, std::abs(double(exact[i].position[k])));
  }
  int e = 0;
  std::frexp(std::max(extent, 1e-30), &e);  // extent < 2^e
  const double step = std::ldexp(1.0, e - 18 + coarser), turn = std::ldexp(1.0, -20 + coarser);
  for (std::size_t i = 0; i < bones.size(); ++i) {
    RigidPose x = omf::localToArmature(parentOf(out, i), local[i]);
    for (int k = 0; k < 3; ++k) x.position[k] = snap(x.position[k], step);
    for (int k = 0; k < 4; ++k) x.rotation[k] = snap(x.rotation[k], turn);
    out.push_back(x);
  }
  return out;
}

// Quaternions OMF readers would normalise (spec: Conventions) are normalised here; the others
// keep their bits, so that a re-read writes back the same.
glm::quat unitRotation(const glm::quat& q) {
  const double len = glm::length(glm::dquat(q));
  if (std::abs(len - 1.0) <= omf::kUnitTolerance) return q;
  return len > 0.0 ? omf::normalized(glm::dquat(q)) : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

// What the reader makes of an armature: the model's parent-relative rest pose.
Poses localsOf(const std::vector<Bone>& bones, const Poses& armature) {
  Poses local;
  for (std::size_t i = 0; i < bones.size(); ++i)
    local.push_back(omf::armatureToLocal(
        bones[i].parent >= 0 ? &armature[bones[i].parent] : nullptr, armature[i]));
  return local;
}

bool sameBits(const Poses& a, const Poses& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(RigidPose)) == 0;
}

// The snapped armature, checked by simulating a read and a write; a grid point too close to a
// rounding boundary is avoided with a coarser grid.
Poses stableArmature(const std::vector<Bone>& bones, const Poses& local) {
  Poses x;
  for (int coarser = 0; coarser < 4; ++coarser) {
    x = composeSnapped(bones, local, coarser);
    if (sameBits(composeSnapped(bones, localsOf(bones, x), 0), x)) break;
  }
  return x;
}

glm::vec3 mixValue(const glm::vec3& a, const glm::vec3& b, double u) {
  return glm::vec3(glm::dvec3(a) + (glm::dvec3(b) - glm::dvec3(a)) * u);
}
// Shortest-path slerp (spec: Keyframe), in double.
glm::quat mixValue(const glm::quat& a, const glm::quat& b, double u) {
  const glm::dquat p = omf::unitDouble(a);
  glm::dquat q = omf::unitDouble(b);
  double c = glm::dot(p, q);
  if (c < 0.0) {
    q = -q;
    c = -c;
  }
  glm::dquat r;
  if (c > 0.9995) {
    r = p * (1.0 - u) + q * u;
  } else {
    const double theta = std::acos(c);
    r = (p * std::sin((1.0 - u) * theta) + q * std::sin(u * theta)) * (1.0 / std::sin(theta));
  }
  return omf::normalized(r);
}

// The model's sampling (hold outside the keys; lerp / slerp or step between), exact at a key.
template <class T>
T sampleAt(const Channel<T>& ch, double t, const T& rest) {
  if (ch.empty()) return rest;  // a channel without keys keeps the rest pose
  const auto& ts = ch.times;
  if (t <= ts.front()) return ch.values.front();
  if (t >= ts.back()) return ch.values.back();
  const auto k = static_cast<std::size_t>(
      std::upper_bound(ts.begin(), ts.end(), t, [](double a, float b) { return a < b; }) -
      ts.begin() - 1);
  if (static_cast<double>(ts[k]) == t || ch.interpolation == Interpolation::Step)
    return ch.values[k];
  return mixValue(ch.values[k], ch.values[k + 1], (t - ts[k]) / (double(ts[k + 1]) - ts[k]));
}

struct Key {
  std::int32_t frame = 0;
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};
struct TrackOut {
  std::int32_t bone = 0;
  std::vector<Key> keys;
};
struct ActionOut {
  std::string name;
  float duration = 0.0f;
  std::vector<TrackOut> tracks;
};
struct PartOut {
  std::string name, material;
  std::int32_t parentBone = -1;
  std::uint32_t base = 0;               // first vertex in the shared buffer
  std::vector<std::uint32_t> vertices;  // mesh vertices in the order written
  std::vector<std::uint32_t> indices;   // into `vertices`
};

class Writer {
 public:
  Writer(const Scene& scene, Diagnostics& d) : s_(scene), d_(d) {}

  std::vector<std::byte> write() {
    // Skipped when the basis already matches: convertBasis re-derives every rotation through a
    // matrix even then, which moves last bits and would break byte-exact re-writes.
    if (!(s_.basis == Basis{})) convertBasis(s_, Basis{});
    // OMF has one bind pose per armature and no bone scale.
    removeBoneScale(s_, d_);
    unifyBindPoses(s_, d_);
    planParts();
    planChannels();
    planArmature();
    planActions();
    return emit();
  }

 private:
  void warn(std::string field, std::string message) {
    d_.warn("", std::move(field), kNoOffset, std::move(message));
  }

  void planParts() {
    NameSet materials;
    std::unordered_map<int, std::string> materialName;
    std::size_t cutNames = 0, unused = 0, morphs = 0, ownBind = 0;
    const auto skeletonBind = s_.skeleton.inverseBindMatrices();
    for (const Mesh& m : s_.meshes) {
      PartOut p;
      p.name = cutName(m.name, omf::kNameSize);
      cutNames += p.name != m.name;
      p.parentBone = m.parentBone;
      // First-use order, as the reader compacts parts: a re-read keeps the order.
      std::vector<std::uint32_t> remap(m.vertexCount(), ~0u);
      p.indices.reserve(m.indices.size());
      for (std::uint32_t i : m.indices) {
        if (remap[i] == ~0u) {
          remap[i] = static_cast<std::uint32_t>(p.vertices.size());
          p.vertices.push_back(i);
        }
        p.indices.push_back(remap[i]);
      }
      unused += m.vertexCount() - p.vertices.size();
      morphs += !m.morphs.empty();
      for (std::size_t b = 0; b < m.inverseBind.size(); ++b)
        if (!near(m.inverseBind[b], skeletonBind[b])) {
          ++ownBind;
          break;
        }
      if (m.material >= 0) {
        auto it = materialName.find(m.material);
        if (it == materialName.end()) {
          const std::string& n = s_.materials[m.material].name;
          it = materialName
                   .emplace(m.material,
                            materials.add(n.empty() ? "material" + to_string(m.material) : n))
                   .first;
        }
        p.material = it->second;
      }
      p.base = static_cast<std::uint32_t>(vertices_);
      vertices_ += p.vertices.size();
      triangles_ += p.indices.size() / 3;
      parts_.push_back(std::move(p));
    }
    materials.report(d_, "material names");
    if (cutNames) warn("mesh names", to_string(cutNames) + " mesh name(s) were cut to 16 bytes");
    if (unused) warn("vertices", to_string(unused) + " vertices no triangle uses were not written");
    if (morphs)
      warn("morph targets", "OMF has no morph targets; those of " + to_string(morphs) +
                                " mesh(es) were not written");
    if (ownBind)
      warn("inverse bind matrices",
           to_string(ownBind) +
               " mesh(es) have their own bind pose, which OMF cannot store; "
               "they are skinned with the armature's");
    bool extra = !s_.textures.empty() || materialName.size() < s_.materials.size();
    for (const auto& m : s_.materials)
      extra = extra || !m.maps.empty() || !m.properties.empty() || m.diffuse != glm::vec4(1.0f);
    if (extra)
      warn("materials",
           "OMF stores a material name per mesh only; colours, textures, properties "
           "and unused materials were not written");
  }

  // The union of what the meshes have (Position always); tangents travel with a binormal so
  // that their handedness survives (spec: Vertex header). The stride is not padded: every
  // channel is a multiple of 4 bytes already.
  void planChannels() {
    std::size_t withoutNormals = 0, withoutTangents = 0, withoutColors = 0, withoutUvs = 0;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      const Mesh& m = s_.meshes[i];
      if (parts_[i].vertices.empty()) continue;
      normals_ = normals_ || !m.normals.empty();
      tangents_ = tangents_ || !m.tangents.empty();
      colors_ = colors_ || !m.colors.empty();
      uvSets_ = std::max(uvSets_, m.uvSets.size());
      if (m.parentBone >= 0 || !m.skinned() || s_.skeleton.empty()) continue;
      for (std::uint32_t v : parts_[i].vertices) {
        std::uint32_t n = 0;
        for (const Influence& inf : m.influencesOf(v)) n += inf.weight > 0.0f;
        weights_ = std::max(weights_, std::min(n, omf::kMaxWeightChannels));
      }
    }
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      const Mesh& m = s_.meshes[i];
      if (parts_[i].vertices.empty()) continue;
      withoutNormals += normals_ && m.normals.empty();
      withoutTangents += tangents_ && m.tangents.empty();
      withoutColors += colors_ && m.colors.empty();
      withoutUvs += m.uvSets.size() < uvSets_;
    }
    const auto missing = [&](std::size_t n, const char* what, const char* fill) {
      if (n)
        warn(what,
             to_string(n) + " mesh(es) have none while others do; theirs are written as " + fill);
    };
    missing(withoutNormals, "normals", "zero vectors");
    missing(withoutTangents, "tangents", "zero vectors");
    missing(withoutColors, "colours", "opaque white, which leaves shading unchanged");
    missing(withoutUvs, "texture coordinates", "(0, 0)");

    codes_.push_back(omf::kPosition);
    if (normals_) codes_.push_back(omf::kNormal);
    if (tangents_) codes_.insert(codes_.end(), {omf::kTangent, omf::kBinormal});
    if (colors_) codes_.push_back(omf::kColor4);
    codes_.insert(codes_.end(), uvSets_, omf::kUv);
    codes_.insert(codes_.end(), weights_, omf::kBoneWeight);
    std::uint64_t stride = 0;
    for (std::uint8_t c : codes_) stride += omf::channelSize(c);
    if (stride > 0xFFFF) fail("texture coordinates", "too many uv sets for a 16-bit vertex stride");
    stride_ = static_cast<std::uint16_t>(stride);
  }

  void planArmature() {
    const auto& bones = s_.skeleton.bones;
    NameSet names;
    for (const Bone& b : bones) boneNames_.push_back(names.add(b.name));
    names.report(d_, "bone names");
    bool scaled = false;
    for (const Bone& b : bones)
      scaled = scaled || glm::any(glm::greaterThan(glm::abs(b.scale - 1.0f), glm::vec3(1e-5f)));
    // OMF has one pose: the bind pose is the rest pose (spec: Bone record). When the model's
    // bind pose differs, the armature stores the bind pose, so that skinning stays exact, and
    // every action holds the rest pose on the bones it leaves alone, so playback stays exact.
    const auto& inverseBind = s_.skeleton.inverseBind;
    if (inverseBind.size() == bones.size() && !bones.empty()) {
      const auto derived = s_.skeleton.restModelMatrices();
      for (std::size_t i = 0; i < bones.size() && !holdRest_; ++i)
        holdRest_ = !near(inverseBind[i] * derived[i], glm::mat4(1.0f));
    }
    if (scaled) warn("bone scale", "OMF bones have no scale; the rest pose was written without it");
    if (holdRest_)
      warn("bind pose",
           "the bind pose differs from the rest pose and OMF has one pose: the armature stores "
           "the bind pose, and each action holds the rest pose on the bones it does not animate");
    std::vector<glm::mat4> model;
    if (holdRest_) {
      for (const glm::mat4& m : inverseBind) model.push_back(glm::inverse(m));
    } else if (scaled) {
      model = s_.skeleton.restModelMatrices();
    }
    Poses local;
    if (model.empty()) {
      for (const Bone& b : bones) local.push_back({b.translation, unitRotation(b.rotation)});
    } else {  // the armature-space joints stay where they are; only scale is lost
      Poses target;
      for (const glm::mat4& m : model) target.push_back(rigidPart(m));
      local = localsOf(bones, target);
    }
    armature_ = stableArmature(bones, local);
    const Poses written = localsOf(bones, armature_);
    for (std::size_t i = 0; i < bones.size(); ++i) {
      const glm::vec3& p = armature_[i].position;
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
        fail("bone '" + bones[i].name + "'", "its rest position is too far out for a float");
      if (holdRest_)
        restDiffers_.push_back(
            glm::any(glm::greaterThan(glm::abs(written[i].position - bones[i].translation),
                                      glm::vec3(kPoseTolerance))) ||
            std::abs(std::abs(glm::dot(written[i].rotation, bones[i].rotation)) - 1.0f) >
                kPoseTolerance);
    }
  }

  void planActions() {
    if (s_.clips.empty()) return;
    // One FPS serves all actions (spec: Animation header); the highest keeps the most detail.
    for (const Clip& c : s_.clips) fps_ = std::max(fps_, c.frameRate);
    const auto& bones = s_.skeleton.bones;
    std::size_t unknown = 0, twice = 0, scaled = 0;
    std::size_t cutNames = 0;
    for (const Clip& c : s_.clips) {
      ActionOut a;
      a.name = cutName(c.name, omf::kNameSize);
      cutNames += a.name != c.name;
      a.duration = c.duration;
      std::vector<char> tracked(bones.size(), 0);
      std::size_t resampled = 0;
      for (const Track& t : c.tracks) {
        const int bone = s_.skeleton.find(t.bone);
        if (bone < 0) {
          ++unknown;
          continue;
        }
        if (tracked[bone]) {
          ++twice;
          continue;
        }
        tracked[bone] = 1;
        for (const glm::vec3& s : t.scale.values)
          if (glm::any(glm::greaterThan(glm::abs(s - 1.0f), glm::vec3(1e-5f)))) {
            ++scaled;
            break;
          }
        bool changed = false;
        a.tracks.push_back({bone, keysOf(t, bones[bone], changed)});
        resampled += changed;
      }
      for (std::size_t b = 0; b < restDiffers_.size(); ++b)
        if (!tracked[b] && restDiffers_[b])
          a.tracks.push_back({static_cast<std::int32_t>(b),
                              {Key{0, bones[b].translation, unitRotation(bones[b].rotation)}}});
      if (resampled || c.frameRate != fps_)
        warn("clip '" + c.name + "'",
             "stored at " + to_string(fps_) + " fps (OMF has one rate and whole frames)" +
                 (resampled ? "; " + to_string(resampled) + " track(s) resampled at every frame"
                            : std::string()));
      actions_.push_back(std::move(a));
    }
    if (cutNames) warn("clip names", to_string(cutNames) + " clip name(s) were cut to 16 bytes");
    if (unknown)
      warn("tracks", to_string(unknown) + " track(s) name no bone of the skeleton; not written");
    if (twice)
      warn("tracks", to_string(twice) + " second track(s) for one bone in a clip; not written");
    if (scaled) warn("scale keys", to_string(scaled) + " track(s) had scale keys; OMF has none");
    if (zeroRotations_)
      warn("rotation keys", to_string(zeroRotations_) + " zero quaternion(s) written as identity");
  }

  // Keys at the union of the translation and rotation times when those are whole frames at
  // fps_; otherwise (or for step channels, which OMF cannot hold) one key per frame.
  std::vector<Key> keysOf(const Track& t, const Bone& rest, bool& resampled) {
    std::vector<float> times;
    std::set_union(t.translation.times.begin(), t.translation.times.end(), t.rotation.times.begin(),
                   t.rotation.times.end(), std::back_inserter(times));
    if (times.empty()) return {};
    const auto stepped = [](const auto& ch) {
      return ch.size() > 1 && ch.interpolation == Interpolation::Step;
    };
    bool onFrames = !stepped(t.translation) && !stepped(t.rotation);
    std::vector<double> frames;
    for (float time : times) {
      const double x = static_cast<double>(time) * fps_;
      const double f = std::nearbyint(x);
      onFrames =
          onFrames && std::abs(x - f) <= kFrameTolerance && (frames.empty() || f > frames.back());
      frames.push_back(f);
    }
    if (!onFrames) {
      resampled = true;
      const double lo = std::floor(double(times.front()) * fps_);
      const double hi = std::ceil(double(times.back()) * fps_);
      if (hi - lo + 1 > double(Limits{}.maxKeys)) fail("key times", "too many frames to resample");
      frames.clear();
      times.clear();
      for (double f = lo; f <= hi; f += 1.0) frames.push_back(f);
    }
    std::vector<Key> keys;
    keys.reserve(frames.size());
    for (std::size_t k = 0; k < frames.size(); ++k) {
      if (std::abs(frames[k]) > std::numeric_limits<std::int32_t>::max())
        fail("key times", "a key lies past the 32-bit frame range at " + to_string(fps_) + " fps");
      const double time = onFrames ? double(times[k]) : frames[k] / fps_;
      Key key{static_cast<std::int32_t>(frames[k]), sampleAt(t.translation, time, rest.translation),
              sampleAt(t.rotation, time, rest.rotation)};
      zeroRotations_ += key.rotation == glm::quat(0.0f, 0.0f, 0.0f, 0.0f);
      key.rotation = unitRotation(key.rotation);
      keys.push_back(key);
    }
    keysTotal_ += keys.size();
    if (keysTotal_ > Limits{}.maxKeys) fail("key times", "more keys than a reader accepts");
    return keys;
  }

  std::uint64_t fileSize() const {
    std::uint64_t n = omf::kFileHeaderSize +
                      ((omf::kVertexHeaderSize + codes_.size() + 3) & ~3ull) + vertices_ * stride_ +
                      omf::kIndexHeaderSize + parts_.size() * (4 + omf::kMeshPartSize) +
                      triangles_ * 12;
    if (!armature_.empty()) n += omf::kArmatureHeaderSize + armature_.size() * omf::kBoneSize;
    if (!actions_.empty()) n += omf::kAnimationHeaderSize + 4 * actions_.size();
    for (const ActionOut& a : actions_) {
      n += omf::kActionHeaderSize;
      for (const TrackOut& t : a.tracks)
        n += 4 + omf::kBoneActionSize + t.keys.size() * omf::kKeyframeSize;
    }
    return n;
  }

  void vec(const glm::vec3& v) {
    w_.f32(v.x);
    w_.f32(v.y);
    w_.f32(v.z);
  }
  void quat(const glm::quat& q) {  // x, y, z, w (spec: Conventions)
    w_.f32(q.x);
    w_.f32(q.y);
    w_.f32(q.z);
    w_.f32(q.w);
  }
  void patch(std::size_t at) { w_.patchU32(at, static_cast<std::uint32_t>(w_.offset())); }

  std::vector<std::byte> emit() {
    const std::uint64_t size = fileSize();
    if (size > kMaxFile)
      fail("scene", "the file would be " + to_string(size) +
                        " bytes, past the 2 GiB its 32-bit "
                        "signed offsets reach");
    w_.reserve(size);
    w_.u32(omf::kFileId);
    w_.u32(static_cast<std::uint32_t>(parts_.size()));
    w_.zeros(16);  // the four section offsets, patched below
    patch(8);
    w_.u32(static_cast<std::uint32_t>(vertices_));
    w_.u16(stride_);
    w_.u16(static_cast<std::uint16_t>(codes_.size()));
    const std::size_t dataAt = w_.offset();
    w_.u32(0);
    for (std::uint8_t c : codes_) w_.u8(c);
    w_.zeros((4 - w_.offset() % 4) % 4);  // keeps the floats 4-byte aligned for in-place use
    patch(dataAt);
    for (std::size_t i = 0; i < parts_.size(); ++i)
      for (std::uint32_t v : parts_[i].vertices) writeVertex(s_.meshes[i], v);
    reportVertices();

    patch(12);
    w_.u32(static_cast<std::uint32_t>(parts_.size()));
    const std::size_t table = w_.offset();
    w_.zeros(4 * parts_.size());
    std::vector<std::size_t> dataOffsets;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      const PartOut& p = parts_[i];
      patch(table + 4 * i);
      w_.fixedString(p.name, omf::kNameSize);
      w_.i32(static_cast<std::int32_t>(i));
      w_.i32(static_cast<std::int32_t>(p.indices.size() / 3));
      w_.fixedString(p.material, omf::kNameSize);
      w_.i32(p.parentBone);
      dataOffsets.push_back(w_.offset());
      w_.i32(0);
    }
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      patch(dataOffsets[i]);
      for (std::uint32_t index : parts_[i].indices) w_.u32(parts_[i].base + index);
    }

    if (!armature_.empty()) {
      patch(16);
      w_.i32(static_cast<std::int32_t>(armature_.size()));
      w_.i32(static_cast<std::int32_t>(w_.offset() + 4));
      for (std::size_t i = 0; i < armature_.size(); ++i) {
        w_.fixedString(boneNames_[i], omf::kNameSize);
        w_.i32(static_cast<std::int32_t>(i));
        w_.i32(s_.skeleton.bones[i].parent);
        vec(armature_[i].position);
        quat(armature_[i].rotation);
      }
    }
    if (!actions_.empty()) emitActions();
    return w_.take();
  }

  void emitActions() {
    patch(20);
    w_.i32(static_cast<std::int32_t>(actions_.size()));
    w_.f32(fps_);
    const std::size_t table = w_.offset();
    w_.zeros(4 * actions_.size());
    for (std::size_t i = 0; i < actions_.size(); ++i) {
      const ActionOut& a = actions_[i];
      patch(table + 4 * i);
      w_.fixedString(a.name, omf::kNameSize);
      w_.i32(static_cast<std::int32_t>(i));
      w_.i32(static_cast<std::int32_t>(a.tracks.size()));
      w_.f32(a.duration);
      const std::size_t tracks = w_.offset();
      w_.zeros(4 * a.tracks.size());
      std::vector<std::size_t> keyOffsets;
      for (std::size_t j = 0; j < a.tracks.size(); ++j) {
        patch(tracks + 4 * j);
        w_.i32(a.tracks[j].bone);
        w_.i32(static_cast<std::int32_t>(a.tracks[j].keys.size()));
        keyOffsets.push_back(w_.offset());
        w_.i32(0);
      }
      for (std::size_t j = 0; j < a.tracks.size(); ++j) {
        patch(keyOffsets[j]);
        for (const Key& k : a.tracks[j].keys) {
          w_.i32(k.frame);
          vec(k.translation);
          quat(k.rotation);
        }
      }
    }
  }

  void writeVertex(const Mesh& m, std::uint32_t v) {
    vec(m.positions[v]);
    const glm::vec3 n = m.normals.empty() ? glm::vec3(0.0f) : m.normals[v];
    if (normals_) vec(n);
    if (tangents_) {
      const glm::vec4 t = m.tangents.empty() ? glm::vec4(0.0f, 0.0f, 0.0f, 1.0f) : m.tangents[v];
      lostHandedness_ += m.normals.empty() && t.w < 0.0f;
      vec(glm::vec3(t));
      // The reader takes the handedness from sign(dot(cross(N, T), B)) (omf_reader.cpp).
      vec(glm::cross(n, glm::vec3(t)) * (t.w < 0.0f ? -1.0f : 1.0f));
    }
    if (colors_) {
      const glm::vec4 c = m.colors.empty() ? glm::vec4(1.0f) : m.colors[v];
      for (int k = 0; k < 4; ++k) w_.f32(c[k]);
    }
    for (std::size_t k = 0; k < uvSets_; ++k) {
      const glm::vec2 uv = k < m.uvSets.size() ? m.uvSets[k][v] : glm::vec2(0.0f);
      w_.f32(uv.x);
      w_.f32(uv.y);
    }
    if (weights_ == 0) return;
    std::vector<Influence>& in = scratch_;
    in.clear();
    if (m.parentBone < 0)  // a rigid part's weights mean nothing (spec: Meshpart header)
      for (const Influence& inf : m.influencesOf(v))
        if (inf.weight > 0.0f) in.push_back(inf);
    const bool cut = in.size() > omf::kMaxWeightChannels;
    if (cut) {
      // The 8 heaviest (the first of equal ones), kept in their order, renormalised below.
      std::vector<std::size_t> order(in.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) { return in[a].weight > in[b].weight; });
      const auto keep = order.begin() + omf::kMaxWeightChannels;
      std::sort(order.begin(), keep);
      std::vector<Influence> kept;
      for (auto k = order.begin(); k != keep; ++k) kept.push_back(in[*k]);
      in = std::move(kept);
      ++truncated_;
    }
    double sum = 0.0;
    for (const Influence& i : in) sum += i.weight;
    if (in.empty() && m.skinned() && m.parentBone < 0) ++unskinned_;
    if (!in.empty() && (cut || std::abs(sum - 1.0) > omf::kUnitTolerance))
      for (Influence& i : in) i.weight = static_cast<float>(i.weight / sum);
    for (std::uint32_t k = 0; k < weights_; ++k) {
      w_.i32(k < in.size() ? static_cast<std::int32_t>(in[k].bone) : 0);
      w_.f32(k < in.size() ? in[k].weight : 0.0f);
    }
  }

  void reportVertices() {
    if (truncated_)
      warn("influences", to_string(truncated_) +
                             " vertices had more than 8 influences; the 8 heaviest were kept and "
                             "renormalised");
    if (lostHandedness_)
      warn("tangents", to_string(lostHandedness_) +
                           " left-handed tangents of meshes without normals read back "
                           "right-handed: the binormal that carries the sign needs a normal");
    if (unskinned_)
      warn("influences", to_string(unskinned_) +
                             " vertices of skinned meshes have no influence; written with zero "
                             "weights (a reader leaves them unskinned)");
  }

  Scene s_;
  Diagnostics& d_;
  ByteWriter w_;
  std::vector<PartOut> parts_;
  std::uint64_t vertices_ = 0, triangles_ = 0;
  bool normals_ = false, tangents_ = false, colors_ = false;
  std::size_t uvSets_ = 0;
  std::uint32_t weights_ = 0;
  std::vector<std::uint8_t> codes_;
  std::uint16_t stride_ = 0;
  std::vector<std::string> boneNames_;
  std::vector<RigidPose> armature_;
  bool holdRest_ = false;
  std::vector<char> restDiffers_;  // per bone, with holdRest_: its rest differs from the bind
  float fps_ = 0.0f;
  std::vector<ActionOut> actions_;
  std::uint64_t keysTotal_ = 0;
  std::size_t zeroRotations_ = 0, truncated_ = 0, unskinned_ = 0, lostHandedness_ = 0;
  std::vector<Influence> scratch_;
};

}  // namespace

Result<std::vector<std::byte>> writeOmf(const Scene& scene, Diagnostics& diagnostics) {
  const auto problems = validate(scene, 1);
  if (!problems.empty())
    return FormatError{"", "scene", kNoOffset, "cannot be written: " + problems.front()};
  if (scene.meshes.empty() && scene.skeleton.empty())
    return FormatError{"", "scene", kNoOffset,
                       "has no mesh and no skeleton: an OMF file would hold nothing"};
  try {
    return Writer(scene, diagnostics).write();
  } catch (const FormatException& e) {
    return e.error();
  } catch (const std::bad_alloc&) {
    return FormatError{"", "scene", kNoOffset, "ran out of memory while writing"};
  }
}

}  // namespace marrow::formats
