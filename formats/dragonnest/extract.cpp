#include "formats/dragonnest/extract.h"

#include <cctype>
#include <fstream>

namespace marrow::formats::dragonnest {
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

std::vector<PakRef> selectEntries(const PakSet& set, std::span<const std::string> selectors,
                                  std::vector<std::string>* unmatched) {
  std::vector<std::string> wanted;
  for (const auto& s : selectors) wanted.push_back(normalizePakPath(s));
  std::vector<bool> used(wanted.size(), false);
  std::vector<PakRef> out;
  for (const PakRef& ref : set.resolvedEntries()) {
    if (ref.entry->deleted()) continue;
    const std::string_view path = ref.pak->path(*ref.entry);
    bool take = wanted.empty();
    for (std::size_t k = 0; k < wanted.size(); ++k) {
      const std::string& w = wanted[k];
      // The path itself, or a folder above it ("" selects everything).
      if (w.empty() || path == w || (path.starts_with(w) && path[w.size()] == '/')) {
        take = true;
        used[k] = true;
      }
    }
    if (take) out.push_back(ref);
  }
  if (unmatched)
    for (std::size_t k = 0; k < selectors.size(); ++k)
      if (!used[k]) unmatched->push_back(selectors[k]);
  return out;
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

ExtractReport extractEntries(std::span<const PakRef> entries, const fs::path& folder,
                             const ExtractOptions& options) {
  ExtractReport report;
  std::error_code ec;
  fs::create_directories(folder, ec);
  const fs::path root = fs::weakly_canonical(folder, ec).lexically_normal();
  ExtractProgress progress{0, entries.size(), 0, {}};
  for (const PakRef& ref : entries) {
    const std::string_view stored = ref.pak->storedPath(*ref.entry);
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
    auto bytes = ref.pak->read(*ref.entry, options.limits);
    if (!bytes) {
      problem(report.failed, bytes.error().describe());
      continue;
    }
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes->data()),
              static_cast<std::streamsize>(bytes->size()));
    out.close();
    if (!out) {
      problem(report.failed, "cannot write '" + target.string() + "'");
      continue;
    }
    ++report.written;
    report.bytes += bytes->size();
    progress.bytes = report.bytes;
  }
  progress.current = {};
  if (options.progress) options.progress(progress);
  return report;
}

}  // namespace marrow::formats::dragonnest
