#include "formats/dragonnest/extract.h"

namespace marrow::formats::dragonnest {

std::vector<PakRef> selectEntries(const PakSet& set, std::span<const std::string> selectors,
                                  std::vector<std::string>* unmatched) {
  // Each selector's paths as stored and as shown (PakSet::keys): `list` prints the shown ones.
  std::vector<std::vector<std::string>> wanted;
  for (const auto& s : selectors) wanted.push_back(set.keys(s));
  std::vector<bool> used(wanted.size(), false);
  std::vector<PakRef> out;
  for (const PakRef& ref : set.resolvedEntries()) {
    if (ref.entry->deleted()) continue;
    const std::string_view path = ref.pak->path(*ref.entry);
    bool take = wanted.empty();
    for (std::size_t k = 0; k < wanted.size(); ++k)
      for (const std::string& w : wanted[k]) {
        // The path itself, or a folder above it ("" selects everything).
        if (w.empty() || path == w || (path.starts_with(w) && path[w.size()] == '/')) {
          take = true;
          used[k] = true;
        }
      }
    if (take) out.push_back(ref);
  }
  if (unmatched)
    for (std::size_t k = 0; k < selectors.size(); ++k)
      if (!used[k]) unmatched->push_back(selectors[k]);
  return out;
}

ExtractReport extractEntries(const PakSet& set, std::span<const PakRef> entries,
                             const std::filesystem::path& folder, const ExtractOptions& options) {
  std::vector<ExtractItem> items;
  items.reserve(entries.size());
  for (const PakRef& ref : entries)
    items.push_back({set.displayName(ref.pak->storedPath(*ref.entry)),
                     [ref](const Limits& limits, const vfs::Archive::Sink& sink) { return PakSet::stream(ref, limits, sink); }});
  return extractItems(items, folder, options);
}

}  // namespace marrow::formats::dragonnest
