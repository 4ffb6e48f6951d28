// Putting cal3d files together into one model (readModel, readConfig) and choosing between the
// binary and XML reader of each kind.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "formats/cal3d/cal3d.h"
#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"

namespace marrow::formats::cal3d {
namespace {

// "CSF" as a literal is the four magic bytes, its NUL included (§2).
bool hasMagic(std::span<const std::byte> data, const char (&magic)[4]) {
  return data.size() >= 4 && std::memcmp(data.data(), magic, 4) == 0;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// XML files name what they are in a MAGIC attribute or by their body element (§7).
FileKind xmlKind(std::span<const std::byte> head) {
  const std::string text = lower(std::string_view(reinterpret_cast<const char*>(head.data()),
                                                  std::min<std::size_t>(head.size(), 1024)));
  const auto start = text.find_first_not_of(" \t\r\n\xef\xbb\xbf");
  if (start == std::string::npos || text[start] != '<') return FileKind::Unknown;
  for (const auto& [magic, kind] : {std::pair{"\"xsf\"", FileKind::Skeleton},
                                    std::pair{"\"xpf\"", FileKind::MorphAnimation},
                                    std::pair{"\"xaf\"", FileKind::Animation},
                                    std::pair{"\"xmf\"", FileKind::Mesh},
                                    std::pair{"\"xrf\"", FileKind::Material}})
    if (text.find(std::string("magic=") + magic) != std::string::npos) return kind;
  // An ANIMATION without a magic: its tracks say which kind (BONEID or MORPHNAME / MORPHID).
  if (text.find("<animation") != std::string::npos &&
      (text.find("morphname=") != std::string::npos || text.find("morphid=") != std::string::npos))
    return FileKind::MorphAnimation;
  for (const auto& [element, kind] : {std::pair{"<skeleton", FileKind::Skeleton},
                                      std::pair{"<animation", FileKind::Animation},
                                      std::pair{"<mesh", FileKind::Mesh},
                                      std::pair{"<material", FileKind::Material}})
    if (text.find(element) != std::string::npos) return kind;
  return FileKind::Unknown;
}

// XML text starts with '<' (after a byte order mark and blanks); anything else is read as binary,
// so that a damaged magic is reported as one ("magic at offset 0"), not as bad XML.
bool isXml(std::span<const std::byte> data) {
  std::size_t i = 0;
  if (data.size() >= 3 && std::to_integer<unsigned char>(data[0]) == 0xEF &&
      std::to_integer<unsigned char>(data[1]) == 0xBB && std::to_integer<unsigned char>(data[2]) == 0xBF)
    i = 3;
  while (i < data.size() && std::isspace(std::to_integer<unsigned char>(data[i]))) ++i;
  return i < data.size() && std::to_integer<char>(data[i]) == '<';
}

FileKind kindByExtension(std::string_view name) {
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return FileKind::Unknown;
  const std::string ext = lower(name.substr(dot + 1));
  if (ext == "csf" || ext == "xsf") return FileKind::Skeleton;
  if (ext == "caf" || ext == "xaf") return FileKind::Animation;
  if (ext == "cmf" || ext == "xmf") return FileKind::Mesh;
  if (ext == "crf" || ext == "xrf") return FileKind::Material;
  if (ext == "cfg") return FileKind::Config;
  if (ext == "cpf" || ext == "xpf") return FileKind::MorphAnimation;
  return FileKind::Unknown;
}

// "cal3d CMF 700" ×17 → "17 × CMF 700": a short summary of what a model was made of.
std::string summarize(const std::vector<std::string>& formats) {
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& f : formats) {
    const std::string shortName = f.rfind("cal3d ", 0) == 0 ? f.substr(6) : f;
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const auto& c) { return c.first == shortName; });
    if (it == counts.end())
      counts.emplace_back(shortName, 1);
    else
      ++it->second;
  }
  std::string out = "cal3d";
  for (std::size_t i = 0; i < counts.size(); ++i) {
    out += i == 0 ? ": " : ", ";
    if (counts[i].second > 1) out += std::to_string(counts[i].second) + " × ";
    out += counts[i].first;
  }
  return out;
}

// Without a skeleton, meshes keep their file bone ids and tracks are named "#<id>": bones of those
// names stand in, so that nothing of the files is lost (a lone .cmf converts with its
// influences). They are not the real skeleton: poses mean nothing until its .csf is loaded.
void standInPlaceholderBones(Scene& scene, const std::string& file, const Limits& limits) {
  std::int64_t highest = -1;
  for (const Mesh& m : scene.meshes)
    for (const Influence& i : m.influences) highest = std::max<std::int64_t>(highest, i.bone);
  for (const Clip& c : scene.clips)
    for (const Track& t : c.tracks) highest = std::max<std::int64_t>(highest, t.sourceIndex);
  if (highest < 0) return;
  // A bone id is a file's number: one past the bone limit would make millions of stand-ins.
  if (highest >= static_cast<std::int64_t>(limits.maxBones)) {
    scene.diagnostics.warn(file, "skeleton", kNoOffset,
                           "no skeleton (.csf/.xsf) was given and the files use bone id " +
                               std::to_string(highest) + ", past the limit of " +
                               std::to_string(limits.maxBones) + " bones: no placeholder bones");
    return;
  }
  for (std::int64_t id = 0; id <= highest; ++id) {
    Bone b;
    b.name = "#" + std::to_string(id);
    scene.skeleton.bones.push_back(std::move(b));
  }
  scene.diagnostics.warn(
      file, "skeleton", kNoOffset,
      "no skeleton (.csf/.xsf) was given: " + std::to_string(highest + 1) +
          " placeholder bones (#0, #1, …) stand in for the bone ids the files use; load the "
          "skeleton to see the meshes skinned and the animations play");
}

}  // namespace

const char* kindName(FileKind kind) {
  switch (kind) {
    case FileKind::Unknown: return "unknown";
    case FileKind::Skeleton: return "skeleton";
    case FileKind::Animation: return "animation";
    case FileKind::Mesh: return "mesh";
    case FileKind::Material: return "material";
    case FileKind::Config: return "model configuration";
    case FileKind::MorphAnimation: return "morph animation";
  }
  return "unknown";
}

FileKind detectKind(std::span<const std::byte> head, std::string_view fileName) {
  if (hasMagic(head, "CSF")) return FileKind::Skeleton;
  if (hasMagic(head, "CAF")) return FileKind::Animation;
  if (hasMagic(head, "CMF")) return FileKind::Mesh;
  if (hasMagic(head, "CRF")) return FileKind::Material;
  if (hasMagic(head, "CPF")) return FileKind::MorphAnimation;
  const FileKind byExtension = kindByExtension(fileName);
  if (byExtension == FileKind::Config) return byExtension;
  const FileKind byContent = xmlKind(head);
  return byContent != FileKind::Unknown ? byContent : byExtension;
}

Result<SkeletonPart> readSkeleton(std::span<const std::byte> data, const ReadContext& ctx) {
  return isXml(data) ? readXsf(data, ctx) : readCsf(data, ctx);
}

Result<AnimationPart> readAnimation(std::span<const std::byte> data, const ReadContext& ctx,
                                    const BoneMap& bones) {
  return isXml(data) ? readXaf(data, ctx, bones) : readCaf(data, ctx, bones);
}

Result<MeshPart> readMesh(std::span<const std::byte> data, const ReadContext& ctx,
                          const BoneMap& bones) {
  return isXml(data) ? readXmf(data, ctx, bones) : readCmf(data, ctx, bones);
}

Result<MaterialPart> readMaterial(std::span<const std::byte> data, const ReadContext& ctx) {
  return isXml(data) ? readXrf(data, ctx) : readCrf(data, ctx);
}

Result<MorphAnimationPart> readMorphAnimation(std::span<const std::byte> data,
                                              const ReadContext& ctx) {
  return isXml(data) ? readXpf(data, ctx) : readCpf(data, ctx);
}

Result<Scene> readModel(std::span<const Input> inputs, float scale) {
  std::vector<const Input*> skeletons, materials, meshes, animations, morphAnimations;
  for (const Input& in : inputs) {
    switch (detectKind(in.bytes.first(std::min<std::size_t>(in.bytes.size(), 1024)), in.ctx.name)) {
      case FileKind::Skeleton: skeletons.push_back(&in); break;
      case FileKind::Material: materials.push_back(&in); break;
      case FileKind::Mesh: meshes.push_back(&in); break;
      case FileKind::Animation: animations.push_back(&in); break;
      case FileKind::MorphAnimation: morphAnimations.push_back(&in); break;
      case FileKind::Config:
        return FormatError{in.ctx.name, "", kNoOffset,
                           "a .cfg names a whole model: open it on its own"};
      case FileKind::Unknown:
        return FormatError{in.ctx.name, "", kNoOffset, "is not a cal3d file"};
    }
  }
  if (skeletons.size() > 1)
    return FormatError{skeletons[1]->ctx.name, "", kNoOffset,
                       "a cal3d model has one skeleton, and " + skeletons[0]->ctx.name +
                           " is already that"};

  Scene scene;
  scene.basis = cal3dBasis(scale > 0.0f && std::isfinite(scale) ? scale : 1.0f);
  std::vector<std::string> formats;
  BoneMap bones;
  if (!skeletons.empty()) {
    auto part = readSkeleton(skeletons[0]->bytes, skeletons[0]->ctx);
    if (!part) return part.error();
    scene.skeleton = std::move(part->skeleton);
    bones.modelIndexOfFileBone = std::move(part->modelIndexOfFileBone);
    scene.diagnostics.append(part->diagnostics);
    formats.push_back(part->format);
  }
  bones.skeleton = skeletons.empty() ? nullptr : &scene.skeleton;

  TextureTable textures(scene.textures);  // each image once across the materials
  for (const Input* in : materials) {
    if (in->missing) {  // keeps its slot: the threads after it still find theirs
      Material placeholder;
      placeholder.name = fileStem(in->ctx.name);
      placeholder.diffuseAlphaIsOpacity = false;
      scene.materials.push_back(std::move(placeholder));
      continue;
    }
    auto part = readMaterial(in->bytes, in->ctx);
    if (!part) return part.error();
    std::vector<int> index;
    for (auto& t : part->textures) index.push_back(textures.add(std::move(t)));
    for (auto& map : part->material.maps)
      if (map.texture >= 0 && static_cast<std::size_t>(map.texture) < index.size())
        map.texture = index[static_cast<std::size_t>(map.texture)];
    scene.materials.push_back(std::move(part->material));
    scene.diagnostics.append(part->diagnostics);
    formats.push_back(part->format);
  }

  std::size_t unknownThreads = 0;
  // The morph animations' mesh numbers: a .cfg's mesh= lines (a line whose file is missing keeps
  // its number, with no meshes), then the mesh files given beside it.
  std::vector<MeshFileRange> meshFiles;
  int slots = 0;
  for (const Input* in : meshes) slots = std::max(slots, in->meshSlot + 1);
  meshFiles.resize(static_cast<std::size_t>(slots));
  for (const Input* in : meshes) {
    auto part = readMesh(in->bytes, in->ctx, bones);
    if (!part) return part.error();
    const MeshFileRange range{scene.meshes.size(), part->meshes.size()};
    if (in->meshSlot >= 0)
      meshFiles[static_cast<std::size_t>(in->meshSlot)] = range;
    else
      meshFiles.push_back(range);
    for (std::size_t i = 0; i < part->meshes.size(); ++i) {
      Mesh& m = part->meshes[i];
      const int thread = i < part->materialThreads.size() ? part->materialThreads[i] : -1;
      // §9: a submesh's material thread indexes the model's material list; -1 or out of range
      // means the untextured default.
      m.material = thread >= 0 && static_cast<std::size_t>(thread) < scene.materials.size() ? thread : -1;
      if (thread >= 0 && m.material < 0) m.materialSlot = thread;  // written back as it was
      unknownThreads += thread >= 0 && m.material < 0 && !scene.materials.empty();
      scene.meshes.push_back(std::move(m));
    }
    scene.diagnostics.append(part->diagnostics);
    formats.push_back(part->format);
  }
  if (unknownThreads)
    scene.diagnostics.warn(meshes.front()->ctx.name, "material threads", kNoOffset,
                           std::to_string(unknownThreads) + " submeshes name a material thread "
                           "past the " + std::to_string(scene.materials.size()) +
                           " materials loaded; they are drawn untextured");

  for (const Input* in : animations) {
    auto part = readAnimation(in->bytes, in->ctx, bones);
    if (!part) return part.error();
    scene.clips.push_back(std::move(part->clip));
    scene.diagnostics.append(part->diagnostics);
    formats.push_back(part->format);
  }
  for (const Input* in : morphAnimations) {
    auto part = readMorphAnimation(in->bytes, in->ctx);
    if (!part) return part.error();
    scene.diagnostics.append(part->diagnostics);
    scene.clips.push_back(resolveMorphAnimation(*part, scene.meshes, meshFiles, in->ctx.limits,
                                                scene.diagnostics));
    formats.push_back(part->format);
  }
  if (skeletons.empty() && !inputs.empty())
    standInPlaceholderBones(scene, inputs.front().ctx.name, inputs.front().ctx.limits);
  scene.format = summarize(formats);
  return scene;
}

namespace {

std::string dirOf(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string baseName(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Result<Scene> readConfig(std::span<const std::byte> data, const ReadContext& ctx,
                         std::span<const Input> extra) {
  auto cfg = parseConfig(data, ctx);
  if (!cfg) return cfg.error();
  if (cfg->skeletons.size() > 1)
    return FormatError{ctx.name, "line " + std::to_string(cfg->skeletons[1].line), kNoOffset,
                       "names a second skeleton; a model has one"};

  // Every file named is looked for at path= + name (the demos' working-directory convention),
  // then beside the .cfg, then by its bare name beside the .cfg.
  struct Loaded {
    std::vector<std::byte> bytes;
    std::string relative;  // where it was found, relative to the .cfg
    bool missing = false;  // a material not found: it keeps its slot (cal3d.h Input::missing)
    int line = 0;
    int sameAs = -1;  // a material named again: index in files of the one read first
    int meshSlot = -1;  // a mesh= line's place among them
  };
  Diagnostics missing;
  auto fetch = [&](const ConfigEntry& e) -> std::optional<Loaded> {
    std::vector<std::string> candidates;
    if (!e.path.empty()) candidates.push_back(e.path + e.file);
    candidates.push_back(e.file);
    if (baseName(e.file) != e.file) candidates.push_back(baseName(e.file));
    if (ctx.resolve)
      for (const auto& c : candidates)
        if (auto bytes = ctx.resolve(c)) return Loaded{std::move(*bytes), c, false, e.line};
    missing.warn(ctx.name, "line " + std::to_string(e.line), kNoOffset,
                 "'" + e.file + "' was not found" +
                     (e.path.empty() ? std::string() : " (nor under path " + e.path + ")"));
    return std::nullopt;
  };

  // A file named again (by the same name or another: the same bytes) is read once. A mesh or an
  // animation named twice would be drawn or listed twice; a material named again keeps its slot
  // (§9: thread i is the i-th material= line) as a copy of the first. Otherwise a .cfg naming one
  // big file thousands of times would hold thousands of copies of it. The bytes fetched again
  // only to be recognised count against the .cfg's own allocation budget.
  std::vector<Loaded> files;
  std::multimap<std::size_t, std::size_t> byContent;  // hash of the bytes → index in files
  std::uint64_t fetchedAgain = 0;
  const std::uint64_t againBudget = ctx.limits.maxAllocation(data.size());
  std::optional<FormatError> refused;
  auto firstWithBytes = [&](const std::vector<std::byte>& bytes, std::size_t hash) -> int {
    const auto [from, to] = byContent.equal_range(hash);
    for (auto it = from; it != to; ++it)
      if (files[it->second].bytes == bytes) return static_cast<int>(it->second);
    return -1;
  };
  auto gather = [&](const std::vector<ConfigEntry>& entries, bool keepSlots, bool meshLines = false) {
    for (std::size_t index = 0; index < entries.size(); ++index) {
      const ConfigEntry& e = entries[index];
      if (refused) return;
      auto f = fetch(e);
      if (f && meshLines) f->meshSlot = static_cast<int>(index);
      if (!f) {
        if (keepSlots)  // §9: thread i is the i-th material= line, found or not
          files.push_back(Loaded{{}, e.file, true, e.line});
        continue;
      }
      const std::size_t hash = std::hash<std::string_view>{}(std::string_view(
          reinterpret_cast<const char*>(f->bytes.data()), f->bytes.size()));
      const int first = firstWithBytes(f->bytes, hash);
      if (first < 0) {
        byContent.emplace(hash, files.size());
        files.push_back(std::move(*f));
        continue;
      }
      fetchedAgain += f->bytes.size();
      const Loaded& earlier = files[static_cast<std::size_t>(first)];
      if (fetchedAgain > againBudget) {
        refused = FormatError{ctx.name, "line " + std::to_string(e.line), kNoOffset,
                              "names files it named before again and again (" +
                                  std::to_string(fetchedAgain) + " bytes read a second time, "
                                  "more than its limit of " + std::to_string(againBudget) + ")"};
        return;
      }
      const auto head = std::span<const std::byte>(earlier.bytes)
                            .first(std::min<std::size_t>(earlier.bytes.size(), 1024));
      if (detectKind(head, earlier.relative) == FileKind::Material) {
        files.push_back(Loaded{{}, f->relative, false, e.line, first});
      } else {
        missing.warn(ctx.name, "line " + std::to_string(e.line), kNoOffset,
                     "'" + e.file + "' is the file line " + std::to_string(earlier.line) +
                         " names (" + earlier.relative + "): it is read once");
      }
    }
  };
  gather(cfg->skeletons, false);
  gather(cfg->materials, true);
  gather(cfg->meshes, false, true);
  gather(cfg->animations, false);
  gather(cfg->morphAnimations, false);
  if (refused) return *refused;
  if (std::none_of(files.begin(), files.end(), [](const Loaded& f) { return !f.missing; }) &&
      extra.empty())
    return FormatError{ctx.name, "", kNoOffset,
                       missing.empty() ? "names no model files"
                                       : "none of the files it names was found (" +
                                             missing.items.front().message + ")"};

  const std::string cfgDir = dirOf(ctx.name);
  const auto outer = ctx.resolve ? std::make_shared<const Resolver>(ctx.resolve) : nullptr;
  std::vector<Input> inputs;
  for (const Loaded& f : files) {
    Input in;
    // A material named again is read as a placeholder in its slot (its kind told by the first
    // one's bytes), then made a copy of the first below.
    in.bytes = f.sameAs >= 0
                   ? std::span<const std::byte>(files[static_cast<std::size_t>(f.sameAs)].bytes)
                   : std::span<const std::byte>(f.bytes);
    in.missing = f.missing || f.sameAs >= 0;
    in.meshSlot = f.meshSlot;
    in.ctx.name = cfgDir + f.relative;
    in.ctx.limits = ctx.limits;
    in.ctx.fetchTextures = ctx.fetchTextures;
    // Texture maps are named relative to their material file. The .cfg's resolver is shared,
    // not copied per file: it may hold whatever it resolves from (a folder, an archive, files
    // in memory), and a .cfg may name thousands of files.
    if (outer)
      in.ctx.resolve = [outer, dir = dirOf(f.relative)](const std::string& rel) {
        return (*outer)(dir + rel);
      };
    inputs.push_back(std::move(in));
  }
  inputs.insert(inputs.end(), extra.begin(), extra.end());
  auto scene = readModel(inputs, cfg->scale);
  if (!scene) return scene;
  // The material slot of each file, as readModel gives them (in order, by kind).
  std::vector<int> slotOf(files.size(), -1);
  int slots = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& bytes = inputs[i].bytes;
    if (detectKind(bytes.first(std::min<std::size_t>(bytes.size(), 1024)), inputs[i].ctx.name) ==
        FileKind::Material)
      slotOf[i] = slots++;
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i].sameAs < 0) continue;
    const int from = slotOf[static_cast<std::size_t>(files[i].sameAs)];
    const int to = slotOf[i];
    if (from >= 0 && to >= 0 &&
        static_cast<std::size_t>(std::max(from, to)) < scene->materials.size())
      scene->materials[static_cast<std::size_t>(to)] =
          scene->materials[static_cast<std::size_t>(from)];
  }
  Diagnostics all = std::move(cfg->diagnostics);
  all.append(missing);
  all.append(scene->diagnostics);
  scene->diagnostics = std::move(all);
  scene->format = "cal3d .cfg (" + scene->format + ")";
  return scene;
}

}  // namespace marrow::formats::cal3d
