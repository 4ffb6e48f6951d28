// Mount&Blade BRF files as models: which records make a model, and the model they make.
//
// A BRF file is an archive of records (document.h); a model is some of them: meshes, the
// skeleton they are rigged to, the animations that play on it, their materials and textures,
// collision bodies. The records may come from several open files (a module keeps skeletons,
// animations and armour in different files), so everything here works on a list of sources.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/brf/document.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::brf {

// BRF times are frame numbers (spec §9: the game's actions.txt says how long a range of them
// lasts); Marrow plays them at this rate, so a clip's frame n is the file's time n.
inline constexpr float kFramesPerSecond = 30.0f;

// One open BRF file.
struct Source {
  std::string name;  // the file, for messages and record addresses
  std::shared_ptr<const Document> doc;
  ReadContext ctx;  // finds the textures its materials name (beside it, or in ../Textures)
  std::string note;  // where it comes from, for people ("module.ini line 139, CommonRes"); may be ""
};

// A record of one of the sources.
struct RecordRef {
  std::size_t source = 0;
  Section kind = Section::Mesh;
  std::size_t index = 0;
  bool operator==(const RecordRef&) const = default;
};

// The name of a record, whatever its kind.
const std::string& recordName(const Source& source, Section kind, std::size_t index);
const char* kindName(Section kind);  // "mesh", "skeleton", "animation", …

// Every record of one kind, source by source.
std::vector<RecordRef> allRecords(std::span<const Source> sources, Section kind);

// The highest bone index a mesh's rigging names, or -1 when it is not rigged; and how many
// bones its rigging moves something with.
int maxRiggedBone(const Mesh& mesh);
std::size_t riggedBoneCount(const Mesh& mesh);

// The distinct key times of an animation (rotation and translation keys; a time repeated in a
// track counts once): how many, the first and the last (0 and 0 without keys).
struct KeyTimes {
  std::size_t count = 0;
  std::int32_t first = 0, last = 0;
};
KeyTimes keyTimes(const Animation& animation);

// What a model is made of. Unset means: every mesh, body, animation and material of every
// source, and the skeleton that fits best (fittingSkeletons). Whatever is set, the model also
// has the materials its meshes use (looked up by name in every source) and their textures.
struct Selection {
  std::optional<std::vector<RecordRef>> meshes, bodies, animations, materials;
  std::optional<RecordRef> skeleton;  // set with a skeleton record; or `noSkeleton`
  bool noSkeleton = false;
};

// The skeletons that can play the meshes (more bones than the highest index their rigging
// names) and, when there are animations, one of them (as many bones as it has tracks), in the
// order of the sources. The first is what Marrow picks when nobody chose.
std::vector<RecordRef> fittingSkeletons(std::span<const Source> sources,
                                        std::span<const RecordRef> meshes,
                                        std::span<const RecordRef> animations);

// The model the selected records make, in the files' coordinates (Z up, right-handed, metres;
// Scene::basis says so). Records that cannot be used (an index out of range, a rigged mesh
// without a skeleton to play it) are left out or shown at rest, with a diagnostic; an error is
// returned only when nothing selected could be used. Never throws.
Result<Scene> toScene(std::span<const Source> sources, const Selection& selection = {});

// The records named `names` in source `source` (any kind; a name may match records of several
// kinds), as the selection "these records and what they need": the meshes, bodies, skeletons,
// animations and materials named, and for every kind nothing else of that source. A name that
// matches nothing is an error listing what the file has.
struct Addressed {
  std::vector<RecordRef> records;
};
Result<Addressed> findRecords(std::span<const Source> sources, std::size_t source,
                              std::span<const std::string> names);

// The selection several sources make when some were addressed by record (FILE.brf::RECORD):
// `addressed[i]` empty means all of source i.
Selection selectionFor(std::span<const Source> sources,
                       std::span<const std::vector<RecordRef>> addressed);

// A new file of the given records (every record of every source when `records` is empty), in
// OpenBRF's section order (§2), for a file of `version` (0: M&B 1.011, 1: Warband); meshes take
// that version's vertex layout (setVersion). What the change of version loses is said in `diag`.
Document gather(std::span<const Source> sources, std::span<const RecordRef> records, int version,
                Diagnostics& diag);

// Gives the meshes the vertex layout of `version` (§3, §7.5) as OpenBRF saves them: 1.011
// clears flag bits 16–17, keeps no tangents and repeats uv as uv2; Warband sets bit 17 and drops
// uv2 (a warning when it differed from uv). The file gets the "rfver " token from version 1 on.
void setVersion(Document& doc, int version, Diagnostics& diag);

// A whole file as a model (registry: detection says BRF).
Result<Scene> readBrf(std::span<const std::byte> data, const ReadContext& ctx);

}  // namespace marrow::formats::brf
