// How the track names of a clip made for one skeleton find the bones of another: a user's map,
// exact names, then loose names (case, separators and known prefixes such as "Bip01 " or
// "mixamorig:" ignored). No Qt, no GL.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::anim {

// A user's bone-name map: `source = target` per line.
struct BoneNameMap {
  std::map<std::string, std::string> pairs;  // track (source bone) name → target bone name
  bool empty() const { return pairs.empty(); }
};

// Parses a map file: one `source = target` per line (split at the first '='; names trimmed of
// spaces and tabs), '#' starts a comment line, blank lines are skipped. A line without '=', an
// empty name or a source named twice is an error naming the file, the line and its byte offset.
formats::Result<BoneNameMap> parseBoneNameMap(std::string_view text, const std::string& fileName);

// The name with case, separators (space, '_', '-', '.') and known prefixes left out, for loose
// matching: "Bip01 L_Thigh" → "l_thigh", "mixamorig:LeftArm" → "leftarm", "Bone_Spine" → "spine".
// A namespace ("Character1:Hips", "Armature|Hips") goes with the prefixes. Never empty for a
// non-empty name: a prefix that is the whole name stays ("Bip01" → "bip01").
std::string looseBoneName(std::string_view name);

enum class MatchKind { Exact, Mapped, Loose, Family };
const char* matchKindName(MatchKind kind);

struct NameMatch {
  int bone = -1;  // index in the target skeleton, -1: no bone
  MatchKind how = MatchKind::Exact;
};

struct BoneFamily;

// Finds bones of one skeleton for names of another. Order: the map (a line whose target the
// skeleton lacks does not apply); when `sourceNames` (the other skeleton's bones, or a clip's
// tracks) and the target belong to two different families of bone_families.h, the target's name
// for the same joint; the exact name; then the loose name when `loose` is set and exactly one
// bone of the skeleton has it.
class BoneMatcher {
 public:
  BoneMatcher(const formats::Skeleton& target, const BoneNameMap* map, bool loose,
              const std::vector<std::string>* sourceNames = nullptr);
  NameMatch find(std::string_view name) const;
  // The two families paired, when they are (else null).
  const BoneFamily* sourceFamily() const { return from_; }
  const BoneFamily* targetFamily() const { return to_; }

 private:
  int looseBone(std::string_view name) const;

  const formats::Skeleton& target_;
  const BoneNameMap* map_;
  bool loose_;
  std::map<std::string, int, std::less<>> looseNames_;  // -2: several bones have the name
  const BoneFamily* from_ = nullptr;
  const BoneFamily* to_ = nullptr;
};

// Every track of `clip` matched against `target` by `matcher`: per track, its bone (-1 for none).
// A bone matched by an earlier kind (map, family, exact, loose) or, within a kind, by an
// earlier track is not given to a second track: that track gets none.
std::vector<NameMatch> matchTracks(const formats::Clip& clip, const BoneMatcher& matcher);

}  // namespace marrow::anim
