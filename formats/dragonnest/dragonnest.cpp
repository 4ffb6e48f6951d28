// Dragon Nest files → models: which file is which, and the sibling files a skin or an ANI list
// names (../shared/specs/dragonnest.md §2.4, §4.1, §5.3).
#include "formats/dragonnest/dragonnest.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string_view>

#include "formats/dragonnest/dragonnest_internal.h"
#include "formats/dragonnest/pak.h"
#include "formats/io/codepage.h"
#include "formats/io/detect.h"
#include "formats/model/names.h"
#include "formats/model/validate.h"

namespace marrow::formats::dragonnest {

using detail::lower;

FileKind detectKind(std::span<const std::byte> data, std::string_view fileName) {
  if (detail::startsWith(data, kMeshMagic)) return FileKind::Mesh;
  if (detail::startsWith(data, kSkinMagic)) return FileKind::Skin;
  if (detail::startsWith(data, kAniMagic)) return FileKind::Animation;
  const std::string ext = lower(extensionOf(fileName));
  if (ext == "ani") return FileKind::AnimationList;  // §5.3: no magic means a list
  if (ext == "dnt") return looksLikeExt(data) ? FileKind::LegacyTable : FileKind::Table;
  if (ext == "ext") return FileKind::LegacyTable;
  if (ext == "msh") return FileKind::Mesh;  // the readers report the missing magic
  if (ext == "skn") return FileKind::Skin;
  return FileKind::Unknown;
}

bool isModelKind(FileKind kind) {
  return kind == FileKind::Mesh || kind == FileKind::Skin || kind == FileKind::Animation ||
         kind == FileKind::AnimationList;
}

namespace {

// A mesh's name as the set of meshes read compares it: decoded (a name the pak shows is UTF-8,
// a name inside a skin is stored in the code page), its last component, ASCII lower case.
std::string meshKey(const std::string& name, const std::string& codepage, bool stored) {
  const std::string shown =
      stored ? nameAsUtf8(storedBaseName(name, codepage), codepage) : nameAsUtf8(detail::baseName(name), std::string());
  return lower(shown);
}

// A sibling by its bare name (§2.4): as written, then lower-cased (the packer lower-cases paths).
std::optional<FoundFile> sibling(const ReadContext& ctx, const std::string& name) {
  if (!ctx.resolve || name.empty()) return std::nullopt;
  const std::string base = storedBaseName(name, ctx.codepage);
  for (const std::string& n : {name, base, normalizePakPath(base, ctx.codepage)})
    if (auto bytes = ctx.resolve(n)) return FoundFile{n, std::move(*bytes)};
  return std::nullopt;
}

struct Gathered {
  std::vector<Skn> skins;  // reserved up front: MeshSource points at them
  std::vector<MeshSource> meshSources;
  std::vector<AniSource> anis;
  std::vector<std::string> meshNames;  // lower-case bare names of the meshes read
  // The bytes of the files ANI lists named (by their hash): a file named again, under any
  // spelling the resolver finds alike, is read once. A list naming one big ANI thousands of times
  // would otherwise hold thousands of parsed copies of it.
  std::multimap<std::size_t, std::vector<std::byte>> listed;
  std::uint64_t listedAgain = 0;  // bytes fetched again only to be recognised
  Diagnostics diagnostics;
};

// The ANIs a file holds: itself, or (a list, §5.3) the files it names, which must be real ANIs.
std::optional<FormatError> gatherAni(std::span<const std::byte> data, const ReadContext& ctx,
                                     Gathered& g) {
  if (!isAniList(data)) {
    auto ani = parseAni(data, ctx);
    if (!ani) return ani.error();
    g.anis.push_back({std::move(ani).value(), ctx.name});
    return std::nullopt;
  }
  const auto names = aniListNames(data);
  if (names.empty())
    return FormatError{ctx.name, "magic", 0,
                       "is not \"Eternity Engine Ani File\", and the file names no .ani either"};
  std::size_t first = g.anis.size();
  for (const auto& name : names) {
    auto found = sibling(ctx, name);
    if (!found) {
      g.diagnostics.warn(ctx.name, "listed file '" + name + "'", kNoOffset,
                         "not found; its animations are missing");
      continue;
    }
    const std::size_t hash = std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(found->bytes.data()), found->bytes.size()));
    const auto [from, to] = g.listed.equal_range(hash);
    if (std::any_of(from, to, [&](const auto& e) { return e.second == found->bytes; })) {
      g.listedAgain += found->bytes.size();
      const std::uint64_t budget = ctx.limits.maxAllocation(data.size());
      if (g.listedAgain > budget)
        return FormatError{ctx.name, "listed file '" + name + "'", kNoOffset,
                           "the list names files it named before again and again (" +
                               std::to_string(g.listedAgain) +
                               " bytes read a second time, more than its limit of " +
                               std::to_string(budget) + ")"};
      g.diagnostics.warn(ctx.name, "listed file '" + name + "'", kNoOffset,
                         "is a file the list named before: it is read once");
      continue;
    }
    ReadContext sub = ctx;
    sub.name = found->name;
    auto ani = parseAni(found->bytes, sub);  // a list inside a list is refused here
    if (!ani) return ani.error();
    if (g.anis.size() > first && ani->bones.size() != g.anis[first].ani.bones.size())
      g.diagnostics.warn(sub.name, "bone count", kNoOffset,
                         "differs from the list's first file; bones are matched by name (§5.3)");
    g.anis.push_back({std::move(ani).value(), sub.name});
    g.listed.emplace(hash, std::move(found->bytes));
  }
  return std::nullopt;
}

bool haveMesh(const Gathered& g, const std::string& key) {
  return std::find(g.meshNames.begin(), g.meshNames.end(), key) != g.meshNames.end();
}

Result<Scene> gatherAll(std::span<const Input> inputs) {
  Gathered g;
  // Skins first: the meshes they bring are not read a second time when given as well.
  std::vector<const Input*> skins, meshes, anis;
  for (const auto& in : inputs) {
    switch (detectKind(in.bytes, in.ctx.name)) {
      case FileKind::Skin: skins.push_back(&in); break;
      case FileKind::Mesh: meshes.push_back(&in); break;
      case FileKind::Animation:
      case FileKind::AnimationList: anis.push_back(&in); break;
      default:
        return FormatError{in.ctx.name, "", kNoOffset,
                           "is not a Dragon Nest mesh, skin or animation"};
    }
  }
  g.skins.reserve(skins.size());
  for (const Input* in : skins) {
    auto skn = parseSkn(in->bytes, in->ctx);
    if (!skn) return skn.error();
    g.skins.push_back(std::move(skn).value());
    const Skn& s = g.skins.back();
    auto found = sibling(in->ctx, s.mesh);
    if (!found) {
      g.diagnostics.warn(
          in->ctx.name, "mesh file name", 256,
          "'" + s.mesh + "' was not found beside the skin; only its materials are shown");
      continue;
    }
    ReadContext sub = in->ctx;
    sub.name = found->name;
    auto msh = parseMsh(found->bytes, sub);
    if (!msh) return msh.error();
    g.meshNames.push_back(meshKey(s.mesh, in->ctx.codepage, true));
    g.meshSources.push_back({std::move(msh).value(), &s, in->ctx.name, &in->ctx});
  }
  for (const Input* in : meshes) {
    const std::string key = meshKey(in->ctx.name, in->ctx.codepage, false);
    if (haveMesh(g, key)) continue;
    auto msh = parseMsh(in->bytes, in->ctx);
    if (!msh) return msh.error();
    g.meshNames.push_back(key);
    g.meshSources.push_back({std::move(msh).value(), nullptr, in->ctx.name, &in->ctx});
  }
  for (const Input* in : anis)
    if (auto e = gatherAni(in->bytes, in->ctx, g)) return *e;
  // A skin whose mesh was missing still shows its materials.
  Scene scene = toScene(g.meshSources, g.anis);
  // §5.2 parents are names: a chain of them may be as deep as the file has bones.
  const Limits& limits = inputs.front().ctx.limits;
  if (const auto deep = boneDeeperThan(scene.skeleton, limits.maxHierarchyDepth))
    return FormatError{g.anis.empty() ? inputs.front().ctx.name : g.anis.front().file,
                       "bone '" + scene.skeleton.bones[deep->bone].name + "'", kNoOffset,
                       "is nested " + std::to_string(deep->depth) +
                           " bones deep, over the limit of " +
                           std::to_string(limits.maxHierarchyDepth)};
  for (const Skn& s : g.skins) {
    const bool used = std::any_of(g.meshSources.begin(), g.meshSources.end(),
                                  [&](const MeshSource& m) { return m.skin == &s; });
    if (!used) {
      // Named like the others ("Dragon Nest SKN v10"), with what is not there.
      scene.format += (scene.format.empty() ? "Dragon Nest SKN v" : " + SKN v") + std::to_string(s.version) +
                      " (its mesh not found)";
      MeshSource none{Msh{}, &s, "", nullptr};
      Scene materials = toScene(std::span(&none, 1), {});
      for (auto& m : materials.materials) scene.materials.push_back(std::move(m));
      for (auto& t : materials.textures) scene.textures.push_back(std::move(t));
    }
  }
  // §5: the hierarchy lives in the .ani; a mesh read without one has bones but no parents.
  if (g.anis.empty() && scene.skeleton.bones.size() > 1 && scene.skeleton.rootCount() == scene.skeleton.bones.size())
    g.diagnostics.warn(inputs.front().ctx.name, "skeleton", kNoOffset,
                       "no .ani was given: the hierarchy of the " + std::to_string(scene.skeleton.bones.size()) +
                           " bones is in the character's animation file, so each is a root and the mesh shows "
                           "only its bind pose; open the .ani with it");
  g.diagnostics.append(scene.diagnostics);
  scene.diagnostics = std::move(g.diagnostics);
  return scene;
}

}  // namespace

void decodeLegacyNames(Scene& scene, const ReadContext& ctx) {
  const DecodedNames decoded = decodeNames(scene, ctx.codepage);
  if (!decoded.codepage.empty() && decoded.codepage != "UTF-8")
    scene.diagnostics.info(ctx.name, "names", kNoOffset, "names decoded from " + decoded.codepage + " to UTF-8");
  if (decoded.escaped)
    scene.diagnostics.warn(ctx.name, "names", kNoOffset,
                           std::to_string(decoded.escaped) +
                               " names decode in no known code page; they are shown with their bytes "
                               "escaped (%NN)");
}

Result<Scene> readModel(std::span<const Input> inputs, Names names) {
  auto scene = detail::guarded<Scene>(inputs.empty() ? ReadContext{} : inputs.front().ctx,
                                      [&] { return gatherAll(inputs); });
  if (scene && names == Names::Decoded) decodeLegacyNames(*scene, inputs.front().ctx);
  return scene;
}

Result<Scene> readFile(std::span<const std::byte> data, const ReadContext& ctx) {
  const FileKind kind = detectKind(data, ctx.name);
  if (kind == FileKind::Table || kind == FileKind::LegacyTable) {
    auto table = kind == FileKind::Table ? readDnt(data, ctx) : readExt(data, ctx);
    if (!table) return table.error();
    Scene scene;
    scene.format = kind == FileKind::Table ? "Dragon Nest DNT" : "Dragon Nest EXT";
    scene.basis = dragonNestBasis();
    scene.tables.push_back(std::move(table).value());
    decodeLegacyNames(scene, ctx);
    return scene;
  }
  if (!isModelKind(kind)) return FormatError{ctx.name, "", kNoOffset, "is not a Dragon Nest file"};
  const Input one{data, ctx};
  return readModel(std::span(&one, 1));
}

}  // namespace marrow::formats::dragonnest
