// The index of one pak: header (§2.1), entry table (§2.2), sorted paths for lookups and the tree.
#include "formats/dragonnest/pak.h"

#include <algorithm>
#include <cstring>

#include "formats/io/byte_reader.h"
#include "formats/io/codepage.h"

namespace marrow::formats::dragonnest {
namespace {

// Per-entry warnings stop after this many of a kind; a summary says how many were left out.
constexpr std::size_t kMaxEntryMessages = 50;

std::uint32_t u32At(const std::byte* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);  // little-endian host (byte_reader.cpp)
  return v;
}

char lowerAscii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Appends the normalised form of `path` to `out` (see normalizePakPath): characters of more
// than one byte in the names' code page are copied whole.
void appendNormalized(std::string& out, std::string_view path, ByteLayout layout, bool lower = true) {
  const std::size_t start = out.size();
  for (std::size_t i = 0, n = 1; i < path.size(); i += n) {
    n = layout == ByteLayout::Single ? 1 : characterLength(path, i, layout);
    const char c = path[i];
    if (n > 1) {
      out.append(path.substr(i, n));
    } else if (c == '\\' || c == '/') {
      if (out.size() > start && out.back() != '/') out.push_back('/');
    } else {
      out.push_back(lower ? lowerAscii(c) : c);
    }
  }
  if (out.size() > start && out.back() == '/') out.pop_back();
}

// Printable text of a name or magic for a message.
std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s.substr(0, 64))
    out.push_back(c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?');
  return out;
}

// Counts messages of one kind and writes the first kMaxEntryMessages of them.
struct CappedMessages {
  Diagnostics& out;
  Severity severity;
  std::string file;
  std::string what;  // for the summary: "entries outside the file"
  std::size_t count = 0;

  void add(std::string field, std::uint64_t offset, std::string message) {
    if (count++ < kMaxEntryMessages)
      out.add(severity, file, std::move(field), offset, std::move(message));
  }
  ~CappedMessages() {
    if (count > kMaxEntryMessages)
      out.add(severity, file, "entries", kNoOffset,
              std::to_string(count - kMaxEntryMessages) + " more " + what + " not listed");
  }
};

}  // namespace

std::string normalizePakPath(std::string_view path, std::string_view codepage) {
  std::string out;
  out.reserve(path.size());
  appendNormalized(out, path, byteLayout(codepage));
  return out;
}

std::string storedSpelling(std::string_view path, std::string_view codepage) {
  std::string out;
  out.reserve(path.size());
  appendNormalized(out, path, byteLayout(codepage), false);
  return out;
}

std::string_view pakBaseName(std::string_view normalizedPath) {
  const auto slash = normalizedPath.rfind('/');
  return slash == std::string_view::npos ? normalizedPath : normalizedPath.substr(slash + 1);
}

std::string storedBaseName(std::string_view stored, std::string_view codepage) {
  return std::string(pakBaseName(storedSpelling(stored, codepage)));
}

Result<Pak> Pak::open(const std::string& path) {
  auto file = MappedFile::open(path);
  if (!file) return file.error();
  auto pak = parse(file->bytes(), path);
  if (!pak) return pak.error();
  pak->file_ = std::move(*file);  // the span stays valid: moving a mapping keeps its bytes
  return pak;
}

Result<Pak> Pak::parse(std::span<const std::byte> data, std::string name) {
  Pak pak;
  pak.name_ = std::move(name);
  pak.data_ = data;
  ByteReader r(data, pak.name_);
  try {
    // §2.1: the magic, the version and where the table is. Community packers write only these
    // 268 bytes (§2.5), so nothing further is required of the header.
    if (data.size() < kPakHeaderFields)
      r.fail("header", "the file is " + std::to_string(data.size()) +
                           " bytes, shorter than the 268 bytes of a pak header");
    const std::string magic = r.fixedString(kPakNameSize, "magic");
    if (magic != kPakMagic)
      r.failAt(0, "magic",
               "not a Dragon Nest pak: the file starts '" + printable(magic) + "', not '" +
                   std::string(kPakMagic) + "'");
    pak.version_ = r.u32("version");
    if (pak.version_ == 12)
      r.failAt(256, "version",
               "version 12 is the private-server PAK_12 variant (count and table offset "
               "swapped), which is not supported");
    if (pak.version_ != kPakVersion && pak.version_ != kPakLegacyVersion)
      r.failAt(256, "version",
               "version " + std::to_string(pak.version_) + "; the engine reads 10 and 11 only");
    const std::uint32_t count = r.u32("entry count");
    const std::uint32_t tableField = r.u32("table offset");
    const std::uint64_t size = data.size();
    const std::uint64_t tableBytes = std::uint64_t{count} * kPakEntrySize;
    if (pak.version_ == kPakLegacyVersion) {  // §2.1: v10 keeps the table at the very end
      if (tableBytes > size - kPakHeaderFields)
        r.failAt(260, "entry count",
                 std::to_string(count) + " entries need " + std::to_string(tableBytes) +
                     " bytes of table; the file has " + std::to_string(size) + " bytes");
      pak.tableOffset_ = size - tableBytes;
    } else {
      pak.tableOffset_ = tableField;
      if (count > 0 && tableField < kPakHeaderFields)
        r.failAt(264, "table offset",
                 "the table at " + std::to_string(tableField) + " overlaps the header");
      // Checked before anything is allocated: a huge count cannot fit in the file.
      if (tableField > size || tableBytes > size - tableField)
        r.failAt(260, "entry count",
                 std::to_string(count) + " entries of 316 bytes at offset " +
                     std::to_string(tableField) + " end past the file's " + std::to_string(size) +
                     " bytes");
    }
    pak.readTable(count);

    // §2.1: a nonzero "header write pending" byte marks an interrupted patch, which the engine
    // refuses. A community pak without the 1024-byte header (§2.5) has data there instead.
    const auto pending =
        data.size() > kPakHeaderFields ? std::to_integer<std::uint8_t>(data[kPakHeaderFields]) : 0;
    if (pak.version_ == kPakVersion && pending != 0 && !pak.shortHeader_)
      r.failAt(268, "header write pending",
               "the flag is set: an interrupted or corrupt patch, which the engine refuses");
  } catch (const FormatException& e) {
    return e.error();
  }
  return pak;
}

void Pak::readTable(std::uint32_t count) {
  entries_.resize(count);
  pool_.reserve(std::size_t{count} * 40);
  const std::uint64_t fileSize = data_.size();
  CappedMessages outside{diagnostics_, Severity::Error, name_, "entries outside the file"};
  CappedMessages slots{diagnostics_, Severity::Warning, name_, "oversized streams"};
  CappedMessages names{diagnostics_, Severity::Warning, name_, "entries without a name"};
  std::size_t deleted = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t at = tableOffset_ + std::uint64_t{i} * kPakEntrySize;
    const std::byte* row = data_.data() + at;
    PakEntry& e = entries_[i];
    e.index = i;
    // §1: the name ends at its NUL; what follows (0xFD debug fill) is ignored.
    const void* nul = std::memchr(row, 0, kPakNameSize);
    const std::size_t nameLength =
        nul ? static_cast<std::size_t>(static_cast<const std::byte*>(nul) - row) : kPakNameSize;
    e.pathOffset = static_cast<std::uint32_t>(pool_.size());
    appendNormalized(pool_, {reinterpret_cast<const char*>(row), nameLength}, ByteLayout::Single);
    e.pathLength = static_cast<std::uint32_t>(pool_.size() - e.pathOffset);
    e.packedSize = u32At(row + 256);
    e.size = u32At(row + 260);
    e.allocSize = u32At(row + 264);
    e.dataOffset = u32At(row + 268);
    if (u32At(row + 280) != 0) e.flags |= PakEntry::CryptFlag;  // §2.5, private servers
    if (e.packedSize == 0) {                                    // §2.3: a deleted or free slot
      e.flags |= PakEntry::Deleted;
      ++deleted;
      continue;
    }
    if (e.pathLength == 0) {
      e.flags |= PakEntry::Unnamed;
      names.add("entry " + std::to_string(i), at, "a live entry without a name");
    }
    if (std::uint64_t{e.dataOffset} + e.packedSize > fileSize) {
      e.flags |= PakEntry::OutOfBounds;
      outside.add("entry " + std::to_string(i) + " data", at + 268,
                  "'" + printable(storedPath(e)) + "': " + std::to_string(e.packedSize) +
                      " bytes at " + std::to_string(e.dataOffset) + " end past the file's " +
                      std::to_string(fileSize) + " bytes");
      continue;
    }
    if (e.dataOffset < kPakHeaderSize) shortHeader_ = true;  // §2.5: trust the offset
    // The engine refuses a slot smaller than its stream (§2.2); the stream's own length is
    // what is read, so the entry stays readable.
    if (e.allocSize < e.packedSize)
      slots.add("entry " + std::to_string(i) + " allocated size", at + 264,
                "'" + printable(storedPath(e)) + "': " + std::to_string(e.allocSize) +
                    " bytes allocated for a " + std::to_string(e.packedSize) +
                    "-byte stream (the engine refuses this)");
  }
  if (deleted > 0)
    diagnostics_.info(name_, "entries", kNoOffset,
                      std::to_string(deleted) + " deleted entries (compressed size 0)");
  if (shortHeader_)
    diagnostics_.info(name_, "header", kNoOffset,
                      "data starts inside the 1024-byte header: a community packer's file");
}

void Pak::setCodepage(std::string codepage) {
  const bool again = byteLayout(codepage) != byteLayout(codepage_);
  codepage_ = std::move(codepage);
  if (again) normalizePaths();
}

void Pak::normalizePaths() {
  // Only names with bytes of 0x80 and above can read differently; a pool of ASCII names stays.
  const ByteLayout layout = byteLayout(codepage_);
  bool wide = false;
  for (const PakEntry& e : entries_) wide = wide || !isAscii(path(e));
  if (!wide) return;
  std::string pool;
  pool.reserve(pool_.size());
  for (PakEntry& e : entries_) {
    e.pathOffset = static_cast<std::uint32_t>(pool.size());
    appendNormalized(pool, storedPath(e), layout);
    e.pathLength = static_cast<std::uint32_t>(pool.size() - e.pathOffset);
  }
  pool_ = std::move(pool);
  index_ = std::make_unique<Index>();  // sorted by the new paths when next asked
}

const Pak::Index& Pak::index() const {
  std::call_once(index_->once, [this] { buildIndex(*index_); });
  return *index_;
}

void Pak::buildIndex(Index& index) const {
  // Sorted as (path, table order) pairs: the views sit next to each other, not behind entries_.
  struct Key {
    std::string_view path;
    std::uint32_t entry;
  };
  std::vector<Key> keys(entries_.size());
  for (std::uint32_t i = 0; i < keys.size(); ++i) keys[i] = {path(entries_[i]), i};
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    const int c = a.path.compare(b.path);
    return c < 0 || (c == 0 && a.entry < b.entry);
  });
  index.sorted.resize(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) index.sorted[k] = keys[k].entry;

  // Two live entries with one path: the first in table order is the one found.
  index.diagnostics = diagnostics_;
  CappedMessages dups{index.diagnostics, Severity::Warning, name_, "duplicate paths"};
  const PakEntry* firstLive = nullptr;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const PakEntry& e = entries_[keys[k].entry];
    if (k > 0 && keys[k].path != keys[k - 1].path) firstLive = nullptr;
    if (e.deleted() || e.pathLength == 0) continue;
    if (!firstLive) {
      firstLive = &e;
    } else {
      dups.add("entry " + std::to_string(e.index),
               tableOffset_ + std::uint64_t{e.index} * kPakEntrySize,
               "'" + printable(storedPath(e)) + "' is also entry " +
                   std::to_string(firstLive->index) + ", which is the one read");
    }
  }
}

std::string_view Pak::storedPath(const PakEntry& e) const {
  const auto* row = reinterpret_cast<const char*>(data_.data() + tableOffset_ +
                                                  std::uint64_t{e.index} * kPakEntrySize);
  const void* nul = std::memchr(row, 0, kPakNameSize);
  return {row, nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - row) : kPakNameSize};
}

std::pair<std::size_t, std::size_t> Pak::equalRange(std::string_view normalized) const {
  const auto& order = sorted();
  const auto lo =
      std::lower_bound(order.begin(), order.end(), normalized,
                       [&](std::uint32_t i, std::string_view p) { return path(entries_[i]) < p; });
  auto hi = lo;
  while (hi != order.end() && path(entries_[*hi]) == normalized) ++hi;
  return {static_cast<std::size_t>(lo - order.begin()),
          static_cast<std::size_t>(hi - order.begin())};
}

const PakEntry* Pak::find(std::string_view p) const {
  const std::string normalized = normalizePakPath(p, codepage_);
  if (normalized.empty()) return nullptr;
  const auto [lo, hi] = equalRange(normalized);
  const auto& order = sorted();
  for (std::size_t k = lo; k < hi; ++k)
    if (!entries_[order[k]].deleted()) return &entries_[order[k]];
  return nullptr;
}

std::vector<PakNode> Pak::children(std::string_view folder) const {
  std::string prefix = normalizePakPath(folder, codepage_);
  if (!prefix.empty()) prefix.push_back('/');
  std::vector<PakNode> out;
  const auto& order = sorted();
  const auto pathAt = [&](std::size_t k) { return path(entries_[order[k]]); };
  std::size_t k = equalRange(prefix).first;
  while (k < order.size() && pathAt(k).starts_with(prefix)) {
    const std::string_view rest = pathAt(k).substr(prefix.size());
    const auto slash = rest.find('/');
    if (rest.empty()) {  // an unnamed entry at the root
      ++k;
    } else if (slash == std::string_view::npos) {
      // A file: the first live copy of the path, else the first deleted one.
      const auto [lo, hi] = equalRange(pathAt(k));
      std::uint32_t chosen = order[lo];
      for (std::size_t j = lo; j < hi; ++j)
        if (!entries_[order[j]].deleted()) {
          chosen = order[j];
          break;
        }
      out.push_back({std::string(rest), false, chosen});
      k = hi;
    } else {
      // A folder: its entries are contiguous, and end before prefix + name + '0' ('/' + 1).
      std::string name(rest.substr(0, slash));
      out.push_back({name, true, order[k]});
      const std::string after = prefix + name + '0';
      k = equalRange(after).first;
    }
  }
  std::stable_partition(out.begin(), out.end(), [](const PakNode& n) { return n.folder; });
  return out;
}

}  // namespace marrow::formats::dragonnest
