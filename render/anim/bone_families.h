// The skeleton families modders meet, as one table of a humanoid's joints and what each family
// calls them: 3ds Max's Biped (and Dragon Nest's Bip01 layout), Mixamo, Warband's skel_human,
// Blender's Rigify metarig, Unreal's mannequin and Marrow's demo character. Two skeletons of
// different families pair their bones by joint ("Bip01 L Thigh" is "thigh.L"). No Qt, no GL.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::anim {

struct BoneFamily {
  std::string_view name;                  // "3ds Max Biped"
  std::vector<std::string_view> joints;   // per joint of the table, the family's name ("" if none)
};

// Every family, each with one name per joint of the same table.
const std::vector<BoneFamily>& boneFamilies();

// The family most of `names` belong to (compared loosely, bone_names.h, each name once), when at
// least 5 do and no other family has as many; else null.
const BoneFamily* familyOf(const std::vector<std::string>& names);
const BoneFamily* familyOf(const formats::Skeleton& skeleton);

// The name `to` gives the joint `from` calls `name` (loosely compared), or "" when `from` has no
// such joint or `to` lacks it. Both are families of boneFamilies().
std::string_view familyPartner(const BoneFamily& from, const BoneFamily& to, std::string_view name);

}  // namespace marrow::anim
