// A folder on disk as an archive: its files and subfolders, read as they are. Paths are relative
// to the folder with '/' separators; nothing outside the folder is listed or read through it.
#pragma once

#include <memory>
#include <string>

#include "formats/io/vfs.h"

namespace marrow::formats::vfs {

class FolderArchive final : public Archive {
 public:
  explicit FolderArchive(std::string root);  // the folder (need not exist: then it is empty)

  std::string title() const override { return root_; }
  std::vector<std::string> openedFrom() const override { return {root_}; }
  std::string_view kind() const override { return "folder"; }
  std::vector<Node> children(std::string_view path) const override;
  std::optional<Node> node(std::string_view path) const override;
  Result<std::vector<std::byte>> read(std::string_view path, const Limits& limits) const override;
  // Relative to the folder (backslashes, any case), as a model's own file names are found.
  std::optional<std::string> find(std::string_view name) const override;
  Address addressOf(std::string_view path) const override;

  const std::string& root() const { return root_; }

 private:
  // root_/path, or nothing when path climbs out of the folder.
  std::optional<std::string> onDisk(std::string_view path) const;
  std::string root_;
};

}  // namespace marrow::formats::vfs
