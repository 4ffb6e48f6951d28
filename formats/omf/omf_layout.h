// OMF 1 record sizes and channel codes (../shared/specs/omf.md), and the one rest-pose conversion
// the reader and the writer share: they must compute it bit for bit alike so that a file the
// writer made reads and writes back to the same bytes.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/ext/quaternion_double.hpp>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <string_view>

#include "formats/model/glm.h"

namespace marrow::formats::omf {

inline constexpr std::uint32_t kFileId = 0x31464D4Fu;  // the bytes "OMF1"
inline constexpr std::uint64_t kFileHeaderSize = 24;
inline constexpr std::uint64_t kVertexHeaderSize = 12;  // plus one code byte per channel
inline constexpr std::uint64_t kIndexHeaderSize = 4;    // plus 4 bytes per mesh part
inline constexpr std::uint64_t kMeshPartSize = 48;
inline constexpr std::uint64_t kArmatureHeaderSize = 8;
inline constexpr std::uint64_t kBoneSize = 52;
inline constexpr std::uint64_t kAnimationHeaderSize = 8;  // plus 4 bytes per action
inline constexpr std::uint64_t kActionHeaderSize = 28;    // plus 4 bytes per bone track
inline constexpr std::uint64_t kBoneActionSize = 12;
inline constexpr std::uint64_t kKeyframeSize = 32;
inline constexpr std::size_t kNameSize = 16;
inline constexpr std::uint32_t kMaxWeightChannels = 8;
// Quaternion length and weight sum tolerance (spec: Conventions, Vertex header).
inline constexpr double kUnitTolerance = 1e-3;

enum Code : std::uint8_t {
  kPosition = 1,
  kNormal = 2,
  kBinormal = 3,
  kTangent = 4,  // the post's "Bitangent"; the spec fixes code 4 as the tangent
  kColor3 = 5,
  kColor4 = 6,
  kUv = 7,
  kBoneWeight = 8,
};

// Bytes one channel occupies inside a vertex; 0 for a code the spec does not define.
constexpr std::uint32_t channelSize(std::uint8_t code) {
  switch (code) {
    case kPosition:
    case kNormal:
    case kBinormal:
    case kTangent:
    case kColor3: return 12;
    case kColor4: return 16;
    case kUv:
    case kBoneWeight: return 8;
    default: return 0;
  }
}

struct RigidPose {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

// The zero quaternion becomes the identity; callers reject or report it before.
inline glm::dquat unitDouble(const glm::dquat& d) {
  const double len = std::sqrt(d.w * d.w + d.x * d.x + d.y * d.y + d.z * d.z);
  if (!(len > 0.0)) return glm::dquat(1.0, 0.0, 0.0, 0.0);
  return glm::dquat(d.w / len, d.x / len, d.y / len, d.z / len);
}
inline glm::dquat unitDouble(const glm::quat& q) {
  return unitDouble(glm::dquat(q.w, q.x, q.y, q.z));
}

inline glm::quat toFloat(const glm::dquat& q) {
  return glm::quat(static_cast<float>(q.w), static_cast<float>(q.x), static_cast<float>(q.y),
                   static_cast<float>(q.z));
}
inline glm::quat normalized(const glm::dquat& q) {
  return toFloat(unitDouble(q));
}

// Armature space (the file, spec: Bone record) → relative to the parent (the model's Bone), in
// double so that each float result is the one nearest the exact value. Only the parent's
// rotation is normalised: the child's keeps its length, so that localToArmature gives back
// the very floats it started from, up to one rounding.
inline RigidPose armatureToLocal(const RigidPose* parent, const RigidPose& armature) {
  glm::dvec3 t(armature.position);
  glm::dquat q(armature.rotation.w, armature.rotation.x, armature.rotation.y, armature.rotation.z);
  if (parent) {
    const glm::dquat inv = glm::conjugate(unitDouble(parent->rotation));
    t = inv * (t - glm::dvec3(parent->position));
    q = inv * q;
  }
  return {glm::vec3(t), toFloat(q)};
}

// The inverse of armatureToLocal: `parent` is the parent's armature-space pose as stored.
inline RigidPose localToArmature(const RigidPose* parent, const RigidPose& local) {
  glm::dvec3 t(local.position);
  glm::dquat q(local.rotation.w, local.rotation.x, local.rotation.y, local.rotation.z);
  if (parent) {
    const glm::dquat p = unitDouble(parent->rotation);
    t = glm::dvec3(parent->position) + p * t;
    q = p * q;
  }
  return {glm::vec3(t), toFloat(q)};
}

}  // namespace marrow::formats::omf
