// The virtual file system: everything a user opens that holds other things — a folder on disk,
// BRF files (their records), Dragon Nest pak sets, and next Warband module folders and cal3d
// .cfg models — behind one interface, browsed lazily, read by path, and searched by name.
//
// An Archive is one such thing. Its nodes have paths that only it interprets (pass them back to
// children(), read() and addressOf()); addressOf() gives the Address a user would type. A
// FileSystem mounts archives in order, and a name (a texture, a skin's mesh) is resolved in the
// first archive that has it. An Archive is immutable once opened: its members may be called
// from several threads at once (extraction reads entries on several).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "formats/io/address.h"
#include "formats/io/limits.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"

namespace marrow::formats::vfs {

// A key figure of a node ("vertices": 2235), typed so that JSON keeps its type, with whether a
// one-line summary shows it.
using Count = std::vector<std::pair<std::string, std::uint64_t>>;  // "kinds": {"box": 2, …}
using FigureValue = std::variant<std::int64_t, std::uint64_t, bool, std::string,
                                 std::vector<std::int64_t>, Count>;
struct Figure {
  std::string key;
  FigureValue value;
  bool shown = true;  // in summaries (some figures are for JSON only)
};
// "  vertices 2235  faces 4110": the shown figures, as `marrow-cli list` prints them.
std::string summary(std::span<const Figure> figures);
// One figure's value as text ("2235", "0, 100, 104", "2 box, 1 sphere").
std::string figureText(const FigureValue& value);

struct Node {
  enum Flag : std::uint8_t {
    Deleted = 1,     // an entry the archive marks deleted (its name may remain)
    Overridden = 2,  // another archive of the set has the same path, and wins
    Unreadable = 4,  // its bytes cannot be read (outside the file, encrypted)
    Unused = 8,      // a record nothing of its library uses (a Warband module's files and records)
  };
  std::string name;         // shown: a file or folder name, a record name
  std::string path;         // the archive's own path of the node
  std::string kind;         // "folder", "file", or a record kind: "mesh", "skeleton", …
  bool container = false;   // has children (folders, files of records, groups)
  std::uint64_t size = 0;   // bytes, when the node is a stream of bytes
  std::vector<Figure> figures;
  std::string detail;       // one line for people: "2235 vertices, 4110 faces; material boots"
  std::uint8_t flags = 0;
  bool has(Flag f) const { return (flags & f) != 0; }
};

class Archive {
 public:
  virtual ~Archive() = default;

  // What the archive is, for people: a folder's path, a file's name, "Resource00.pak + 2 more".
  virtual std::string title() const = 0;
  // The files it was opened from (every pak of a set, every BRF file, the folder), as given.
  virtual std::vector<std::string> openedFrom() const = 0;
  // "folder", "brf", "pak": which kind of archive (and so how its paths read).
  virtual std::string_view kind() const = 0;

  // The nodes directly under `path` ("" for the root), in the order they are shown. Computed
  // when asked: a tree fills a folder as it opens.
  virtual std::vector<Node> children(std::string_view path) const = 0;
  // The node at a path, or nothing.
  virtual std::optional<Node> node(std::string_view path) const = 0;
  // The bytes of a node (a file, an entry; a record as a file of its own), within `limits`.
  virtual Result<std::vector<std::byte>> read(std::string_view path, const Limits& limits) const = 0;
  // The path of what `name` names (a texture, a skin's mesh): a full path first, then by file
  // name, case-insensitively, as the archive's own program finds it; nothing when absent.
  virtual std::optional<std::string> find(std::string_view name) const = 0;
  // A node's bytes given to `sink` in pieces, in order, without holding them whole where the
  // archive can (a pak entry larger than memory should hold: extraction); false from the sink
  // stops. An error after some pieces were given still fails. Returns the bytes given. The
  // default reads the node whole (read()) and gives it in one piece.
  using Sink = std::function<bool(std::span<const std::byte>)>;
  virtual Result<std::uint64_t> stream(std::string_view path, const Limits& limits, const Sink& sink) const;
  // The address a user types for a node ("A.pak::char/a.skn", "armour.brf::boots").
  virtual Address addressOf(std::string_view path) const = 0;
  // Every node (at any depth; containers too) that matches `text` as a Query (its name contains
  // the text, case-insensitively; "KIND:TEXT" keeps nodes of that kind), at most `limit` of
  // them, in tree order. The default walks children().
  virtual std::vector<Node> search(std::string_view text, std::size_t limit) const;
  // Every file at or under `path` ("" for all) that extraction writes: not deleted, not
  // overridden, once each, in tree order (unreadable ones too: extraction reports them). The default walks children().
  virtual std::vector<Node> files(std::string_view path) const;
  // Where a node goes when extracted, relative to the target folder, as the archive stores its
  // name (a pak entry's own case and folders); extraction checks it (formats/io/extract.h).
  virtual std::string storedName(const Node& node) const { return node.path; }
  // What the Properties dock lists for a node, label and text, in order. The default: its kind,
  // size and figures.
  virtual std::vector<std::pair<std::string, std::string>> properties(std::string_view path) const;
  // Whether the archive is made of the records of model files (BRF files: meshes, skeletons,
  // …), listed with the model (`marrow-cli list`, `info`), rather than a store of files.
  virtual bool holdsRecords() const { return false; }
  // The legacy code page the names stored in the archive are in (formats/io/codepage.h), which
  // the names inside its files likely share (a Korean client's bone names): "" when the
  // archive's names are UTF-8 or say nothing.
  virtual std::string codepage() const { return {}; }
  // What uses a node, as far as the archive worked it out (a module's text files, other
  // records): each a text for people ("skins.txt", "mesh 'boots'") and the path of the user
  // when it is a node of the archive ("" otherwise). Nothing when the archive does not know; an
  // empty list when nothing uses it.
  struct User {
    std::string text;
    std::string path;
  };
  virtual std::optional<std::vector<User>> users(std::string_view path) const {
    (void)path;
    return std::nullopt;
  }
  // The nodes that are models of their own (what a batch converts one by one) whose names match
  // `pattern` (formats/io/glob.h; exact when it has no wildcard, every model when empty): a BRF
  // file's meshes, a pak's skins and the meshes no skin wears. The default: none.
  virtual std::vector<Node> models(std::string_view pattern) const;
};

// A resolver for ReadContext::resolve: the archive's find(name), read; it keeps the archive.
Resolver resolverOf(std::shared_ptr<const Archive> archive, const Limits& limits);

// Archives mounted in order: a name resolves in the first archive that has it.
class FileSystem {
 public:
  void mount(std::shared_ptr<const Archive> archive);
  const std::vector<std::shared_ptr<const Archive>>& archives() const { return archives_; }
  bool empty() const { return archives_.empty(); }
  // The first archive of that kind, or null.
  std::shared_ptr<const Archive> first(std::string_view kind) const;

  struct Found {
    const Archive* archive = nullptr;
    std::string path;
  };
  std::optional<Found> find(std::string_view name) const;
  Resolver resolver(const Limits& limits) const;

 private:
  std::vector<std::shared_ptr<const Archive>> archives_;
};

// A search as people type it: "TEXT" (a part of the name, any case), or "KIND:TEXT" to keep one
// kind of node ("mesh:boot", "material:" for every material). A prefix that is not a word of
// letters is part of the text.
struct Query {
  std::string kind;  // "" any
  std::string text;  // "" any name
};
Query parseQuery(std::string_view typed);
bool matches(const Node& node, const Query& query);

// ASCII lower case, for the case-insensitive names archives compare.
std::string lowerAscii(std::string_view s);
bool containsIgnoringCase(std::string_view haystack, std::string_view needle);

}  // namespace marrow::formats::vfs
