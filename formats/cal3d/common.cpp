#include "formats/cal3d/common.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <set>
#include <type_traits>
#include <utility>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>

namespace marrow::formats::cal3d {

bool writableVersion(int v) {
  return (v >= kEarliestVersion && v <= 910) || (v >= 1000 && v <= 1100) || v == 1300 || v == 1301;
}

FormatError versionError(int v) {
  return FormatError{"", "version", kNoOffset,
                     "cal3d version " + std::to_string(v) +
                         " cannot be written: choose 699–910, 1000–1100, 1300 or 1301"};
}

glm::quat quatFromFile(float x, float y, float z, float w) { return glm::quat(w, -x, -y, -z); }

std::array<float, 4> quatToFile(const glm::quat& q) { return {-q.x, -q.y, -q.z, q.w}; }

bool isZeroQuaternion(const std::array<float, 4>& q) {
  double len2 = 0.0;
  for (float c : q) len2 += static_cast<double>(c) * c;
  return !(len2 > 1e-12);
}

glm::mat4 inverseBindFromFile(const glm::vec3& translation, const std::array<float, 4>& r) {
  const glm::quat q = quatFromFile(r[0], r[1], r[2], r[3]);
  return glm::translate(translation) * glm::mat4_cast(glm::normalize(q));
}

std::string mapKind(std::string_view typeString, std::size_t index) {
  std::string t;
  for (char c : typeString) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t.find_first_not_of(" \t\r\n") == std::string::npos) return index == 0 ? "diffuse" : "unknown";
  // Substrings, in this order: "Normal Bump" is a normal map, "Specular Level" a specular one.
  static constexpr std::pair<const char*, const char*> kKinds[] = {
      {"diffuse", "diffuse"},         {"opacity", "opacity"},       {"alpha", "opacity"},
      {"transparen", "opacity"},      {"normal", "normal"},         {"bump", "height"},
      {"specular", "specular"},       {"gloss", "shininess"},       {"shin", "shininess"},
      {"self", "emissive"},           {"emissi", "emissive"},       {"ambient", "ambient"},
      {"reflect", "reflection"},      {"refract", "refraction"},    {"displace", "displacement"},
      {"light", "lightmap"},
  };
  for (const auto& [needle, kind] : kKinds)
    if (t.find(needle) != std::string::npos) return kind;
  return "unknown";
}

glm::vec4 colorFromBytes(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  return glm::vec4(r, g, b, a) / 255.0f;
}

std::array<std::uint8_t, 4> colorToBytes(const glm::vec4& c) {
  std::array<std::uint8_t, 4> out{};
  for (int i = 0; i < 4; ++i)
    out[static_cast<std::size_t>(i)] =
        static_cast<std::uint8_t>(std::lround(std::clamp(c[i], 0.0f, 1.0f) * 255.0f));
  return out;
}

std::string readString(ByteReader& r, std::string_view field, std::uint32_t maxLength) {
  const std::size_t at = r.offset();
  const std::int32_t n = r.i32(field);
  if (n < 0) r.failAt(at, field, "has a negative length (" + std::to_string(n) + ")");
  if (static_cast<std::uint32_t>(n) > maxLength)
    r.failAt(at, field, "is " + std::to_string(n) + " bytes long, over the limit of " +
                            std::to_string(maxLength));
  const auto bytes = r.bytes(static_cast<std::uint32_t>(n), field);
  const char* p = reinterpret_cast<const char*>(bytes.data());
  return std::string(p, strnlen(p, bytes.size()));
}

void writeString(ByteWriter& w, std::string_view s) {
  const std::string_view text = s.substr(0, s.find('\0'));
  w.i32(static_cast<std::int32_t>(text.size() + 1));
  w.raw(std::as_bytes(std::span(text.data(), text.size())));
  w.u8(0);
}

bool applyWindingRule(Mesh& mesh) {
  if (mesh.indices.size() < 3 || mesh.normals.empty()) return false;
  const std::uint32_t i1 = mesh.indices[0], i2 = mesh.indices[1], i3 = mesh.indices[2];
  if (i1 >= mesh.positions.size() || i2 >= mesh.positions.size() || i3 >= mesh.positions.size())
    return false;
  const glm::vec3& p1 = mesh.positions[i1];
  const glm::vec3& p2 = mesh.positions[i2];
  const glm::vec3& p3 = mesh.positions[i3];
  // §5: dot((p1 − p2) × (p3 − p2), n1) > 0 means the file's faces are clockwise.
  if (glm::dot(glm::cross(p1 - p2, p3 - p2), mesh.normals[i1]) <= 0.0f) return false;
  for (std::size_t f = 0; f + 2 < mesh.indices.size(); f += 3)
    std::swap(mesh.indices[f + 1], mesh.indices[f + 2]);
  return true;
}

void dropPlaceholderColours(std::span<Mesh> meshes, const std::string& file,
                            Diagnostics& diagnostics) {
  std::size_t coloured = 0, dropped = 0;
  for (Mesh& m : meshes) {
    if (m.colors.empty()) continue;
    ++coloured;
    const bool zero = std::all_of(m.colors.begin(), m.colors.end(), [](const glm::vec4& c) {
      return c.r == 0.0f && c.g == 0.0f && c.b == 0.0f;
    });
    if (!zero) continue;
    m.colors.clear();
    m.colors.shrink_to_fit();
    ++dropped;
  }
  if (dropped == 0) return;
  diagnostics.info(file, "vertexColor", kNoOffset,
                   (dropped == coloured ? std::string(dropped == 1 ? "the submesh's" : "every submesh's")
                                        : std::to_string(dropped) + " of " + std::to_string(coloured) +
                                              " submeshes'") +
                       " vertex colours are all (0, 0, 0), which cal3d's exporters write for a "
                       "mesh without colours: read as no colours (drawn white, not black)");
}

std::string fileStem(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  const auto dot = path.rfind('.');
  if (dot != std::string_view::npos && dot > 0) path = path.substr(0, dot);
  return std::string(path);
}

std::string submeshName(std::string_view stem, std::size_t i, std::size_t count) {
  return count == 1 ? std::string(stem) : std::string(stem) + "#" + std::to_string(i);
}

std::string meshGroup(std::string_view meshName) {
  return std::string(meshName.substr(0, meshName.find('#')));
}

std::vector<std::vector<std::size_t>> meshFiles(const Scene& scene) {
  std::vector<std::vector<std::size_t>> files;
  std::map<std::string, std::size_t, std::less<>> fileOfGroup;
  for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
    const auto [it, fresh] = fileOfGroup.try_emplace(meshGroup(scene.meshes[m].name), files.size());
    if (fresh) files.emplace_back();
    files[it->second].push_back(m);
  }
  return files;
}

float frameRateOf(const Clip& clip) {
  constexpr float kDefault = 30.0f;
  float spacing = 0.0f;
  for (const Track& t : clip.tracks)
    for (std::size_t k = 1; k < t.rotation.times.size(); ++k) {
      const float d = t.rotation.times[k] - t.rotation.times[k - 1];
      if (d > 0.0f && (spacing == 0.0f || d < spacing)) spacing = d;
    }
  if (!(spacing > 0.0f)) return kDefault;
  const double fps = std::round(1.0 / spacing);
  if (fps < 1.0 || fps > 1000.0) return kDefault;
  for (const Track& t : clip.tracks)
    for (float time : t.rotation.times) {
      const double frames = time * fps;
      if (std::abs(frames - std::round(frames)) > 1e-3) return kDefault;
    }
  return static_cast<float>(fps);
}

std::string mapTypeFor(const std::string& kind) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {"diffuse", "Diffuse Color"},      {"opacity", "Opacity"},
      {"normal", "Normal Bump"},         {"height", "Bump"},
      {"bump", "Bump"},                  {"specular", "Specular Color"},
      {"shininess", "Glossiness"},       {"glossiness", "Glossiness"},
      {"emissive", "Self-Illumination"}, {"ambient", "Ambient Color"},
      {"reflection", "Reflection"},      {"refraction", "Refraction"},
      {"displacement", "Displacement"},  {"lightmap", "Lightmap"}};
  for (const auto& [k, type] : kTypes)
    if (kind == k) return type;
  return kind;
}

namespace {

template <class T>
T sampleHeld(const Channel<T>& ch, float t, const T& rest) {
  if (ch.empty()) return rest;
  const auto& times = ch.times;
  if (t <= times.front()) return ch.values.front();
  if (t >= times.back()) return ch.values.back();
  const auto k = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) -
                                          times.begin() - 1);
  // A key's own time gives the key itself, bit for bit (round trips stay exact).
  if (ch.interpolation == Interpolation::Step || times[k] == t) return ch.values[k];
  const float f = (t - times[k]) / (times[k + 1] - times[k]);
  if constexpr (std::is_same_v<T, glm::quat>) {
    glm::quat b = ch.values[k + 1];
    if (glm::dot(ch.values[k], b) < 0.0f) b = -b;
    return glm::normalize(glm::slerp(ch.values[k], b, f));
  } else {
    return ch.values[k] + (ch.values[k + 1] - ch.values[k]) * f;
  }
}

// A track's channels as cal3d keyframes (calClipOf). Scale keys cannot be stored:
// `droppedScale` says whether any were.
std::vector<Keyframe> keyframesOf(const Track& track, const Bone& rest, bool& droppedScale) {
  droppedScale = !track.scale.empty();
  std::vector<float> times;
  times.reserve(track.translation.size() + track.rotation.size());
  std::merge(track.translation.times.begin(), track.translation.times.end(),
             track.rotation.times.begin(), track.rotation.times.end(), std::back_inserter(times));
  times.erase(std::unique(times.begin(), times.end()), times.end());
  std::vector<Keyframe> out;
  out.reserve(times.size());
  for (float t : times)
    out.push_back({t, sampleHeld(track.translation, t, rest.translation),
                   sampleHeld(track.rotation, t, rest.rotation)});
  return out;
}

}  // namespace

Result<CalClip> calClipOf(const Scene& scene, std::size_t clipIndex, Diagnostics& d) {
  using std::to_string;
  const auto error = [](std::string field, std::string message) {
    return FormatError{"", std::move(field), kNoOffset, std::move(message)};
  };
  if (clipIndex >= scene.clips.size())
    return error("clip", "index " + to_string(clipIndex) + " is past the " +
                             to_string(scene.clips.size()) + " clips");
  const Clip& clip = scene.clips[clipIndex];
  const std::string what = "clip '" + clip.name + "'";
  if (!std::isfinite(clip.duration) || !(clip.duration > 0.0f))
    return error(what, "lasts " + to_string(clip.duration) + " s; cal3d needs a duration over 0");
  CalClip out;
  out.duration = clip.duration;
  std::vector<CalTrack>& tracks = out.tracks;
  std::set<int> written;
  std::size_t unbound = 0, scaled = 0, stepped = 0, repeated = 0, empty = 0;
  for (const Track& t : clip.tracks) {
    const int bone = scene.skeleton.find(t.bone);
    if (bone < 0) {
      ++unbound;
      continue;
    }
    if (!written.insert(bone).second) {
      ++repeated;
      continue;
    }
    bool droppedScale = false;
    CalTrack track{
        bone, keyframesOf(t, scene.skeleton.bones[static_cast<std::size_t>(bone)], droppedScale)};
    scaled += droppedScale;
    stepped += t.translation.interpolation == Interpolation::Step ||
               t.rotation.interpolation == Interpolation::Step;
    // 0.11 rejects a track without keyframes.
    if (track.keys.empty()) {
      ++empty;
      continue;
    }
    tracks.push_back(std::move(track));
  }
  if (unbound)
    d.warn("", what, kNoOffset,
           to_string(unbound) + " track(s) name no bone of the skeleton and are left out");
  if (repeated)
    d.warn("", what, kNoOffset,
           to_string(repeated) + " track(s) animate a bone an earlier track animates; left out");
  if (scaled)
    d.warn("", what, kNoOffset,
           to_string(scaled) + " track(s) have scale keys, which cal3d cannot store (left out)");
  if (stepped)
    d.warn("", what, kNoOffset,
           to_string(stepped) + " track(s) step between keys; cal3d interpolates them linearly");
  if (empty) d.info("", what, kNoOffset, to_string(empty) + " track(s) without keys are left out");
  if (tracks.empty()) return error(what, "has no track cal3d can store");

  // §11: cal3d loops back to the first keys exactly when the first track ends before the
  // duration. Keys are added so that playback means what the clip says.
  const float duration = clip.duration;
  if (clip.wrapsToFirstKey && tracks[0].keys.back().time >= duration) {
    std::size_t added = 0;
    for (auto& t : tracks)
      if (t.keys.back().time < duration) {
        Keyframe k = t.keys.front();
        k.time = duration;
        t.keys.push_back(k);
        ++added;
      }
    if (added)
      d.info("", what, kNoOffset,
             "loops, but its first track has a key at the duration (cal3d would not loop): " +
                 to_string(added) + " track(s) get their first key again at the duration");
  } else if (!clip.wrapsToFirstKey && tracks[0].keys.back().time < duration) {
    Keyframe k = tracks[0].keys.back();
    k.time = duration;
    tracks[0].keys.push_back(k);
    d.info("", what, kNoOffset,
           "holds its last keys, so its first track gets a key at the duration (cal3d would "
           "otherwise loop back to the first keys)");
  }
  return out;
}

}  // namespace marrow::formats::cal3d
