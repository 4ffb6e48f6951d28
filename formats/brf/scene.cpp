// BRF records → the neutral model (brf.h). Spec: ../shared/specs/brf.md; section numbers cite it.
#include <algorithm>
#include <cmath>
#include <map>
#include <new>
#include <stdexcept>

#include "formats/brf/brf.h"
#include "formats/brf/convert_internal.h"

namespace marrow::formats::brf {

const char* kindName(Section kind) {
  switch (kind) {
    case Section::Texture: return "texture";
    case Section::Shader: return "shader";
    case Section::Material: return "material";
    case Section::Mesh: return "mesh";
    case Section::Skeleton: return "skeleton";
    case Section::Animation: return "animation";
    case Section::Body: return "body";
  }
  return "?";
}

const std::string& recordName(const Source& source, Section kind, std::size_t index) {
  const Document& d = *source.doc;
  switch (kind) {
    case Section::Texture: return d.textures.at(index).name;
    case Section::Shader: return d.shaders.at(index).name;
    case Section::Material: return d.materials.at(index).name;
    case Section::Mesh: return d.meshes.at(index).name;
    case Section::Skeleton: return d.skeletons.at(index).name;
    case Section::Animation: return d.animations.at(index).name;
    case Section::Body: return d.bodies.at(index).name;
  }
  throw std::out_of_range("record kind");
}

int maxRiggedBone(const Mesh& mesh) {
  int highest = -1;
  for (const RigBone& rb : mesh.rigging)
    if (!rb.pairs.empty()) highest = std::max(highest, rb.bone);
  return highest;
}

std::size_t riggedBoneCount(const Mesh& mesh) {
  return static_cast<std::size_t>(std::count_if(mesh.rigging.begin(), mesh.rigging.end(),
                                                [](const RigBone& rb) { return !rb.pairs.empty(); }));
}

KeyTimes keyTimes(const Animation& animation) {
  std::vector<std::int32_t> times;
  for (const auto& track : animation.tracks)
    for (const RotKey& k : track) times.push_back(k.time);
  for (const TransKey& k : animation.translations) times.push_back(k.time);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  if (times.empty()) return {};
  return {times.size(), times.front(), times.back()};
}

std::vector<RecordRef> allRecords(std::span<const Source> sources, Section kind) {
  std::vector<RecordRef> out;
  for (std::size_t s = 0; s < sources.size(); ++s)
    for (std::size_t i = 0; i < recordCount(*sources[s].doc, kind); ++i) out.push_back({s, kind, i});
  return out;
}

std::vector<RecordRef> fittingSkeletons(std::span<const Source> sources,
                                        std::span<const RecordRef> meshes,
                                        std::span<const RecordRef> animations) {
  int highest = -1;
  for (const RecordRef& m : meshes)
    highest = std::max(highest, maxRiggedBone(sources[m.source].doc->meshes[m.index]));
  std::vector<RecordRef> fits, fitsWithAnimation;
  for (const RecordRef& s : allRecords(sources, Section::Skeleton)) {
    const std::size_t bones = sources[s.source].doc->skeletons[s.index].bones.size();
    if (bones == 0 || static_cast<std::int64_t>(bones) <= highest) continue;
    fits.push_back(s);
    for (const RecordRef& a : animations)
      if (sources[a.source].doc->animations[a.index].tracks.size() == bones) {
        fitsWithAnimation.push_back(s);
        break;
      }
  }
  // Skeletons that also play an animation first; the others after them.
  if (animations.empty()) return fits;
  for (const RecordRef& s : fits)
    if (std::find(fitsWithAnimation.begin(), fitsWithAnimation.end(), s) == fitsWithAnimation.end())
      fitsWithAnimation.push_back(s);
  return fitsWithAnimation;
}

Result<Scene> toScene(std::span<const Source> sources, const Selection& selection) {
  try {
    return detail::buildScene(sources, selection);
  } catch (const FormatException& e) {
    return e.error();
  } catch (const std::bad_alloc&) {
    return FormatError{sources.empty() ? "" : sources.front().name, "", kNoOffset,
                       "ran out of memory while making the model"};
  } catch (const std::length_error&) {
    return FormatError{sources.empty() ? "" : sources.front().name, "", kNoOffset,
                       "a count is too large to hold in memory"};
  }
}

Result<Addressed> findRecords(std::span<const Source> sources, std::size_t source,
                              std::span<const std::string> names) {
  Addressed out;
  const Source& src = sources[source];
  for (const std::string& name : names) {
    bool found = false;
    for (Section kind : kSections)
      for (std::size_t i = 0; i < recordCount(*src.doc, kind); ++i)
        if (recordName(src, kind, i) == name) {
          // Shaders and textures are parts of materials, not of a model on their own.
          if (kind == Section::Shader || kind == Section::Texture) {
            found = true;
            continue;
          }
          out.records.push_back({source, kind, i});
          found = true;
        }
    if (found) continue;
    std::string have;
    std::size_t listed = 0, total = 0;
    for (Section kind : kSections)
      for (std::size_t i = 0; i < recordCount(*src.doc, kind); ++i, ++total)
        if (listed < 8) {
          have += (listed++ ? ", " : "") + std::string(kindName(kind)) + " '" +
                  recordName(src, kind, i) + "'";
        }
    if (total > listed) have += ", …";
    return FormatError{src.name, "record", kNoOffset,
                       "no record named '" + name + "' (the file has " + std::to_string(total) +
                           (total ? ": " + have : std::string()) + ")"};
  }
  return out;
}

Selection selectionFor(std::span<const Source> sources,
                       std::span<const std::vector<RecordRef>> addressed) {
  Selection sel;
  sel.meshes.emplace();
  sel.bodies.emplace();
  sel.animations.emplace();
  sel.materials.emplace();
  bool animationAddressed = false;
  for (const auto& list : addressed)
    for (const RecordRef& r : list) animationAddressed |= r.kind == Section::Animation;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    const bool whole = s >= addressed.size() || addressed[s].empty();
    const Document& d = *sources[s].doc;
    if (whole) {
      for (std::size_t i = 0; i < d.meshes.size(); ++i) sel.meshes->push_back({s, Section::Mesh, i});
      for (std::size_t i = 0; i < d.bodies.size(); ++i) sel.bodies->push_back({s, Section::Body, i});
      for (std::size_t i = 0; i < d.materials.size(); ++i)
        sel.materials->push_back({s, Section::Material, i});
    }
    if (whole || !animationAddressed)
      for (std::size_t i = 0; i < d.animations.size(); ++i)
        sel.animations->push_back({s, Section::Animation, i});
    if (whole) continue;
    for (const RecordRef& r : addressed[s]) {
      switch (r.kind) {
        case Section::Mesh: sel.meshes->push_back(r); break;
        case Section::Body: sel.bodies->push_back(r); break;
        case Section::Animation:
          if (animationAddressed) sel.animations->push_back(r);
          break;
        case Section::Skeleton:
          if (!sel.skeleton) sel.skeleton = r;
          break;
        case Section::Material: sel.materials->push_back(r); break;
        case Section::Texture:
        case Section::Shader: break;
      }
    }
  }
  return sel;
}

Result<Scene> readBrf(std::span<const std::byte> data, const ReadContext& ctx) {
  auto doc = parse(data, ctx);
  if (!doc) return doc.error();
  const Source src{ctx.name, std::make_shared<const Document>(std::move(doc).value()), ctx, {}};
  return toScene(std::span(&src, 1));
}

}  // namespace marrow::formats::brf
