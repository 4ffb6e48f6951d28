// What the binary cal3d readers and writer share besides common.h: which optional fields a
// version has (§1, §4.1), the file header, signed counts, and the layout trial of §1.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/io/byte_reader.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"

namespace marrow::formats::cal3d {

// The IMVU fork numbered its files 911–919 (§1); 920–999 were never used, treated alike.
constexpr bool isImvuVersion(int v) {
  return v >= 911 && v <= 999;
}

// §3: scene ambient colour and per-bone lights (IMVU, 0.13 trunk).
constexpr bool csfLightsByDefault(int v) {
  return isImvuVersion(v) || v == 1300;
}

enum class CmfLayout { Plain, ColourSentinel, CountPrefixed };
// §1: the version's default; 1300 has two real-world layouts, so readers try the others too.
constexpr CmfLayout cmfDefaultLayout(int v) {
  if (isImvuVersion(v) || v == 1300) return CmfLayout::ColourSentinel;
  return v >= 1301 ? CmfLayout::CountPrefixed : CmfLayout::Plain;
}

// §4.1: where the CAF header's optional words are.
constexpr bool cafHasCompressionFlag(int v) {
  return (v >= 919 && v <= 999) || v >= 1300;
}
constexpr bool cafFlagsByDefault(int v) {
  return v == 1200 || v >= 1300;
}
// §4.1: 913–918 store only IMVU bit-packed tracks (no float variant to write).
constexpr bool cafAlwaysCompressed(int v) {
  return v >= 913 && v <= 918;
}

// §6: map type strings.
constexpr bool crfHasMapTypes(int v) {
  return isImvuVersion(v) || v >= 1300;
}

// Magic and version (§2, §1). Returns the version.
inline int readHeader(ByteReader& r, std::string_view magic) {
  const auto m = r.bytes(4, "magic");
  if (std::memcmp(m.data(), magic.data(), 4) != 0)
    r.failAt(0, "magic",
             "is not \"" + std::string(magic.substr(0, 3)) + "\\0\"; this is not a " +
                 std::string(magic.substr(0, 3)) + " file");
  const std::size_t at = r.offset();
  const std::int32_t v = r.i32("version");
  if (v < kEarliestVersion || v > kLatestVersion)
    r.failAt(at, "version",
             "is " + std::to_string(v) + "; cal3d files have versions " +
                 std::to_string(kEarliestVersion) + " to " + std::to_string(kLatestVersion));
  return v;
}

// A signed i32 count: not negative, not over `max`, and (when minBytesEach > 0) `count` records
// of at least minBytesEach bytes fit in what is left after `reserved` more bytes (§8).
inline std::uint32_t checkedCount(ByteReader& r, std::int32_t n, std::uint64_t at,
                                  std::string_view field, std::uint64_t max,
                                  std::uint64_t minBytesEach, std::uint64_t reserved = 0) {
  if (n < 0) r.failAt(at, field, "is " + std::to_string(n) + ", a negative count");
  const auto count = static_cast<std::uint64_t>(n);
  if (count > max)
    r.failAt(at, field,
             "is " + std::to_string(count) + ", over the limit of " + std::to_string(max));
  const std::uint64_t left = r.remaining() > reserved ? r.remaining() - reserved : 0;
  if (minBytesEach > 0 && count > left / minBytesEach)
    r.failAt(at, field,
             "is " + std::to_string(count) + " but " + std::to_string(count) + " records of " +
                 std::to_string(minBytesEach) + " bytes do not fit in the " + std::to_string(left) +
                 " bytes left");
  return static_cast<std::uint32_t>(count);
}
inline std::uint32_t readCount(ByteReader& r, std::string_view field, std::uint64_t max,
                               std::uint64_t minBytesEach, std::uint64_t reserved = 0) {
  const std::size_t at = r.offset();
  return checkedCount(r, r.i32(field), at, field, max, minBytesEach, reserved);
}

inline glm::vec3 readVec3(ByteReader& r, std::string_view field) {
  const float x = r.finiteF32(field), y = r.finiteF32(field), z = r.finiteF32(field);
  return {x, y, z};
}

// Four finite floats (x, y, z, w) as the file stores them; the zero quaternion is no rotation.
inline std::array<float, 4> readFileQuat(ByteReader& r, std::string_view field) {
  const std::size_t at = r.offset();
  std::array<float, 4> q{};
  for (float& c : q) c = r.finiteF32(field);
  if (isZeroQuaternion(q)) r.failAt(at, field, std::string(kZeroQuaternionMessage));
  return q;
}

// "bone 3": an element and its index, for `within`. (Built in steps: GCC 12 warns, falsely, on
// "literal" + std::to_string(n) in some inlining contexts, -Wrestrict.)
inline std::string label(std::string_view what, std::uint64_t i) {
  std::string s(what);
  s += ' ';
  s += std::to_string(i);
  return s;
}

// Runs `body`; an error inside gets `label()` ("bone 3") put in front of its field, so that
// messages name the element without building a string for every field that reads fine.
template <class Label, class Body>
decltype(auto) within(const Label& label, Body&& body) {
  try {
    return body();
  } catch (const FormatException& e) {
    FormatError err = e.error();
    err.field = label() + ": " + err.field;
    throw FormatException(std::move(err));
  }
}

// Fails unless the parse used every byte (§8: trailing bytes mean a wrong layout).
inline void requireEnd(ByteReader& r, std::string_view after) {
  if (!r.atEnd())
    r.fail("end of file", std::to_string(r.remaining()) + " bytes are left after " +
                              std::string(after) + "; no layout consumes the file exactly");
}

// §1: parses with each layout in turn and takes the first that consumes the file exactly. When
// none does, the error of the attempt that got furthest is the telling one: a wrong layout
// usually fails within its first records. The version's default layout (tried first) keeps its
// error unless another got more than kDefaultLead bytes further, so that a header field the
// default rejects is not blamed on a layout that read a few bytes more before failing.
inline constexpr double kDefaultLead = 64.0;
template <class Part, class Layout, class Parse>
Result<Part> firstExactLayout(const ReadContext& ctx, std::span<const Layout> layouts,
                              Parse&& parse) {
  // Running out of memory ends the trial: guarded reports it.
  return guarded<Part>(ctx, [&]() -> Result<Part> {
    std::optional<FormatError> best;
    double bestReach = 0.0;
    for (const Layout& layout : layouts) {
      try {
        return parse(layout);
      } catch (const FormatException& e) {
        const FormatError& f = e.error();
        double reach = f.offset == kNoOffset ? -1.0 : static_cast<double>(f.offset);
        if (!best) reach += kDefaultLead;
        if (!best || reach > bestReach) {
          best = f;
          bestReach = reach;
        }
      }
    }
    return *best;
  });
}

}  // namespace marrow::formats::cal3d
