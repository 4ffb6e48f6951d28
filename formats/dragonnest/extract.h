// Extracting pak entries into a folder, never outside it whatever the entry names say.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/dragonnest/pak.h"
#include "formats/io/limits.h"

namespace marrow::formats::dragonnest {

// Where an entry may be written, relative to the target folder, or why it may not.
struct SafePath {
  std::filesystem::path relative;  // empty when refused
  std::string refusal;             // why, when refused
  explicit operator bool() const { return refusal.empty(); }
};

// Maps an entry's stored name to a relative path. One leading separator is the pak's root
// (§2.2 names are "\resource\…"); refused are: empty names, control characters, drive letters
// and any ':', network paths ("\\host\…"), empty, "." and ".." components, and names of
// folders (a trailing separator).
SafePath safeRelativePath(std::string_view entryName);

struct ExtractProgress {
  std::size_t done = 0;  // entries handled so far (written, refused or failed)
  std::size_t total = 0;
  std::uint64_t bytes = 0;   // written so far
  std::string_view current;  // the stored name of the entry being handled
};

struct ExtractOptions {
  // Called before each entry and once at the end; returning false cancels what is left.
  std::function<bool(const ExtractProgress&)> progress;
  Limits limits;
};

struct ExtractProblem {
  std::string entry;  // the stored name
  std::string message;
};

struct ExtractReport {
  std::size_t written = 0;
  std::uint64_t bytes = 0;
  std::vector<ExtractProblem> refused;  // names that would leave the folder or are not names
  std::vector<ExtractProblem> failed;   // entries that could not be read or written
  bool cancelled = false;
  bool ok() const { return refused.empty() && failed.empty() && !cancelled; }
};

// The live entries of the file system a list of paths and folder prefixes selects (all of
// them when `selectors` is empty), one per path, in path order. `unmatched` gets the selectors
// that selected nothing.
std::vector<PakRef> selectEntries(const PakSet& set, std::span<const std::string> selectors,
                                  std::vector<std::string>* unmatched = nullptr);

// Writes each entry to `folder` / safeRelativePath(its stored name), creating folders as
// needed. Refuses a name that is not safe, and a path through a symbolic link or onto one
// that exists under the folder; existing files are overwritten. An entry is inflated (with its
// size cap) before anything is written for it.
ExtractReport extractEntries(std::span<const PakRef> entries, const std::filesystem::path& folder,
                             const ExtractOptions& options = {});

}  // namespace marrow::formats::dragonnest
