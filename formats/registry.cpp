#include "formats/registry.h"

#include <algorithm>

#include "formats/assimp/assimp_reader.h"
#include "formats/io/file.h"
#include "formats/model/validate.h"
#include "formats/omf/omf.h"

namespace marrow::formats {

Result<Scene> readScene(std::span<const std::byte> data, const ReadContext& ctx) {
  Result<Scene> r = FormatError{ctx.name, "", kNoOffset, "not a format Marrow reads"};
  switch (detectFormat(data.first(std::min<std::size_t>(data.size(), 64)), ctx.name)) {
    case FormatId::Omf: r = readOmf(data, ctx); break;
    case FormatId::Assimp: r = readWithAssimp(data, ctx); break;
    case FormatId::Unknown: return r;
  }
  if (!r) return r;
  if (auto problems = validate(*r); !problems.empty())
    return FormatError{ctx.name, "", kNoOffset, "inconsistent model: " + problems.front()};
  return r;
}

Result<Scene> loadFile(const std::string& path) {
  auto bytes = readFile(path);
  if (!bytes) return bytes.error();
  return readScene(*bytes, contextForFile(path));
}

Result<Scene> loadFiles(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, Scene>> parts;
  for (const auto& p : paths) {
    auto r = loadFile(p);
    if (!r) return r.error();
    parts.emplace_back(p, std::move(r).value());
  }
  std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
    return !a.second.skeleton.empty() && b.second.skeleton.empty();
  });
  Scene out;
  for (auto& [name, scene] : parts) merge(out, std::move(scene), name);
  if (auto problems = validate(out); !problems.empty())
    return FormatError{paths.empty() ? "" : paths.front(), "", kNoOffset,
                       "the files do not form one model: " + problems.front()};
  return out;
}

}  // namespace marrow::formats
