// Dragon Nest `.pak` archives (specs/dragonnest.md §2): the index of one archive, entries
// inflated on demand, and several archives as one file system in the client's override order.
//
// Opening parses the 1024-byte header and the entry table only; the data stays in the file
// (map it with MappedFile). Every offset and size is checked against the file before use. An
// entry is inflated when asked for, into a buffer of its declared size that inflate may not
// overrun.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/io/limits.h"
#include "formats/io/mapped_file.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/io/diagnostics.h"

namespace marrow::formats::dragonnest {

inline constexpr std::string_view kPakMagic = "EyedentityGames Packing File 0.1";  // §2.1
inline constexpr std::size_t kPakHeaderSize = 1024;   // §2.1, as official packers write it
inline constexpr std::size_t kPakHeaderFields = 268;  // §2.5: what community packers write
inline constexpr std::size_t kPakEntrySize = 316;     // §2.2
inline constexpr std::size_t kPakNameSize = 256;
inline constexpr std::uint32_t kPakVersion = 11;
inline constexpr std::uint32_t kPakLegacyVersion = 10;

// One row of the entry table, compact (100,000 of them are normal).
struct PakEntry {
  enum Flag : std::uint16_t {
    Deleted = 1,      // compressed size 0: a deleted or free slot (§2.3); its name may remain
    OutOfBounds = 2,  // the data lies (partly) outside the file: cannot be read
    CryptFlag = 4,    // the private-server "crypted" dword at +280 is set (§2.5)
    Unnamed = 8,      // a live entry with an empty name
  };
  std::uint32_t index = 0;       // row in the table
  std::uint32_t pathOffset = 0;  // the normalised path, in Pak's path pool
  std::uint32_t pathLength = 0;
  std::uint32_t packedSize = 0;  // +256: the zlib stream's exact length
  std::uint32_t size = 0;        // +260: the original size, enforced while inflating
  std::uint32_t allocSize = 0;   // +264: bytes reserved at the offset (≥ packedSize)
  std::uint32_t dataOffset = 0;  // +268: absolute
  std::uint16_t flags = 0;

  bool deleted() const { return flags & Deleted; }
  // Live and inside the file: readEntry can try it.
  bool readable() const { return !(flags & (Deleted | OutOfBounds)); }
};

// A child of a folder, for a tree that is filled when a folder is opened.
struct PakNode {
  std::string name;  // the normalised component ("char", "warrior.skn")
  bool folder = false;
  // Files: the entry's index in the table. Folders: an entry below it, whose stored path spells
  // the folder's name as stored (storedSpelling).
  std::uint32_t entry = 0;
};

// "\Resource\Char\A.skn" → "resource/char/a.skn": slashes for backslashes, leading and doubled
// separators dropped, ASCII lower case (the engine compares case-insensitively, §1). ".." stays:
// it is a name here, and extraction refuses it. In a double-byte `codepage` (the names' own,
// formats/io/codepage.h) each character of two or four bytes is kept whole: its trail byte may
// be a backslash or an ASCII letter, which is neither a separator nor a letter to lower.
std::string normalizePakPath(std::string_view path, std::string_view codepage = {});
// The path as stored with its separators as normalizePakPath makes them but its case kept:
// byte for byte aligned with the normalised path, so a component of one is the same bytes of
// the other (how a folder's name is shown as stored, decoded from its code page).
std::string storedSpelling(std::string_view path, std::string_view codepage = {});
// The last component of a normalised path.
std::string_view pakBaseName(std::string_view normalizedPath);
// The last component of a stored name, its case kept, split only at separators that start a
// character of `codepage` (a trail byte 0x5C of Big5 or Shift-JIS is part of its character).
std::string storedBaseName(std::string_view stored, std::string_view codepage);

class Pak {
 public:
  // Maps the file and parses its index.
  static Result<Pak> open(const std::string& path);
  // Parses the index of bytes the caller keeps alive (a mapping, a buffer); `name` is for
  // messages.
  static Result<Pak> parse(std::span<const std::byte> data, std::string name);

  const std::string& name() const { return name_; }
  std::uint32_t version() const { return version_; }
  std::span<const std::byte> bytes() const { return data_; }
  const std::vector<PakEntry>& entries() const { return entries_; }  // in table order
  // The code page of the stored names (formats/io/codepage.h), which decides where a path's
  // separators and ASCII letters are: "" (bytes as they are) until a PakSet or the caller sets
  // it. Setting it normalises the paths again; do it before the pak is shared or looked up.
  const std::string& codepage() const { return codepage_; }
  void setCodepage(std::string codepage);
  // Deleted slots, duplicate names, short headers, oversized slots and the like. (Duplicates
  // are found with the sorted index: asking builds it.)
  const Diagnostics& diagnostics() const { return index().diagnostics; }

  std::string_view path(const PakEntry& e) const {  // normalised, for lookups
    return std::string_view(pool_).substr(e.pathOffset, e.pathLength);
  }
  // The name as stored (up to its NUL): for display and for the names of extracted files.
  std::string_view storedPath(const PakEntry& e) const;
  std::uint64_t tableOffset() const { return tableOffset_; }

  // The live entry at a path (normalised here, in the pak's code page), the first in table order when the path
  // repeats; nullptr when there is none.
  const PakEntry* find(std::string_view path) const;

  // The files and folders directly in `folder` ("" for the root; normalised here), sorted by
  // name, folders first. Computed on each call from the sorted index. Deleted entries are
  // included (the GUI shows them as such) unless a live entry has the same path.
  std::vector<PakNode> children(std::string_view folder) const;
  // Indices of entries sorted by normalised path (then table order). Opening a pak is one pass
  // over its table; this index is sorted on first use (any lookup, the tree, diagnostics()),
  // once, safely from several threads.
  const std::vector<std::uint32_t>& sorted() const { return index().sorted; }

  // The bytes of an entry: inflated with its declared size as a hard cap (§2.3). Fails, naming
  // the entry, when it is deleted, outside the file, inflates past its size or ends short of it,
  // is not a zlib stream (encrypted or unsupported, §2.5), or is larger than the limits allow.
  Result<std::vector<std::byte>> read(const PakEntry& e, const Limits& limits = {}) const;
  // The bytes of an entry given to `sink` a piece (up to 1 MiB) at a time, never held whole
  // (an entry larger than memory should hold: extraction), checked as read() checks them: the
  // whole stream is inflated, and an error after some pieces were given still fails. False from
  // the sink stops. Returns the bytes given. Nothing is allocated for the whole, so the limits'
  // allocation cap does not apply: the declared size (a uint32) is capped only by what a stream
  // of the entry's packed size can inflate to (1032 bytes a byte).
  Result<std::uint64_t> stream(const PakEntry& e, const std::function<bool(std::span<const std::byte>)>& sink) const;

 private:
  // Why an entry cannot be read before its stream is (deleted, outside the file); `file` names it.
  std::optional<FormatError> unreadable(const PakEntry& e, const std::function<std::string()>& file) const;
  Pak() = default;
  void readTable(std::uint32_t count);
  struct Index {
    std::once_flag once;
    std::vector<std::uint32_t> sorted;
    Diagnostics diagnostics;  // the table's, then the duplicates
  };
  const Index& index() const;
  void buildIndex(Index& index) const;
  // [lo, hi) of sorted_ whose paths equal `normalized` (lo: its lower bound when none does).
  std::pair<std::size_t, std::size_t> equalRange(std::string_view normalized) const;

  std::string name_;
  MappedFile file_;  // empty when parse() was given the bytes
  std::span<const std::byte> data_;
  std::uint32_t version_ = 0;
  std::uint64_t tableOffset_ = 0;
  std::vector<PakEntry> entries_;
  void normalizePaths();
  std::string codepage_;
  std::string pool_;                                          // every normalised path, back to back
  std::unique_ptr<Index> index_ = std::make_unique<Index>();  // filled on first use
  bool shortHeader_ = false;  // some data lies inside the 1024 header bytes (§2.5)
  Diagnostics diagnostics_;   // the table's
};

// An entry of one of the paks of a PakSet.
struct PakRef {
  const Pak* pak = nullptr;
  const PakEntry* entry = nullptr;
  explicit operator bool() const { return entry != nullptr; }
};

struct PakSetNode {
  std::string name;
  bool folder = false;
  // Files: the entry the file system resolves to (a deleted one when all are). Folders: an entry
  // below it (PakNode::entry).
  PakRef file;
};

// Several paks as one file system (§2.4): searched in byte-wise order of their paths, the first
// live entry wins, so `00Resource.pak` overrides `Resource00.pak`. Immutable once made; copies
// share the paks, and a resolver keeps them alive.
class PakSet {
 public:
  PakSet();
  // Sorts the paks by name(). Their names are in `codepage` (an iconv name, `--encoding`), else
  // in the one detected over every name of every pak ("UTF-8" for ASCII names); each pak is
  // given it (Pak::setCodepage).
  explicit PakSet(std::vector<Pak> paks, std::string codepage = {});
  static Result<PakSet> open(const std::vector<std::string>& paths, std::string codepage = {});

  std::size_t size() const;
  const Pak& pak(std::size_t i) const;  // in search order

  // By full path (normalised here). Paths and names are looked up as stored, then, in a set
  // whose names are in a legacy code page, as shown (UTF-8, encoded back): the paths `list`
  // prints open the entries.
  PakRef findPath(std::string_view path) const;
  // By bare file name, as the engine and a .skn's mesh and texture names do (§2.4); a name
  // with folders is looked up by its last component.
  PakRef findName(std::string_view name) const;
  // A path with folders is tried whole first, then by its file name; a bare name by name.
  PakRef find(std::string_view query) const;
  // Whether `ref` is what the file system resolves its path to (live, not overridden by an
  // earlier pak or an earlier duplicate).
  bool isActive(const PakRef& ref) const;

  // The children of a folder across all paks (see Pak::children), each file resolved.
  std::vector<PakSetNode> children(std::string_view folder) const;

  // Every path of the file system once, resolved (deleted ones only where no pak has a live
  // copy), sorted by normalised path.
  // Made once per set, on first use.
  const std::vector<PakRef>& resolvedEntries() const;

  static Result<std::vector<std::byte>> read(const PakRef& ref, const Limits& limits = {});
  // The entry given to `sink` in pieces (Pak::stream, zlib) when larger than
  // limits.maxWholeEntry, else read whole (libdeflate) and given at once: extraction.
  static Result<std::uint64_t> stream(const PakRef& ref, const Limits& limits,
                                      const std::function<bool(std::span<const std::byte>)>& sink);
  // A resolver for ReadContext::resolve: find(query), inflated; nothing when not found or not
  // readable.
  Resolver resolver(Limits limits = {}) const;

  // The code page the stored names are in (formats/io/codepage.h): detected over every name of
  // every pak when the set is made ("UTF-8" for ASCII names), or given (`--encoding`).
  const std::string& codepage() const { return codepage_; }
  // The normalised forms a path given by a user or a file may have here, to look up in that
  // order: as stored bytes, then as shown (UTF-8 or %NN-escaped, spelled in the code page) when
  // that differs. Never empty.
  std::vector<std::string> keys(std::string_view path) const;
  // A stored name (a whole path or a part of it) as UTF-8: decoded, or escaped where it does not
  // decode. What is shown, listed and written on extraction; lookups keep the stored bytes.
  std::string displayName(std::string_view stored) const;
  // An entry's normalised path as shown: its stored spelling decoded, then lower-cased (ASCII);
  // what `list` prints and what opens the entry again (find encodes it back).
  std::string shownPath(const PakEntry& e, const Pak& pak) const;

 private:
  std::vector<PakRef> resolveEntries() const;
  PakRef findKey(std::string_view normalized) const;      // a whole normalised path
  PakRef findBaseName(std::string_view normalized) const;  // by the last component of one
  // A name as shown, in the set's legacy code page; nothing when that is the name itself.
  std::optional<std::string> storedForm(std::string_view shown) const;
  struct State;
  std::shared_ptr<const State> state_;
  std::string codepage_ = "UTF-8";
};
}  // namespace marrow::formats::dragonnest
