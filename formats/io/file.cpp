#include "formats/io/file.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>

#include "formats/io/big_buffer.h"

namespace marrow::formats {
namespace fs = std::filesystem;

Result<std::vector<std::byte>> readFile(const std::string& path, std::uint64_t maxBytes) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status))
    return FormatError{path, "", kNoOffset, "cannot open: no such file"};
  if (fs::is_directory(status)) return FormatError{path, "", kNoOffset, "is a folder, not a file"};
  // A pipe or a device would block the reader or never end.
  if (!fs::is_regular_file(status))
    return FormatError{path, "", kNoOffset, "is not a regular file (a pipe, a socket or a device): not read"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return FormatError{path, "", kNoOffset, std::string("cannot open: ") + std::strerror(errno)};
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) return FormatError{path, "", kNoOffset, "cannot tell the file's size"};
  if (static_cast<std::uint64_t>(size) > maxBytes)
    return FormatError{path, "", kNoOffset,
                       "is " + std::to_string(size) + " bytes, over the limit of " +
                           std::to_string(maxBytes)};
  in.seekg(0);
  std::vector<std::byte> data;
  try {
    data = bigVector<std::byte>(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    return FormatError{path, "", kNoOffset, "is " + std::to_string(size) + " bytes, more than there is memory for"};
  }
  if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size))
    return FormatError{path, "", kNoOffset, "read failed"};
  return data;
}

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The path a model names, on this machine: slashes for backslashes, a Windows drive letter
// dropped (the rest is tried as an absolute path), relative paths taken from `base`, "." and ".."
// resolved. Models name files next to them, beside them in sibling folders ("../textures") and
// sometimes by absolute path: all are read. (Reading is all a resolver does; where files are
// written, paths are confined to the chosen folder.)
std::optional<fs::path> locate(const fs::path& base, std::string name) {
  if (name.empty() || name.find('\0') != std::string::npos) return std::nullopt;
  std::replace(name.begin(), name.end(), '\\', '/');
  if (name.size() >= 2 && name[1] == ':' && std::isalpha(static_cast<unsigned char>(name[0])))
    name.erase(0, 2);
  const fs::path p(name);
  return (p.is_absolute() ? p : base / p).lexically_normal();
}

// A case-insensitive match for `path`, component by component from its root (files made on
// Windows name their siblings in any case). A component that exists as written is taken as it
// is (preferred over other cases of it, and no folder is listed for it: listing /usr/share to
// look for a texture beside a model there took most of the 0.14 ms of a missing file's lookup).
std::optional<fs::path> matchCase(const fs::path& path) {
  std::error_code ec;
  fs::path dir = path.root_path().empty() ? fs::path(".") : path.root_path();
  for (const auto& part : path.relative_path()) {
    if (part == "." || part.empty()) continue;
    if (part == "..") {
      dir = dir.parent_path();
      continue;
    }
    if (fs::exists(fs::symlink_status(dir / part, ec))) {
      dir /= part;
      continue;
    }
    const std::string want = lower(part.string());
    bool hit = false;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (lower(e.path().filename().string()) == want) {
        dir = e.path();
        hit = true;
        break;
      }
    if (!hit) return std::nullopt;
  }
  return dir;
}

}  // namespace

std::optional<std::string> findOnDisk(const std::string& directory, const std::string& name) {
  auto path = locate(fs::path(directory), name);
  if (!path) return std::nullopt;
  std::error_code ec;
  if (!fs::is_regular_file(*path, ec)) {
    path = matchCase(*path);
    if (!path || !fs::is_regular_file(*path, ec)) return std::nullopt;
  }
  return path->string();
}

Resolver diskResolver(const std::string& directory) {
  return [directory](const std::string& name) -> std::optional<std::vector<std::byte>> {
    const auto path = findOnDisk(directory, name);
    if (!path) return std::nullopt;
    auto bytes = readFile(*path, 1ull << 30);
    if (!bytes) return std::nullopt;
    return std::move(bytes).value();
  };
}

WrittenFiles writeFilesAtomically(std::span<const FileToWrite> files) {
  WrittenFiles w;
  std::vector<fs::path> pending;  // the temporary file of each written so far
  const auto discard = [&pending] {
    std::error_code ec;
    for (const auto& t : pending) fs::remove(t, ec);
  };
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path target(files[i].path);
    fs::path temp = target;
    temp += ".marrow-" + std::to_string(i) + ".tmp";
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (out)
      out.write(reinterpret_cast<const char*>(files[i].bytes.data()),
                static_cast<std::streamsize>(files[i].bytes.size()));
    if (out) out.close();
    if (!out) {
      const int err = errno;
      w.failedPath = files[i].path;
      w.reason = err ? std::strerror(err) : "write failed";
      std::error_code ec;
      fs::remove(temp, ec);
      discard();
      return w;
    }
    pending.push_back(temp);
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::error_code ec;
    if (fs::is_directory(files[i].path, ec)) ec = std::make_error_code(std::errc::is_a_directory);
    else fs::rename(pending[i], files[i].path, ec);
    if (ec) {
      w.failedPath = files[i].path;
      w.reason = ec.message();
      pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(i));
      discard();
      return w;
    }
    w.written.emplace_back(files[i].path, files[i].bytes.size());
  }
  return w;
}

ReadContext contextForFile(const std::string& path) {
  ReadContext ctx;
  ctx.name = path;
  const fs::path dir = fs::path(path).parent_path();
  ctx.resolve = diskResolver(dir.empty() ? std::string(".") : dir.string());
  return ctx;
}

}  // namespace marrow::formats
