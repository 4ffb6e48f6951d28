#include "formats/cal3d/folder_models.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "formats/cal3d/cal3d.h"
#include "formats/cal3d/parts.h"
#include "formats/io/file.h"

namespace marrow::formats::cal3d {

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kLargestPart = 256ull << 20;  // a part larger than this goes by its name

std::string lowerStem(const std::string& path) {
  std::string s = fs::path(path).stem().string();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string fileName(const std::string& path) { return fs::path(path).filename().string(); }

std::size_t commonBeginning(std::string_view a, std::string_view b) {
  std::size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// The highest bone id a mesh's influences or an animation's tracks use (-1: none, as a
// material's), or nothing when the file cannot be read.
std::optional<std::int64_t> highestBone(FileKind kind, std::span<const std::byte> bytes, const std::string& path) {
  ReadContext ctx;
  ctx.name = path;
  ctx.fetchTextures = false;
  std::int64_t highest = -1;
  if (kind == FileKind::Mesh) {
    auto mesh = readMesh(bytes, ctx, BoneMap{});  // without a skeleton: the ids as stored
    if (!mesh) return std::nullopt;
    for (const Mesh& m : mesh->meshes)
      for (const Influence& i : m.influences) highest = std::max<std::int64_t>(highest, i.bone);
  } else if (kind == FileKind::Animation) {
    auto animation = readAnimation(bytes, ctx, BoneMap{});  // tracks named "#ID"
    if (!animation) return std::nullopt;
    for (const Track& t : animation->clip.tracks) {
      std::int64_t id = -1;
      if (t.bone.size() > 1 && t.bone[0] == '#')
        std::from_chars(t.bone.data() + 1, t.bone.data() + t.bone.size(), id);
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
  for (const std::string& f : files) {
    const FileKind kind = detectKind({}, fileName(f));
    if (kind == FileKind::Config) configs.push_back(f);
    else if (kind == FileKind::Skeleton) skeletonPaths.push_back(f);
    else parts.push_back(f);
  }
  if (!configs.empty()) {
    std::sort(configs.begin(), configs.end());
    for (const std::string& c : configs) out.models.push_back({c});
    return out;
  }
  std::sort(skeletonPaths.begin(), skeletonPaths.end());
  std::sort(parts.begin(), parts.end());
  const auto oneModel = [&](std::vector<std::string> skeletons) {
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
      out.unfit.push_back({path, "not read: " + skeleton.error().describe()});
      continue;
    }
    skeletons.push_back({path, lowerStem(path), skeleton->skeleton.bones.size(), {}});
  }
  if (skeletons.size() <= 1) {
    std::vector<std::string> readable;
    for (const auto& s : skeletons) readable.push_back(s.path);
    return oneModel(std::move(readable));
  }

  for (const std::string& part : parts) {
    const std::string stem = lowerStem(part);
    std::optional<std::int64_t> highest;
    if (auto bytes = readFile(part, kLargestPart)) {
      const auto head = std::span<const std::byte>(*bytes).first(std::min<std::size_t>(bytes->size(), 1024));
      highest = highestBone(detectKind(head, fileName(part)), *bytes, part);
    }
    // The skeletons whose bones it uses.
    std::vector<std::size_t> fitting;
    for (std::size_t s = 0; s < skeletons.size(); ++s)
      if (!highest || *highest < static_cast<std::int64_t>(skeletons[s].bones)) fitting.push_back(s);
    const auto named = [&](std::size_t s) {  // its name begins with the skeleton's
      const std::string& name = skeletons[s].stem;
      return stem.size() >= name.size() && stem.compare(0, name.size(), name) == 0;
    };
    const auto list = [&](const std::vector<std::size_t>& which) {
      std::string text;
      for (std::size_t k = 0; k < which.size(); ++k)
        text += (k == 0 ? "" : k + 1 == which.size() ? " and " : ", ") + fileName(skeletons[which[k]].path);
      return text;
    };
    // 1. Of the skeletons it fits, the one it is named after (the longest name, when one is
    //    the beginning of another: "hero2" over "hero").
    std::optional<std::size_t> chosen;
    for (std::size_t s : fitting)
      if (named(s) && (!chosen || skeletons[s].stem.size() > skeletons[*chosen].stem.size())) chosen = s;
    std::string misnamed;  // 2. its name says a skeleton whose bones it does not fit
    for (std::size_t s = 0; s < skeletons.size() && highest && !chosen; ++s)
      if (named(s))
        misnamed = "its name says " + fileName(skeletons[s].path) + ", but it uses bone id " +
                   std::to_string(*highest) + " and that skeleton has " + std::to_string(skeletons[s].bones) +
                   " bones; ";
    if (!chosen && fitting.empty()) {
      std::string have;
      for (const auto& s : skeletons)
        have += (have.empty() ? "" : ", ") + fileName(s.path) + " " + std::to_string(s.bones);
      out.unfit.push_back({part, misnamed + "it uses bone id " + std::to_string(*highest) +
                                     ", which none of the folder's skeletons has (bones: " + have + ")"});
      continue;
    }
    if (!chosen && !misnamed.empty()) {
      out.unfit.push_back({part, misnamed + "its bone ids fit " + list(fitting) +
                                     ": name it after its skeleton, or list it in a .cfg"});
      continue;
    }
    // 3. The only one whose bones it uses; 4. else the one whose name begins most like its own.
    if (!chosen && fitting.size() == 1 && highest && *highest >= 0) chosen = fitting.front();
    if (!chosen) {
      std::stable_sort(fitting.begin(), fitting.end(), [&](std::size_t a, std::size_t b) {
        return commonBeginning(stem, skeletons[a].stem) > commonBeginning(stem, skeletons[b].stem);
      });
      const std::size_t best = commonBeginning(stem, skeletons[fitting[0]].stem);
      std::size_t tied = 1;
      while (tied < fitting.size() && commonBeginning(stem, skeletons[fitting[tied]].stem) == best) ++tied;
      if (best == 0 || tied > 1) {
        fitting.resize(best == 0 ? fitting.size() : tied);
        const bool bones = highest && *highest >= 0;
        out.unfit.push_back({part, "it fits " + list(fitting) + " alike (" +
                                       (bones ? "its bone ids are bones of each" : "it uses no bone id") +
                                       ", and its name does not say which): name it after its skeleton, or "
                                       "list it in a .cfg"});
        continue;
      }
      chosen = fitting.front();
    }
    skeletons[*chosen].parts.push_back(part);
  }
  for (SkeletonFile& s : skeletons) {
    std::vector<std::string> model{s.path};
    model.insert(model.end(), s.parts.begin(), s.parts.end());
    out.models.push_back(std::move(model));
  }
  return out;
}

}  // namespace marrow::formats::cal3d
