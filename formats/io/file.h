// Files on disk, for the programs and tests: readers themselves only ever see bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <utility>
#include <string>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"

namespace marrow::formats {

// Reads a whole file; refuses files over `maxBytes`.
Result<std::vector<std::byte>> readFile(const std::string& path,
                                        std::uint64_t maxBytes = 4ull << 30);

// The file a model names, as diskResolver finds it (below), or nothing.
std::optional<std::string> findOnDisk(const std::string& directory, const std::string& name);

// A resolver that finds the files a model names: relative to `directory` (".." included) or by
// absolute path, backslashes read as slashes, a Windows drive letter dropped, and matched
// case-insensitively when the exact name does not exist. It only reads.
Resolver diskResolver(const std::string& directory);

// Files written whole or not at all: each under a temporary name beside it first, renamed into
// place only when every one was written; a failure leaves the old files (or none) and no
// partial or temporary file.
struct FileToWrite {
  std::string path;
  std::span<const std::byte> bytes;
};
struct WrittenFiles {
  std::vector<std::pair<std::string, std::size_t>> written;  // path, bytes
  std::string failedPath;  // the file that could not be written, when one could not
  std::string reason;      // why (the system's words)
  bool ok() const { return failedPath.empty(); }
};
WrittenFiles writeFilesAtomically(std::span<const FileToWrite> files);

// A context for a file on disk: its name for messages, default limits, a resolver beside it.
ReadContext contextForFile(const std::string& path);

}  // namespace marrow::formats
