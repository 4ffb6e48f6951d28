#include "formats/folder_models.h"

#include <algorithm>
#include <filesystem>

#include "formats/format_table.h"
#include "formats/io/vfs.h"

namespace marrow::formats {

FolderContents modelsInFolder(std::span<const std::string> files) {
  std::vector<std::pair<const FormatDescriptor*, std::vector<std::string>>> byFormat;
  for (const std::string& f : files) {
    const std::string name = std::filesystem::path(f).filename().string();
    const FormatDescriptor* format = detect({}, name);
    if (!format || !format->reads() || archiveFormatFor(name)) continue;
    // A file claimed by its whole name is a library's (a Warband module's module.ini,
    // actions.txt), not a model.
    const std::string lowered = vfs::lowerAscii(name);
    if (std::find(format->fileNames.begin(), format->fileNames.end(), lowered) != format->fileNames.end()) continue;
    auto at = std::find_if(byFormat.begin(), byFormat.end(), [&](const auto& g) { return g.first == format; });
    if (at == byFormat.end()) at = byFormat.insert(byFormat.end(), {format, {}});
    at->second.push_back(f);
  }
  // In table order, so that the result does not depend on the order files were listed in.
  const auto table = formatTable();
  const auto rank = [&](const FormatDescriptor* f) { return std::find(table.begin(), table.end(), f) - table.begin(); };
  std::stable_sort(byFormat.begin(), byFormat.end(), [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
  FolderContents out;
  for (auto& [format, paths] : byFormat) {
    if (!format->modelsInFolder) {
      for (std::string& p : paths) out.models.push_back({format, {std::move(p)}});
      continue;
    }
    FolderModels found = format->modelsInFolder(paths);
    for (auto& m : found.models)
      if (!m.empty()) out.models.push_back({format, std::move(m)});
    out.unfit.insert(out.unfit.end(), std::make_move_iterator(found.unfit.begin()),
                     std::make_move_iterator(found.unfit.end()));
  }
  return out;
}

std::vector<std::string> modelFilesOf(const std::string& file) {
  namespace fs = std::filesystem;
  // Only a format that groups files looks at the others, and only at those of its own format.
  const FormatDescriptor* format = detect({}, fs::path(file).filename().string());
  if (!format || !format->modelsInFolder) return {file};
  const fs::path dir = fs::path(file).parent_path();
  std::vector<std::string> siblings;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir.empty() ? fs::path(".") : dir, ec))
    if (e.is_regular_file(ec) && detect({}, e.path().filename().string()) == format)
      siblings.push_back(e.path().string());
  std::sort(siblings.begin(), siblings.end());
  const auto same = [&](const std::string& a) {
    std::error_code failed;
    return fs::equivalent(a, file, failed);
  };
  for (auto& model : modelsInFolder(siblings).models)
    if (std::any_of(model.files.begin(), model.files.end(), same)) return std::move(model.files);
  return {file};
}

}  // namespace marrow::formats
