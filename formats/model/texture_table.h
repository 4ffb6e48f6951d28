// A model's texture list with each image held once.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "formats/model/scene.h"

namespace marrow::formats {

// The texture list of a material or a model, each image held once: a map naming a file that is
// already there (by the same name, or by another name that found the same bytes) uses that
// texture. Otherwise a file naming one big image on thousands of maps, or under thousands of
// spellings a resolver finds alike, would hold thousands of copies of it. Names that were not
// found (no bytes) are kept one per name, so that writers give each map its name back.
class TextureTable {
 public:
  explicit TextureTable(std::vector<Texture>& textures) : textures_(textures) {}
  // The texture already there under this name (to look before fetching a file again), or -1.
  int named(const std::string& name) const;
  // Adds `t` unless its bytes (or, without bytes, its name) are already there; its index.
  int add(Texture t);

 private:
  std::vector<Texture>& textures_;
  std::multimap<std::size_t, int> byContent_;  // hash of the bytes → index
  std::map<std::string, int> byName_;
};

}  // namespace marrow::formats
