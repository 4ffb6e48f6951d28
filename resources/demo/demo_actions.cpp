// The demo character's actions, keyed at every frame at 30 fps from procedural poses:
// - walk: an in-place cycle; the feet follow a heel-strike / flat / heel-off / swing path that
//   moves back at walking speed during stance (so they stay planted when the character moves
//   forward at that speed) and the legs reach them by two-bone IK;
// - wave: the right arm rises, the forearm waves side to side from the elbow, the arm comes
//   back down, over a relaxed idle;
// - idle: breathing and a slow weight shift.
// Every action loops: its last key is its first.
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <numbers>

#include "resources/demo/demo_character.h"
#include "resources/demo/demo_rig.h"

namespace marrow::demo {
namespace {

constexpr float kFps = 30.0f;
constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;
constexpr glm::vec3 kX{1.0f, 0.0f, 0.0f};
constexpr glm::vec3 kY{0.0f, 1.0f, 0.0f};
constexpr glm::vec3 kZ{0.0f, 0.0f, 1.0f};

glm::quat rot(float degrees, const glm::vec3& axis) {
  return glm::angleAxis(glm::radians(degrees), glm::normalize(axis));
}
// Yaw, then pitch, then roll, each in the parent's (rest-aligned) axes.
glm::quat ypr(float yaw, float pitch, float roll) {
  return rot(yaw, kY) * rot(pitch, kX) * rot(roll, kZ);
}
// Toe-up angle of a foot: positive lifts the toes, negative lifts the heel.
glm::quat footPitch(float toeUp) {
  return rot(-toeUp, kX);
}

float ease(float x) {
  const float t = std::clamp(x, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

// Local transforms, one per bone (rest rotations are the identity).
struct Pose {
  std::array<glm::vec3, kBoneCount> t;
  std::array<glm::quat, kBoneCount> r;
};

Pose restPose() {
  const auto joints = restJoints();
  Pose p;
  for (int i = 0; i < kBoneCount; ++i) {
    const int parent = boneParent(i);
    p.t[i] = parent >= 0 ? joints[i] - joints[parent] : joints[i];
    p.r[i] = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  }
  return p;
}

struct World {
  std::array<glm::vec3, kBoneCount> p;
  std::array<glm::quat, kBoneCount> r;
};

World forward(const Pose& pose) {
  World w;
  for (int i = 0; i < kBoneCount; ++i) {
    const int parent = boneParent(i);
    if (parent < 0) {
      w.p[i] = pose.t[i];
      w.r[i] = pose.r[i];
    } else {
      w.p[i] = w.p[parent] + w.r[parent] * pose.t[i];
      w.r[i] = w.r[parent] * pose.r[i];
    }
  }
  return w;
}

// The rotation taking direction a0 to a1 and, around it, b0 as close as it can to b1.
glm::quat frameRotation(const glm::vec3& a0, const glm::vec3& b0, const glm::vec3& a1,
                        const glm::vec3& b1) {
  auto frame = [](const glm::vec3& a, const glm::vec3& b) {
    const glm::vec3 e1 = glm::normalize(a);
    const glm::vec3 e2 = glm::normalize(b - e1 * glm::dot(b, e1));
    return glm::mat3(e1, e2, glm::cross(e1, e2));
  };
  return glm::normalize(glm::quat_cast(frame(a1, b1) * glm::transpose(frame(a0, b0))));
}

// Two-bone IK for one leg: the ankle reaches `ankle` (or as close as the leg allows), the knee
// points along `pole`, the foot ends up with model-space rotation `foot`. Returns how far the
// leg is stretched (distance / length) so callers can keep it below 1.
float solveLeg(Pose& pose, float side, const glm::vec3& ankle, const glm::quat& foot,
               const glm::vec3& pole) {
  const LegBones b = legBones(side);
  const World w = forward(pose);
  const glm::vec3 hip = w.p[b.thigh];
  const glm::vec3 restThigh = pose.t[b.shin];  // hip → knee at rest
  const glm::vec3 restShin = pose.t[b.foot];   // knee → ankle at rest
  const float l1 = glm::length(restThigh), l2 = glm::length(restShin);
  const glm::vec3 toAnkle = ankle - hip;
  const float want = glm::length(toAnkle);
  const float d = std::clamp(want, std::fabs(l1 - l2) + 1e-3f, (l1 + l2) * 0.9999f);
  const glm::vec3 u = toAnkle / want;
  const glm::vec3 poleDir = glm::normalize(pole - u * glm::dot(pole, u));
  const float cosHip = std::clamp((l1 * l1 + d * d - l2 * l2) / (2.0f * l1 * d), -1.0f, 1.0f);
  const float hipAngle = std::acos(cosHip);
  const glm::vec3 knee = hip + l1 * (std::cos(hipAngle) * u + std::sin(hipAngle) * poleDir);
  const glm::vec3 reached = hip + u * d;
  const glm::quat thigh = frameRotation(restThigh, kZ, knee - hip, poleDir);
  const glm::quat shin = frameRotation(restShin, kZ, reached - knee, poleDir);
  pose.r[b.thigh] = glm::inverse(w.r[kPelvis]) * thigh;
  pose.r[b.shin] = glm::inverse(thigh) * shin;
  pose.r[b.foot] = glm::inverse(shin) * foot;
  return want / (l1 + l2);
}

// Direction a turned towards b by the fraction t of the angle between them.
glm::vec3 slerpDirection(const glm::vec3& a, const glm::vec3& b, float t) {
  const glm::vec3 axis = glm::cross(a, b);
  const float len = glm::length(axis);
  if (len < 1e-6f) return a;
  const float angle = std::atan2(len, glm::dot(a, b));
  return glm::angleAxis(angle * t, axis / len) * a;
}

// ---------------------------------------------------------------------------------------------
// Walk

constexpr int kWalkFrames = 33;   // 1.1 s per cycle (two steps)
constexpr float kStride = 1.12f;  // metres the body travels per cycle: 1.02 m/s
constexpr float kDuty = 0.62f;    // fraction of the cycle a foot is on the ground
constexpr float kFlatAt = 0.08f;  // heel rocker ends: the foot is flat
constexpr float kHeelOffAt = 0.36f;
constexpr float kStrikePitch = 15.0f;   // toes up at heel strike
constexpr float kToeOffPitch = -38.0f;  // heel up at toe-off
constexpr float kStrikeZ = 0.31f;       // ankle z of the flat foot at heel strike
constexpr float kSwingLift = 0.05f;

struct FootState {
  glm::vec3 ankle;
  float pitch = 0.0f;    // toe-up degrees
  float toeBend = 0.0f;  // toe bone rotation relative to the foot, degrees (toe-up positive)
};

// Rotating the foot by `pitch` about a point of the sole that stays on the ground.
glm::vec3 pivot(const glm::vec3& flatAnkle, const glm::vec3& contactFromAnkle, float pitch) {
  const glm::vec3 contact = flatAnkle + contactFromAnkle;
  return contact + footPitch(pitch) * (flatAnkle - contact);
}

FootState stanceFoot(float side, float q) {
  const float x = legGeometry(side).ankle.x;
  const glm::vec3 flat(x, legGeometry(side).ankle.y, kStrikeZ - kStride * q);
  FootState f;
  if (q < kFlatAt) {
    const float k = 1.0f - q / kFlatAt;
    f.pitch = kStrikePitch * k * k;  // the foot slaps down fast, then settles
    f.ankle = pivot(flat, kHeelFromAnkle, f.pitch);
  } else if (q < kHeelOffAt) {
    f.ankle = flat;
  } else {
    const float k = (q - kHeelOffAt) / (kDuty - kHeelOffAt);
    f.pitch = kToeOffPitch * k * k;  // the heel rises slowly, then quickly
    f.ankle = pivot(flat, kBallFromAnkle, f.pitch);
    f.toeBend = -f.pitch;  // the toes stay flat on the ground
  }
  return f;
}

FootState footAt(float side, float q) {
  if (q <= kDuty) return stanceFoot(side, q);
  const float s = (q - kDuty) / (1.0f - kDuty);
  const FootState a = stanceFoot(side, kDuty);
  const FootState b = stanceFoot(side, 0.0f);
  FootState f;
  // Forwards with a slight reach past the strike point at the end (swing retraction).
  const float m1 = -0.12f * kStride * (1.0f - kDuty);
  const float s2 = s * s, s3 = s2 * s;
  const float z =
      (2 * s3 - 3 * s2 + 1) * a.ankle.z + (-2 * s3 + 3 * s2) * b.ankle.z + (s3 - s2) * m1;
  // Lift peaks early in the swing, when the knee folds to clear the toes.
  const float lift = kSwingLift * std::sin(std::numbers::pi_v<float> * std::pow(s, 0.8f));
  const float y = a.ankle.y + (b.ankle.y - a.ankle.y) * s + lift;
  f.ankle = {a.ankle.x, y, z};
  f.pitch = a.pitch + (b.pitch - a.pitch) * ease(s / 0.6f);
  f.toeBend = a.toeBend * (1.0f - ease(s / 0.3f));
  return f;
}

// The hip of the forward leg leads.
float walkPelvisYaw(float p) {
  return -6.0f * std::cos(kTwoPi * p);
}

// The walk's body motion for phase p in [0, 1); p = 0 is the left heel strike.
Pose walkBody(float p, float pelvisDrop) {
  Pose pose = restPose();
  const float c1 = std::cos(kTwoPi * p), s1 = std::sin(kTwoPi * p);
  // Lowest just after each contact (the "down" pose), highest after passing ("up").
  const float bob = -0.014f * std::cos(2.0f * kTwoPi * (p - 0.06f));
  const float sway = 0.016f * s1;  // over the stance foot
  pose.t[kPelvis] += glm::vec3(sway, bob - pelvisDrop, 0.0f);
  const float pelvisYaw = walkPelvisYaw(p);
  const float pelvisRoll = 4.0f * std::sin(kTwoPi * (p + 0.1f));  // swing-side hip drops
  pose.r[kPelvis] = ypr(pelvisYaw, 2.0f, pelvisRoll);
  // The spine counter-rotates so the chest turns against the pelvis and stays level.
  const float chestYaw = 4.0f * c1;
  const float spineYaw = (chestYaw - pelvisYaw) / 3.0f;
  const float spineRoll = -0.8f * pelvisRoll / 3.0f;
  const float breath = 0.8f * std::cos(2.0f * kTwoPi * (p - 0.1f));
  pose.r[kSpine1] = ypr(spineYaw, 2.0f, spineRoll);
  pose.r[kSpine2] = ypr(spineYaw, 1.0f, spineRoll);
  pose.r[kChest] = ypr(spineYaw, -breath, spineRoll);
  // The head keeps looking ahead, level.
  const float headRoll = -0.2f * pelvisRoll;
  pose.r[kNeck] = ypr(-0.5f * chestYaw, -1.5f, headRoll);
  pose.r[kHead] = ypr(-0.5f * chestYaw, -2.5f + 1.2f * breath, headRoll);
  // Arms swing against the legs, lagging a little behind the body.
  for (float side : {kLeft, kRight}) {
    const ArmBones b = armBones(side);
    const ArmGeometry g = armGeometry(side);
    const float swing = -side * 20.0f * std::cos(kTwoPi * (p - 0.06f));  // + is forwards
    const float forwardness = std::max(0.0f, swing) / 20.0f;
    pose.r[b.clavicle] = rot(side * 1.5f * forwardness, kZ);
    pose.r[b.upperArm] = rot(-swing, kX) * rot(-side * 30.0f, kZ) * rot(-side * 8.0f, g.dir);
    pose.r[b.forearm] = rot(14.0f + 18.0f * forwardness, g.hinge);
    pose.r[b.hand] = rot(8.0f, g.curl) * rot(-4.0f, g.hinge);
    pose.r[b.fingers] = rot(16.0f, g.curl);
    pose.r[b.thumb] = rot(8.0f, g.curl);
  }
  return pose;
}

// Sets the legs of a walk pose; returns the largest leg stretch.
float walkLegs(Pose& pose, float p) {
  float stretch = 0.0f;
  // Knees point where the pelvis faces.
  const glm::vec3 pole = rot(walkPelvisYaw(p), kY) * kZ;
  for (float side : {kLeft, kRight}) {
    const float q = std::fmod(p + (side > 0 ? 0.0f : 0.5f), 1.0f);
    const FootState f = footAt(side, q);
    stretch = std::max(stretch, solveLeg(pose, side, f.ankle, footPitch(f.pitch), pole));
    pose.r[legBones(side).toe] = footPitch(f.toeBend);
  }
  return stretch;
}

std::vector<Pose> walkPoses() {
  // Drop the pelvis just enough that no leg has to stretch straight to reach its foot.
  float drop = 0.0f;
  for (; drop < 0.2f; drop += 0.001f) {
    float stretch = 0.0f;
    for (int f = 0; f < kWalkFrames; ++f) {
      const float p = static_cast<float>(f) / kWalkFrames;
      Pose pose = walkBody(p, drop);
      stretch = std::max(stretch, walkLegs(pose, p));
    }
    if (stretch <= 0.993f) break;
  }
  std::vector<Pose> poses;
  for (int f = 0; f < kWalkFrames; ++f) {
    const float p = static_cast<float>(f) / kWalkFrames;
    Pose pose = walkBody(p, drop);
    walkLegs(pose, p);
    poses.push_back(pose);
  }
  poses.push_back(poses.front());
  return poses;
}

// ---------------------------------------------------------------------------------------------
// Standing: idle and the wave share it.

// A relaxed stand at time t of a loop lasting `period`: breathing, a small weight shift, soft
// knees, feet planted where they stand at rest (turned out a little).
Pose standing(float t, float period) {
  Pose pose = restPose();
  const float w = kTwoPi * t / period;
  const float breath = std::sin(w);        // one breath per loop
  const float shift = std::sin(w + 0.6f);  // weight moves from foot to foot
  pose.t[kPelvis] += glm::vec3(0.012f * shift, -0.006f + 0.002f * breath, 0.0f);
  const float pelvisRoll = -1.5f * shift;  // the loaded hip rises
  pose.r[kPelvis] = ypr(1.5f * std::sin(w - 0.4f), 1.0f, pelvisRoll);
  pose.r[kSpine1] = ypr(0.0f, 0.5f, -0.4f * pelvisRoll);
  pose.r[kSpine2] = ypr(0.0f, -0.5f * breath, -0.4f * pelvisRoll);
  pose.r[kChest] = ypr(-0.5f * std::sin(w - 0.4f), -1.2f * breath, -0.2f * pelvisRoll);
  pose.r[kNeck] = ypr(0.0f, 0.5f * breath, 0.0f);
  pose.r[kHead] = ypr(3.0f * std::sin(w + 1.0f), -1.0f + 1.0f * breath, 1.0f * shift);
  for (float side : {kLeft, kRight}) {
    const ArmBones b = armBones(side);
    const ArmGeometry g = armGeometry(side);
    pose.r[b.clavicle] = rot(side * 1.5f * breath, kZ);  // shoulders rise as the chest fills
    pose.r[b.upperArm] =
        rot(-side * (29.0f - 1.0f * breath), kZ) * rot(-side * 8.0f, g.dir) * rot(-2.0f, g.hinge);
    pose.r[b.forearm] = rot(13.0f + 2.0f * breath, g.hinge);
    pose.r[b.hand] = rot(10.0f, g.curl);
    pose.r[b.fingers] = rot(14.0f + 3.0f * breath, g.curl);
    pose.r[b.thumb] = rot(12.0f, g.curl);
  }
  for (float side : {kLeft, kRight}) {
    const LegGeometry g = legGeometry(side);
    const glm::quat turnOut = rot(side * 6.0f, kY);
    solveLeg(pose, side, g.ankle, turnOut, turnOut * kZ);
  }
  return pose;
}

constexpr int kIdleFrames = 90;  // 3 s

std::vector<Pose> idlePoses() {
  std::vector<Pose> poses;
  for (int f = 0; f < kIdleFrames; ++f)
    poses.push_back(standing(static_cast<float>(f) / kFps, kIdleFrames / kFps));
  poses.push_back(poses.front());
  return poses;
}

constexpr int kWaveFrames = 84;  // 2.8 s
constexpr float kRaiseEnd = 0.55f, kLowerStart = 2.25f, kLowerEnd = 2.75f;
constexpr float kWavePeriod = 0.5f;

std::vector<Pose> wavePoses() {
  const float duration = kWaveFrames / kFps;
  const ArmGeometry g = armGeometry(kRight);
  const ArmBones b = armBones(kRight);
  std::vector<Pose> poses;
  for (int frame = 0; frame < kWaveFrames; ++frame) {
    const float t = static_cast<float>(frame) / kFps;
    Pose pose = standing(t, duration);
    const Pose idle = pose;
    // 0 → 1 while the arm rises, 1 while it waves, back to 0 as it comes down.
    const float up =
        ease(t / kRaiseEnd) * (1.0f - ease((t - kLowerStart) / (kLowerEnd - kLowerStart)));
    // The waving itself fades in and out so the arm arrives and leaves at rest.
    const float waveT = t - kRaiseEnd * 0.6f;
    const float envelope = ease(waveT / 0.3f) * (1.0f - ease((t - (kLowerStart - 0.1f)) / 0.3f));
    const float swing = envelope * 24.0f * std::sin(kTwoPi * waveT / kWavePeriod);
    // In chest space: upper arm out to the side and a little up and forwards; forearm up,
    // swinging in the frontal plane about the elbow (pure elbow flexion: no twist to skin).
    const glm::vec3 upper = glm::normalize(glm::vec3(-0.92f, 0.2f, 0.26f));
    const float phi = glm::radians(-6.0f + swing);  // + swings the hand outwards (-X)
    const glm::vec3 fore = glm::normalize(glm::vec3(-std::sin(phi), std::cos(phi), 0.18f));
    const glm::quat clavicle = rot(-10.0f, kZ) * rot(4.0f, kY);  // the shoulder lifts
    // Between idle and wave, interpolate the arm's directions rather than its rotations: the
    // hand then comes up in front of the body, the way people raise a hand, and the elbow
    // stays a pure hinge all the way. The forearm leads on the way up and trails coming down.
    const glm::quat idleUpper = idle.r[b.clavicle] * idle.r[b.upperArm];
    const glm::vec3 idleUpperDir = idleUpper * g.dir;
    const glm::vec3 idleForeDir = idleUpper * (idle.r[b.forearm] * g.dir);
    const float foreUp = ease(std::min(1.0f, up * 1.4f));
    const glm::vec3 u = slerpDirection(idleUpperDir, upper, up);
    const glm::vec3 f = slerpDirection(idleForeDir, fore, foreUp);
    const glm::quat clav = glm::slerp(idle.r[b.clavicle], clavicle, up);
    pose.r[b.clavicle] = clav;
    pose.r[b.upperArm] =
        glm::inverse(clav) * frameRotation(g.dir, g.hinge, u, glm::normalize(glm::cross(u, f)));
    pose.r[b.forearm] =
        rot(glm::degrees(std::acos(std::clamp(glm::dot(u, f), -1.0f, 1.0f))), g.hinge);
    const float lagged = envelope * 24.0f * std::sin(kTwoPi * (waveT - 0.06f) / kWavePeriod);
    Pose wave = pose;
    wave.r[b.hand] = rot(-0.45f * lagged, g.hinge);  // the hand flaps after the forearm
    wave.r[b.fingers] = rot(6.0f, g.curl);
    wave.r[b.thumb] = rot(-8.0f, g.curl);
    for (int bone : {b.hand, b.fingers, b.thumb})
      pose.r[bone] = glm::slerp(idle.r[bone], wave.r[bone], up);
    // A friendly head tilt towards the waving hand, and the chest opens slightly.
    const glm::quat tilt = ypr(-4.0f * up, -2.0f * up, 7.0f * up);
    pose.r[kHead] = pose.r[kHead] * tilt;
    pose.r[kChest] = pose.r[kChest] * ypr(-3.0f * up, 0.0f, 1.5f * up);
    poses.push_back(pose);
  }
  poses.push_back(poses.front());
  return poses;
}

// ---------------------------------------------------------------------------------------------

// Frames of one bone that linear translation and shortest-path slerp between the kept
// neighbours cannot reproduce closely (greedy, first and last always kept). Translation and
// rotation share their key times, as OMF keyframes hold both.
std::vector<std::size_t> keptFrames(const std::vector<Pose>& poses, int bone) {
  constexpr float kMaxDistance = 1e-4f;  // metres
  constexpr float kMaxAngle = 5e-4f;     // radians (0.03°)
  auto reproduces = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from + 1; k < to; ++k) {
      const float f = static_cast<float>(k - from) / static_cast<float>(to - from);
      const glm::vec3 t = glm::mix(poses[from].t[bone], poses[to].t[bone], f);
      const glm::quat r = glm::slerp(poses[from].r[bone], poses[to].r[bone], f);
      const float cosHalf = std::min(1.0f, std::fabs(glm::dot(r, poses[k].r[bone])));
      if (glm::length(t - poses[k].t[bone]) > kMaxDistance || 2.0f * std::acos(cosHalf) > kMaxAngle)
        return false;
    }
    return true;
  };
  std::vector<std::size_t> kept = {0};
  for (std::size_t j = 1; j + 1 < poses.size(); ++j)
    if (!reproduces(kept.back(), j + 1)) kept.push_back(j);
  kept.push_back(poses.size() - 1);
  return kept;
}

formats::Clip toClip(std::string_view name, const std::vector<Pose>& poses) {
  formats::Clip clip;
  clip.name = std::string(name);
  clip.frameRate = kFps;
  clip.duration = static_cast<float>(poses.size() - 1) / kFps;
  const Pose rest = restPose();
  for (int bone = 0; bone < kBoneCount; ++bone) {
    if (bone == kRoot) continue;  // in place: the root never moves
    bool moves = false;
    for (const Pose& p : poses) {
      moves = moves || glm::length(p.t[bone] - rest.t[bone]) > 1e-6f ||
              std::fabs(glm::dot(p.r[bone], rest.r[bone])) < 1.0f - 1e-7f;
    }
    if (!moves) continue;
    formats::Track track;
    track.bone = boneName(bone);
    track.sourceIndex = bone;
    glm::quat previous = poses.front().r[bone];
    for (std::size_t f : keptFrames(poses, bone)) {
      const float t = static_cast<float>(f) / kFps;
      glm::quat q = glm::normalize(poses[f].r[bone]);
      // Keep neighbouring keys in one hemisphere: the same rotations, friendlier to writers
      // and tools that interpolate component-wise.
      if (glm::dot(q, previous) < 0.0f) q = -q;
      previous = q;
      track.translation.add(t, poses[f].t[bone]);
      track.rotation.add(t, q);
    }
    clip.tracks.push_back(std::move(track));
  }
  return clip;
}

}  // namespace

std::vector<formats::Clip> makeDemoClips() {
  std::vector<formats::Clip> clips;
  clips.push_back(toClip(kWalkClip, walkPoses()));
  clips.push_back(toClip(kWaveClip, wavePoses()));
  clips.push_back(toClip(kIdleClip, idlePoses()));
  return clips;
}

}  // namespace marrow::demo
