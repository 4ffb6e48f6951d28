#include "formats/cal3d/folder_models.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "formats/cal3d/cal3d.h"
#include "formats/cal3d/parts.h"
#include "formats/io/file.h"
#include "formats/io/vfs.h"

namespace marrow::formats::cal3d {

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kLargestPart = 256ull << 20;

std::string lowerStem(const std::string& path) { return vfs::lowerAscii(fs::path(path).stem().string()); }
std::string fileName(const std::string& path) { return fs::path(path).filename().string(); }

// "DokuroChan_2" before "DokuroChan_10": runs of digits compare as numbers, the rest without case.
bool naturalLess(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])), db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      std::size_t si = i, sj = j;  // without leading zeros
      while (si + 1 < ei && a[si] == '0') ++si;
      while (sj + 1 < ej && b[sj] == '0') ++sj;
      if (ei - si != ej - sj) return ei - si < ej - sj;
      if (const int c = a.compare(si, ei - si, b, sj, ej - sj); c != 0) return c < 0;
      i = ei;
      j = ej;
      continue;
    }
    const int ca = std::tolower(static_cast<unsigned char>(a[i])), cb = std::tolower(static_cast<unsigned char>(b[j]));
    if (ca != cb) return ca < cb;
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;
}

void sortNaturally(std::vector<std::string>& paths) {
  std::stable_sort(paths.begin(), paths.end(),
                   [](const std::string& a, const std::string& b) { return naturalLess(fileName(a), fileName(b)); });
}

// The words of a name ("dokurochan_mesh.001": dokurochan, mesh, 001) that two names begin with
// alike: a shared first letter is no likeness.
std::size_t commonWords(const std::string& a, const std::string& b) {
  const auto words = [](const std::string& s) {
    std::vector<std::string> out(1);
    for (char c : s) {
      if (c == '_' || c == '.' || c == '-' || c == ' ') {
        if (!out.back().empty()) out.emplace_back();
      } else {
        out.back() += c;
      }
    }
    if (out.back().empty()) out.pop_back();
    return out;
  };
  const auto wa = words(a), wb = words(b);
  std::size_t n = 0;
  while (n < wa.size() && n < wb.size() && wa[n] == wb[n]) ++n;
  return n;
}

// The highest bone id a mesh's influences or an animation's tracks use (-1: none), or why the
// file cannot be read.
Result<std::int64_t> highestBone(FileKind kind, const std::string& path) {
  auto bytes = readFile(path, kLargestPart);
  if (!bytes) return bytes.error();
  ReadContext ctx;
  ctx.name = path;
  ctx.fetchTextures = false;
  std::int64_t highest = -1;
  if (kind == FileKind::Mesh) {
    auto mesh = readMesh(*bytes, ctx, BoneMap{});  // without a skeleton: the ids as stored
    if (!mesh) return mesh.error();
    for (const Mesh& m : mesh->meshes)
      for (const Influence& i : m.influences) highest = std::max<std::int64_t>(highest, i.bone);
  } else {
    auto animation = readAnimation(*bytes, ctx, BoneMap{});  // tracks named "#ID"
    if (!animation) return animation.error();
    for (const Track& t : animation->clip.tracks) {
      std::int64_t id = -1;
      if (t.bone.size() > 1 && t.bone[0] == '#') std::from_chars(t.bone.data() + 1, t.bone.data() + t.bone.size(), id);
      highest = std::max(highest, id);
    }
  }
  return highest;
}

struct SkeletonFile {
  std::string path;
  std::string stem;
  std::size_t bones = 0;
  std::vector<std::string> parts;
};

}  // namespace

FolderModels modelsInFolder(std::span<const std::string> files) {
  FolderModels out;
  std::vector<std::string> configs, skeletonPaths, parts;
  std::vector<std::string> sorted(files.begin(), files.end());
  sortNaturally(sorted);
  for (const std::string& f : sorted)
    if (detectKind({}, fileName(f)) == FileKind::Config) configs.push_back(f);
  if (!configs.empty()) {
    // Each .cfg is a model. The files none names are another character's, grouped as without
    // a .cfg, unless their names begin like a .cfg's (the clips a .cfg leaves out).
    std::set<std::pair<std::string, FileKind>> named;
    std::vector<std::string> stems;
    for (const std::string& c : configs) {
      out.models.push_back({c});
      stems.push_back(lowerStem(c));
      auto bytes = readFile(c, 1u << 20);
      ReadContext ctx;
      ctx.name = c;
      auto cfg = bytes ? parseConfig(*bytes, ctx) : Result<ConfigFile>(bytes.error());
      if (!cfg) continue;  // reading the model says why
      for (const auto* list : {&cfg->skeletons, &cfg->meshes, &cfg->materials, &cfg->animations, &cfg->morphAnimations})
        for (const ConfigEntry& e : *list) named.emplace(lowerStem(e.file), detectKind({}, fileName(e.file)));
    }
    std::vector<std::string> rest;
    bool skeleton = false;
    for (const std::string& f : sorted) {
      const FileKind kind = detectKind({}, fileName(f));
      const std::string stem = lowerStem(f);
      if (kind == FileKind::Config || named.count({stem, kind})) continue;
      if (std::any_of(stems.begin(), stems.end(), [&](const std::string& c) { return stem.compare(0, c.size(), c) == 0; }))
        continue;
      rest.push_back(f);
      skeleton |= kind == FileKind::Skeleton;
    }
    if (skeleton) {
      FolderModels more = modelsInFolder(rest);
      out.models.insert(out.models.end(), more.models.begin(), more.models.end());
      out.unfit.insert(out.unfit.end(), more.unfit.begin(), more.unfit.end());
    } else {
      for (const std::string& f : rest)
        out.unfit.push_back({f, "no .cfg of the folder names it, its name begins like none, and no skeleton "
                                "of the folder is without a .cfg"});
    }
    return out;
  }
  // One form of each part: a part in binary and in XML (paladin_body.cmf and .xmf) is one part.
  std::map<std::pair<std::string, FileKind>, std::string> seen;
  for (const std::string& f : sorted) {
    const FileKind kind = detectKind({}, fileName(f));
    const auto [at, fresh] = seen.emplace(std::pair(lowerStem(f), kind), f);
    if (!fresh) {
      out.unfit.push_back({f, "the same " + std::string(kindName(kind)) + " as " + fileName(at->second) +
                                  " in another form: only " + fileName(at->second) + " is used"});
      continue;
    }
    (kind == FileKind::Skeleton ? skeletonPaths : parts).push_back(f);
  }
  const auto oneModel = [&](std::vector<std::string> skeletons) {
    // Named after its skeleton, else after its first mesh.
    std::stable_partition(parts.begin(), parts.end(),
                          [](const std::string& p) { return detectKind({}, fileName(p)) == FileKind::Mesh; });
    if (!skeletons.empty()) sortNaturally(parts);
    std::vector<std::string> all = std::move(skeletons);
    all.insert(all.end(), parts.begin(), parts.end());
    if (!all.empty()) out.models.push_back(std::move(all));
    return out;
  };
  if (skeletonPaths.size() <= 1) return oneModel(skeletonPaths);

  // Several skeletons: each is a model, and each part goes to the one that fits it.
  std::vector<SkeletonFile> skeletons;
  for (const std::string& path : skeletonPaths) {
    auto bytes = readFile(path, kLargestPart);
    ReadContext ctx;
    ctx.name = path;
    auto skeleton = bytes ? readSkeleton(*bytes, ctx) : Result<SkeletonPart>(bytes.error());
    if (!skeleton) {
      out.unfit.push_back({path, "not read: " + skeleton.error().describe(), true});
      continue;
    }
    skeletons.push_back({path, lowerStem(path), skeleton->skeleton.bones.size(), {}});
  }
  if (skeletons.size() <= 1) {
    std::vector<std::string> readable;
    for (const auto& s : skeletons) readable.push_back(s.path);
    return oneModel(std::move(readable));
  }
  const auto list = [&](const std::vector<std::size_t>& which, const char* joint) {
    std::string text;
    for (std::size_t k = 0; k < which.size(); ++k)
      text += (k == 0 ? "" : k + 1 == which.size() ? joint : ", ") + fileName(skeletons[which[k]].path);
    return text;
  };

  for (const std::string& part : parts) {
    const std::string stem = lowerStem(part);
    const FileKind kind = detectKind({}, fileName(part));
    // Meshes and animations name bones by id; materials and morph animations name none.
    std::int64_t highest = -1;
    if (kind == FileKind::Mesh || kind == FileKind::Animation) {
      auto h = highestBone(kind, part);
      if (!h) {
        out.unfit.push_back({part, "not read: " + h.error().describe(), true});
        continue;
      }
      highest = *h;
    }
    const auto fits = [&](std::size_t s) { return highest < static_cast<std::int64_t>(skeletons[s].bones); };
    std::vector<std::size_t> fitting;
    for (std::size_t s = 0; s < skeletons.size(); ++s)
      if (fits(s)) fitting.push_back(s);
    const std::string bonesOf = fitting.empty() ? std::string("none of the folder's skeletons")
                                                : list(fitting, " and ");
    // 1. The skeleton its name begins with (the longest: "hero2_body" is hero2's, not hero's).
    std::optional<std::size_t> named;
    for (std::size_t s = 0; s < skeletons.size(); ++s)
      if (stem.compare(0, skeletons[s].stem.size(), skeletons[s].stem) == 0 &&
          (!named || skeletons[s].stem.size() > skeletons[*named].stem.size()))
        named = s;
    if (named) {
      if (fits(*named)) {
        skeletons[*named].parts.push_back(part);
      } else {
        out.unfit.push_back({part, "its name says " + fileName(skeletons[*named].path) + ", but it uses bone id " +
                                       std::to_string(highest) + " and that skeleton has " +
                                       std::to_string(skeletons[*named].bones) + " bones (its bone ids fit " +
                                       bonesOf + "): name it after its skeleton, or list it in a .cfg"});
      }
      continue;
    }
    // 2. Else the one whose name's first words it shares, of those whose bones it uses.
    std::size_t best = 0;
    std::vector<std::size_t> likest;
    for (std::size_t s : fitting) {
      const std::size_t words = commonWords(stem, skeletons[s].stem);
      if (words > best) likest.clear(), best = words;
      if (words == best && words > 0) likest.push_back(s);
    }
    if (likest.size() == 1) {
      skeletons[likest.front()].parts.push_back(part);
      continue;
    }
    std::string why;
    if (fitting.empty())
      why = "it uses bone id " + std::to_string(highest) + ", which none of the folder's skeletons has";
    else if (!likest.empty())
      why = "its name begins like " + list(likest, " and ") + " alike, and its bone ids fit each";
    else
      why = "its name says no skeleton of the folder, and " +
            std::string(highest < 0 ? "it names no bone" : "its bone ids fit " + bonesOf);
    std::string have;
    for (const auto& s : skeletons) have += (have.empty() ? "" : ", ") + fileName(s.path) + " " + std::to_string(s.bones);
    out.unfit.push_back({part, why + " (bones: " + have + "): name it after its skeleton, or list it in a .cfg"});
  }
  for (SkeletonFile& s : skeletons) {
    std::vector<std::string> model{s.path};
    model.insert(model.end(), s.parts.begin(), s.parts.end());
    out.models.push_back(std::move(model));
  }
  return out;
}

}  // namespace marrow::formats::cal3d
