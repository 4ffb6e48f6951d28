// Extracting files of an archive (formats/io/vfs.h) into a folder, never outside it whatever
// the names they are stored under say.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/io/limits.h"
#include "formats/io/result.h"
#include "formats/io/vfs.h"

namespace marrow::formats {

// Where a file may be written, relative to the target folder, or why it may not.
struct SafePath {
  std::filesystem::path relative;  // empty when refused
  std::string refusal;             // why, when refused
  explicit operator bool() const { return refusal.empty(); }
};

// Maps a stored name to a relative path. One leading separator is the archive's root (pak
// names are "\resource\…", dragonnest.md §2.2); refused are: empty names, control characters, drive letters
// and any ':', network paths ("\\host\…"), empty, "." and ".." components, and names of
// folders (a trailing separator).
SafePath safeRelativePath(std::string_view entryName);

struct ExtractProgress {
  std::size_t done = 0;  // entries handled so far (written, refused or failed)
  std::size_t total = 0;
  std::uint64_t bytes = 0;   // written so far (only grows; the last call: the bytes of the files written)
  std::string_view current;  // the stored name of the file being handled
};

struct ExtractOptions {
  // Called before each entry, after the second and later pieces of an entry written in pieces,
  // and once at the end; returning false cancels what is left: entries begun are finished,
  // except one written in pieces, which stops at its next piece and leaves nothing. With several
  // threads it is called from them, one call at a time; an exception from it (or from an item's
  // stream) stops every worker and reaches the caller.
  std::function<bool(const ExtractProgress&)> progress;
  Limits limits;
  // How many entries are read and written at once: 0 is one per core (at most 8); 1 is one
  // after the other on the calling thread.
  unsigned threads = 0;
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

// One file to write: its stored name and how to read its bytes (within the limits), given to a
// sink in pieces (vfs::Archive::stream: a large pak entry is never held whole). Several items'
// `stream` may run at once, on different threads.
struct ExtractItem {
  std::string stored;
  std::function<Result<std::uint64_t>(const Limits&, const vfs::Archive::Sink&)> stream;
};

// Writes each item to `folder` / safeRelativePath(its stored name), creating folders as needed.
// Refuses a name that is not safe, and a path through a symbolic link or onto one that exists
// under the folder; existing files are overwritten. An item is written to a file beside its
// target and renamed onto it once whole: nothing of an item that fails is left. Items are
// written by ExtractOptions::threads workers; items that touch one path (one name twice, in
// any case; a file where another needs a folder) are written in their order, so the last of
// one name wins; the report lists items in their order. An item that runs out of memory fails.
ExtractReport extractItems(std::span<const ExtractItem> items, const std::filesystem::path& folder,
                           const ExtractOptions& options = {});

// The files of an archive that paths and folders select (all of them when `selectors` is
// empty: Archive::files), once each, in order; `unmatched` gets the selectors that selected
// nothing.
std::vector<vfs::Node> selectFiles(const vfs::Archive& archive, std::span<const std::string> selectors,
                                   std::vector<std::string>* unmatched = nullptr);

// Those files as items: stored under Archive::storedName, read with Archive::stream. The items
// keep the archive alive.
std::vector<ExtractItem> extractItemsOf(std::shared_ptr<const vfs::Archive> archive,
                                        std::span<const vfs::Node> files);

}  // namespace marrow::formats
