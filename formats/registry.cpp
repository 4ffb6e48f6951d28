#include "formats/registry.h"

#include <algorithm>

#include "formats/assimp/assimp_reader.h"
#include "formats/cal3d/cal3d.h"
#include "formats/dragonnest/dragonnest.h"
#include "formats/io/file.h"
#include "formats/model/validate.h"
#include "formats/omf/omf.h"

namespace marrow::formats {

namespace {

// The reader the format needs, without the final validation (the callers do it once).
Result<Scene> readUnchecked(std::span<const std::byte> data, const ReadContext& ctx) {
  Result<Scene> r = FormatError{ctx.name, "", kNoOffset, "not a format Marrow reads"};
  switch (detectFormat(data.first(std::min<std::size_t>(data.size(), 64)), ctx.name)) {
    case FormatId::Omf: r = readOmf(data, ctx); break;
    case FormatId::Cal3d: {
      const cal3d::Input one{data, ctx};
      const bool config = cal3d::detectKind(data.first(std::min<std::size_t>(data.size(), 1024)),
                                            ctx.name) == cal3d::FileKind::Config;
      r = config ? cal3d::readConfig(data, ctx) : cal3d::readModel(std::span(&one, 1));
      break;
    }
    case FormatId::Brf: r = brf::readBrf(data, ctx); break;
    case FormatId::DragonNest: r = dragonnest::readFile(data, ctx); break;
    case FormatId::Assimp: r = readWithAssimp(data, ctx); break;
    case FormatId::Unknown: break;
  }
  return r;
}

}  // namespace

Result<Scene> readScene(std::span<const std::byte> data, const ReadContext& ctx) {
  Result<Scene> r = readUnchecked(data, ctx);
  if (!r) return r;
  if (auto problems = validate(*r); !problems.empty())
    return FormatError{ctx.name, "", kNoOffset, "inconsistent model: " + problems.front()};
  return r;
}

Result<Scene> loadFile(const std::string& path) {
  auto bytes = readFile(path);
  if (!bytes) return bytes.error();
  return readScene(*bytes, contextForFile(path));
}

namespace {

// Clips play on the skeleton by bone name; tracks that name no bone of it are worth saying.
void reportUnboundTracks(Scene& scene, const std::vector<std::string>& clipFiles) {
  for (std::size_t c = 0; c < scene.clips.size(); ++c) {
    const Clip& clip = scene.clips[c];
    // Made for another skeleton (a BRF animation of another bone count): its reader said so.
    if (!clip.skeleton.empty() && !scene.skeleton.name.empty() && clip.skeleton != scene.skeleton.name)
      continue;
    std::vector<std::string> missing;
    for (const Track& t : clip.tracks)
      if (scene.skeleton.find(t.bone) < 0) missing.push_back(t.bone);
    if (missing.empty()) continue;
    std::string names;
    for (std::size_t i = 0; i < missing.size() && i < 5; ++i)
      names += (i ? ", " : "") + ("'" + missing[i] + "'");
    if (missing.size() > 5) names += ", …";
    scene.diagnostics.warn(c < clipFiles.size() ? clipFiles[c] : "", "clip '" + clip.name + "'",
                           kNoOffset,
                           std::to_string(missing.size()) + " of its " +
                               std::to_string(clip.tracks.size()) +
                               " tracks name bones the skeleton does not have (" + names +
                               "); they do not play");
  }
}

}  // namespace

Result<Scene> combine(std::vector<Part> parts, std::vector<std::size_t>* order) {
  std::vector<std::size_t> idx(parts.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return !parts[a].scene.skeleton.empty() && parts[b].scene.skeleton.empty();
  });
  Scene out;
  std::vector<std::string> clipFiles;  // the file each clip came from, for messages
  for (std::size_t i : idx) {
    merge(out, std::move(parts[i].scene), parts[i].name);
    clipFiles.resize(out.clips.size(), parts[i].name);
  }
  // The one validation of everything read (readInputs reads without it).
  if (auto problems = validate(out); !problems.empty())
    return FormatError{parts.empty() ? "" : parts[idx.front()].name, "", kNoOffset,
                       std::string(parts.size() == 1 ? "inconsistent model: "
                                                     : "the files do not form one model: ") +
                           problems.front()};
  if (order) *order = std::move(idx);
  reportUnboundTracks(out, clipFiles);
  return out;
}

Result<Scene> readInputs(std::vector<Input> inputs, Archives* archives) {
  std::vector<Part> parts;
  std::vector<cal3d::Input> cal3dParts;  // the files of one cal3d model, read together
  std::vector<const Input*> configs;
  std::vector<brf::Source> brfSources;  // BRF files: one model of the records chosen
  std::vector<std::vector<brf::RecordRef>> addressed;
  std::vector<dragonnest::Input> dragonNest;  // meshes, skins and animations: one model
  for (const Input& in : inputs) {
    const auto head = std::span(in.bytes).first(std::min<std::size_t>(in.bytes.size(), 1024));
    const FormatId format = detectFormat(head, in.ctx.name);
    if (!in.records.empty() && format != FormatId::Brf)
      return FormatError{in.ctx.name, "record", kNoOffset,
                         "records are addressed (FILE::RECORD) only in BRF files"};
    if (format == FormatId::Brf) {
      auto doc = brf::parse(in.bytes, in.ctx);
      if (!doc) return doc.error();
      brfSources.push_back({in.ctx.name, std::make_shared<const brf::Document>(std::move(doc).value()), in.ctx});
      auto found = brf::findRecords(brfSources, brfSources.size() - 1, in.records);
      if (!found) return found.error();
      addressed.push_back(std::move(found->records));
      continue;
    }
    if (format == FormatId::DragonNest &&
        dragonnest::isModelKind(dragonnest::detectKind(head, in.ctx.name))) {
      dragonNest.push_back({in.bytes, in.ctx});
      continue;
    }
    if (format == FormatId::Cal3d) {
      if (cal3d::detectKind(head, in.ctx.name) == cal3d::FileKind::Config)
        configs.push_back(&in);
      else
        cal3dParts.push_back({in.bytes, in.ctx});
      continue;
    }
    auto r = readUnchecked(in.bytes, in.ctx);
    if (!r) return r.error();
    parts.push_back({in.ctx.name, std::move(r).value()});
  }
  // One .cfg and loose cal3d files (an extra animation, say) are one model; with several .cfg
  // files each is a model of its own and loose files form one more.
  const bool joinConfig = configs.size() == 1 && !cal3dParts.empty();
  for (const Input* cfg : configs) {
    auto r = cal3d::readConfig(cfg->bytes, cfg->ctx,
                               joinConfig ? std::span<const cal3d::Input>(cal3dParts)
                                          : std::span<const cal3d::Input>());
    if (!r) return r.error();
    parts.push_back({cfg->ctx.name, std::move(r).value()});
  }
  if (!cal3dParts.empty() && !joinConfig) {
    auto r = cal3d::readModel(cal3dParts);
    if (!r) return r.error();
    parts.push_back({cal3dParts.front().ctx.name, std::move(r).value()});
  }
  if (!dragonNest.empty()) {
    auto r = dragonnest::readModel(dragonNest);
    if (!r) return r.error();
    parts.push_back({dragonNest.front().ctx.name, std::move(r).value()});
  }
  if (!brfSources.empty()) {
    auto r = brf::toScene(brfSources, brf::selectionFor(brfSources, addressed));
    if (!r) return r.error();
    parts.push_back({brfSources.front().name, std::move(r).value()});
    if (archives) archives->brf = std::move(brfSources);
  }
  return combine(std::move(parts));
}

Result<Scene> loadFiles(const std::vector<std::string>& paths, bool fetchTextures) {
  std::vector<Input> inputs;
  for (const auto& p : paths) {
    auto bytes = readFile(p);
    if (!bytes) return bytes.error();
    inputs.push_back({std::move(bytes).value(), contextForFile(p), {}});
    inputs.back().ctx.fetchTextures = fetchTextures;
  }
  return readInputs(std::move(inputs));
}

}  // namespace marrow::formats
