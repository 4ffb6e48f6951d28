// What the cal3d readers and writers share: the conversions between cal3d's conventions and the
// model's (one place, so that reading and writing are exact inverses), strings, names, errors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/byte_reader.h"
#include "formats/io/byte_writer.h"
#include "formats/io/guarded.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"
#include "formats/model/texture_table.h"

namespace marrow::formats::cal3d {

// Readers return through formats::guarded (formats/io/guarded.h).
using formats::guarded;

inline constexpr int kEarliestVersion = 699;
inline constexpr int kLatestVersion = 1301;

// The versions the writers write (writer.h WriteOptions): the plain layout's 699–910 and
// 1000–1100, the 0.13 trunk's 1300 and the fork's 1301. The IMVU fork's 911–999 are not (its
// 913–918 animations exist only bit-packed).
bool writableVersion(int version);
// The error a writer returns for a version writableVersion refuses.
FormatError versionError(int version);

// The basis cal3d data is in (§2): Z-up, right-handed, units unknown.
inline Basis cal3dBasis(float unitMeters = 1.0f) { return Basis{Axis::Z, true, unitMeters}; }

// cal3d stores quaternions that rotate by their conjugate (§10.1): the model holds ordinary
// rotations, so both directions conjugate. (x, y, z, w) as the file orders them.
glm::quat quatFromFile(float x, float y, float z, float w);
std::array<float, 4> quatToFile(const glm::quat& q);

// Whether a stored quaternion (x, y, z, w) has (almost) no length: such a value is no rotation
// and cannot be renormalised (§8), so every reader, binary and XML, rejects it with
// kZeroQuaternionMessage.
bool isZeroQuaternion(const std::array<float, 4>& q);
inline constexpr std::string_view kZeroQuaternionMessage =
    "is the zero quaternion, which is no rotation";

// Bone space (§3, §10.3): InverseBind = Translate(t) · Rotate(conj r) with (t, r) as stored.
glm::mat4 inverseBindFromFile(const glm::vec3& translation, const std::array<float, 4>& rotation);
struct BoneSpace {
  glm::vec3 translation{0.0f};
  std::array<float, 4> rotation{0.0f, 0.0f, 0.0f, 1.0f};  // as the file stores it
};
// What a writer stores for bone `bone` with inverse bind `inverseBind`: the values the file had
// (Skeleton::inverseBindParts) while they still give that matrix, so that a re-written file keeps
// every value; else a pair the reader turns into exactly that matrix where a bounded search finds
// one (so that writing what was read gives the same bytes even without the parts), else the
// nearest one. The search is skipped for skeletons of more than a few hundred bones and gives up
// after about a millisecond per bone (bone_space.cpp).
BoneSpace boneSpaceFor(const Skeleton& skeleton, std::size_t bone, const glm::mat4& inverseBind);

// The model order of a skeleton file's bones (§3, cal3d.h): the file's order while every parent
// precedes its children, else the stable topological order that places, among the bones whose
// parent is placed, the smallest file index first. `parents[i]` is file bone i's parentId: -1 or
// another bone of the file (the readers check that; child lists are theirs to compare).
struct BoneOrder {
  std::vector<std::uint32_t> fileIndexAt;  // model index → file index
  std::vector<int> modelIndexOfFileBone;   // file index → model index
  bool reordered = false;
  // No order exists when parent ids make a cycle, and none within the limits when a bone is
  // nested deeper than `maxDepth`: then `faultyBone` is the file bone whose parentId is to blame
  // and `message` says why ("makes a cycle of parents (1 -> 2 -> 1)", "is nested 1025 bones
  // deep, over the limit of 1024").
  enum class Fault { None, Cycle, TooDeep } fault = Fault::None;
  std::size_t faultyBone = 0;
  std::string message;
};
BoneOrder orderBones(std::span<const std::int64_t> parents, std::uint32_t maxDepth);

// Clips bind by bone name: of bones that share a name (in file order) the first keeps it, later
// ones become "name#2", "name#3"… (names no bone has). Returns the warning to give, empty when no
// name repeats.
std::string makeBoneNamesUnique(std::vector<std::string>& names);

// What a material map is for (MaterialMap::kind), from the map type string that CRF / XRF files
// store from version 1300 on (§6: 3ds Max slot names such as "Diffuse Color", "Opacity") and the
// map's index. Without a type string (earlier versions, or an XRF MAP without TYPE) map 0 is
// "diffuse" and the others "unknown"; an unrecognised type string gives "unknown".
std::string mapKind(std::string_view typeString, std::size_t index);

// Material colours are bytes (§6): the model holds byte / 255.
glm::vec4 colorFromBytes(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a);
std::array<std::uint8_t, 4> colorToBytes(const glm::vec4& c);

// cal3d strings (§2): i32 length including a terminating NUL, then the bytes; the text ends at
// the first NUL. A negative length is an error; 0 is the empty string.
std::string readString(ByteReader& r, std::string_view field, std::uint32_t maxLength);
void writeString(ByteWriter& w, std::string_view s);

// The official binary loader's winding rule (§5; not IMVU's, which never flips): when the first
// face of a submesh, seen against its first vertex's stored normal, is clockwise, every face of
// the submesh is flipped. Returns true when it flipped.
bool applyWindingRule(Mesh& mesh);

// §5 "What vertexColor means": the exporters write (0, 0, 0) at every vertex of a mesh without
// colours, so a submesh whose colours are all exactly (0, 0, 0) has none. Clears the colours of
// such meshes and says so in one diagnostic for the file (nothing when no mesh had them).
void dropPlaceholderColours(std::span<Mesh> meshes, const std::string& file, Diagnostics& diagnostics);

// "path/to/cally_chest.cmf" → "cally_chest".
std::string fileStem(std::string_view path);
// Submesh i of `count` in file `stem`: "stem" when count is 1, else "stem#i".
std::string submeshName(std::string_view stem, std::size_t i, std::size_t count);
// The file a mesh belongs to when writing: its name up to the first '#'.
std::string meshGroup(std::string_view meshName);
// The mesh files writeModel writes, in the order their first mesh comes: each the indices of the
// meshes of one group (meshGroup), which become its submeshes in that order.
std::vector<std::vector<std::size_t>> meshFiles(const Scene& scene);

// The frame rate a clip's key times are multiples of, when the smallest key spacing gives one
// that every key time fits (within a thousandth of a frame); else cal3d's usual 30.
float frameRateOf(const Clip& clip);

// A 3ds Max slot name (§6) that mapKind reads back as `kind` (the kind itself when none does).
std::string mapTypeFor(const std::string& kind);

// One cal3d keyframe: a time with a whole local transform (§4.2).
struct Keyframe {
  float time = 0.0f;
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // model convention (not conjugated)
};
// A clip as a cal3d animation file holds it, whatever the encoding (CAF or XAF): its duration
// and, per track cal3d can store, the bone (model index = file bone id) and its keyframes.
struct CalTrack {
  int bone = 0;
  std::vector<Keyframe> keys;
};
struct CalClip {
  float duration = 0.0f;
  std::vector<CalTrack> tracks;
};
// What both animation writers store for clip `clip` of `scene`: the tracks that name a bone of
// the skeleton and have keys (the first of several for one bone), each as keyframes at the union
// of its translation and rotation key times (each channel sampled there: lerp / shortest slerp,
// holding at the ends, the bone's rest value when a channel is empty; scale keys are dropped), plus
// the keys at the duration that make cal3d loop or hold as Clip::wrapsToFirstKey says (§11).
// What is left out or changed is reported in `diagnostics`. Fails for a clip index out of range,
// a duration that is not over 0, or a clip with no track to store.
Result<CalClip> calClipOf(const Scene& scene, std::size_t clip, Diagnostics& diagnostics);

// Whether a clip has a track cal3d can store as an animation file: keys for a bone of the skeleton.
bool hasBoneKeys(const Clip& clip, const Skeleton& skeleton);

// Morph animations (§7.5) exist in the versions whose meshes hold morph targets: IMVU's
// (911–999) and the 0.13 trunk and fork (1300, 1301); not in the official 700–1200.
inline constexpr bool holdsMorphAnimations(int version) {
  return (version >= 911 && version <= 999) || version == 1300 || version == 1301;
}

// A clip's morph tracks as a morph animation file holds them (morph_animation.cpp). Named: one
// track per target name (IMVU sets it in every submesh having that target; of tracks naming one
// target with different keys the first is kept, reported). Numbered (the fork): one track per
// mesh and target, MESHID the mesh's file in the order writeModel writes them ("name" and
// "name#i" make one file), SUBMESH its place there, MORPHID the target's index; tracks kept
// from a file whose meshes were not loaded ("#MESHID#SUBMESH", "#MORPHID") keep their numbers.
// Fails for a clip index out of range, a duration not over 0, or no track to store.
struct CalMorphTrack {
  std::string name;             // named form
  std::int64_t morphId = -1;    // numbered form
  std::int64_t meshId = -1;
  std::int64_t submesh = -1;
  std::vector<std::pair<float, float>> keys;  // time, weight
};
struct CalMorphClip {
  float duration = 0.0f;
  std::vector<CalMorphTrack> tracks;
  std::size_t unplaced = 0;  // numbered: tracks of meshes or targets the model does not have
};
Result<CalMorphClip> calMorphClipOf(const Scene& scene, std::size_t clip, bool named,
                                    Diagnostics& diagnostics);

}  // namespace marrow::formats::cal3d
