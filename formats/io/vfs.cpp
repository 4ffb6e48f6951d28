#include "formats/io/vfs.h"

#include <algorithm>
#include <cctype>

namespace marrow::formats::vfs {

std::string lowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool containsIgnoringCase(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) return true;
  const auto same = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  };
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), same) !=
         haystack.end();
}

Query parseQuery(std::string_view typed) {
  const auto colon = typed.find(':');
  if (colon == std::string_view::npos || colon == 0) return {{}, std::string(typed)};
  const std::string_view word = typed.substr(0, colon);
  for (char c : word)
    if (!std::isalpha(static_cast<unsigned char>(c))) return {{}, std::string(typed)};
  return {lowerAscii(word), std::string(typed.substr(colon + 1))};
}

bool matches(const Node& node, const Query& query) {
  return (query.kind.empty() || lowerAscii(node.kind) == query.kind) && containsIgnoringCase(node.name, query.text);
}

namespace {

struct SummaryPart {
  std::string& out;
  const std::string& key;
  void operator()(std::int64_t v) const { out += "  " + key + " " + std::to_string(v); }
  void operator()(std::uint64_t v) const { out += "  " + key + " " + std::to_string(v); }
  void operator()(bool v) const {
    if (v) out += "  " + key;
  }
  void operator()(const std::string& v) const { out += "  " + key + " " + v; }
  void operator()(const std::vector<std::int64_t>& v) const {
    if (v.empty()) return;
    out += "  " + key + " " + std::to_string(v.size()) + " [";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + std::to_string(v[i]);
    out += "]";
  }
  void operator()(const Count& v) const {
    for (const auto& [k, n] : v) out += "  " + k + " " + std::to_string(n);
  }
};

}  // namespace

std::string summary(std::span<const Figure> figures) {
  std::string out;
  for (const Figure& f : figures)
    if (f.shown) std::visit(SummaryPart{out, f.key}, f.value);
  return out;
}

Result<std::uint64_t> Archive::stream(std::string_view path, const Limits& limits, const Sink& sink) const {
  auto bytes = read(path, limits);
  if (!bytes) return bytes.error();
  if (!sink(*bytes)) return FormatError{std::string(path), "", kNoOffset, "stopped"};
  return std::uint64_t{bytes->size()};
}

std::vector<Node> Archive::search(std::string_view text, std::size_t limit) const {
  std::vector<Node> found;
  const Query query = parseQuery(text);
  // Depth first, in the order shown; an explicit stack, so that no archive can nest us deep.
  std::vector<std::vector<Node>> stack;
  stack.push_back(children(""));
  std::reverse(stack.back().begin(), stack.back().end());
  while (!stack.empty() && found.size() < limit) {
    if (stack.back().empty()) {
      stack.pop_back();
      continue;
    }
    Node n = std::move(stack.back().back());
    stack.back().pop_back();
    if (n.container) {
      auto below = children(n.path);
      std::reverse(below.begin(), below.end());
      if (matches(n, query)) found.push_back(n);
      stack.push_back(std::move(below));
      continue;
    }
    if (matches(n, query)) found.push_back(std::move(n));
  }
  return found;
}

namespace {

struct FigureText {
  std::string operator()(std::int64_t v) const { return std::to_string(v); }
  std::string operator()(std::uint64_t v) const { return std::to_string(v); }
  std::string operator()(bool v) const { return v ? "yes" : "no"; }
  std::string operator()(const std::string& v) const { return v; }
  std::string operator()(const std::vector<std::int64_t>& v) const {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
    return out.empty() ? "none" : out;
  }
  std::string operator()(const Count& v) const {
    std::string out;
    for (const auto& [k, n] : v) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + k;
    return out.empty() ? "none" : out;
  }
};

}  // namespace

std::string figureText(const FigureValue& value) { return std::visit(FigureText{}, value); }

std::vector<std::pair<std::string, std::string>> Archive::properties(std::string_view path) const {
  std::vector<std::pair<std::string, std::string>> rows;
  const auto n = node(path);
  if (!n) return rows;
  rows.emplace_back("Name", n->name);
  rows.emplace_back("Kind", n->kind);
  rows.emplace_back("Address", addressOf(path).str());
  if (!n->container) rows.emplace_back("Size", std::to_string(n->size) + " bytes");
  for (const Figure& f : n->figures) rows.emplace_back(f.key, figureText(f.value));
  if (n->has(Node::Deleted)) rows.emplace_back("State", "deleted");
  else if (n->has(Node::Overridden)) rows.emplace_back("State", "overridden by another copy");
  else if (n->has(Node::Unreadable)) rows.emplace_back("State", "unreadable");
  return rows;
}

std::vector<Node> Archive::files(std::string_view path) const {
  std::vector<Node> out;
  std::optional<Node> start = node(path);
  if (!start) return out;
  if (!start->container) {
    if (!start->has(Node::Deleted) && !start->has(Node::Overridden))
      out.push_back(std::move(*start));
    return out;
  }
  std::vector<std::vector<Node>> stack;
  stack.push_back(children(path));
  std::reverse(stack.back().begin(), stack.back().end());
  while (!stack.empty()) {
    if (stack.back().empty()) {
      stack.pop_back();
      continue;
    }
    Node n = std::move(stack.back().back());
    stack.back().pop_back();
    if (n.container) {
      auto below = children(n.path);
      std::reverse(below.begin(), below.end());
      stack.push_back(std::move(below));
    } else if (!n.has(Node::Deleted) && !n.has(Node::Overridden)) {
      out.push_back(std::move(n));
    }
  }
  return out;
}

std::vector<Node> Archive::models(std::string_view) const { return {}; }

Resolver resolverOf(std::shared_ptr<const Archive> archive, const Limits& limits) {
  return [archive = std::move(archive), limits](const std::string& name)
             -> std::optional<std::vector<std::byte>> {
    const auto path = archive->find(name);
    if (!path) return std::nullopt;
    auto bytes = archive->read(*path, limits);
    if (!bytes) return std::nullopt;
    return std::move(bytes).value();
  };
}

void FileSystem::mount(std::shared_ptr<const Archive> archive) {
  if (archive) archives_.push_back(std::move(archive));
}

std::shared_ptr<const Archive> FileSystem::first(std::string_view kind) const {
  for (const auto& a : archives_)
    if (a->kind() == kind) return a;
  return nullptr;
}

std::optional<FileSystem::Found> FileSystem::find(std::string_view name) const {
  for (const auto& a : archives_)
    if (auto path = a->find(name)) return Found{a.get(), std::move(*path)};
  return std::nullopt;
}

Resolver FileSystem::resolver(const Limits& limits) const {
  // The archives are shared: the resolver keeps them alive.
  return [archives = archives_, limits](const std::string& name) -> std::optional<std::vector<std::byte>> {
    for (const auto& a : archives)
      if (auto path = a->find(name)) {
        auto bytes = a->read(*path, limits);
        if (bytes) return std::move(bytes).value();
      }
    return std::nullopt;
  };
}

}  // namespace marrow::formats::vfs
