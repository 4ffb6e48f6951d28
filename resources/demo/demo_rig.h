// The demo character's rig: bone ids and the rest-pose joint positions that the skeleton, the
// mesh and the actions all build on. Internal to resources/demo.
//
// Model space is OMF's: Y-up, right-handed, metres, the character facing +Z, so its left side is
// +X. Every bone's rest rotation is the identity: a bone's local axes are the model axes at rest,
// which keeps the hand-written keys readable (a rotation about X swings a limb forwards or back).
#pragma once

#include <array>

#include "formats/model/glm.h"

namespace marrow::demo {

enum BoneId : int {
  kRoot,
  kPelvis,
  kSpine1,
  kSpine2,
  kChest,
  kNeck,
  kHead,
  kClavicleL,
  kUpperArmL,
  kForearmL,
  kHandL,
  kThumbL,
  kFingersL,
  kClavicleR,
  kUpperArmR,
  kForearmR,
  kHandR,
  kThumbR,
  kFingersR,
  kThighL,
  kShinL,
  kFootL,
  kToeL,
  kThighR,
  kShinR,
  kFootR,
  kToeR,
  kBoneCount
};

// +1 for the character's left (+X), -1 for its right.
inline constexpr float kLeft = 1.0f;
inline constexpr float kRight = -1.0f;

const char* boneName(int bone);
int boneParent(int bone);

struct ArmBones {
  int clavicle, upperArm, forearm, hand, thumb, fingers;
};
struct LegBones {
  int thigh, shin, foot, toe;
};
ArmBones armBones(float side);
LegBones legBones(float side);

// The arm at rest: a relaxed A-pose, straight, palm facing the body.
struct ArmGeometry {
  glm::vec3 clavicle, shoulder, elbow, wrist, knuckles, thumbBase;
  glm::vec3 dir;       // shoulder → fingertips
  glm::vec3 palm;      // palm normal, towards the body
  glm::vec3 hinge;     // elbow axis: a positive rotation about it brings the hand forwards (+Z)
  glm::vec3 curl;      // finger axis: a positive rotation about it curls the fingers into the palm
  glm::vec3 thumbDir;  // thumb base → thumb tip
};
ArmGeometry armGeometry(float side);

struct LegGeometry {
  glm::vec3 hip, knee, ankle, ball;
};
LegGeometry legGeometry(float side);

// Where the sole of a flat foot touches the ground, relative to the ankle joint.
inline constexpr glm::vec3 kHeelFromAnkle{0.0f, -0.088f, -0.068f};
inline constexpr glm::vec3 kBallFromAnkle{0.0f, -0.088f, 0.125f};

// Rest-pose joint positions in model space, one per bone.
std::array<glm::vec3, kBoneCount> restJoints();

inline constexpr float kHeadCenterY = 1.643f;

}  // namespace marrow::demo
