#include "formats/registry.h"

#include <algorithm>
#include <map>

#include "formats/format_table.h"
#include "formats/io/file.h"
#include "formats/model/actions.h"
#include "formats/model/validate.h"

namespace marrow::formats {

namespace {

FormatError notReadable(const std::string& name) {
  return FormatError{name, "", kNoOffset, "not a format Marrow reads"};
}

std::span<const std::byte> headOf(std::span<const std::byte> data) {
  return data.first(std::min<std::size_t>(data.size(), 1024));
}

// The reader the format needs, without the final validation (the callers do it once).
Result<Scene> readUnchecked(std::span<const std::byte> data, const ReadContext& ctx) {
  const FormatDescriptor* f = detect(headOf(data), ctx.name);
  if (!f || !f->read) return notReadable(ctx.name);
  return f->read(data, ctx);
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
  // Frame-indexed clips (BRF animations) cut by the actions read with them, or at their gaps.
  cutClips(out);
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

Result<Scene> readInputs(std::vector<Input> inputs, vfs::FileSystem* archives) {
  std::vector<Part> parts;
  Diagnostics notes;
  // The inputs of each format that reads them as a group, in the order the formats first come.
  std::vector<std::pair<const FormatDescriptor*, std::vector<Input>>> groups;
  for (Input& in : inputs) {
    const FormatDescriptor* f = detect(headOf(in.bytes), in.ctx.name);
    if (!in.records.empty() && (!f || !f->hasRecords))
      return FormatError{in.ctx.name, "record", kNoOffset,
                         "records are addressed (FILE::RECORD) only in BRF files"};
    if (f && f->readGroup) {
      auto at = std::find_if(groups.begin(), groups.end(), [f](const auto& g) { return g.first == f; });
      if (at == groups.end()) at = groups.insert(groups.end(), {f, {}});
      at->second.push_back(std::move(in));
      continue;
    }
    if (!f || !f->read) return notReadable(in.ctx.name);
    auto r = f->read(in.bytes, in.ctx);
    if (!r) return r.error();
    parts.push_back({in.ctx.name, std::move(r).value()});
  }
  for (auto& [format, group] : groups) {
    auto r = format->readGroup(std::move(group));
    if (!r) return r.error();
    notes.append(r->notes);
    for (Part& p : r->parts) parts.push_back(std::move(p));
    if (archives && r->archive) archives->mount(std::move(r->archive));
  }
  auto scene = combine(std::move(parts));
  if (scene && !notes.empty()) {
    notes.append(scene->diagnostics);
    scene->diagnostics = std::move(notes);
  }
  return scene;
}

Result<Scene> loadFiles(const std::vector<std::string>& paths, bool fetchTextures) {
  std::vector<Input> inputs;
  for (const auto& p : paths) {
    auto bytes = readFile(p);
    if (!bytes) return bytes.error();
    inputs.push_back({std::move(bytes).value(), contextForFile(p), {}, p});
    inputs.back().ctx.fetchTextures = fetchTextures;
  }
  return readInputs(std::move(inputs));
}

}  // namespace marrow::formats
