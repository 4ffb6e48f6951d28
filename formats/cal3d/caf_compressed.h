// The two compressed CAF keyframe encodings (§4.3 version 1200 quantised, §4.4 IMVU bit-packed),
// as pure functions of their bytes so that the spec's test vectors test them directly.
// Quaternions come out as the file stores them (x, y, z, w; cal3d convention, not conjugated)
// and not renormalised.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "formats/model/glm.h"

namespace marrow::formats::cal3d {

// §4.3: three i16 with the dropped component's index in the low bits of s1 and s2.
std::array<float, 4> decodeQuantisedQuat(std::int16_t s0, std::int16_t s1, std::int16_t s2);
// §4.3: 11 bits x, 11 bits y, 10 bits z from the low end; translation = q × scale + min.
glm::uvec3 unpackQuantisedTranslation(std::uint32_t p);
glm::vec3 decodeQuantisedTranslation(std::uint32_t p, const glm::vec3& min, const glm::vec3& scale);

// §4.4 track header flags (byte 1, bits 5–7).
struct ImvuTrackHeader {
  std::uint32_t boneId = 0;  // 13 bits
  bool translationIsDynamic = false;
  bool highRangeRequired = false;
  bool translationRequired = false;
  std::uint16_t keyframeCount = 0;
};
ImvuTrackHeader decodeImvuTrackHeader(std::span<const std::byte, 4> bytes);

// §4.4 translation block: 10 bytes (high range) or 4 bytes (low range).
inline constexpr std::size_t kImvuHighRangeBytes = 10;
inline constexpr std::size_t kImvuLowRangeBytes = 4;
glm::vec3 decodeImvuTranslation(std::span<const std::byte> bytes, bool highRange);

// §4.4 rotation + time block, 6 bytes.
inline constexpr std::size_t kImvuRotationBytes = 6;
struct ImvuRotation {
  std::array<float, 4> rotation{};  // x, y, z, w as stored
  std::uint32_t steps = 0;          // time = steps / 30 s
};
ImvuRotation decodeImvuRotation(std::span<const std::byte, kImvuRotationBytes> bytes);

}  // namespace marrow::formats::cal3d
