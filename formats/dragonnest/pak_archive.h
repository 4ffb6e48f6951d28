// Dragon Nest paks as an archive of the virtual file system: the PakSet's merged tree (§2.4),
// each file the entry the set resolves its path to, with the live copies it overrides listed
// after it (flagged Overridden) and deleted slots shown as such (flagged Deleted).
//
// Paths are the normalised entry paths ("resource/char/warrior.skn"), and so are the inner parts
// of addresses; storedName() is the name as stored (its case, its backslashes). A copy hidden by
// another has a path of its own, made by copyPath(), that reads exactly that copy.
#pragma once

#include <memory>
#include <string>

#include "formats/dragonnest/pak.h"
#include "formats/io/vfs.h"

namespace marrow::formats::dragonnest {

class PakArchive final : public vfs::Archive {
 public:
  explicit PakArchive(std::shared_ptr<const PakSet> paks);

  std::string title() const override;
  std::string codepage() const override;
  std::vector<std::string> openedFrom() const override;
  std::string_view kind() const override { return "pak"; }
  std::vector<vfs::Node> children(std::string_view path) const override;
  std::optional<vfs::Node> node(std::string_view path) const override;
  Result<std::vector<std::byte>> read(std::string_view path, const Limits& limits) const override;
  // An entry over limits.maxWholeEntry in pieces (zlib), a smaller one read whole (libdeflate).
  Result<std::uint64_t> stream(std::string_view path, const Limits& limits, const Sink& sink) const override;
  std::optional<std::string> find(std::string_view name) const override;  // PakSet::find
  Address addressOf(std::string_view path) const override;
  // By file name (by the whole path when `text` has a '/'), over the resolved entries.
  std::vector<vfs::Node> search(std::string_view text, std::size_t limit) const override;
  std::vector<vfs::Node> files(std::string_view path) const override;
  std::string storedName(const vfs::Node& node) const override;
  // Skins, and meshes no skin of their name wears; with a pattern, the entries whose normalised
  // paths match it.
  std::vector<vfs::Node> models(std::string_view pattern) const override;

  const std::shared_ptr<const PakSet>& paks() const { return paks_; }
  // The entry a path reads (the resolved one, or the copy a copyPath names), or none.
  PakRef entryAt(std::string_view path) const;
  // The path that reads exactly this copy.
  std::string copyPath(const PakRef& ref) const;
  // A file node for an entry.
  vfs::Node nodeOf(const PakRef& ref, bool overridden) const;

 private:
  std::size_t pakIndex(const Pak* pak) const;
  std::shared_ptr<const PakSet> paks_;
};

}  // namespace marrow::formats::dragonnest
