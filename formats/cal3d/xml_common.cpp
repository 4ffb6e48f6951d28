#include "formats/cal3d/xml_common.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "formats/cal3d/common.h"

namespace marrow::formats::cal3d::xml {
namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

char lowerAscii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// The next whitespace-separated token of `s`, consumed; empty at the end.
std::string_view nextToken(std::string_view& s) {
  std::size_t i = 0;
  while (i < s.size() && isSpace(s[i])) ++i;
  std::size_t j = i;
  while (j < s.size() && !isSpace(s[j])) ++j;
  const std::string_view token = s.substr(i, j - i);
  s.remove_prefix(j);
  return token;
}

// strtod and atoi, which cal3d uses, accept a leading '+'; from_chars does not.
std::string_view withoutPlus(std::string_view t) {
  if (t.size() > 1 && t[0] == '+' && t[1] != '-') t.remove_prefix(1);
  return t;
}

// C-locale float (§7: '.' decimals, MSVC exponents such as 1.17815e-005). Values that underflow
// a float become 0 / subnormal as strtof would make them; NaN, infinities and overflow fail.
bool parseFloat(std::string_view t, float& out) {
  t = withoutPlus(t);
  if (t.empty()) return false;
  const char* end = t.data() + t.size();
  auto [p, ec] = std::from_chars(t.data(), end, out);
  if (ec == std::errc::result_out_of_range) {
    double d = 0.0;
    auto [pd, ecd] = std::from_chars(t.data(), end, d);
    if (ecd != std::errc() || pd != end ||
        std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max()))
      return false;
    out = static_cast<float>(d);
    return true;
  }
  return ec == std::errc() && p == end && std::isfinite(out);
}

bool parseInt(std::string_view t, std::int64_t& out) {
  t = withoutPlus(t);
  if (t.empty()) return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && p == t.data() + t.size();
}

std::string quoted(std::string_view s) {
  constexpr std::size_t kShown = 40;
  std::string out = "'";
  out += s.size() > kShown ? std::string(s.substr(0, kShown)) + "…" : std::string(s);
  return out + "'";
}

std::string counted(std::size_t n, std::string_view what) {
  return std::to_string(n) + " " + std::string(what);
}

}  // namespace

bool namesEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lowerAscii(a[i]) != lowerAscii(b[i])) return false;
  return true;
}

Children::Children(pugi::xml_node parent) : next_(skipToElement(parent.first_child())) {}

pugi::xml_node Children::skipToElement(pugi::xml_node n) {
  while (n && n.type() != pugi::node_element) n = n.next_sibling();
  return n;
}

pugi::xml_node Children::take() {
  const pugi::xml_node n = next_;
  if (n) next_ = skipToElement(n.next_sibling());
  return n;
}

std::size_t countChildren(pugi::xml_node parent, std::string_view name) {
  std::size_t n = 0;
  for (pugi::xml_node c = parent.first_child(); c; c = c.next_sibling())
    n += c.type() == pugi::node_element && namesEqual(c.name(), name);
  return n;
}

AnimationElement openAnimation(Document& doc, std::string_view magic, std::string_view what,
                               std::uint64_t maxTracks, std::uint64_t trackBytes) {
  AnimationElement a;
  a.node = doc.open(magic, "ANIMATION");
  a.duration = doc.requiredFloat(a.node, "DURATION", "ANIMATION");
  if (!(a.duration > 0.0f))
    doc.fail(a.node, "ANIMATION DURATION",
             "is " + std::to_string(a.duration) + "; " + std::string(what) + " lasts > 0 s (§8)");
  a.tracks = countChildren(a.node, "TRACK");
  doc.checkLimit(a.tracks, maxTracks, a.node, "ANIMATION", "TRACK elements");
  doc.checkDeclaredCount(a.node, "NUMTRACKS", "ANIMATION", a.tracks, "TRACK elements");
  doc.charge(a.tracks * trackBytes, a.node, "ANIMATION");
  return a;
}

std::size_t boneCount(const BoneMap& bones) {
  if (!bones.skeleton) return 0;
  return bones.modelIndexOfFileBone.empty() ? bones.skeleton->bones.size()
                                            : bones.modelIndexOfFileBone.size();
}

std::string Path::str() const {
  std::string out = parent_ ? parent_->str() : std::string();
  if (!out.empty() && !name_.empty()) out += " / ";
  out += name_;
  if (index_ >= 0) out += " " + std::to_string(index_);
  return out;
}

Document::Document(std::span<const std::byte> data, const ReadContext& ctx,
                   Diagnostics& diagnostics)
    : ctx_(ctx),
      diagnostics_(diagnostics),
      size_(data.size()),
      budget_(ctx.limits.maxAllocation(data.size())) {
  // §7: no encoding declaration; UTF-8 (a BOM is skipped by pugixml without shifting offsets),
  // names kept as bytes, so Latin-1 passes through. Only a UTF-16/32 BOM switches encoding.
  const auto* b = reinterpret_cast<const unsigned char*>(data.data());
  converted_ =
      data.size() >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF));
  // §7: the HEADER element and the body are two top-level elements: parse as a fragment.
  const pugi::xml_parse_result r =
      doc_.load_buffer(data.data(), data.size(), pugi::parse_default | pugi::parse_fragment,
                       converted_ ? pugi::encoding_auto : pugi::encoding_utf8);
  // pugixml reports an unexpected end one past the last byte (where its terminator is): the
  // offset given is at most the file's end.
  if (!r)
    throw FormatException(
        FormatError{ctx.name, "XML",
                    converted_ ? kNoOffset : std::min<std::uint64_t>(r.offset, size_),
                    std::string("is not well-formed: ") + r.description()});
}

std::uint64_t Document::offsetOf(pugi::xml_node node) const {
  if (!node || converted_) return kNoOffset;
  const std::ptrdiff_t at = node.offset_debug();  // the element's name, just after '<'
  return at > 0 ? std::min<std::uint64_t>(
                      static_cast<std::uint64_t>(at - (node.type() == pugi::node_element ? 1 : 0)),
                      size_)
                : kNoOffset;
}

void Document::fail(pugi::xml_node at, const Path& path, std::string message) const {
  throw FormatException(
      FormatError{ctx_.name, path.str(), offsetOf(at), std::move(message)});
}

void Document::warn(pugi::xml_node at, const Path& path, std::string message) {
  diagnostics_.warn(ctx_.name, path.str(), offsetOf(at), std::move(message));
}

void Document::info(pugi::xml_node at, const Path& path, std::string message) {
  diagnostics_.info(ctx_.name, path.str(), offsetOf(at), std::move(message));
}

void Document::warnRepeated(std::string_view key, pugi::xml_node at, const Path& path,
                            std::string message) {
  auto it = repeated_.find(key);
  if (it == repeated_.end()) {
    repeatedOrder_.emplace_back(key);
    repeated_.emplace(std::string(key),
                      Repeated{path.str(), std::move(message), offsetOf(at), 1});
  } else {
    ++it->second.count;
  }
}

void Document::flushRepeated() {
  for (const auto& key : repeatedOrder_) {
    const Repeated& r = repeated_.at(key);
    diagnostics_.warn(ctx_.name, r.path, r.offset,
                      r.count == 1 ? r.message
                                   : r.message + " (" + std::to_string(r.count) +
                                         " elements alike; the first is named here)");
  }
  repeated_.clear();
  repeatedOrder_.clear();
}

pugi::xml_node Document::open(std::string_view magic, std::string_view body) {
  pugi::xml_node header, bodyNode;
  for (pugi::xml_node n = doc_.first_child(); n; n = n.next_sibling()) {
    if (n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata) {
      warn(n, "XML", "text outside the elements is ignored");
      continue;
    }
    if (n.type() != pugi::node_element) continue;
    if (!bodyNode && !header && namesEqual(n.name(), "HEADER")) {
      header = n;
    } else if (!bodyNode) {
      bodyNode = n;
    } else {
      warn(n, n.name(),
           "is a further top-level element after <" + std::string(body) + ">; it is ignored");
    }
  }
  if (!bodyNode)
    fail(header, header ? "HEADER" : "XML",
         "has no <" + std::string(body) + "> element (the file is empty or truncated)");
  if (!namesEqual(bodyNode.name(), body))
    fail(bodyNode, bodyNode.name(),
         "is not <" + std::string(body) + ">: not a cal3d " + std::string(magic) + " file");

  int headerVersion = 0;
  for (pugi::xml_node n : {header, bodyNode}) {
    if (!n) continue;
    const std::string where = n == header ? "HEADER" : std::string(body);
    // §7: either element may carry MAGIC; compared case-insensitively.
    if (const auto m = attribute(n, "MAGIC"); !m.empty() && !namesEqual(m.value(), magic))
      fail(n, where + " MAGIC",
           "is " + quoted(m.value()) + ", not '" + std::string(magic) + "': wrong kind of file");
    if (!hasAttribute(n, "VERSION")) continue;
    const std::int64_t v = requiredInt(n, "VERSION", where);
    if (v < kEarliestVersion)
      fail(n, where + " VERSION",
           "is " + std::to_string(v) + ", older than " + std::to_string(kEarliestVersion) +
               ", the earliest version cal3d reads (§1)");
    const int version =
        v > std::numeric_limits<int>::max() ? std::numeric_limits<int>::max() : static_cast<int>(v);
    if (n == header) {
      headerVersion = version;
    } else if (headerVersion != 0 && version != headerVersion) {
      warn(n, where + " VERSION",
           "is " + std::to_string(version) + " but the HEADER says " +
               std::to_string(headerVersion) + "; the HEADER's is used");
    }
    if (version_ == 0) version_ = version;
  }
  return bodyNode;
}

std::string Document::format(std::string_view magic) const {
  std::string f = "cal3d " + std::string(magic);
  if (version_ != 0) {
    f += ' ';
    f += std::to_string(version_);
  }
  return f;
}

pugi::xml_attribute Document::attribute(pugi::xml_node node, std::string_view name) const {
  for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute())
    if (namesEqual(a.name(), name)) return a;
  return {};
}

std::string Document::stringAttribute(pugi::xml_node node, std::string_view name,
                                      const Path& path) const {
  std::string s = attribute(node, name).value();
  checkLength(s, node, step(path, name));
  return s;
}

std::int64_t Document::intAttribute(pugi::xml_node node, std::string_view name,
                                    const Path& path, std::int64_t fallback) const {
  return hasAttribute(node, name) ? requiredInt(node, name, path) : fallback;
}

std::int64_t Document::requiredInt(pugi::xml_node node, std::string_view name,
                                   const Path& path) const {
  const auto a = attribute(node, name);
  if (a.empty()) fail(node, path, "has no " + std::string(name) + " attribute");
  std::string_view s = a.value();
  const std::string_view token = nextToken(s);
  std::int64_t v = 0;
  if (!parseInt(token, v) || !nextToken(s).empty())
    fail(node, step(path, name), "is " + quoted(a.value()) + ", not an integer");
  return v;
}

float Document::requiredFloat(pugi::xml_node node, std::string_view name,
                              const Path& path) const {
  const auto a = attribute(node, name);
  if (a.empty()) fail(node, path, "has no " + std::string(name) + " attribute");
  std::string_view s = a.value();
  const std::string_view token = nextToken(s);
  float v = 0.0f;
  if (!parseFloat(token, v) || !nextToken(s).empty())
    fail(node, step(path, name), "is " + quoted(a.value()) + ", not a finite number");
  return v;
}

void Document::intList(pugi::xml_node node, std::string_view name, const Path& path,
                       std::span<std::int64_t> out) const {
  const auto a = attribute(node, name);
  if (a.empty()) fail(node, path, "has no " + std::string(name) + " attribute");
  std::string_view s = a.value();
  for (auto& v : out)
    if (!parseInt(nextToken(s), v))
      fail(node, step(path, name),
           "is " + quoted(a.value()) + ", not " + counted(out.size(), "integers"));
  if (!nextToken(s).empty())
    fail(node, step(path, name),
         "is " + quoted(a.value()) + ": more than " + counted(out.size(), "integers"));
}

void Document::checkDeclaredCount(pugi::xml_node node, std::string_view name, const Path& path,
                                  std::uint64_t actual, std::string_view what) {
  const auto a = attribute(node, name);
  if (a.empty()) return;
  std::string_view s = a.value();
  std::int64_t declared = 0;
  // Repeated per element kind (NUMINFLUENCES of every vertex…): one diagnostic per attribute.
  const std::string key = "count " + std::string(name);
  if (!parseInt(nextToken(s), declared) || !nextToken(s).empty()) {
    warnRepeated(key, node, step(path, name),
                 "is " + quoted(a.value()) + ", not a count; the " + counted(actual, what) +
                     " present are read");
  } else if (declared < 0 || static_cast<std::uint64_t>(declared) != actual) {
    // §7: declared counts are hints (base.xsf declares 12 bones and has 19).
    warnRepeated(key, node, step(path, name),
                 "declares " + std::to_string(declared) + " but there are " +
                     counted(actual, what) + "; the elements present are read");
  }
}

void Document::floats(pugi::xml_node node, const Path& path, std::span<float> out) const {
  floatsUpTo(node, path, out, out.size());
}

std::array<float, 4> Document::quaternion(pugi::xml_node node, const Path& path) const {
  const auto q = floats<4>(node, path);
  if (isZeroQuaternion(q)) fail(node, path, std::string(kZeroQuaternionMessage));
  return q;
}

std::size_t Document::floatsUpTo(pugi::xml_node node, const Path& path, std::span<float> out,
                                 std::size_t min) const {
  const char* raw = node.child_value();
  std::string_view s = raw;
  std::size_t n = 0;
  for (std::string_view t = nextToken(s); !t.empty(); t = nextToken(s)) {
    if (n == out.size())
      fail(node, path, "has more than " + counted(out.size(), "numbers") + ": " + quoted(raw));
    if (!parseFloat(t, out[n])) fail(node, path, quoted(t) + " is not a finite number");
    ++n;
  }
  if (n < min)
    fail(node, path,
         "has " + counted(n, "numbers") + " where " + std::to_string(min) +
             (min == out.size() ? "" : " or more") + " are needed");
  return n;
}

std::int64_t Document::integer(pugi::xml_node node, const Path& path) const {
  std::int64_t v = 0;
  integers(node, path, std::span(&v, 1));
  return v;
}

void Document::integers(pugi::xml_node node, const Path& path,
                        std::span<std::int64_t> out) const {
  const char* raw = node.child_value();
  std::string_view s = raw;
  for (auto& v : out) {
    const std::string_view t = nextToken(s);
    if (t.empty())
      fail(node, path, "has fewer than " + counted(out.size(), "integers") + ": " + quoted(raw));
    if (!parseInt(t, v)) fail(node, path, quoted(t) + " is not an integer");
  }
  if (!nextToken(s).empty())
    fail(node, path, "has more than " + counted(out.size(), "integers") + ": " + quoted(raw));
}

std::string Document::text(pugi::xml_node node, const Path& path) const {
  std::string s = node.child_value();
  checkLength(s, node, path);
  return s;
}

void Document::checkLength(const std::string& s, pugi::xml_node node, const Path& path) const {
  if (s.size() > ctx_.limits.maxStringLength)
    fail(node, path,
         "is " + std::to_string(s.size()) + " bytes long, over the limit of " +
             std::to_string(ctx_.limits.maxStringLength));
}

pugi::xml_node Document::expect(Children& children, std::string_view name, pugi::xml_node parent,
                                const Path& parentPath) const {
  const pugi::xml_node n = children.peek();
  if (!n) fail(parent, parentPath, "ends before its <" + std::string(name) + "> element");
  if (!namesEqual(n.name(), name))
    fail(n, step(parentPath, n.name()),
         "is out of place: <" + std::string(name) + "> comes here (§7: fixed child order)");
  return children.take();
}

void Document::expectEnd(const Children& children, const Path& parentPath,
                         std::string_view expected) const {
  if (children.atEnd()) return;
  const pugi::xml_node n = children.peek();
  fail(n, step(parentPath, n.name()),
       "is out of place: only " + std::string(expected) + " may come here (§7: fixed child order)");
}

void Document::charge(std::uint64_t bytes, pugi::xml_node at, const Path& path) {
  if (bytes > budget_)
    fail(at, path,
         "needs more memory than the limit for a file of " + std::to_string(size_) + " bytes");
  budget_ -= bytes;
}

void Document::checkLimit(std::uint64_t count, std::uint64_t max, pugi::xml_node at,
                          const Path& path, std::string_view what) const {
  if (count > max)
    fail(at, path,
         "has " + std::to_string(count) + " " + std::string(what) + ", over the limit of " +
             std::to_string(max));
}

}  // namespace marrow::formats::cal3d::xml
