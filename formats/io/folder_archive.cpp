#include "formats/io/folder_archive.h"

#include <algorithm>
#include <filesystem>

#include "formats/io/file.h"

namespace marrow::formats::vfs {
namespace fs = std::filesystem;

FolderArchive::FolderArchive(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && (root_.back() == '/' || root_.back() == '\\')) root_.pop_back();
}

std::optional<std::string> FolderArchive::onDisk(std::string_view path) const {
  const fs::path rel = fs::path(std::string(path)).lexically_normal();
  if (rel.is_absolute() || rel.has_root_name()) return std::nullopt;
  for (const auto& part : rel)
    if (part == "..") return std::nullopt;
  if (rel.empty() || rel == ".") return root_;
  return (fs::path(root_) / rel).string();
}

namespace {

Node nodeFor(const fs::directory_entry& e, std::string path) {
  Node n;
  n.name = e.path().filename().string();
  n.path = std::move(path);
  std::error_code ec;
  if (e.is_directory(ec)) {
    n.kind = "folder";
    n.container = true;
  } else {
    n.kind = "file";
    n.size = e.file_size(ec);
    if (ec) n.size = 0;
  }
  return n;
}

}  // namespace

std::vector<Node> FolderArchive::children(std::string_view path) const {
  std::vector<Node> out;
  const auto dir = onDisk(path);
  if (!dir) return out;
  std::error_code ec;
  const std::string prefix = path.empty() ? std::string() : std::string(path) + "/";
  for (const auto& e : fs::directory_iterator(*dir, fs::directory_options::skip_permission_denied, ec)) {
    if (e.is_symlink(ec) && e.is_directory(ec)) continue;  // a linked folder may lead anywhere
    out.push_back(nodeFor(e, prefix + e.path().filename().string()));
  }
  std::sort(out.begin(), out.end(), [](const Node& a, const Node& b) {
    if (a.container != b.container) return a.container;
    const std::string la = lowerAscii(a.name), lb = lowerAscii(b.name);
    return la != lb ? la < lb : a.name < b.name;
  });
  return out;
}

std::optional<Node> FolderArchive::node(std::string_view path) const {
  const auto p = onDisk(path);
  if (!p) return std::nullopt;
  std::error_code ec;
  const fs::directory_entry e(*p, ec);
  if (ec || !e.exists(ec)) return std::nullopt;
  Node n = nodeFor(e, std::string(path));
  if (path.empty()) n.name = root_;
  return n;
}

Result<std::vector<std::byte>> FolderArchive::read(std::string_view path, const Limits& limits) const {
  const auto p = onDisk(path);
  if (!p) return FormatError{root_ + "/" + std::string(path), "", kNoOffset, "is outside the folder"};
  (void)limits;  // a file on disk is read whole, as readFile caps it
  return readFile(*p);
}

std::optional<std::string> FolderArchive::find(std::string_view name) const {
  const auto found = findOnDisk(root_, std::string(name));
  if (!found) return std::nullopt;
  const fs::path rel = fs::path(*found).lexically_relative(root_);
  if (rel.empty()) return std::nullopt;
  for (const auto& part : rel)
    if (part == "..") return std::nullopt;  // found, but not in this folder
  return rel.generic_string();
}

Address FolderArchive::addressOf(std::string_view path) const {
  const auto p = onDisk(path);
  return {p ? *p : root_, {}};
}

}  // namespace marrow::formats::vfs
