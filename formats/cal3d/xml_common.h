// What the four cal3d XML readers share (§7): loading the document with its quirks (a HEADER
// element beside the body, an optional prolog and BOM, upper- or lower-case names), reading
// children positionally, numbers in the C locale, and errors that name the file, the element
// path and the element's byte offset.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <pugixml.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/cal3d/parts.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/io/diagnostics.h"

namespace marrow::formats::cal3d::xml {

// Where an element is ("SUBMESH 2 / VERTEX 17 / POS"), for messages. Making one costs nothing:
// the text is built only when a message needs it. A step refers to its parent, which must
// outlive it (pass steps down, don't keep them).
class Path {
 public:
  Path(const char* root) : name_(root) {}         // NOLINT: a root is written as its name
  Path(const std::string& root) : name_(root) {}  // NOLINT: the string must outlive the path
  Path(const Path& parent, std::string_view name, std::int64_t index = -1)
      : parent_(&parent), name_(name), index_(index) {}
  std::string str() const;

 private:
  const Path* parent_ = nullptr;
  std::string_view name_;
  std::int64_t index_ = -1;
};

// ASCII case-insensitive equality: cal3d matches element names, IMVU also attribute names,
// without regard to case (§7).
bool namesEqual(std::string_view a, std::string_view b);

// Element children of one element, read in order: comments, processing instructions and text
// between elements are skipped (§7: children are positional).
class Children {
 public:
  explicit Children(pugi::xml_node parent);
  pugi::xml_node peek() const { return next_; }
  bool atEnd() const { return !next_; }
  bool nextIs(std::string_view name) const { return next_ && namesEqual(next_.name(), name); }
  pugi::xml_node take();

 private:
  static pugi::xml_node skipToElement(pugi::xml_node n);
  pugi::xml_node next_;
};

// The number of element children of `parent` named `name` (case-insensitive).
std::size_t countChildren(pugi::xml_node parent, std::string_view name);

class Document {
 public:
  // Parses `data`; a document that is not well-formed throws FormatException at the offset
  // pugixml reports.
  Document(std::span<const std::byte> data, const ReadContext& ctx, Diagnostics& diagnostics);

  // Finds the body element (`body`, e.g. "SKELETON") after an optional HEADER and checks the
  // magic (`magic`, e.g. "XSF") and VERSION of both (§7). Throws when the body is missing, a
  // magic is wrong or a version is below 699.
  pugi::xml_node open(std::string_view magic, std::string_view body);
  int version() const { return version_; }  // 0 when the file states none
  // "cal3d XSF 1000", or "cal3d XSF" when the file states no version.
  std::string format(std::string_view magic) const;

  const std::string& file() const { return ctx_.name; }
  const ReadContext& context() const { return ctx_; }
  Diagnostics& diagnostics() { return diagnostics_; }

  // Byte offset of the element's '<' in the file.
  std::uint64_t offsetOf(pugi::xml_node node) const;

  [[noreturn]] void fail(pugi::xml_node at, const Path& path, std::string message) const;
  void warn(pugi::xml_node at, const Path& path, std::string message);
  void info(pugi::xml_node at, const Path& path, std::string message);
  // A warning that may repeat for many elements: reported once by flushRepeated(), naming the
  // first element and how many there were.
  void warnRepeated(std::string_view key, pugi::xml_node at, const Path& path,
                    std::string message);
  void flushRepeated();

  // Attributes, matched case-insensitively (§7).
  pugi::xml_attribute attribute(pugi::xml_node node, std::string_view name) const;
  bool hasAttribute(pugi::xml_node node, std::string_view name) const {
    return !attribute(node, name).empty();
  }
  std::string stringAttribute(pugi::xml_node node, std::string_view name,
                              const Path& path) const;  // "" when absent
  std::int64_t intAttribute(pugi::xml_node node, std::string_view name, const Path& path,
                            std::int64_t fallback) const;  // `fallback` when absent
  std::int64_t requiredInt(pugi::xml_node node, std::string_view name, const Path& path) const;
  float requiredFloat(pugi::xml_node node, std::string_view name, const Path& path) const;
  // `n` whitespace-separated integers of an attribute (FACE VERTEXID="a b c").
  void intList(pugi::xml_node node, std::string_view name, const Path& path,
               std::span<std::int64_t> out) const;
  // A declared count (NUMBONES, NUMVERTICES…) is a hint (§7): warns when it is malformed or
  // differs from the `actual` number of elements.
  void checkDeclaredCount(pugi::xml_node node, std::string_view name, const Path& path,
                          std::uint64_t actual, std::string_view what);

  // Element text: exactly `out.size()` finite numbers, or one integer.
  void floats(pugi::xml_node node, const Path& path, std::span<float> out) const;
  template <std::size_t N>
  std::array<float, N> floats(pugi::xml_node node, const Path& path) const {
    std::array<float, N> a{};
    floats(node, path, a);
    return a;
  }
  // A stored quaternion: four numbers (x, y, z, w), not the zero quaternion (common.h).
  std::array<float, 4> quaternion(pugi::xml_node node, const Path& path) const;
  // Between `min` and `out.size()` numbers; returns how many there were.
  std::size_t floatsUpTo(pugi::xml_node node, const Path& path, std::span<float> out,
                         std::size_t min) const;
  std::int64_t integer(pugi::xml_node node, const Path& path) const;
  void integers(pugi::xml_node node, const Path& path, std::span<std::int64_t> out) const;
  // Text, checked against Limits::maxStringLength.
  std::string text(pugi::xml_node node, const Path& path) const;
  // Checks a string read from an attribute against Limits::maxStringLength.
  void checkLength(const std::string& s, pugi::xml_node node, const Path& path) const;

  // The next child, which must be named `name`.
  pugi::xml_node expect(Children& children, std::string_view name, pugi::xml_node parent,
                        const Path& parentPath) const;
  // Fails unless every child has been read: an element out of the §7 order.
  void expectEnd(const Children& children, const Path& parentPath,
                 std::string_view expected) const;

  // Charges `bytes` of allocation against Limits::maxAllocation(file size).
  void charge(std::uint64_t bytes, pugi::xml_node at, const Path& path);
  // Fails when `count` elements exceed `max`.
  void checkLimit(std::uint64_t count, std::uint64_t max, pugi::xml_node at, const Path& path,
                  std::string_view what) const;

 private:
  struct Repeated {
    std::string path, message;
    std::uint64_t offset = kNoOffset;
    std::size_t count = 0;
  };

  const ReadContext& ctx_;
  Diagnostics& diagnostics_;
  pugi::xml_document doc_;
  std::uint64_t size_ = 0;
  // A UTF-16/32 file: pugixml's offsets count the UTF-8 it converted to, not the file's bytes.
  bool converted_ = false;
  std::uint64_t budget_ = 0;
  int version_ = 0;
  std::map<std::string, Repeated, std::less<>> repeated_;
  std::vector<std::string> repeatedOrder_;
};

// How many bones a BoneMap maps, for messages.
std::size_t boneCount(const BoneMap& bones);

// The ANIMATION body of an .xaf or .xpf (§7.2, §7.5) after its HEADER: its DURATION, which must
// be over 0 ("a cal3d animation lasts > 0 s", `what` naming the kind), and the number of its
// TRACK children, at most `maxTracks`, checked against NUMTRACKS and charged `trackBytes` each.
struct AnimationElement {
  pugi::xml_node node;
  float duration = 0.0f;
  std::size_t tracks = 0;
};
AnimationElement openAnimation(Document& doc, std::string_view magic, std::string_view what,
                               std::uint64_t maxTracks, std::uint64_t trackBytes);

// "SUBMESH 2 / VERTEX 17": a path step with its index.
inline Path step(const Path& parent, std::string_view name, std::size_t index) {
  return Path(parent, name, static_cast<std::int64_t>(index));
}
// "SUBMESH 2 / VERTEX 17 / POS": a path step without index.
inline Path step(const Path& parent, std::string_view name) { return Path(parent, name); }

// Calls fn(node, path) for each child of an ANIMATION, in order, failing at any that is not a
// TRACK.
template <class Fn>
void eachTrack(Document& doc, pugi::xml_node animation, Fn&& fn) {
  Children children(animation);
  for (std::size_t i = 0; !children.atEnd(); ++i) {
    const pugi::xml_node node = children.take();
    if (!namesEqual(node.name(), "TRACK"))
      doc.fail(node, node.name(), "is out of place: only TRACK elements belong in ANIMATION");
    fn(node, step("", "TRACK", i));
  }
}

}  // namespace marrow::formats::cal3d::xml
