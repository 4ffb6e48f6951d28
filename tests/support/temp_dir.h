// A folder of its own under the temporary folder (unique: tests run in parallel), removed with
// everything in it when the object goes.
#pragma once

#include <stdlib.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace marrow::testing {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "marrow-test") {
    std::string t = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (mkdtemp(t.data())) path = t;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `bytes` to `relative` (its folders made); returns the file's path.
  std::string write(const std::filesystem::path& relative, const std::vector<std::byte>& bytes) const {
    const std::filesystem::path p = path / relative;
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return p.string();
  }
};

}  // namespace marrow::testing
