// Several paks as one file system, in the client's search order (§2.4).
#include <algorithm>
#include <map>
#include <mutex>

#include "formats/dragonnest/pak.h"
#include "formats/io/codepage.h"
#include "formats/io/vfs.h"

namespace marrow::formats::dragonnest {

struct PakSet::State {
  std::vector<std::unique_ptr<Pak>> paks;  // search order: byte-wise order of their names
  // Every live entry by lower-case bare name, in search order within one name (§2.4: the
  // engine hashes the name part only). Views point into the paks' path pools.
  struct NameRef {
    std::string_view name;
    std::uint32_t pak;
    const PakEntry* entry;
  };
  std::vector<NameRef> byName;
  // resolvedEntries(), made on first use (a filter's first keystroke), once, from any thread.
  mutable std::once_flag resolvedOnce;
  mutable std::vector<PakRef> resolved;
};

PakSet::PakSet() : state_(std::make_shared<State>()) {}

PakSet::PakSet(std::vector<Pak> paks, std::string codepage) {
  auto state = std::make_shared<State>();
  for (auto& p : paks) state->paks.push_back(std::make_unique<Pak>(std::move(p)));
  // §2.4: strcmp of the full path, so "00Resource.pak" comes before "Resource00.pak".
  std::stable_sort(state->paks.begin(), state->paks.end(),
                   [](const auto& a, const auto& b) { return a->name() < b->name(); });
  if (codepage.empty()) {
    std::vector<std::string_view> names;
    for (const auto& p : state->paks)
      for (const PakEntry& e : p->entries())
        if (e.pathLength > 0) names.push_back(p->storedPath(e));
    codepage = detectCodepage(names);
  }
  codepage_ = std::move(codepage);
  // The paths are normalised in the code page before anything is indexed by them.
  for (auto& p : state->paks) p->setCodepage(codepage_);
  for (std::uint32_t k = 0; k < state->paks.size(); ++k) {
    const Pak& pak = *state->paks[k];
    for (const PakEntry& e : pak.entries()) {  // table order: the first copy wins
      if (!e.deleted() && e.pathLength > 0)
        state->byName.push_back({pakBaseName(pak.path(e)), k, &e});
    }
  }
  std::stable_sort(state->byName.begin(), state->byName.end(),
                   [](const auto& a, const auto& b) { return a.name < b.name; });
  state_ = std::move(state);
}

namespace {

// The path with each component (between '/' and '\\', which stay) given to `each`. Only a
// separator that starts a character separates: in a double-byte code page a trail byte 0x5C is
// part of its character.
template <class Each>
std::string mapComponents(std::string_view path, ByteLayout layout, Each each) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t i = 0, n = 1; i <= path.size(); i += n) {
    n = i < path.size() ? characterLength(path, i, layout) : 1;
    if (i == path.size() || (n == 1 && (path[i] == '\\' || path[i] == '/'))) {
      out += each(path.substr(start, i - start));
      if (i < path.size()) out.push_back(path[i]);
      start = i + 1;
    }
  }
  return out;
}

int hexDigit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// The bytes of a name shown with %NN escapes (nameAsUtf8: bytes of 0x80 and above that no code
// page explains); nothing when it has none.
std::optional<std::string> unescaped(std::string_view shown) {
  std::string bytes;
  bool escaped = false;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (shown[i] == '%' && i + 2 < shown.size() && hexDigit(shown[i + 1]) >= 8 && hexDigit(shown[i + 2]) >= 0) {
      bytes.push_back(static_cast<char>(hexDigit(shown[i + 1]) * 16 + hexDigit(shown[i + 2])));
      i += 2;
      escaped = true;
    } else {
      bytes.push_back(shown[i]);
    }
  }
  return escaped ? std::optional<std::string>(std::move(bytes)) : std::nullopt;
}

}  // namespace

std::string PakSet::displayName(std::string_view stored) const {
  // Component by component: one name that decodes nowhere is escaped alone.
  return mapComponents(stored, byteLayout(codepage_), [&](std::string_view part) { return nameAsUtf8(part, codepage_); });
}

std::string PakSet::shownPath(const PakEntry& e, const Pak& pak) const {
  return vfs::lowerAscii(displayName(storedSpelling(pak.storedPath(e), codepage_)));
}

Result<PakSet> PakSet::open(const std::vector<std::string>& paths, std::string codepage) {
  std::vector<Pak> paks;
  for (const auto& path : paths) {
    auto pak = Pak::open(path);
    if (!pak) return pak.error();
    paks.push_back(std::move(*pak));
  }
  return PakSet(std::move(paks), std::move(codepage));
}

std::size_t PakSet::size() const {
  return state_->paks.size();
}
const Pak& PakSet::pak(std::size_t i) const {
  return *state_->paks.at(i);
}

std::optional<std::string> PakSet::storedForm(std::string_view shown) const {
  const bool legacy = !codepage_.empty() && codepage_ != "UTF-8";
  if (shown.find('%') == std::string_view::npos && (!legacy || isAscii(shown))) return std::nullopt;
  // Component by component (shown text is UTF-8, so its separators are the ASCII ones): a name
  // with escapes is those bytes, any other is spelled in the code page.
  bool changed = false;
  std::string stored = mapComponents(shown, ByteLayout::Single, [&](std::string_view part) {
    if (auto bytes = unescaped(part)) {
      changed = true;
      return std::move(*bytes);
    }
    if (legacy && !isAscii(part))
      if (auto spelled = encodeCodepage(part, codepage_)) {
        changed = true;
        return std::move(*spelled);
      }
    return std::string(part);
  });
  if (!changed || stored == shown) return std::nullopt;
  return stored;
}

std::vector<std::string> PakSet::keys(std::string_view path) const {
  std::vector<std::string> out{normalizePakPath(path, codepage_)};
  if (const auto stored = storedForm(path)) {
    std::string key = normalizePakPath(*stored, codepage_);
    if (key != out.front()) out.push_back(std::move(key));
  }
  return out;
}

PakRef PakSet::findKey(std::string_view normalized) const {
  for (const auto& pak : state_->paks)
    if (const PakEntry* e = pak->find(normalized)) return {pak.get(), e};
  return {};
}

PakRef PakSet::findBaseName(std::string_view normalized) const {
  const std::string_view base = pakBaseName(normalized);
  if (base.empty()) return {};
  const auto& byName = state_->byName;
  const auto it =
      std::lower_bound(byName.begin(), byName.end(), base,
                       [](const State::NameRef& r, std::string_view n) { return r.name < n; });
  if (it == byName.end() || it->name != base) return {};
  return {state_->paks[it->pak].get(), it->entry};
}

PakRef PakSet::findPath(std::string_view path) const {
  for (const std::string& key : keys(path))
    if (PakRef r = findKey(key)) return r;
  return {};
}

PakRef PakSet::findName(std::string_view name) const {
  for (const std::string& key : keys(name))
    if (PakRef r = findBaseName(key)) return r;
  return {};
}

PakRef PakSet::find(std::string_view query) const {
  const auto all = keys(query);
  for (const std::string& key : all)
    if (key.find('/') != std::string::npos)
      if (PakRef r = findKey(key)) return r;
  for (const std::string& key : all)
    if (PakRef r = findBaseName(key)) return r;
  return {};
}

bool PakSet::isActive(const PakRef& ref) const {
  if (!ref || ref.entry->deleted()) return false;
  const PakRef found = findPath(ref.pak->path(*ref.entry));
  return found.entry == ref.entry;
}

std::vector<PakSetNode> PakSet::children(std::string_view folder) const {
  // Merged by name; a file takes the first pak's live entry, else the first deleted one.
  std::map<std::pair<bool, std::string>, PakSetNode> merged;  // (!folder, name): folders first
  for (const auto& pak : state_->paks) {
    for (auto& node : pak->children(folder)) {
      const PakRef ref{pak.get(), &pak->entries()[node.entry]};
      auto [it, inserted] =
          merged.try_emplace({!node.folder, node.name}, PakSetNode{node.name, node.folder, ref});
      if (!inserted && !node.folder && it->second.file.entry->deleted() && !ref.entry->deleted())
        it->second.file = ref;
    }
  }
  std::vector<PakSetNode> out;
  out.reserve(merged.size());
  for (auto& [key, node] : merged) out.push_back(std::move(node));
  return out;
}

const std::vector<PakRef>& PakSet::resolvedEntries() const {
  std::call_once(state_->resolvedOnce, [this] { state_->resolved = resolveEntries(); });
  return state_->resolved;
}

std::vector<PakRef> PakSet::resolveEntries() const {
  std::vector<PakRef> all;
  for (const auto& pak : state_->paks)
    for (std::uint32_t i : pak->sorted()) {
      const PakEntry& e = pak->entries()[i];
      if (e.pathLength > 0) all.push_back({pak.get(), &e});
    }
  // Stable: within one path, search order and then table order remain.
  std::stable_sort(all.begin(), all.end(), [](const PakRef& a, const PakRef& b) {
    return a.pak->path(*a.entry) < b.pak->path(*b.entry);
  });
  std::vector<PakRef> out;
  for (std::size_t k = 0; k < all.size();) {
    std::size_t end = k;
    const auto p = all[k].pak->path(*all[k].entry);
    PakRef chosen = all[k];
    bool live = false;
    while (end < all.size() && all[end].pak->path(*all[end].entry) == p) {
      if (!live && !all[end].entry->deleted()) {
        chosen = all[end];
        live = true;
      }
      ++end;
    }
    out.push_back(chosen);
    k = end;
  }
  return out;
}

Result<std::vector<std::byte>> PakSet::read(const PakRef& ref, const Limits& limits) {
  if (!ref) return FormatError{"", "entry", kNoOffset, "no such entry"};
  return ref.pak->read(*ref.entry, limits);
}

Result<std::uint64_t> PakSet::stream(const PakRef& ref, const Limits& limits,
                                     const std::function<bool(std::span<const std::byte>)>& sink) {
  if (!ref) return FormatError{"", "entry", kNoOffset, "no such entry"};
  if (ref.entry->size > limits.maxWholeEntry) return ref.pak->stream(*ref.entry, sink);
  auto bytes = ref.pak->read(*ref.entry, limits);
  if (!bytes) return bytes.error();
  if (!sink(*bytes)) return FormatError{"", "data", kNoOffset, "stopped"};
  return std::uint64_t{bytes->size()};
}

Resolver PakSet::resolver(Limits limits) const {
  // Holds a copy of this set: the paks stay open while the resolver lives.
  return [set = *this, limits](const std::string& query) -> std::optional<std::vector<std::byte>> {
    const PakRef ref = set.find(query);
    if (!ref || !ref.entry->readable()) return std::nullopt;
    auto bytes = ref.pak->read(*ref.entry, limits);
    if (!bytes) return std::nullopt;
    return std::move(*bytes);
  };
}

}  // namespace marrow::formats::dragonnest
