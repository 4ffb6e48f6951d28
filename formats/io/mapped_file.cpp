#include "formats/io/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include "formats/io/file.h"

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define MARROW_HAVE_MMAP 1
#endif

namespace marrow::formats {

Result<MappedFile> MappedFile::open(const std::string& path) {
  MappedFile f;
  f.path_ = path;
#ifdef MARROW_HAVE_MMAP
  // O_NONBLOCK: opening a pipe must not wait for a writer (a regular file reads as ever).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd >= 0) {
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      const auto size = static_cast<std::size_t>(st.st_size);
      if (size == 0) {  // mmap refuses empty files; an empty view needs no mapping
        ::close(fd);
        return f;
      }
      void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        ::close(fd);  // the mapping keeps the file open
        f.mapping_ = p;
        f.data_ = static_cast<const std::byte*>(p);
        f.size_ = size;
        return f;
      }
    }
    ::close(fd);
  }
#endif
  // No mapping (another system, a special file, mmap refused): read the bytes instead.
  auto bytes = readFile(path, ~std::uint64_t{0});
  if (!bytes) return bytes.error();
  f.fallback_ = std::move(*bytes);
  f.data_ = f.fallback_.data();
  f.size_ = f.fallback_.size();
  return f;
}

MappedFile::MappedFile(MappedFile&& other) noexcept {
  *this = std::move(other);
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    mapping_ = std::exchange(other.mapping_, nullptr);
    fallback_ = std::move(other.fallback_);  // a moved vector keeps its buffer: data_ stays valid
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  release();
}

void MappedFile::release() {
#ifdef MARROW_HAVE_MMAP
  if (mapping_) ::munmap(mapping_, size_);
#endif
  mapping_ = nullptr;
  fallback_.clear();
  data_ = nullptr;
  size_ = 0;
}

}  // namespace marrow::formats
