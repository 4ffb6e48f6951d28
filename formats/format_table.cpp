// The format table: one line per format folder, in the order detection tries them.
#include "formats/format_table.h"
#include "formats/io/vfs.h"

#include <algorithm>

#include "formats/io/detect.h"

namespace marrow::formats {

const FormatDescriptor& omfFormat();        // formats/omf/descriptor.cpp
const FormatDescriptor& cal3dFormat();      // formats/cal3d/descriptor.cpp
const FormatDescriptor& brfFormat();        // formats/brf/descriptor.cpp
const FormatDescriptor& warbandFormat();    // formats/warband/descriptor.cpp
const FormatDescriptor& dragonNestFormat();  // formats/dragonnest/descriptor.cpp
const FormatDescriptor& gltfFormat();       // formats/gltf/descriptor.cpp
const FormatDescriptor& assimpFormat();     // formats/assimp/descriptor.cpp

std::span<const FormatDescriptor* const> formatTable() {
  static const FormatDescriptor* const table[] = {
      &omfFormat(),        &cal3dFormat(), &brfFormat(),    &warbandFormat(),
      &dragonNestFormat(), &gltfFormat(),  &assimpFormat(),
  };
  return table;
}

namespace {

std::string lower(std::string_view s) { return vfs::lowerAscii(s); }

}  // namespace

const FormatDescriptor* detect(std::span<const std::byte> head, std::string_view fileName) {
  head = head.first(std::min<std::size_t>(head.size(), 1024));
  for (const FormatDescriptor* f : formatTable())
    if (f->recognise && f->recognise(head)) return f;
  const auto slash = fileName.find_last_of("/\\");
  const std::string base = lower(slash == std::string_view::npos ? fileName : fileName.substr(slash + 1));
  for (const FormatDescriptor* f : formatTable())
    if (std::find(f->fileNames.begin(), f->fileNames.end(), base) != f->fileNames.end()) return f;
  const std::string ext = lower(extensionOf(fileName));
  if (ext.empty()) return nullptr;
  for (const FormatDescriptor* f : formatTable())
    if (f->claimsExtension && f->claimsExtension(ext)) return f;
  return nullptr;
}

const FormatDescriptor* formatById(std::string_view id) {
  for (const FormatDescriptor* f : formatTable())
    if (f->id == id) return f;
  return nullptr;
}

const FormatDescriptor* archiveFormatFor(std::string_view fileName) {
  const std::string ext = lower(extensionOf(fileName));
  for (const FormatDescriptor* f : formatTable())
    if (f->mount && std::find(f->archiveExtensions.begin(), f->archiveExtensions.end(), ext) !=
                        f->archiveExtensions.end())
      return f;
  return nullptr;
}

bool holdsAnimationsOnly(std::string_view fileName) {
  const std::string ext = lower(extensionOf(fileName));
  for (const FormatDescriptor* f : formatTable())
    if (std::find(f->animationExtensions.begin(), f->animationExtensions.end(), ext) != f->animationExtensions.end())
      return true;
  return false;
}

std::optional<std::string> libraryOf(const std::string& path) {
  for (const FormatDescriptor* f : formatTable())
    if (f->libraryOf)
      if (auto folder = f->libraryOf(path)) return folder;
  return std::nullopt;
}

std::vector<std::string> readExtensions() {
  std::vector<std::string> out;
  for (const FormatDescriptor* f : formatTable())
    if (f->reads())
      for (std::string_view e : f->extensions)
        if (std::find(out.begin(), out.end(), e) == out.end()) out.emplace_back(e);
  return out;
}

std::string readPattern() {
  std::string out;
  for (const std::string& e : readExtensions()) out += (out.empty() ? "*." : " *.") + e;
  for (const FormatDescriptor* f : formatTable())
    if (f->reads())
      for (std::string_view n : f->fileNames) out += " " + std::string(n);
  return out;
}

std::vector<std::string> mimeTypes() {
  std::vector<std::string> out;
  for (const FormatDescriptor* f : formatTable())
    for (std::string_view m : f->mimeTypes)
      if (std::find(out.begin(), out.end(), m) == out.end()) out.emplace_back(m);
  return out;
}

}  // namespace marrow::formats
