#include "formats/dragonnest/pak_archive.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "formats/io/codepage.h"
#include "formats/io/glob.h"

namespace marrow::formats::dragonnest {

namespace {

// A copy's path: "\\<pak>:<entry>". No normalised path has a backslash (they become '/'), so no
// entry's path, however hostile its stored name, reads as a copy's.
constexpr char kCopyMark = '\\';

std::string join(std::string_view folder, std::string_view name) {
  return folder.empty() ? std::string(name) : std::string(folder) + "/" + std::string(name);
}

// The stored bytes of `length` bytes at `start` of an entry's normalised path: the same bytes
// of its stored spelling (pak.h), case and all, for decoding (lower-casing would change the
// trail bytes of a double-byte code page).
std::string storedPart(const PakRef& ref, std::size_t start, std::size_t length) {
  if (!ref) return {};
  const std::string spelled = storedSpelling(ref.pak->storedPath(*ref.entry), ref.pak->codepage());
  return start < spelled.size() ? spelled.substr(start, length) : std::string();
}

// Whether some live entry or folder of the set has this normalised path.
bool hasPath(const PakSet& set, const std::string& key) {
  for (std::size_t i = 0; i < set.size(); ++i)
    if (set.pak(i).find(key)) return true;
  return !set.children(key).empty();
}

// The normalised form of a folder's (or file's) path given as stored or as shown: the first of
// PakSet::keys that is there, else the first.
std::string folderKey(const PakSet& set, std::string_view path) {
  auto keys = set.keys(path);
  for (std::size_t k = 1; k < keys.size(); ++k)
    if (!hasPath(set, keys[0]) && hasPath(set, keys[k])) return keys[k];
  return keys[0];
}

}  // namespace

PakArchive::PakArchive(std::shared_ptr<const PakSet> paks) : paks_(std::move(paks)) {}

std::string PakArchive::codepage() const {
  return paks_ && paks_->codepage() != "UTF-8" ? paks_->codepage() : std::string();
}

std::string PakArchive::title() const {
  if (!paks_ || paks_->size() == 0) return "(no pak)";
  const std::string first = paks_->pak(0).name();
  return paks_->size() == 1 ? first : first + " + " + std::to_string(paks_->size() - 1) + " more";
}

std::vector<std::string> PakArchive::openedFrom() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; paks_ && i < paks_->size(); ++i) out.push_back(paks_->pak(i).name());
  return out;
}

std::size_t PakArchive::pakIndex(const Pak* pak) const {
  for (std::size_t i = 0; i < paks_->size(); ++i)
    if (&paks_->pak(i) == pak) return i;
  return 0;
}

std::string PakArchive::copyPath(const PakRef& ref) const {
  return std::string(1, kCopyMark) + std::to_string(pakIndex(ref.pak)) + ":" +
         std::to_string(ref.entry->index);
}

PakRef PakArchive::entryAt(std::string_view path) const {
  if (!paks_) return {};
  if (!path.empty() && path.front() == kCopyMark) {
    std::size_t pak = 0, entry = 0;
    const char* p = path.data() + 1;
    const char* end = path.data() + path.size();
    auto r = std::from_chars(p, end, pak);
    if (r.ec != std::errc() || r.ptr == end || *r.ptr != ':') return {};
    r = std::from_chars(r.ptr + 1, end, entry);
    if (r.ec != std::errc() || r.ptr != end || pak >= paks_->size() ||
        entry >= paks_->pak(pak).entries().size())
      return {};
    return {&paks_->pak(pak), &paks_->pak(pak).entries()[entry]};
  }
  if (PakRef ref = paks_->findPath(path)) return ref;
  // A path whose every copy is deleted: the first deleted slot, as the tree shows it.
  for (const std::string& key : paks_->keys(path))
    for (std::size_t i = 0; i < paks_->size(); ++i)
      for (const PakEntry& e : paks_->pak(i).entries())
        if (e.deleted() && paks_->pak(i).path(e) == key) return {&paks_->pak(i), &e};
  return {};
}

vfs::Node PakArchive::nodeOf(const PakRef& ref, bool overridden) const {
  const PakEntry& e = *ref.entry;
  vfs::Node n;
  n.name = paks_->displayName(storedBaseName(ref.pak->storedPath(e), paks_->codepage()));
  n.path = overridden ? copyPath(ref) : std::string(ref.pak->path(e));
  if (ref.pak->path(e).empty()) {  // a live entry without a name: reachable by its own path only
    n.path = copyPath(ref);
    n.name = "(unnamed entry " + std::to_string(e.index) + ")";
    overridden = false;
  }
  n.kind = "file";
  n.size = e.deleted() ? 0 : e.size;
  n.figures.push_back({"packed_size", std::uint64_t{e.packedSize}, false});
  n.figures.push_back({"archive", ref.pak->name(), false});
  const std::string pak = ref.pak->name();
  const auto slash = pak.find_last_of("/\\");
  n.detail = slash == std::string::npos ? pak : pak.substr(slash + 1);
  if (e.deleted()) n.flags |= vfs::Node::Deleted;
  if (overridden) n.flags |= vfs::Node::Overridden;
  if (!e.readable() && !e.deleted()) n.flags |= vfs::Node::Unreadable;
  return n;
}

std::vector<vfs::Node> PakArchive::children(std::string_view path) const {
  std::vector<vfs::Node> out;
  if (!paks_) return out;
  const std::string folder = folderKey(*paks_, path);
  // Live copies in later paks that the file system does not resolve to, by name (§2.4).
  std::map<std::string, std::vector<PakRef>> overridden;
  if (paks_->size() > 1)
    for (std::size_t i = 0; i < paks_->size(); ++i) {
      const Pak& pak = paks_->pak(i);
      for (const PakNode& node : pak.children(folder)) {
        const PakRef ref{&pak, &pak.entries()[node.entry]};
        if (!node.folder && !ref.entry->deleted() && !paks_->isActive(ref))
          overridden[node.name].push_back(ref);
      }
    }
  for (const PakSetNode& node : paks_->children(folder)) {
    if (node.folder) {
      vfs::Node n;
      n.name = paks_->displayName(storedPart(node.file, folder.empty() ? 0 : folder.size() + 1, node.name.size()));
      n.path = join(folder, node.name);
      n.kind = "folder";
      n.container = true;
      out.push_back(std::move(n));
      continue;
    }
    out.push_back(nodeOf(node.file, false));
    if (const auto hidden = overridden.find(node.name); hidden != overridden.end()) {
      std::string others;
      for (const PakRef& ref : hidden->second) {
        out.push_back(nodeOf(ref, true));
        others += (others.empty() ? "" : ", ") + out.back().detail;
      }
      out[out.size() - hidden->second.size() - 1].detail += ", overrides " + others;
    }
  }
  return out;
}

std::optional<vfs::Node> PakArchive::node(std::string_view path) const {
  if (!paks_) return std::nullopt;
  if (path.empty() || (path.front() != kCopyMark && normalizePakPath(path, paks_->codepage()).empty())) {
    vfs::Node root;
    root.name = title();
    root.kind = "folder";
    root.container = true;
    return root;
  }
  if (const PakRef ref = entryAt(path))
    return nodeOf(ref, path.front() == kCopyMark && !ref.pak->path(*ref.entry).empty() && !paks_->isActive(ref));
  // A folder: some entry lies below it.
  const std::string folder = folderKey(*paks_, path);
  const std::size_t cut = folder.find_last_of('/');
  const std::string parent = cut == std::string::npos ? std::string() : folder.substr(0, cut);
  const std::string name = cut == std::string::npos ? folder : folder.substr(cut + 1);
  for (const PakSetNode& n : paks_->children(parent))
    if (n.folder && n.name == name) {
      vfs::Node f;
      f.name = paks_->displayName(storedPart(n.file, parent.empty() ? 0 : parent.size() + 1, name.size()));
      f.path = folder;
      f.kind = "folder";
      f.container = true;
      return f;
    }
  return std::nullopt;
}

Result<std::vector<std::byte>> PakArchive::read(std::string_view path, const Limits& limits) const {
  const PakRef ref = entryAt(path);
  if (!ref)
    return FormatError{title(), "entry", kNoOffset, "no entry '" + std::string(path) + "' in the archive"};
  return PakSet::read(ref, limits);
}

Result<std::uint64_t> PakArchive::stream(std::string_view path, const Limits& limits, const Sink& sink) const {
  const PakRef ref = entryAt(path);
  if (!ref)
    return FormatError{title(), "entry", kNoOffset, "no entry '" + std::string(path) + "' in the archive"};
  return PakSet::stream(ref, limits, sink);
}

std::optional<std::string> PakArchive::find(std::string_view name) const {
  if (!paks_) return std::nullopt;
  const PakRef ref = paks_->find(name);
  if (!ref) return std::nullopt;
  return std::string(ref.pak->path(*ref.entry));
}

Address PakArchive::addressOf(std::string_view path) const {
  const PakRef ref = entryAt(path);
  if (!ref) return {paks_ && paks_->size() ? paks_->pak(0).name() : std::string(), std::string(path)};
  return {ref.pak->name(), std::string(ref.pak->path(*ref.entry))};
}

std::vector<vfs::Node> PakArchive::search(std::string_view text, std::size_t limit) const {
  std::vector<vfs::Node> out;
  if (!paks_) return out;
  // Normalised paths are ASCII lower case (§1): a plain substring search is case-insensitive,
  // matched at the start of a character (not at a trail byte of a double-byte code page).
  const ByteLayout layout = byteLayout(paks_->codepage());
  const vfs::Query query = vfs::parseQuery(text);
  const std::string needle = vfs::lowerAscii(query.text);
  const bool wholePath = needle.find('/') != std::string::npos;
  const bool wide = !isAscii(needle);
  for (const PakRef& ref : paks_->resolvedEntries()) {
    if (out.size() >= limit) break;
    const std::string_view path = ref.pak->path(*ref.entry);
    const std::string_view where = wholePath ? path : pakBaseName(path);
    // Names in a legacy code page are searched as shown (decoded from the stored bytes) when
    // the text is not ASCII.
    if (wide) {
      const std::string_view stored = ref.pak->storedPath(*ref.entry);
      const std::string shown = paks_->displayName(wholePath ? storedSpelling(stored, paks_->codepage())
                                                             : storedBaseName(stored, paks_->codepage()));
      if (!vfs::containsIgnoringCase(shown, query.text)) continue;
    } else if (findCharacters(where, needle, layout) == std::string_view::npos) {
      continue;
    }
    vfs::Node n = nodeOf(ref, false);
    if (!query.kind.empty() && vfs::lowerAscii(n.kind) != query.kind) continue;
    out.push_back(std::move(n));
  }
  return out;
}

std::vector<vfs::Node> PakArchive::files(std::string_view path) const {
  std::vector<vfs::Node> out;
  if (!paks_) return out;
  if (!path.empty() && path.front() == kCopyMark) return {};  // an overridden copy: not written
  const std::string under = folderKey(*paks_, path);
  for (const PakRef& ref : paks_->resolvedEntries()) {
    if (ref.entry->deleted()) continue;
    const std::string_view p = ref.pak->path(*ref.entry);
    if (under.empty() || p == under || (p.starts_with(under) && p.size() > under.size() && p[under.size()] == '/'))
      out.push_back(nodeOf(ref, false));
  }
  return out;
}

std::string PakArchive::storedName(const vfs::Node& node) const {
  const PakRef ref = entryAt(node.path);
  return ref ? paks_->displayName(ref.pak->storedPath(*ref.entry)) : node.path;
}

std::vector<vfs::Node> PakArchive::models(std::string_view pattern) const {
  std::vector<vfs::Node> out;
  if (!paks_) return out;
  const auto entries = paks_->resolvedEntries();
  const auto ends = [](std::string_view p, std::string_view ext) {
    return p.size() > ext.size() && p.substr(p.size() - ext.size()) == ext;
  };
  std::set<std::string, std::less<>> skins;
  for (const PakRef& ref : entries) {
    const std::string_view p = ref.pak->path(*ref.entry);
    if (ends(p, ".skn")) skins.insert(std::string(p.substr(0, p.size() - 4)));
  }
  const std::vector<std::string> keys = paks_->keys(pattern);  // as stored, as shown
  for (const PakRef& ref : entries) {
    if (ref.entry->deleted()) continue;
    const std::string_view p = ref.pak->path(*ref.entry);
    bool wanted = false;
    if (pattern.empty())  // the archive's models
      wanted = ends(p, ".skn") || (ends(p, ".msh") && !skins.count(p.substr(0, p.size() - 4)));
    else
      for (const std::string& key : keys) wanted = wanted || (hasGlob(key) ? matchGlob(key, p) : p == key);
    if (wanted) out.push_back(nodeOf(ref, false));
  }
  return out;
}

}  // namespace marrow::formats::dragonnest
