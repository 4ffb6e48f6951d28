#include <cmath>
#include <glm/geometric.hpp>

#include "resources/demo/demo_character.h"
#include "resources/demo/demo_rig.h"

namespace marrow::demo {
namespace {

// Names stay within OMF's 16 bytes (spec: name16) so they survive the writer unchanged.
constexpr std::array<const char*, kBoneCount> kBoneNames = {
    "root",       "pelvis",     "spine1",    "spine2",  "chest",     "neck",      "head",
    "clavicle_l", "upperarm_l", "forearm_l", "hand_l",  "thumb_l",   "fingers_l", "clavicle_r",
    "upperarm_r", "forearm_r",  "hand_r",    "thumb_r", "fingers_r", "thigh_l",   "shin_l",
    "foot_l",     "toe_l",      "thigh_r",   "shin_r",  "foot_r",    "toe_r"};

constexpr std::array<int, kBoneCount> kParents = {
    -1,         kRoot,     kPelvis, kSpine1, kSpine2, kChest,     kNeck,      kChest,    kClavicleL,
    kUpperArmL, kForearmL, kHandL,  kHandL,  kChest,  kClavicleR, kUpperArmR, kForearmR, kHandR,
    kHandR,     kPelvis,   kThighL, kShinL,  kFootL,  kPelvis,    kThighR,    kShinR,    kFootR};

// A relaxed A-pose: far enough from the body that the arm and the torso do not overlap at rest
// (which keeps the bind pose easy to read), close enough that walking only swings it ~30°.
constexpr float kArmAngleDeg = 40.0f;
constexpr float kUpperArmLength = 0.27f;
constexpr float kForearmLength = 0.245f;
constexpr float kPalmLength = 0.096f;

}  // namespace

const char* boneName(int bone) {
  return kBoneNames.at(static_cast<std::size_t>(bone));
}
int boneParent(int bone) {
  return kParents.at(static_cast<std::size_t>(bone));
}

ArmBones armBones(float side) {
  if (side > 0) return {kClavicleL, kUpperArmL, kForearmL, kHandL, kThumbL, kFingersL};
  return {kClavicleR, kUpperArmR, kForearmR, kHandR, kThumbR, kFingersR};
}

LegBones legBones(float side) {
  if (side > 0) return {kThighL, kShinL, kFootL, kToeL};
  return {kThighR, kShinR, kFootR, kToeR};
}

ArmGeometry armGeometry(float side) {
  const float a = glm::radians(kArmAngleDeg);
  const glm::vec3 front(0.0f, 0.0f, 1.0f);
  ArmGeometry g;
  g.clavicle = {side * 0.03f, 1.40f, -0.005f};
  g.shoulder = {side * 0.176f, 1.39f, -0.012f};
  g.dir = {side * std::sin(a), -std::cos(a), 0.0f};
  g.palm = {-side * std::cos(a), -std::sin(a), 0.0f};
  g.hinge = glm::normalize(glm::cross(g.dir, front));
  g.curl = glm::normalize(glm::cross(g.dir, g.palm));
  g.elbow = g.shoulder + g.dir * kUpperArmLength;
  g.wrist = g.elbow + g.dir * kForearmLength;
  g.knuckles = g.wrist + g.dir * kPalmLength;
  g.thumbBase = g.wrist + g.dir * 0.022f + front * 0.024f + g.palm * 0.008f;
  g.thumbDir = glm::normalize(g.dir * 0.6f + front * 0.65f + g.palm * 0.35f);
  return g;
}

LegGeometry legGeometry(float side) {
  LegGeometry g;
  g.hip = {side * 0.092f, 0.93f, 0.0f};
  g.knee = {side * 0.095f, 0.505f, 0.015f};
  g.ankle = {side * 0.098f, 0.088f, -0.005f};
  g.ball = g.ankle + glm::vec3(0.0f, -0.053f, kBallFromAnkle.z);
  return g;
}

std::array<glm::vec3, kBoneCount> restJoints() {
  std::array<glm::vec3, kBoneCount> j{};
  j[kRoot] = {0.0f, 0.0f, 0.0f};
  j[kPelvis] = {0.0f, 0.95f, 0.0f};
  j[kSpine1] = {0.0f, 1.06f, -0.004f};
  j[kSpine2] = {0.0f, 1.175f, -0.008f};
  j[kChest] = {0.0f, 1.29f, -0.012f};
  j[kNeck] = {0.0f, 1.455f, -0.018f};
  j[kHead] = {0.0f, 1.555f, -0.005f};
  for (float side : {kLeft, kRight}) {
    const ArmGeometry a = armGeometry(side);
    const ArmBones ab = armBones(side);
    j[ab.clavicle] = a.clavicle;
    j[ab.upperArm] = a.shoulder;
    j[ab.forearm] = a.elbow;
    j[ab.hand] = a.wrist;
    j[ab.thumb] = a.thumbBase;
    j[ab.fingers] = a.knuckles;
    const LegGeometry l = legGeometry(side);
    const LegBones lb = legBones(side);
    j[lb.thigh] = l.hip;
    j[lb.shin] = l.knee;
    j[lb.foot] = l.ankle;
    j[lb.toe] = l.ball;
  }
  return j;
}

formats::Skeleton makeDemoSkeleton() {
  const auto joints = restJoints();
  formats::Skeleton s;
  s.bones.resize(kBoneCount);
  for (int i = 0; i < kBoneCount; ++i) {
    formats::Bone& b = s.bones[static_cast<std::size_t>(i)];
    b.name = boneName(i);
    b.parent = boneParent(i);
    b.translation = b.parent >= 0 ? joints[i] - joints[b.parent] : joints[i];
  }
  return s;
}

}  // namespace marrow::demo
