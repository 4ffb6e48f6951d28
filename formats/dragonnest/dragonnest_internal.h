// Helpers shared by the Dragon Nest readers and writers (../shared/specs/dragonnest.md §1).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "formats/io/byte_reader.h"
#include "formats/io/byte_writer.h"
#include "formats/io/guarded.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/glm.h"

namespace marrow::formats::dragonnest::detail {

// The MSH, SKN and ANI headers and their per-record headers are 1024-byte blocks (§12.4).
inline constexpr std::size_t kBlock = 1024;
inline constexpr std::size_t kName = 256;
// "Scene Root" names no node (§3.3, §5.2).
inline constexpr std::string_view kSceneRoot = "Scene Root";

// Parses return through formats::guarded (formats/io/guarded.h).
using formats::guarded;

inline bool startsWith(std::span<const std::byte> data, std::string_view magic) {
  return data.size() >= magic.size() && std::memcmp(data.data(), magic.data(), magic.size()) == 0;
}

// Names match case-insensitively in the engine (§1 "Name comparison").
inline bool sameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}
inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
// The last path component (SKN names its mesh and textures bare, §2.4; be lenient anyway).
inline std::string baseName(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// A signed count: not negative, under `max`, and `minBytesEach` bytes per element still left.
inline std::uint32_t count(ByteReader& r, std::string_view field, std::uint64_t max,
                           std::uint64_t minBytesEach) {
  const std::uint64_t at = r.offset();
  const std::int32_t n = r.i32(field);
  if (n < 0) r.failAt(at, field, "is " + std::to_string(n) + ", a negative count");
  r.checkCount(static_cast<std::uint64_t>(n), field, max, minBytesEach, at);
  return static_cast<std::uint32_t>(n);
}

inline glm::vec3 vec3(ByteReader& r, std::string_view field) {
  glm::vec3 v;
  v.x = r.finiteF32(field);
  v.y = r.finiteF32(field);
  v.z = r.finiteF32(field);
  return v;
}
// Stored (x, y, z, w) (§1 "Quaternions"), read component by component.
inline glm::quat quatXyzw(ByteReader& r, std::string_view field) {
  const float x = r.finiteF32(field), y = r.finiteF32(field), z = r.finiteF32(field);
  const float w = r.finiteF32(field);
  return glm::quat(w, x, y, z);
}
inline void putVec3(ByteWriter& w, const glm::vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}
inline void putQuatXyzw(ByteWriter& w, const glm::quat& q) {
  w.f32(q.x);
  w.f32(q.y);
  w.f32(q.z);
  w.f32(q.w);
}
inline void i16(ByteWriter& w, std::int16_t v) {
  w.u16(static_cast<std::uint16_t>(v));
}
inline std::int16_t i16(ByteReader& r, std::string_view field) {
  return static_cast<std::int16_t>(r.u16(field));
}

// Pads the block that started at `start` to its 1024 bytes.
inline void padBlock(ByteWriter& w, std::size_t start) {
  const std::size_t used = w.offset() - start;
  if (used < kBlock) w.zeros(kBlock - used);
}

}  // namespace marrow::formats::dragonnest::detail
