// A read-only view of a whole file: memory-mapped where the system allows it (archives of
// several gigabytes are opened without reading them), read into memory where it does not.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "formats/io/result.h"

namespace marrow::formats {

class MappedFile {
 public:
  // Maps `path` (POSIX mmap); falls back to reading the file when mapping fails.
  static Result<MappedFile> open(const std::string& path);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Valid while this object lives; moving it keeps the bytes where they are.
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  bool isMapped() const { return mapping_ != nullptr; }

 private:
  void release();

  std::string path_;
  void* mapping_ = nullptr;          // the mmap'ed region, or nullptr
  std::vector<std::byte> fallback_;  // the file's bytes when it could not be mapped
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace marrow::formats
