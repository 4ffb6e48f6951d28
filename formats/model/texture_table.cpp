#include "formats/model/texture_table.h"

#include <functional>
#include <string_view>
#include <utility>

namespace marrow::formats {

int TextureTable::named(const std::string& name) const {
  const auto it = byName_.find(name);
  return it == byName_.end() ? -1 : it->second;
}

int TextureTable::add(Texture t) {
  const std::size_t hash = std::hash<std::string_view>{}(
      std::string_view(reinterpret_cast<const char*>(t.data.data()), t.data.size()));
  if (!t.data.empty()) {
    const auto [from, to] = byContent_.equal_range(hash);
    for (auto it = from; it != to; ++it)
      if (textures_[static_cast<std::size_t>(it->second)].data == t.data) {
        byName_.emplace(t.name, it->second);
        return it->second;
      }
  } else if (const int same = named(t.name);
             same >= 0 && textures_[static_cast<std::size_t>(same)].data.empty()) {
    return same;
  }
  const int index = static_cast<int>(textures_.size());
  if (!t.data.empty()) byContent_.emplace(hash, index);
  byName_.emplace(t.name, index);
  textures_.push_back(std::move(t));
  return index;
}

}  // namespace marrow::formats
