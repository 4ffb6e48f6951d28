// The skeleton families (bone_families.h).
#include "render/anim/bone_families.h"

#include <map>
#include <set>

#include "render/anim/bone_names.h"

namespace marrow::anim {

// The joints, in this order in every family: pelvis; the spine low, middle and chest; neck,
// head; then per side (left, right) clavicle, upper arm, forearm, hand, thigh, calf, foot, toe.
const std::vector<BoneFamily>& boneFamilies() {
  static const std::vector<BoneFamily> families = {
      {"3ds Max Biped",
       {"Bip01 Pelvis", "Bip01 Spine", "Bip01 Spine1", "Bip01 Spine2", "Bip01 Neck", "Bip01 Head",
        "Bip01 L Clavicle", "Bip01 L UpperArm", "Bip01 L Forearm", "Bip01 L Hand", "Bip01 L Thigh", "Bip01 L Calf",
        "Bip01 L Foot", "Bip01 L Toe0", "Bip01 R Clavicle", "Bip01 R UpperArm", "Bip01 R Forearm", "Bip01 R Hand",
        "Bip01 R Thigh", "Bip01 R Calf", "Bip01 R Foot", "Bip01 R Toe0"}},
      {"Mixamo",
       {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand",
        "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", "RightShoulder", "RightArm", "RightForeArm", "RightHand",
        "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"}},
      // Warband's skel_human: no neck and no toes; the spine is abdomen, spine, thorax.
      {"Warband skel_human",
       {"abdomen", "spine", "", "thorax", "", "head", "shoulder.L", "upperarm.L", "forearm.L", "hand.L", "thigh.L",
        "calf.L", "foot.L", "", "shoulder.R", "upperarm.R", "forearm.R", "hand.R", "thigh.R", "calf.R", "foot.R", ""}},
      {"Blender Rigify metarig",
       {"spine", "spine.001", "spine.002", "spine.003", "spine.004", "spine.006", "shoulder.L", "upper_arm.L",
        "forearm.L", "hand.L", "thigh.L", "shin.L", "foot.L", "toe.L", "shoulder.R", "upper_arm.R", "forearm.R",
        "hand.R", "thigh.R", "shin.R", "foot.R", "toe.R"}},
      {"Unreal mannequin",
       {"pelvis", "spine_01", "spine_02", "spine_03", "neck_01", "head", "clavicle_l", "upperarm_l", "lowerarm_l",
        "hand_l", "thigh_l", "calf_l", "foot_l", "ball_l", "clavicle_r", "upperarm_r", "lowerarm_r", "hand_r",
        "thigh_r", "calf_r", "foot_r", "ball_r"}},
      {"Marrow demo",
       {"pelvis", "spine1", "spine2", "chest", "neck", "head", "clavicle_l", "upperarm_l", "forearm_l", "hand_l",
        "thigh_l", "shin_l", "foot_l", "toe_l", "clavicle_r", "upperarm_r", "forearm_r", "hand_r", "thigh_r",
        "shin_r", "foot_r", "toe_r"}},
  };
  return families;
}

namespace {

// Per family, its loose names → joint.
const std::vector<std::map<std::string, std::size_t, std::less<>>>& looseJoints() {
  static const auto table = [] {
    std::vector<std::map<std::string, std::size_t, std::less<>>> out;
    for (const BoneFamily& f : boneFamilies()) {
      auto& m = out.emplace_back();
      for (std::size_t j = 0; j < f.joints.size(); ++j)
        if (!f.joints[j].empty()) m.emplace(looseBoneName(f.joints[j]), j);
    }
    return out;
  }();
  return table;
}

std::size_t indexOf(const BoneFamily& f) { return static_cast<std::size_t>(&f - boneFamilies().data()); }

}  // namespace

const BoneFamily* familyOf(const std::vector<std::string>& names) {
  const auto& joints = looseJoints();
  // Each name once: a clip's tracks name the same bones clip after clip.
  std::set<std::string> loose;
  for (const std::string& n : names) loose.insert(looseBoneName(n));
  std::vector<std::size_t> count(joints.size(), 0);
  for (const std::string& n : loose)
    for (std::size_t f = 0; f < joints.size(); ++f) count[f] += joints[f].count(n);
  std::size_t best = 0, tied = 0;
  for (std::size_t f = 1; f < count.size(); ++f) {
    if (count[f] > count[best]) best = f, tied = 0;
    else if (count[f] == count[best]) ++tied;
  }
  if (count.empty() || count[best] < 5 || tied) return nullptr;
  return &boneFamilies()[best];
}

const BoneFamily* familyOf(const formats::Skeleton& skeleton) {
  std::vector<std::string> names;
  names.reserve(skeleton.bones.size());
  for (const formats::Bone& b : skeleton.bones) names.push_back(b.name);
  return familyOf(names);
}

std::string_view familyPartner(const BoneFamily& from, const BoneFamily& to, std::string_view name) {
  const auto& joints = looseJoints()[indexOf(from)];
  const auto it = joints.find(looseBoneName(name));
  if (it == joints.end() || it->second >= to.joints.size()) return {};
  return to.joints[it->second];
}

}  // namespace marrow::anim
