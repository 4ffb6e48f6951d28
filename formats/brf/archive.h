// Open BRF files as an archive of the virtual file system: a node per file, a group per kind of
// record, a node per record with its key figures; picking records shows the model they make
// (formats/model/model_archive.h), with a skeleton that fits.
//
// Paths: "S" is the S-th file, "S/KIND" its group of that kind ("mesh", "skeleton", …), and
// "S/KIND/I" its I-th record of that kind. Addresses are FILE.brf and FILE.brf::RECORD.
#pragma once

#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/brf/brf.h"
#include "formats/io/vfs.h"
#include "formats/model/model_archive.h"

namespace marrow::formats::brf {

class BrfArchive final : public vfs::Archive, public ModelArchive {
 public:
  explicit BrfArchive(std::vector<Source> sources);
  // A library of BRF files (a Warband module): its name, the files it was opened from, and the
  // actions that cut its animations into clips when records are picked.
  struct Library {
    std::string title;
    std::vector<std::string> openedFrom{};
    std::vector<Action> actions{};
    // What uses each record, by usageKey(kind, name) (textures without ".dds", in lower case): the library's text files ("skins.txt") and
    // other records ("mesh 'boots'"). Empty when usage was not worked out: then nothing is
    // marked unused.
    std::map<std::string, std::vector<std::string>> users{};
    bool usageKnown = false;
  };
  static std::string usageKey(Section kind, std::string_view name);
  BrfArchive(std::vector<Source> sources, Library library);

  std::string title() const override;
  std::vector<std::string> openedFrom() const override;
  std::string_view kind() const override { return library_ ? "module" : "brf"; }
  std::vector<vfs::Node> children(std::string_view path) const override;
  std::optional<vfs::Node> node(std::string_view path) const override;
  // A file: its bytes as written back (byte for byte); a record: a BRF file of that record.
  Result<std::vector<std::byte>> read(std::string_view path, const Limits& limits) const override;
  // A record by name, in file order (materials, meshes, … any kind).
  std::optional<std::string> find(std::string_view name) const override;
  Address addressOf(std::string_view path) const override;
  // A record is extracted as "FILE/RECORD.brf", a whole file under its own name.
  std::string storedName(const vfs::Node& node) const override;
  std::vector<std::pair<std::string, std::string>> properties(std::string_view path) const override;
  bool holdsRecords() const override { return true; }
  std::optional<std::vector<User>> users(std::string_view path) const override;
  // The meshes whose names match.
  std::vector<vfs::Node> models(std::string_view pattern) const override;

  Result<Shown> show(std::span<const std::string> picked,
                     const std::optional<std::vector<std::string>>& onScreen,
                     const std::optional<std::string>& skeleton) const override;
  // As show() picks, with no animation: no clip is made or cut.
  Result<Scene> still(std::span<const std::string> picked) const override;
  // A file of more than kHeap meshes (an armour pack; level meshes "boots.lod1" not counted)
  // opens on its first mesh and its levels; else the whole files (the viewer draws one level of
  // level meshes: formats/model/lod.h).
  static constexpr std::size_t kHeap = 8;
  std::vector<std::string> openingPick() const override;

  const std::vector<Source>& sources() const { return sources_; }
  // The path of a record and the record of a path (nothing for files, groups and bad paths).
  std::string pathOf(const RecordRef& record) const;
  std::optional<RecordRef> recordAt(std::string_view path) const;
  // The records at these paths (a file or a group: all of its records), in order, once each.
  std::vector<RecordRef> recordsAt(std::span<const std::string> paths) const;

 private:
  vfs::Node recordNode(const RecordRef& r) const;
  std::vector<Source> sources_;
  std::optional<Library> library_;
};

// What a pick of records shows (ModelArchive::show for BRF files), as a plain function of the
// open files, the records picked, the meshes and bodies on screen (unset: all) and the skeleton
// the user chose.
struct Pick {
  ModelArchive::Shown::What what = ModelArchive::Shown::What::WholeFiles;
  Selection selection;
  std::optional<std::vector<RecordRef>> meshesShown, bodiesShown;  // on screen afterwards
  std::string clip;                           // the animation picked, if one was
  std::optional<RecordRef> chosenSkeleton;    // the user's, when it still fits
};
Pick pickRecords(std::span<const Source> sources, std::span<const RecordRef> picked,
                 const std::optional<std::vector<RecordRef>>& meshesShown,
                 const std::optional<std::vector<RecordRef>>& bodiesShown,
                 std::optional<RecordRef> skeleton);

// The skeletons a selection's meshes and animations fit (fittingSkeletons), best first.
std::vector<RecordRef> fittingSkeletonsFor(std::span<const Source> sources, const Selection& selection);

}  // namespace marrow::formats::brf
