// Pak entries selected and extracted: the pak side of formats/io/extract.h.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "formats/dragonnest/pak.h"
#include "formats/io/extract.h"

namespace marrow::formats::dragonnest {

// The live entries of the file system a list of paths and folder prefixes selects (all of
// them when `selectors` is empty), one per path, in path order. `unmatched` gets the selectors
// that selected nothing.
std::vector<PakRef> selectEntries(const PakSet& set, std::span<const std::string> selectors,
                                  std::vector<std::string>* unmatched = nullptr);

// extractItems() of those entries of `set`, each under its stored name as UTF-8 (decoded from the
// set's code page, PakSet::displayName). The set must outlive the call.
ExtractReport extractEntries(const PakSet& set, std::span<const PakRef> entries, const std::filesystem::path& folder,
                             const ExtractOptions& options = {});

}  // namespace marrow::formats::dragonnest
