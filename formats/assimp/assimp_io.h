// The file system assimp sees while it imports: the main file served from memory, every other
// name (a .gltf's .bin, an .mtl, an .md5anim) fetched through ReadContext::resolve. Nothing here
// opens a file, writes one or changes directory, so assimp cannot reach past the resolver.
#pragma once

#include <assimp/IOSystem.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/io/read_context.h"

namespace marrow::formats {

// Internal to the assimp reader.
class ResolverIOSystem final : public Assimp::IOSystem {
 public:
  // `mainName` is the name the importer is asked to read; the main bytes are served for it and
  // for assimp's own in-memory name ("$$$___magic___$$$…"). `main` must outlive this object.
  ResolverIOSystem(std::string mainName, std::span<const std::byte> main, Resolver resolve);

  bool Exists(const char* file) const override;
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char* file, const char* mode) override;
  void Close(Assimp::IOStream* stream) override;
  bool ComparePaths(const char* one, const char* second) const override;

  // Assimp's defaults for these touch the real file system; here they do nothing.
  bool CreateDirectory(const std::string&) override { return false; }
  bool ChangeDirectory(const std::string&) override { return false; }
  bool DeleteFile(const std::string&) override { return false; }

  // Bytes of sibling files served so far (for allocation limits that scale with the input).
  std::uint64_t siblingBytes() const { return siblingBytes_; }
  // Names assimp asked for that the resolver could not supply, in the order asked.
  const std::vector<std::string>& missing() const { return missing_; }
  // How many times the resolver was called (each distinct name at most once).
  std::size_t resolverCalls() const { return resolverCalls_; }

  // The name as the resolver should see it: slashes only, no leading "./" or "/".
  static std::string normalise(const char* name);

 private:
  bool isMain(const std::string& normalised) const;
  const std::vector<std::byte>* fetch(const std::string& normalised) const;

  std::string mainName_;
  std::span<const std::byte> main_;
  Resolver resolve_;
  // Each sibling is resolved once, whether assimp asks Exists() first or opens it twice.
  mutable std::map<std::string, std::optional<std::vector<std::byte>>> cache_;
  mutable std::vector<std::string> missing_;
  mutable std::uint64_t siblingBytes_ = 0;
  mutable std::size_t resolverCalls_ = 0;
};

}  // namespace marrow::formats
