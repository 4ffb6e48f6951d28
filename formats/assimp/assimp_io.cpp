#include "formats/assimp/assimp_io.h"

#include <algorithm>
#include <assimp/IOStream.hpp>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

namespace marrow::formats {
namespace {

// What ReadFileFromMemory names the main file; a wrapper around this IOSystem or an importer
// that derives names from it may still use it.
constexpr std::string_view kAssimpMemoryName = "$$$___magic___$$$";

// A read-only view of bytes the IOSystem keeps alive until the import ends.
class SpanStream final : public Assimp::IOStream {
 public:
  explicit SpanStream(std::span<const std::byte> bytes) : bytes_(bytes) {}

  size_t Read(void* buffer, size_t size, size_t count) override {
    if (size == 0 || count == 0 || !buffer) return 0;
    const std::size_t n = std::min(count, (bytes_.size() - pos_) / size);
    if (n > 0) std::memcpy(buffer, bytes_.data() + pos_, n * size);
    pos_ += n * size;
    return n;
  }
  size_t Write(const void*, size_t, size_t) override { return 0; }

  aiReturn Seek(size_t offset, aiOrigin origin) override {
    std::size_t to = 0;
    switch (origin) {
      case aiOrigin_SET: to = offset; break;
      // Unsigned wrap-around turns a "negative" offset into a step back, as fseek would take it;
      // anything landing outside the buffer is refused below.
      case aiOrigin_CUR: to = pos_ + offset; break;
      case aiOrigin_END:
        if (offset > bytes_.size()) return aiReturn_FAILURE;
        to = bytes_.size() - offset;
        break;
      default: return aiReturn_FAILURE;
    }
    if (to > bytes_.size()) return aiReturn_FAILURE;
    pos_ = to;
    return aiReturn_SUCCESS;
  }
  size_t Tell() const override { return pos_; }
  size_t FileSize() const override { return bytes_.size(); }
  void Flush() override {}

 private:
  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
};

bool writes(const char* mode) {
  return mode && (std::strchr(mode, 'w') || std::strchr(mode, 'a') || std::strchr(mode, '+'));
}

}  // namespace

ResolverIOSystem::ResolverIOSystem(std::string mainName, std::span<const std::byte> main,
                                   Resolver resolve)
    : mainName_(normalise(mainName.c_str())), main_(main), resolve_(std::move(resolve)) {}

std::string ResolverIOSystem::normalise(const char* name) {
  std::string s = name ? name : "";
  std::replace(s.begin(), s.end(), '\\', '/');
  // The main file sits at the root of this virtual folder, so "./x", "/x" and "x" are one file
  // (importers build sibling names from an empty folder as "/x"); the resolver confines the rest.
  std::size_t skip = 0;
  while (true) {
    if (s.compare(skip, 2, "./") == 0) {
      skip += 2;
    } else if (s.compare(skip, 1, "/") == 0) {
      skip += 1;
    } else {
      break;
    }
  }
  return s.substr(skip);
}

bool ResolverIOSystem::isMain(const std::string& n) const {
  return n == mainName_ || n.starts_with(kAssimpMemoryName);
}

const std::vector<std::byte>* ResolverIOSystem::fetch(const std::string& n) const {
  auto it = cache_.find(n);
  if (it == cache_.end()) {
    std::optional<std::vector<std::byte>> bytes;
    if (resolve_ && !n.empty()) {
      ++resolverCalls_;
      bytes = resolve_(n);
    }
    if (bytes)
      siblingBytes_ += bytes->size();
    else
      missing_.push_back(n);
    it = cache_.emplace(n, std::move(bytes)).first;
  }
  return it->second ? &*it->second : nullptr;
}

bool ResolverIOSystem::Exists(const char* file) const {
  const std::string n = normalise(file);
  return isMain(n) || fetch(n) != nullptr;
}

Assimp::IOStream* ResolverIOSystem::Open(const char* file, const char* mode) {
  if (writes(mode)) return nullptr;
  const std::string n = normalise(file);
  std::span<const std::byte> bytes;
  if (isMain(n)) {
    bytes = main_;
  } else if (const auto* sibling = fetch(n)) {
    bytes = *sibling;
  } else {
    return nullptr;
  }
  // Assimp owns the stream until it hands it back to Close(); its allocator comes with the
  // IOStream base class, so the stream must be created and destroyed by plain new/delete.
  return std::make_unique<SpanStream>(bytes).release();
}

void ResolverIOSystem::Close(Assimp::IOStream* stream) {
  const std::unique_ptr<Assimp::IOStream> owned(stream);  // the stream Open() handed out ends here
}

bool ResolverIOSystem::ComparePaths(const char* one, const char* second) const {
  return normalise(one) == normalise(second);
}

}  // namespace marrow::formats
