#include "formats/io/file.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace marrow::formats {
namespace fs = std::filesystem;

Result<std::vector<std::byte>> readFile(const std::string& path, std::uint64_t maxBytes) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status))
    return FormatError{path, "", kNoOffset, "cannot open: no such file"};
  if (fs::is_directory(status)) return FormatError{path, "", kNoOffset, "is a folder, not a file"};
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
  std::vector<std::byte> data(static_cast<std::size_t>(size));
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

// `rel` made safe: slashes only, no absolute root, no drive letter, no ".." escaping the base.
std::optional<fs::path> confine(std::string rel) {
  std::replace(rel.begin(), rel.end(), '\\', '/');
  if (rel.size() >= 2 && rel[1] == ':') rel.erase(0, 2);
  while (!rel.empty() && rel.front() == '/') rel.erase(0, 1);
  if (rel.empty() || rel.find('\0') != std::string::npos) return std::nullopt;
  fs::path out;
  for (const auto& part : fs::path(rel)) {
    if (part == "..") {
      if (out.empty()) return std::nullopt;
      out = out.parent_path();
    } else if (part != "." && !part.empty()) {
      out /= part;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

}  // namespace

Resolver diskResolver(const std::string& directory) {
  return [base = fs::path(directory)](const std::string& relativePath)
             -> std::optional<std::vector<std::byte>> {
    auto rel = confine(relativePath);
    if (!rel) return std::nullopt;
    std::error_code ec;
    fs::path candidate = base / *rel;
    if (!fs::is_regular_file(candidate, ec)) {
      // Files made on Windows name their siblings in any case: look for a case-insensitive match.
      fs::path dir = base;
      bool found = true;
      for (const auto& part : *rel) {
        const std::string want = lower(part.string());
        bool hit = false;
        for (const auto& e : fs::directory_iterator(dir, ec)) {
          if (lower(e.path().filename().string()) == want) {
            dir = e.path();
            hit = true;
            break;
          }
        }
        if (!hit) {
          found = false;
          break;
        }
      }
      if (!found || !fs::is_regular_file(dir, ec)) return std::nullopt;
      candidate = dir;
    }
    auto bytes = readFile(candidate.string(), 1ull << 30);
    if (!bytes) return std::nullopt;
    return std::move(bytes).value();
  };
}

ReadContext contextForFile(const std::string& path) {
  ReadContext ctx;
  ctx.name = path;
  const fs::path dir = fs::path(path).parent_path();
  ctx.resolve = diskResolver(dir.empty() ? std::string(".") : dir.string());
  return ctx;
}

}  // namespace marrow::formats
