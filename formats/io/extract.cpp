#include "formats/io/extract.h"

#include <cctype>
#include <algorithm>
#include <cstdio>
#include <unordered_set>

namespace marrow::formats {
namespace fs = std::filesystem;

SafePath safeRelativePath(std::string_view entryName) {
  const auto refuse = [](std::string why) { return SafePath{{}, std::move(why)}; };
  std::string name(entryName);
  for (char& c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return refuse("a control character in the name");
    if (c == '\\') c = '/';
  }
  if (name.empty()) return refuse("an empty name");
  if (name.starts_with("//")) return refuse("a network path");
  if (name.size() >= 2 && name[1] == ':' && std::isalpha(static_cast<unsigned char>(name[0])))
    return refuse("an absolute path with a drive letter");
  if (name.find(':') != std::string::npos)
    return refuse("a ':' (a drive or a Windows stream name)");
  if (name.front() == '/') name.erase(0, 1);  // the pak's root (§2.2)
  if (name.empty() || name.back() == '/') return refuse("the name of a folder, not a file");
  fs::path relative;
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto slash = std::min(name.find('/', start), name.size());
    const std::string part = name.substr(start, slash - start);
    if (part.empty()) return refuse("an empty component");
    if (part == "..") return refuse("a '..' component, which would leave the target folder");
    if (part == ".") return refuse("a '.' component");
    relative /= part;
    start = slash + 1;
  }
  return {relative, {}};
}

namespace {

// Creates the folders of `relative`'s parent under `root`, refusing to pass through anything
// that is not a real folder. Returns the refusal, or "".
std::string prepareParents(const fs::path& root, const fs::path& relative) {
  fs::path at = root;
  std::error_code ec;
  for (const auto& part : relative.parent_path()) {
    at /= part;
    const auto st = fs::symlink_status(at, ec);
    if (fs::is_symlink(st)) return "'" + at.string() + "' is a symbolic link";
    if (fs::exists(st)) {
      if (!fs::is_directory(st)) return "'" + at.string() + "' exists and is not a folder";
      continue;
    }
    if (!fs::create_directory(at, ec) && ec)
      return "cannot create '" + at.string() + "': " + ec.message();
  }
  return {};
}

}  // namespace

ExtractReport extractItems(std::span<const ExtractItem> items, const fs::path& folder,
                           const ExtractOptions& options) {
  ExtractReport report;
  std::error_code ec;
  fs::create_directories(folder, ec);
  const fs::path root = fs::weakly_canonical(folder, ec).lexically_normal();
  ExtractProgress progress{0, items.size(), 0, {}};
  for (const ExtractItem& item : items) {
    const std::string_view stored = item.stored;
    progress.current = stored;
    if (options.progress && !options.progress(progress)) {
      report.cancelled = true;
      return report;
    }
    ++progress.done;
    const auto problem = [&](std::vector<ExtractProblem>& list, std::string message) {
      list.push_back({std::string(stored), std::move(message)});
    };
    const SafePath safe = safeRelativePath(stored);
    if (!safe) {
      problem(report.refused, safe.refusal);
      continue;
    }
    const fs::path target = (root / safe.relative).lexically_normal();
    // Belt and braces: the lexical result must still lie under the root.
    const auto [rootEnd, targetAt] =
        std::mismatch(root.begin(), root.end(), target.begin(), target.end());
    if (rootEnd != root.end()) {
      problem(report.refused, "resolves outside the target folder");
      continue;
    }
    if (std::string why = prepareParents(root, safe.relative); !why.empty()) {
      problem(report.refused, why);
      continue;
    }
    const auto st = fs::symlink_status(target, ec);
    if (fs::is_symlink(st)) {
      problem(report.refused, "'" + target.string() + "' is a symbolic link");
      continue;
    }
    if (fs::is_directory(st)) {
      problem(report.failed, "'" + target.string() + "' is a folder");
      continue;
    }
    if (!item.stream) {
      problem(report.failed, "cannot be read");
      continue;
    }
    // In pieces into a file of its own beside the target, renamed onto it once whole: a failure
    // halfway leaves no partial file. A stale one of that name (a link, a file) is removed
    // first, and the new one made only if nothing else takes its place meanwhile.
    const fs::path part = target.parent_path() / ("." + target.filename().string() + ".marrow-part");
    if (fs::is_directory(fs::symlink_status(part, ec))) {
      problem(report.failed, "'" + part.string() + "' is a folder");
      continue;
    }
    fs::remove(part, ec);
    std::FILE* out = std::fopen(part.c_str(), "wbx");  // exclusive: never an existing file or link
    if (!out) {
      problem(report.failed, "cannot create '" + part.string() + "'");
      continue;
    }
    bool writeFailed = false, stopped = false;
    std::size_t pieces = 0;
    const std::uint64_t before = report.bytes;
    auto given = item.stream(options.limits, [&](std::span<const std::byte> piece) {
      if (std::fwrite(piece.data(), 1, piece.size(), out) != piece.size()) return !(writeFailed = true);
      // An entry in several pieces reports its progress, and a cancel stops it, from its second
      // piece on (an entry read whole is one piece: reported before it, as any entry).
      progress.bytes += piece.size();
      if (pieces++ > 0 && options.progress && !options.progress(progress)) return !(stopped = true);
      return true;
    });
    progress.bytes = before;
    writeFailed = std::fclose(out) != 0 || writeFailed;
    std::error_code renamed;
    if (given && !writeFailed) fs::rename(part, target, renamed);
    if (!given || writeFailed || renamed) {
      std::error_code removed;
      fs::remove(part, removed);
      if (stopped) {
        report.cancelled = true;
        return report;
      }
      problem(report.failed, writeFailed ? "cannot write '" + target.string() + "'"
                             : renamed   ? "cannot write '" + target.string() + "': " + renamed.message()
                                         : given.error().describe());
      continue;
    }
    ++report.written;
    report.bytes += *given;
    progress.bytes = report.bytes;
  }
  progress.current = {};
  if (options.progress) options.progress(progress);
  return report;
}

}  // namespace marrow::formats

namespace marrow::formats {

std::vector<vfs::Node> selectFiles(const vfs::Archive& archive, std::span<const std::string> selectors,
                                   std::vector<std::string>* unmatched) {
  if (selectors.empty()) return archive.files("");
  std::vector<vfs::Node> out;
  std::unordered_set<std::string> seen;
  for (const std::string& s : selectors) {
    auto found = archive.files(s);
    if (found.empty() && unmatched) unmatched->push_back(s);
    for (auto& n : found)
      if (seen.insert(n.path).second) out.push_back(std::move(n));
  }
  return out;
}

std::vector<ExtractItem> extractItemsOf(std::shared_ptr<const vfs::Archive> archive,
                                        std::span<const vfs::Node> files) {
  std::vector<ExtractItem> items;
  items.reserve(files.size());
  for (const vfs::Node& n : files)
    items.push_back({archive->storedName(n), [archive, path = n.path](const Limits& limits, const vfs::Archive::Sink& sink) {
                       return archive->stream(path, limits, sink);
                     }});
  return items;
}

}  // namespace marrow::formats
