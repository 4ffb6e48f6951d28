// Dragon Nest .pak index (§2.1, §2.2): Pak::parse, then everything a browser does with the index
// (sorted paths and duplicates, the folder tree, lookups, the file system of PakSet), the path a
// stored name would be extracted to (never absolute, never '..'), and the first few entries
// inflated.
#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/dragonnest/extract.h"
#include "formats/dragonnest/pak.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace marrow;
using formats::dragonnest::Pak;

void checkExtractPath(std::string_view stored) {
  const auto safe = formats::safeRelativePath(stored);
  if (!safe) return;
  const auto& p = safe.relative;
  if (p.empty() || p.is_absolute() || p.has_root_path())
    fuzz::finding("stored name '" + std::string(stored) + "' extracts to '" + p.string() + "'");
  for (const auto& part : p)
    if (part == ".." || part == "." || part.empty())
      fuzz::finding("stored name '" + std::string(stored) + "' extracts through '" + part.string() +
                    "'");
}

// The tree below `folder`, at most `budget` nodes in all.
void walk(const Pak& pak, const std::string& folder, int depth, int& budget) {
  for (const auto& node : pak.children(folder)) {
    if (--budget < 0) return;
    if (node.folder && depth < 8)
      walk(pak, folder.empty() ? node.name : folder + "/" + node.name, depth + 1, budget);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string name = "fuzz.pak";
  fuzz::AllocationWatch watch;
  auto r = Pak::parse(fuzz::asBytes(data, size), name);
  if (!fuzz::succeeded(r, name, size)) return 0;
  Pak& pak = *r;
  (void)pak.diagnostics();  // builds the sorted index and the duplicate list
  int budget = 256;
  walk(pak, "", 0, budget);
  watch.check(size, "Pak::parse and its index");
  int inflated = 0;
  for (const auto& e : pak.entries()) {
    const std::string_view path = pak.path(e);
    if (formats::dragonnest::normalizePakPath(path) != path)
      fuzz::finding("path '" + std::string(path) + "' is not normalised");
    checkExtractPath(pak.storedPath(e));
    if (!e.deleted() && !path.empty() && pak.find(path) == nullptr)  // (unnamed: no path)
      fuzz::finding("live entry '" + std::string(path) + "' is not found by its path");
    if (e.readable() && inflated < 4) {
      ++inflated;
      auto bytes = pak.read(e, fuzz::tightLimits());
      if (bytes && bytes->size() != e.size)
        fuzz::finding("entry '" + std::string(path) + "' inflated to " +
                      std::to_string(bytes->size()) + " bytes, not its declared " +
                      std::to_string(e.size));
    }
  }
  // As one set in the code page detected over its names, then in each double-byte layout (a
  // trail byte may be a backslash or a letter): every live entry is found by its path, and the
  // paths stay normalised.
  std::vector<Pak> paks;
  paks.push_back(std::move(pak));
  formats::dragonnest::PakSet set(std::move(paks));
  for (const char* codepage : {"", "CP949", "GB18030", "CP932"}) {
    if (*codepage) {
      std::vector<Pak> again;
      auto reparsed = Pak::parse(fuzz::asBytes(data, size), name);
      if (!reparsed) return 0;
      again.push_back(std::move(*reparsed));
      set = formats::dragonnest::PakSet(std::move(again), codepage);
    }
    const Pak& one = set.pak(0);
    for (const auto& ref : set.resolvedEntries()) {
      const std::string_view path = ref.pak->path(*ref.entry);
      if (formats::dragonnest::normalizePakPath(path, set.codepage()) != path)
        fuzz::finding("path '" + std::string(path) + "' is not normalised in " + set.codepage());
      if (!ref.entry->deleted() && one.find(path) == nullptr)
        fuzz::finding("live entry '" + std::string(path) + "' is not found by its path in " + set.codepage());
      (void)set.find(path);
      (void)set.findName(formats::dragonnest::pakBaseName(path));
      (void)set.displayName(ref.pak->storedPath(*ref.entry));
      (void)set.shownPath(*ref.entry, *ref.pak);
    }
    (void)set.children("");
  }
  return 0;
}
