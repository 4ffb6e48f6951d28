#include "formats/brf/archive.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <cctype>
#include <map>
#include <string_view>
#include <unordered_set>

#include "formats/io/glob.h"
#include "formats/model/actions.h"
#include "formats/model/lod.h"

namespace marrow::formats::brf {

namespace {

using vfs::Figure;
using vfs::Node;
using U = std::uint64_t;
using I = std::int64_t;

// Groups in the order a reader looks for them: what draws first, what it is made of last.
constexpr Section kGroupOrder[] = {Section::Mesh,     Section::Skeleton, Section::Animation,
                                   Section::Body,     Section::Material, Section::Texture,
                                   Section::Shader};

const char* groupTitle(Section kind) {
  switch (kind) {
    case Section::Texture: return "Textures";
    case Section::Shader: return "Shaders";
    case Section::Material: return "Materials";
    case Section::Mesh: return "Meshes";
    case Section::Skeleton: return "Skeletons";
    case Section::Animation: return "Animations";
    case Section::Body: return "Bodies";
  }
  return "";
}

std::optional<Section> sectionNamed(std::string_view name) {
  for (Section s : kSections)
    if (name == kindName(s)) return s;
  return std::nullopt;
}

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "0, 100, 104, 108, …": the first few of many times.
std::string listTimes(const std::vector<std::int64_t>& times) {
  constexpr std::size_t kShown = 6;
  std::string out;
  for (std::size_t i = 0; i < times.size() && i < kShown; ++i)
    out += (i ? ", " : "") + std::to_string(times[i]);
  if (times.size() > kShown) out += ", …";
  return out;
}

std::string joinParts(std::initializer_list<std::string> parts) {
  std::string out;
  for (const std::string& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : "; ") + p;
  return out;
}

// The key figures of a record (typed, in the order `marrow-cli list --json` writes them; those
// not shown are for JSON only) and the line a tree shows beside its name.
void describeMesh(Node& n, const Mesh& m, int version) {
  const int highest = maxRiggedBone(m);
  const std::size_t riggedBones = riggedBoneCount(m);
  std::vector<I> times;
  for (const auto& fr : m.frames) times.push_back(fr.time);  // §7.3: frame 0 is the mesh itself
  n.figures = {{"flags", hex(m.flags), false},
               {"material", m.material},
               {"positions", U(m.positions.size())},
               {"vertices", U(m.vertices.size())},
               {"faces", U(m.faces.size())},
               {"rigged_bones", U(riggedBones), riggedBones > 0},
               {"max_bone", I(highest), highest >= 0},
               {"tangents", layoutOf(m, version) == VertexLayout::B_WarbandTangent},
               {"frame_times", times}};
  std::string animation;
  if (highest >= 0)
    animation = "rigged to " + std::to_string(riggedBones) + " bones (needs " +
                std::to_string(highest + 1) + ")";
  if (!times.empty())
    animation = joinParts({animation, plural(times.size(), "frame", "frames") + " at " + listTimes(times)});
  n.detail = joinParts({std::to_string(m.vertices.size()) + " vertices, " +
                            std::to_string(m.faces.size()) + " faces, " +
                            std::to_string(m.positions.size()) + " positions",
                        animation, m.material.empty() ? std::string() : "material " + m.material});
}

void describeAnimation(Node& n, const Animation& a) {
  std::size_t keys = 0, minKeys = ~std::size_t{0}, maxKeys = 0;
  for (const auto& t : a.tracks) {
    keys += t.size();
    minKeys = std::min(minKeys, t.size());
    maxKeys = std::max(maxKeys, t.size());
  }
  if (a.tracks.empty()) minKeys = 0;
  const KeyTimes times = keyTimes(a);
  n.figures = {{"bones", U(a.tracks.size())},
               {"rotation_keys", U(keys)},
               {"translation_keys", U(a.translations.size())},
               {"frames", U(times.count)},
               {"first_time", I(times.first)},
               {"last_time", I(times.last)},
               {"min_keys_per_bone", U(minKeys), false},
               {"max_keys_per_bone", U(maxKeys), false}};
  n.detail = joinParts({std::to_string(a.tracks.size()) + " bones",
                        times.count == 0 ? std::string("no keys")
                                         : std::to_string(times.count) + " frames, " +
                                               std::to_string(times.first) + "–" +
                                               std::to_string(times.last)});
}

void describeBody(Node& n, const Body& b) {
  std::map<std::string, std::size_t> kinds;
  for (const auto& p : b.parts) ++kinds[p.kind];
  vfs::Count counts(kinds.begin(), kinds.end());
  n.figures = {{"parts", U(b.parts.size())}, {"composite", b.composite}, {"kinds", counts}};
  std::string parts;
  for (const auto& [kind, count] : kinds) parts += (parts.empty() ? "" : ", ") + std::to_string(count) + " " + kind;
  n.detail = joinParts({plural(b.parts.size(), "part", "parts") + (parts.empty() ? "" : ": " + parts),
                        b.composite ? "composite" : ""});
}

void describe(Node& n, const Source& src, Section kind, std::size_t i) {
  const Document& d = *src.doc;
  switch (kind) {
    case Section::Texture: {
      const Texture& t = d.textures[i];
      n.figures = {{"flags", hex(t.flags), false}, {"frames", I(t.frames()), t.frames() > 0}};
      n.detail = joinParts({"flags " + hex(t.flags), t.frames() > 0 ? std::to_string(t.frames()) + " frames" : ""});
      break;
    }
    case Section::Shader: {
      const Shader& s = d.shaders[i];
      n.figures = {{"flags", hex(s.flags), false},
                   {"technique", s.technique},
                   {"fallback", s.fallback ? *s.fallback : std::string(), s.fallback.has_value()},
                   {"stages", U(s.stages.size())}};
      n.detail = joinParts({"technique " + s.technique + ", " + plural(s.stages.size(), "stage", "stages"),
                            s.fallback ? "fallback " + *s.fallback : ""});
      break;
    }
    case Section::Material: {
      const Material& m = d.materials[i];
      n.figures = {{"flags", hex(m.flags), false},
                   {"shader", m.shader},
                   {"diffuse", m.diffuseA},
                   {"bump", m.bump, m.bump != "none"},
                   {"spec", m.spec ? *m.spec : std::string("none"), false}};
      n.detail = "shader " + m.shader + ", diffuse " + m.diffuseA;
      break;
    }
    case Section::Mesh: describeMesh(n, d.meshes[i], d.version); break;
    case Section::Skeleton: {
      std::size_t roots = 0;
      for (const auto& b : d.skeletons[i].bones) roots += b.parent < 0 ? 1 : 0;
      n.figures = {{"bones", U(d.skeletons[i].bones.size())}, {"roots", U(roots), false}};
      n.detail = std::to_string(d.skeletons[i].bones.size()) + " bones";
      break;
    }
    case Section::Animation: describeAnimation(n, d.animations[i]); break;
    case Section::Body: describeBody(n, d.bodies[i]); break;
  }
}

std::string fileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

std::string versionName(const Document& d) {
  return d.version == 0 ? "M&B 1.011" : "Warband, version " + std::to_string(d.version);
}

bool parseIndex(std::string_view s, std::size_t& out) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// "S", "S/KIND", "S/KIND/I" → their parts; false for anything else.
struct Parsed {
  std::size_t source = 0;
  std::optional<Section> kind;
  std::optional<std::size_t> index;
};
std::optional<Parsed> parsePath(std::string_view path, std::span<const Source> sources) {
  Parsed p;
  const auto a = path.find('/');
  if (!parseIndex(path.substr(0, a), p.source) || p.source >= sources.size()) return std::nullopt;
  if (a == std::string_view::npos) return p;
  path.remove_prefix(a + 1);
  const auto b = path.find('/');
  p.kind = sectionNamed(path.substr(0, b));
  if (!p.kind) return std::nullopt;
  if (b == std::string_view::npos) return p;
  std::size_t i = 0;
  if (!parseIndex(path.substr(b + 1), i) || i >= recordCount(*sources[p.source].doc, *p.kind))
    return std::nullopt;
  p.index = i;
  return p;
}

}  // namespace

BrfArchive::BrfArchive(std::vector<Source> sources) : sources_(std::move(sources)) {}

BrfArchive::BrfArchive(std::vector<Source> sources, Library library)
    : sources_(std::move(sources)), library_(std::move(library)) {}

std::string BrfArchive::title() const {
  if (library_) return library_->title;
  if (sources_.empty()) return "(no BRF file)";
  const std::string first = fileName(sources_.front().name);
  return sources_.size() == 1 ? first
                              : first + " + " + std::to_string(sources_.size() - 1) + " more";
}

std::vector<std::string> BrfArchive::openedFrom() const {
  if (library_) return library_->openedFrom;
  std::vector<std::string> out;
  for (const Source& s : sources_) out.push_back(s.name);
  return out;
}

std::string BrfArchive::pathOf(const RecordRef& r) const {
  return std::to_string(r.source) + "/" + kindName(r.kind) + "/" + std::to_string(r.index);
}

std::optional<RecordRef> BrfArchive::recordAt(std::string_view path) const {
  const auto p = parsePath(path, sources_);
  if (!p || !p->index) return std::nullopt;
  return RecordRef{p->source, *p->kind, *p->index};
}

std::vector<RecordRef> BrfArchive::recordsAt(std::span<const std::string> paths) const {
  std::vector<RecordRef> out;
  const auto add = [&out](const RecordRef& r) {
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  for (const std::string& path : paths) {
    const auto p = parsePath(path, sources_);
    if (!p) continue;
    const Document& d = *sources_[p->source].doc;
    if (p->index) {
      add({p->source, *p->kind, *p->index});
      continue;
    }
    for (Section kind : kGroupOrder)
      if (!p->kind || *p->kind == kind)
        for (std::size_t i = 0; i < recordCount(d, kind); ++i) add({p->source, kind, i});
  }
  return out;
}

std::string BrfArchive::usageKey(Section kind, std::string_view name) {
  std::string n(name);
  if (kind == Section::Texture) {  // named with or without ".dds", in any case (§6)
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (n.size() > 4 && n.ends_with(".dds")) n.resize(n.size() - 4);
  }
  return std::string(kindName(kind)) + '\t' + n;
}

// The users of a record, or null when its library did not work them out.
static const std::vector<std::string>* usersOf(const std::optional<BrfArchive::Library>& library,
                                               const std::string& key) {
  static const std::vector<std::string> none;
  if (!library || !library->usageKnown) return nullptr;
  const auto it = library->users.find(key);
  return it == library->users.end() ? &none : &it->second;
}

Node BrfArchive::recordNode(const RecordRef& r) const {
  Node n;
  n.name = recordName(sources_[r.source], r.kind, r.index);
  n.path = pathOf(r);
  n.kind = kindName(r.kind);
  describe(n, sources_[r.source], r.kind, r.index);
  if (const auto* users = usersOf(library_, usageKey(r.kind, n.name))) {
    n.figures.push_back({"used_by", static_cast<std::uint64_t>(users->size()), false});
    if (users->empty()) n.flags |= Node::Unused;
  }
  return n;
}

std::vector<Node> BrfArchive::children(std::string_view path) const {
  std::vector<Node> out;
  if (path.empty()) {
    for (std::size_t s = 0; s < sources_.size(); ++s)
      if (auto n = node(std::to_string(s))) out.push_back(std::move(*n));
    return out;
  }
  const auto p = parsePath(path, sources_);
  if (!p || p->index) return out;
  const Document& d = *sources_[p->source].doc;
  if (!p->kind) {
    for (Section kind : kGroupOrder)
      if (recordCount(d, kind) > 0)
        out.push_back(*node(std::to_string(p->source) + "/" + kindName(kind)));
    return out;
  }
  const std::size_t n = recordCount(d, *p->kind);
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(recordNode({p->source, *p->kind, i}));
  return out;
}

std::optional<Node> BrfArchive::node(std::string_view path) const {
  if (path.empty()) {
    Node root;
    root.name = title();
    root.kind = "folder";
    root.container = true;
    return root;
  }
  const auto p = parsePath(path, sources_);
  if (!p) return std::nullopt;
  const Source& src = sources_[p->source];
  if (p->index) return recordNode({p->source, *p->kind, *p->index});
  Node n;
  n.path = std::string(path);
  n.container = true;
  if (p->kind) {
    const std::size_t count = recordCount(*src.doc, *p->kind);
    n.name = groupTitle(*p->kind);
    n.kind = "group";
    n.figures = {{"kind", std::string(kindName(*p->kind))}, {"records", U(count)}};
    n.detail = std::to_string(count);
    return n;
  }
  n.name = fileName(src.name);
  n.kind = "file";
  n.figures = {{"version", I(src.doc->version), false}};
  n.detail = src.note.empty() ? versionName(*src.doc) : src.note + " · " + versionName(*src.doc);
  if (!src.note.empty()) n.figures.push_back({"origin", src.note, false});
  return n;
}

Result<std::vector<std::byte>> BrfArchive::read(std::string_view path, const Limits&) const {
  const auto p = parsePath(path, sources_);
  if (!p) return FormatError{title(), "record", kNoOffset, "no such node: '" + std::string(path) + "'"};
  const Source& src = sources_[p->source];
  if (!p->kind) return write(*src.doc);  // the file, byte for byte
  const std::string whole(path);
  const auto records = recordsAt(std::span(&whole, 1));
  Diagnostics ignored;
  const Document one = gather(sources_, records, src.doc->version, ignored);
  if (auto problem = checkWritable(one)) return *problem;
  return write(one);
}

std::optional<std::string> BrfArchive::find(std::string_view name) const {
  for (std::size_t s = 0; s < sources_.size(); ++s)
    for (Section kind : kSections)
      for (std::size_t i = 0; i < recordCount(*sources_[s].doc, kind); ++i)
        if (recordName(sources_[s], kind, i) == name) return pathOf({s, kind, i});
  return std::nullopt;
}

std::optional<std::vector<vfs::Archive::User>> BrfArchive::users(std::string_view path) const {
  const auto r = recordAt(path);
  if (!r) return std::nullopt;
  const auto* texts = usersOf(library_, usageKey(r->kind, recordName(sources_[r->source], r->kind, r->index)));
  if (!texts) return std::nullopt;
  std::vector<User> out;
  for (const std::string& text : *texts) {
    User u{text, {}};
    // "KIND 'NAME'": a record of the library, the first of that kind and name.
    for (Section kind : kSections) {
      const std::string prefix = std::string(kindName(kind)) + " '";
      if (!text.starts_with(prefix) || !text.ends_with('\'') || text.size() <= prefix.size()) continue;
      const std::string_view name = std::string_view(text).substr(prefix.size(), text.size() - prefix.size() - 1);
      for (std::size_t s = 0; s < sources_.size() && u.path.empty(); ++s)
        for (std::size_t i = 0; i < recordCount(*sources_[s].doc, kind); ++i)
          if (recordName(sources_[s], kind, i) == name) {
            u.path = pathOf({s, kind, i});
            break;
          }
    }
    out.push_back(std::move(u));
  }
  return out;
}

Address BrfArchive::addressOf(std::string_view path) const {
  const auto p = parsePath(path, sources_);
  if (!p) return {};
  const Source& src = sources_[p->source];
  if (!p->index) return {src.name, {}};
  return {src.name, recordName(src, *p->kind, *p->index)};
}

std::string BrfArchive::storedName(const vfs::Node& node) const {
  const auto p = parsePath(node.path, sources_);
  if (!p) return node.path;
  const std::string file = fileName(sources_[p->source].name);
  if (!p->kind) return file;
  const std::string stem = std::filesystem::path(file).stem().string();
  return stem + "/" + (p->index ? recordName(sources_[p->source], *p->kind, *p->index) : kindName(*p->kind)) +
         ".brf";
}

std::vector<std::pair<std::string, std::string>> BrfArchive::properties(std::string_view path) const {
  const auto r = recordAt(path);
  if (!r) {
    auto rows = Archive::properties(path);
    if (const auto p = parsePath(path, sources_); p && !p->kind)
      rows.emplace_back("Version", versionName(*sources_[p->source].doc));
    return rows;
  }
  const Source& src = sources_[r->source];
  std::vector<std::pair<std::string, std::string>> rows{
      {"File", src.name}, {"Kind", kindName(r->kind)}, {"Name", recordName(src, r->kind, r->index)}};
  if (r->kind == Section::Texture) {
    const Texture& t = src.doc->textures[r->index];
    rows.emplace_back("Flags", hex(t.flags));
    const std::string stem = t.name.size() > 4 ? t.name.substr(0, t.name.size() - 4) : t.name;
    rows.emplace_back("Frames", t.frames() > 0 ? std::to_string(t.frames()) + " (animated: " + stem + "_0.dds …)"
                                               : std::string("none"));
  } else if (r->kind == Section::Shader) {
    const Shader& s = src.doc->shaders[r->index];
    rows.emplace_back("Technique", s.technique);
    rows.emplace_back("Fallback", s.fallback ? *s.fallback : std::string("none"));
    rows.emplace_back("Flags", hex(s.flags));
    rows.emplace_back("Requires", hex(s.requirements));
    rows.emplace_back("Texture stages", std::to_string(s.stages.size()));
    for (std::size_t k = 0; k < s.stages.size(); ++k) {
      const ShaderStage& st = s.stages[k];
      rows.emplace_back("Stage " + std::to_string(k), "map " + std::to_string(st.map) + ", colour op " +
                                                          hex(st.colorOp) + ", alpha op " + hex(st.alphaOp) +
                                                          ", flags " + hex(st.flags));
    }
  } else {
    const Node n = recordNode(*r);
    for (const Figure& f : n.figures) rows.emplace_back(f.key, vfs::figureText(f.value));
  }
  if (const auto* users = usersOf(library_, usageKey(r->kind, recordName(src, r->kind, r->index)))) {
    if (users->empty()) rows.emplace_back("Used by", "nothing in " + library_->title);
    for (const std::string& u : *users) rows.emplace_back("Used by", u);
  }
  return rows;
}

std::vector<Node> BrfArchive::models(std::string_view pattern) const {
  std::vector<Node> out;
  for (std::size_t s = 0; s < sources_.size(); ++s)
    for (std::size_t i = 0; i < sources_[s].doc->meshes.size(); ++i) {
      const std::string& name = sources_[s].doc->meshes[i].name;
      if (pattern.empty() || (hasGlob(pattern) ? matchGlob(pattern, name) : name == pattern))
        out.push_back(recordNode({s, Section::Mesh, i}));
    }
  return out;
}

// ---- what a pick shows ----

namespace {

std::vector<RecordRef> ofKind(std::span<const RecordRef> records, Section kind) {
  std::vector<RecordRef> out;
  std::copy_if(records.begin(), records.end(), std::back_inserter(out),
               [kind](const RecordRef& r) { return r.kind == kind; });
  return out;
}

std::size_t bonesOf(std::span<const Source> sources, const RecordRef& skeleton) {
  return sources[skeleton.source].doc->skeletons[skeleton.index].bones.size();
}

std::size_t tracksOf(std::span<const Source> sources, const RecordRef& animation) {
  return sources[animation.source].doc->animations[animation.index].tracks.size();
}

// The skeleton an animation plays on with the meshes: the user's if it has the animation's bone
// count, else the first that fits both, else one that fits the animation alone (the meshes are
// then left out), else none (the model's skeleton stays and the timeline says why nothing moves).
void pickForAnimation(std::span<const Source> sources, const RecordRef& animation,
                      std::optional<RecordRef> chosen, Pick& c) {
  const std::size_t tracks = tracksOf(sources, animation);
  const auto matches = [&](const RecordRef& s) { return bonesOf(sources, s) == tracks; };
  const std::vector<RecordRef> meshes = *c.selection.meshes;
  const auto withMeshes = fittingSkeletons(sources, meshes, std::span(&animation, 1));
  if (chosen && matches(*chosen) &&
      std::find(withMeshes.begin(), withMeshes.end(), *chosen) != withMeshes.end()) {
    c.selection.skeleton = chosen;
    return;
  }
  if (const auto it = std::find_if(withMeshes.begin(), withMeshes.end(), matches); it != withMeshes.end()) {
    c.selection.skeleton = *it;
    return;
  }
  const auto alone = fittingSkeletons(sources, {}, std::span(&animation, 1));
  if (const auto it = std::find_if(alone.begin(), alone.end(), matches); it != alone.end()) {
    c.selection.skeleton = *it;
    c.selection.meshes = std::vector<RecordRef>{};
    return;
  }
  c.selection.skeleton = chosen;
}

}  // namespace

std::vector<RecordRef> fittingSkeletonsFor(std::span<const Source> sources, const Selection& selection) {
  const auto meshes = selection.meshes ? *selection.meshes : allRecords(sources, Section::Mesh);
  const auto animations =
      selection.animations ? *selection.animations : allRecords(sources, Section::Animation);
  return fittingSkeletons(sources, meshes, animations);
}

Pick pickRecords(std::span<const Source> sources, std::span<const RecordRef> picked,
                 const std::optional<std::vector<RecordRef>>& meshesShown,
                 const std::optional<std::vector<RecordRef>>& bodiesShown,
                 std::optional<RecordRef> skeleton) {
  using What = ModelArchive::Shown::What;
  Pick c;
  c.meshesShown = meshesShown;
  c.bodiesShown = bodiesShown;
  const auto meshes = ofKind(picked, Section::Mesh);
  const auto bodies = ofKind(picked, Section::Body);
  const auto animations = ofKind(picked, Section::Animation);
  const auto skeletons = ofKind(picked, Section::Skeleton);
  if (!animations.empty())
    c.clip = recordName(sources[animations.front().source], Section::Animation, animations.front().index);
  c.selection.animations = allRecords(sources, Section::Animation);
  c.selection.skeleton = skeleton;

  if (!meshes.empty() || !bodies.empty()) {
    // The meshes and bodies picked, every animation to choose from, the skeleton that fits.
    c.what = What::Model;
    c.meshesShown = meshes;
    c.bodiesShown = bodies;
    c.selection.meshes = meshes;
    c.selection.bodies = bodies;
    const auto fits = fittingSkeletonsFor(sources, c.selection);
    if (skeleton && std::find(fits.begin(), fits.end(), *skeleton) == fits.end())
      c.selection.skeleton.reset();  // chosen for other meshes
    c.chosenSkeleton = c.selection.skeleton;
    return c;
  }
  if (!animations.empty()) {
    c.what = What::Model;
    c.selection.meshes = meshesShown ? *meshesShown : allRecords(sources, Section::Mesh);
    c.selection.bodies = bodiesShown ? *bodiesShown : allRecords(sources, Section::Body);
    pickForAnimation(sources, animations.front(), skeleton, c);
    if (skeleton && c.selection.skeleton == skeleton) c.chosenSkeleton = skeleton;
    return c;
  }
  if (!skeletons.empty()) {
    // The skeleton alone, with the animations made for its bone count.
    c.what = What::Model;
    c.meshesShown = std::vector<RecordRef>{};
    c.bodiesShown = std::vector<RecordRef>{};
    c.selection.meshes = std::vector<RecordRef>{};
    c.selection.bodies = std::vector<RecordRef>{};
    c.selection.skeleton = skeletons.front();
    const std::size_t bones = bonesOf(sources, skeletons.front());
    std::erase_if(*c.selection.animations,
                  [&](const RecordRef& a) { return tracksOf(sources, a) != bones; });
    return c;
  }
  if (!picked.empty()) {
    c.what = What::Inspect;
    c.selection = {};
    c.selection.meshes = c.selection.bodies = c.selection.animations = std::vector<RecordRef>{};
    c.selection.materials = ofKind(picked, Section::Material);
    c.selection.noSkeleton = true;
    return c;
  }
  // Nothing picked: the whole files, on the skeleton the user chose if there is one.
  c.meshesShown.reset();
  c.bodiesShown.reset();
  c.selection = {};
  c.selection.skeleton = skeleton;
  c.chosenSkeleton = skeleton;
  c.what = skeleton ? What::Model : What::WholeFiles;
  return c;
}

std::vector<std::string> BrfArchive::openingPick() const {
  if (library_) return {};  // a module: the user finds what to look at
  for (std::size_t s = 0; s < sources_.size(); ++s) {
    // Counted per file (several small files are no heap), without level meshes (NAME.lodN:
    // the viewer draws one level of each mesh).
    const auto& meshes = sources_[s].doc->meshes;
    std::unordered_set<std::string_view> names;
    for (const auto& m : meshes) names.insert(m.name);
    const auto isLevel = [&](const std::string& name) {  // as meshLevels: NAME.lodN beside NAME
      const auto level = levelName(name);
      return level && names.count(level->of) > 0;
    };
    std::vector<std::size_t> full;
    for (std::size_t i = 0; i < meshes.size(); ++i)
      if (!isLevel(meshes[i].name)) full.push_back(i);
    if (full.size() <= kHeap) continue;
    // A heap: its first mesh, with its levels.
    std::vector<std::string> pick{pathOf({s, Section::Mesh, full.front()})};
    for (std::size_t i = 0; i < meshes.size(); ++i)
      if (const auto level = levelName(meshes[i].name); level && level->of == meshes[full.front()].name)
        pick.push_back(pathOf({s, Section::Mesh, i}));
    return pick;
  }
  return {};
}

Result<ModelArchive::Shown> BrfArchive::show(std::span<const std::string> picked,
                                             const std::optional<std::vector<std::string>>& onScreen,
                                             const std::optional<std::string>& skeleton) const {
  std::optional<std::vector<RecordRef>> meshes, bodies;
  if (onScreen) {
    const auto shown = recordsAt(*onScreen);
    meshes = ofKind(shown, Section::Mesh);
    bodies = ofKind(shown, Section::Body);
  }
  std::optional<RecordRef> chosen;
  if (skeleton)
    if (const auto r = recordAt(*skeleton); r && r->kind == Section::Skeleton) chosen = r;
  const Pick pick = pickRecords(sources_, recordsAt(picked), meshes, bodies, chosen);

  Shown out;
  out.what = pick.what;
  out.clip = pick.clip;
  if (pick.meshesShown || pick.bodiesShown) {
    std::vector<std::string> paths;
    for (const auto* list : {&pick.meshesShown, &pick.bodiesShown})
      if (*list)
        for (const RecordRef& r : **list) paths.push_back(pathOf(r));
    out.onScreen = std::move(paths);
  }
  if (pick.what == Shown::What::WholeFiles) {
    for (const RecordRef& r : fittingSkeletonsFor(sources_, {})) out.skeletons.push_back(recordNode(r));
    return out;
  }
  if (pick.what == Shown::What::Inspect && pick.selection.materials->empty()) return out;
  auto scene = toScene(sources_, pick.selection);
  if (!scene) return scene.error();
  out.scene = std::move(scene).value();
  // Animations cut into the library's actions, or at their gaps (formats/model/actions.h).
  if (library_) out.scene.actions = library_->actions;
  cutClips(out.scene);
  if (pick.what == Shown::What::Model) {
    Selection unchosen = pick.selection;
    unchosen.skeleton.reset();
    for (const RecordRef& r : fittingSkeletonsFor(sources_, unchosen)) out.skeletons.push_back(recordNode(r));
    if (pick.chosenSkeleton) out.chosenSkeleton = pathOf(*pick.chosenSkeleton);
  }
  return out;
}

Result<Scene> BrfArchive::still(std::span<const std::string> picked) const {
  Pick pick = pickRecords(sources_, recordsAt(picked), std::nullopt, std::nullopt, std::nullopt);
  if (pick.what != Shown::What::Model)
    return FormatError{picked.empty() ? std::string() : addressOf(picked.front()).str(), "record", kNoOffset,
                       "not a model of its own"};
  pick.selection.animations = std::vector<RecordRef>{};
  return toScene(sources_, pick.selection);
}

}  // namespace marrow::formats::brf
