// Dragon Nest in the format table: meshes, skins and animations read together as one model,
// tables on their own, and paks mounted as one file system (§2.4) whose entries are opened as
// ARCHIVE.pak::path.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <set>

#include "formats/dragonnest/dragonnest.h"
#include "formats/dragonnest/from_scene.h"
#include "formats/write_support.h"
#include "formats/io/codepage.h"
#include "formats/io/vfs.h"
#include "formats/dragonnest/pak_archive.h"
#include "formats/format.h"

namespace marrow::formats {

namespace {

namespace dn = formats::dragonnest;

bool startsWith(std::span<const std::byte> head, std::string_view magic) {
  return head.size() >= magic.size() && std::memcmp(head.data(), magic.data(), magic.size()) == 0;
}

// "Eternity Engine Mesh File 0.13" and so on: the suffix varies (dragonnest.md §3.1).
bool recognise(std::span<const std::byte> head) {
  for (std::string_view magic : {"Eternity Engine Mesh File", "Eternity Engine Skin File",
                                 "Eternity Engine Ani File", "EyedentityGames Packing File"})
    if (startsWith(head, magic)) return true;
  return false;
}

bool claims(std::string_view ext) {
  for (std::string_view e : {"pak", "msh", "skn", "ani", "dnt", "ext"})
    if (ext == e) return true;
  return false;
}

std::string lowerExtension(const std::string& f, std::string* stem) {
  const auto slash = f.find_last_of("/\\");
  const std::string name = slash == std::string::npos ? f : f.substr(slash + 1);
  const auto dot = name.rfind('.');
  std::string ext = dot == std::string::npos ? std::string() : name.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (stem) {
    *stem = dot == std::string::npos ? name : name.substr(0, dot);
    for (char& c : *stem) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return ext;
}

std::string baseName(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string lower(std::string_view s) { return vfs::lowerAscii(s); }

// At most this many animation files of a folder are read to find those that fit a mesh.
constexpr std::size_t kAnimationsLookedAt = 256;

// The animations a mesh or skin opened alone brings (the engine keeps them beside it): the .ani
// of its own name first, then every .ani of its folder whose bones include all of the mesh's.
// Each found file's name is said in the diagnostics.
std::vector<FoundFile> animationsBeside(const ReadContext& ctx, const Scene& model, Diagnostics& said) {
  std::vector<FoundFile> out;
  if (!ctx.resolve || model.skeleton.bones.empty()) return out;
  const std::string own = baseName(ctx.name);
  const std::string stem = lower(own.substr(0, own.rfind('.')));
  std::set<std::string> needed;
  for (const Bone& b : model.skeleton.bones) needed.insert(lower(b.name));  // §1: any case
  // The skin's name is shown decoded; its siblings are listed as stored (lower-cased as the
  // archive compares them): its own name in the archive's code page, to compare bytes.
  // Siblings are '/'-separated paths (a trail byte 0x5C of a double-byte code page is no
  // separator), compared as the archive normalises them in its code page.
  std::string storedStem = stem;
  if (!ctx.codepage.empty() && ctx.codepage != "UTF-8")
    if (auto spelled = encodeCodepage(stem, ctx.codepage)) storedStem = dn::normalizePakPath(*spelled, ctx.codepage);
  std::vector<std::string> candidates;
  std::string sameName;
  if (ctx.siblings)
    for (const std::string& s : ctx.siblings()) {
      const std::string_view name = std::string_view(s).substr(s.rfind('/') + 1);
      const auto dot = name.rfind('.');
      if (dot == std::string_view::npos || lower(name.substr(dot + 1)) != "ani") continue;
      const std::string siblingStem = dn::normalizePakPath(name.substr(0, dot), ctx.codepage);
      if (siblingStem == stem || siblingStem == storedStem) sameName = s;
      else candidates.push_back(s);
    }
  // Without a listing, the name the resolver finds beside it.
  if (!ctx.siblings) sameName = own.substr(0, own.rfind('.')) + ".ani";
  if (!sameName.empty()) candidates.insert(candidates.begin(), sameName);
  std::size_t looked = 0;
  for (const std::string& name : candidates) {
    if (++looked > kAnimationsLookedAt) {
      said.info(ctx.name, "animations", kNoOffset,
                std::to_string(candidates.size()) + " animation files beside it; the first " +
                    std::to_string(kAnimationsLookedAt) + " were looked at");
      break;
    }
    auto bytes = ctx.resolve(name);
    if (!bytes || dn::isAniList(*bytes)) continue;
    ReadContext aniCtx = ctx;
    aniCtx.name = name;
    auto ani = dn::parseAni(*bytes, aniCtx);
    if (!ani) continue;  // a damaged neighbour is not this model's business
    std::set<std::string> has;
    for (const auto& b : ani->bones) has.insert(lower(b.name));
    const bool covers = std::includes(has.begin(), has.end(), needed.begin(), needed.end());
    if (!covers && name != sameName) continue;
    if (!covers) {
      said.info(ctx.name, "animations", kNoOffset,
                baseName(name) + " has its name but not all of its bones; it is not played on it");
      continue;
    }
    out.push_back({name, std::move(*bytes)});
  }
  if (!out.empty()) {
    std::string list;
    for (const FoundFile& f : out) list += (list.empty() ? "" : ", ") + baseName(f.name);
    said.info(ctx.name, "animations", kNoOffset, "plays the animations found beside it: " + list);
  }
  return out;
}

// Meshes, skins and animations make one model (the animations give the meshes' skeleton its
// hierarchy); a table is a part of its own. A mesh or skin without animations brings those
// beside it (animationsBeside).
Result<GroupRead> readGroup(std::vector<Input> inputs) {
  GroupRead out;
  std::vector<dn::Input> model;
  bool animated = false;
  for (const Input& in : inputs) {
    const auto head = std::span(in.bytes).first(std::min<std::size_t>(in.bytes.size(), 1024));
    const dn::FileKind kind = dn::detectKind(head, in.ctx.name);
    if (dn::isModelKind(kind)) {
      animated |= kind == dn::FileKind::Animation || kind == dn::FileKind::AnimationList;
      model.push_back({in.bytes, in.ctx});
      continue;
    }
    auto r = dn::readFile(in.bytes, in.ctx);
    if (!r) return r.error();
    out.parts.push_back({in.ctx.name, std::move(r).value()});
  }
  if (!model.empty()) {
    // Names as stored until every file is in: the animations beside it are matched by the bone
    // names their files store.
    auto r = dn::readModel(model, dn::Names::AsStored);
    if (!r) return r.error();
    if (!animated && !r->meshes.empty()) {
      Diagnostics said;
      const std::vector<FoundFile> found = animationsBeside(model.front().ctx, *r, said);
      if (!found.empty()) {
        std::vector<dn::Input> withClips = model;
        for (const FoundFile& f : found) {
          ReadContext ctx = model.front().ctx;
          ctx.name = f.name;
          withClips.push_back({f.bytes, ctx});
        }
        if (auto again = dn::readModel(withClips, dn::Names::AsStored)) r = std::move(again);
      }
      r->diagnostics.append(said);
    }
    dn::decodeLegacyNames(*r, model.front().ctx);
    out.parts.insert(out.parts.begin(), Part{model.front().ctx.name, std::move(r).value()});
  }
  return out;
}

Result<std::shared_ptr<const vfs::Archive>> mount(std::span<const std::string> paths, const MountOptions& options) {
  auto set = dn::PakSet::open(std::vector<std::string>(paths.begin(), paths.end()), options.codepage);
  if (!set) return set.error();
  return std::shared_ptr<const vfs::Archive>(
      std::make_shared<const dn::PakArchive>(std::make_shared<const dn::PakSet>(std::move(set).value())));
}

// Each skin is a model (it brings its mesh); a mesh is one only where no skin of its name wraps
// it; animations and tables are not models of their own.
FolderModels modelsInFolder(std::span<const std::string> files) {
  std::set<std::string> skins;
  std::string stem;
  for (const std::string& f : files)
    if (lowerExtension(f, &stem) == "skn") skins.insert(stem);
  FolderModels out;
  for (const std::string& f : files) {
    const std::string ext = lowerExtension(f, &stem);
    if (ext == "skn" || (ext == "msh" && !skins.count(stem))) out.models.push_back({f});
  }
  return out;
}

// Any model → Dragon Nest (dragonnest/from_scene.h): `-o NAME.skn` writes NAME.skn, NAME.msh
// and, with a skeleton, NAME.ani beside it; `.msh` and `.ani` alone write that file.
WriteResult write(const WriteSource& source, const OutputKind& kind, const std::string& out, const WriteOptions& o) {
  using namespace writing;
  Prepared p = prepare(*source.scene, kind.holds, out, o);
  WriteResult r = std::move(p.result);
  if (!r.ok()) return r;
  noteCal3dOnlyData(p.scene, "Dragon Nest", out, r.diagnostics);
  noteMorphData(p.scene, "Dragon Nest", out, r.diagnostics);
  dn::RecordVersions versions;
  if (o.version) {
    if (kind.extension != "ani") versions.msh = *o.version;
    versions.skn = versions.ani = *o.version == 11 ? 11 : 10;
  }
  const std::filesystem::path path(out);
  const std::string stem = path.stem().string();
  auto records = dn::fromScene(p.scene, stem, versions, r.diagnostics);
  if (!records) return failed(std::move(r), records.error(), out);
  const auto beside = [&](const char* ext) { return (path.parent_path() / (stem + ext)).string(); };
  const auto add = [&](const std::string& file, Result<std::vector<std::byte>> bytes) {
    if (!bytes) return false;
    r.files.push_back({file, std::move(bytes).value()});
    return true;
  };
  if (kind.extension == "ani") {
    if (!records->ani) return refused(std::move(r), "the model has no skeleton to animate");
    auto bytes = dn::writeAni(*records->ani);
    if (!bytes) return failed(std::move(r), bytes.error(), out);
    add(out, std::move(bytes));
  } else {
    if (kind.extension == "skn") {
      auto skn = dn::writeSkn(records->skn);
      if (!skn) return failed(std::move(r), skn.error(), out);
      add(out, std::move(skn));
    }
    auto msh = dn::writeMsh(records->msh);
    if (!msh) return failed(std::move(r), msh.error(), beside(".msh"));
    add(kind.extension == "skn" ? beside(".msh") : out, std::move(msh));
    if (kind.extension == "skn" && records->ani) {
      auto ani = dn::writeAni(*records->ani);
      if (!ani) return failed(std::move(r), ani.error(), beside(".ani"));
      add(beside(".ani"), std::move(ani));
    }
    if (kind.extension == "msh" && !p.scene.skeleton.empty())
      r.diagnostics.info(out, "skeleton", kNoOffset,
                         "a mesh alone has its bones without their hierarchy, which lives in the .ani (write NAME.skn "
                         "for all three)");
  }
  nameTheOutput(r.diagnostics, out);
  return r;
}

std::optional<std::string> checkOptions(const OutputKind& kind, const WriteOptions& o) {
  if (!o.version) return std::nullopt;
  if (kind.extension == "ani" && *o.version != 10 && *o.version != 11)
    return std::string("--version for .ani is 10 or 11");
  if (kind.extension != "ani" && (*o.version < 10 || *o.version > 13))
    return std::string("--version for .skn and .msh is the MSH version, 10 to 13 (11: SKN and ANI 11 too)");
  return std::nullopt;
}

}  // namespace

const FormatDescriptor& dragonNestFormat() {
  static const FormatDescriptor d{
      .id = "dragonnest",
      .name = "Dragon Nest",
      .notes = "paks opened by their index only (mapped), entries inflated on demand within their "
          "declared size, several paks (or a client folder's) as one file system in the client's "
          "override order, names in legacy code pages (CP949, GB18030, Big5, Shift-JIS) detected "
          "and shown as UTF-8; a skin or mesh plays the `.ani` of its name and those of its folder "
          "that fit its bones; MSH "
          "v10–v13 (bones, list and strip submeshes, bone palettes, colours, collision primitives, "
          "dummies), SKN v10/v11 (scrambled bodies, every parameter type), ANI v10/v11 (60 fps, "
          "list files), DNT tables (and legacy EXT, read); `marrow-cli pack` writes paks, and the "
          "library writes MSH, SKN, ANI and DNT back byte for byte, and any model as SKN, MSH and ANI; "
          "Y-up left-handed data shown unmirrored",
      .extensions = {"pak", "msh", "skn", "ani", "ext", "dnt"},
      .mime = "model/x-dragon-nest-skin",
      .mimeTypes = {"application/x-dragon-nest-pak", "model/x-dragon-nest-mesh",
                    "model/x-dragon-nest-skin", "model/x-dragon-nest-animation",
                    "application/x-dragon-nest-table"},
      .recognise = recognise,
      .claimsExtension = claims,
      .read = dn::readFile,
      .readGroup = readGroup,
      .mount = mount,
      .archiveExtensions = {"pak"},
      .animationExtensions = {"ani"},
      .modelsInFolder = modelsInFolder,
      .outputs = {{"skn", "Dragon Nest skin (with its .msh and .ani)", Holds::Model},
                  {"msh", "Dragon Nest mesh", Holds::Meshes},
                  {"ani", "Dragon Nest animations", Holds::Skeleton}},
      .write = write,
      .cannotHold = "more than 4 influences a vertex or 50 bones a submesh (meshes are split), morph targets, "
                    "vertex animation, cal3d's level of detail and springs; textures are named as .dds",
      .checkOptions = checkOptions,
  };
  return d;
}

}  // namespace marrow::formats
