// Dragon Nest ANI v10/v11 ("Eternity Engine Ani File") and multi-ANI list files, read and written
// field for field (../shared/specs/dragonnest.md §5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/glm.h"

namespace marrow::formats::dragonnest {

template <class T>
struct AniKey {
  std::int32_t frame = 0;  // int16 in v11
  T value{};
};

// One bone's animation in one of the file's animations (§5.2).
struct AniTrack {
  glm::vec3 basePosition{0.0f};
  glm::quat baseRotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 baseScale{1.0f};
  std::vector<AniKey<glm::vec3>> positions;
  std::vector<AniKey<glm::quat>> rotations;  // v11: components stored as int16 / 32767
  std::vector<AniKey<glm::vec3>> scales;
};

struct AniBone {
  std::string name;
  std::string parent;            // "Scene Root" (or any name no bone has) for a root
  std::vector<AniTrack> tracks;  // one per animation
};

struct Ani {
  std::int32_t version = 10;
  std::string magic;                  // as read; empty: "Eternity Engine Ani File 0.1"
  std::vector<std::string> names;     // one per animation
  std::vector<std::int32_t> lengths;  // frames: keys run from 0 to length − 1
  std::vector<AniBone> bones;
};

inline constexpr const char* kAniMagic = "Eternity Engine Ani File";

// A .ani that is shorter than 1024 bytes or lacks the magic is a list of other .ani names (§5.3).
bool isAniList(std::span<const std::byte> data);
// The names of a list file, one per line (CR/LF), blank lines skipped.
std::vector<std::string> aniListNames(std::span<const std::byte> data);

Result<Ani> parseAni(std::span<const std::byte> data, const ReadContext& ctx);
// Writes `ani` in ani.version (10 or 11). v11 refuses frames outside int16; its rotations are
// quantised to int16 / 32767.
Result<std::vector<std::byte>> writeAni(const Ani& ani);

}  // namespace marrow::formats::dragonnest
