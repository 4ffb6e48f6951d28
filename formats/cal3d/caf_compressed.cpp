// Decoders of the compressed CAF keyframes (§4.3, §4.4). Written from the spec's field tables;
// no compressed sample file exists, the spec's test vectors are the reference.
#include "formats/cal3d/caf_compressed.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace marrow::formats::cal3d {
namespace {

// Up to 8 bytes as one little-endian number: the bit streams are least-significant bit first
// (§4.4), and a block never spans more than 80 bits (read in two parts then).
std::uint64_t little(std::span<const std::byte> bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes.size() && i < 8; ++i)
    v |= static_cast<std::uint64_t>(std::to_integer<std::uint8_t>(bytes[i])) << (8 * i);
  return v;
}

// Bits [first, first + count) of a stream of at most 128 bits held as (low, high).
std::uint64_t bits(std::uint64_t low, std::uint64_t high, unsigned first, unsigned count) {
  std::uint64_t v;
  if (first >= 64)
    v = high >> (first - 64);
  else if (first == 0)
    v = low;
  else
    v = (low >> first) | (high << (64 - first));
  return count >= 64 ? v : v & ((std::uint64_t{1} << count) - 1);
}

}  // namespace

std::array<float, 4> decodeQuantisedQuat(std::int16_t s0, std::int16_t s1, std::int16_t s2) {
  // §4.3: the low bits of s1 and s2 say which component was dropped; the constant is literally
  // 1.41421 in the saver.
  const int which = ((s1 & 1) << 1) | (s2 & 1);
  const auto clear = [](std::int16_t s) { return static_cast<std::int16_t>(s & ~1); };
  constexpr double k = 1.0 / (32767.0 * 1.41421);
  const float a = static_cast<float>(s0 * k);
  const float b = static_cast<float>(clear(s1) * k);
  const float c = static_cast<float>(clear(s2) * k);
  float implied = 1.0f - (a * a + b * b + c * c);
  // cal3d keeps a tiny or negative remainder as it is; a square root of it is 0 at best.
  implied = implied > FLT_EPSILON ? std::sqrt(implied) : 0.0f;
  switch (which) {
    case 3: return {a, b, c, implied};
    case 2: return {a, b, implied, c};
    case 1: return {a, implied, b, c};
    default: return {implied, a, b, c};
  }
}

glm::uvec3 unpackQuantisedTranslation(std::uint32_t p) {
  // §4.3: x and y have 11 bits, z 10 (the public doc's "10, 11, 11" is wrong).
  return {p & 0x7FFu, (p >> 11) & 0x7FFu, p >> 22};
}

glm::vec3 decodeQuantisedTranslation(std::uint32_t p, const glm::vec3& min,
                                     const glm::vec3& scale) {
  return glm::vec3(unpackQuantisedTranslation(p)) * scale + min;
}

ImvuTrackHeader decodeImvuTrackHeader(std::span<const std::byte, 4> b) {
  const auto byte = [&](int i) {
    return std::to_integer<std::uint32_t>(b[static_cast<std::size_t>(i)]);
  };
  ImvuTrackHeader h;
  h.boneId = byte(0) | ((byte(1) & 0x1Fu) << 8);
  h.translationIsDynamic = (byte(1) >> 5) & 1u;
  h.highRangeRequired = (byte(1) >> 6) & 1u;
  h.translationRequired = (byte(1) >> 7) & 1u;
  h.keyframeCount = static_cast<std::uint16_t>(byte(2) | (byte(3) << 8));
  return h;
}

glm::vec3 decodeImvuTranslation(std::span<const std::byte> bytes, bool highRange) {
  // §4.4: per axis a magnitude then its sign bit (the opposite order of the rotation block).
  const unsigned magnitudeBits = highRange ? 25 : 9;
  const double scale = highRange ? 8388608.0 / 33554431.0 : 128.0 / 511.0;  // 2^23/(2^25-1)
  const std::uint64_t low = little(bytes.first(std::min<std::size_t>(bytes.size(), 8)));
  const std::uint64_t high = bytes.size() > 8 ? little(bytes.subspan(8)) : 0;
  glm::vec3 out;
  for (unsigned axis = 0; axis < 3; ++axis) {
    const unsigned first = axis * (magnitudeBits + 1);
    const auto m = static_cast<double>(bits(low, high, first, magnitudeBits));
    const bool negative = bits(low, high, first + magnitudeBits, 1) != 0;
    out[static_cast<int>(axis)] = static_cast<float>(negative ? -m * scale : m * scale);
  }
  return out;
}

ImvuRotation decodeImvuRotation(std::span<const std::byte, kImvuRotationBytes> bytes) {
  const std::uint64_t v = little(bytes);
  // §4.4: 2 bits for the dropped (largest) component, then sign-then-magnitude per kept
  // component in index order, then 10 bits of steps.
  const auto big = static_cast<unsigned>(v & 3u);
  std::array<float, 4> q{};
  float sum = 0.0f;
  unsigned at = 2;
  for (unsigned i = 0; i < 4; ++i) {
    if (i == big) continue;
    const bool negative = (v >> at) & 1u;
    const auto m = static_cast<float>((v >> (at + 1)) & 0x7FFu);
    const float c = m / 2047.0f;
    q[i] = negative ? -c : c;
    sum += c * c;
    at += 12;
  }
  q[big] = std::sqrt(1.0f - std::min(1.0f, sum));
  ImvuRotation out;
  out.rotation = q;
  out.steps = static_cast<std::uint32_t>((v >> at) & 0x3FFu);
  return out;
}

}  // namespace marrow::formats::cal3d
