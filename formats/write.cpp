#include "formats/write.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <new>

#include "formats/format_table.h"
#include "formats/io/address.h"
#include "formats/write_support.h"

namespace marrow::formats {

std::string WriteResult::why() const {
  switch (status) {
    case Status::Ok: return {};
    case Status::Refused:
    case Status::Nothing: return refusal;
    case Status::Failed: return error.describe();
  }
  return {};
}

namespace writing {

WriteResult refused(WriteResult r, std::string why) {
  r.status = WriteResult::Status::Refused;
  r.refusal = std::move(why);
  return r;
}

WriteResult failed(WriteResult r, FormatError e, const std::string& out) {
  if (e.file.empty() || e.file == "glTF") e.file = out;
  r.status = WriteResult::Status::Failed;
  r.error = std::move(e);
  r.files.clear();
  return r;
}

void nameTheOutput(Diagnostics& d, const std::string& out) {
  for (auto& item : d.items)
    if (item.file.empty() || item.file == "glTF") item.file = out;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void noteModelExtras(const Scene& s, const std::string& fmt, const std::string& out, Diagnostics& d) {
  if (!s.bodies.empty())
    d.warn(out, "bodies", kNoOffset,
           plural(s.bodies.size(), "collision body is", "collision bodies are") +
               " not written: " + fmt + " has no collision shapes");
  if (!s.attachments.empty())
    d.warn(out, "attachments", kNoOffset,
           plural(s.attachments.size(), "attachment point (dummy) is",
                  "attachment points (dummies) are") +
               " not written: " + fmt + " has no place for them");
  if (!s.tables.empty())
    d.warn(out, "tables", kNoOffset,
           plural(s.tables.size(), "data table is", "data tables are") + " not written: " + fmt +
               " holds models, not tables");
}

void noteCal3dOnlyData(const Scene& s, const std::string& fmt, const std::string& out, Diagnostics& d) {
  std::size_t lod = 0, springs = 0;
  for (const auto& m : s.meshes) {
    lod += !m.lod.empty() && m.lod.collapsible > 0;
    springs += !m.springs.empty() || !m.physicalWeights.empty();
  }
  if (lod)
    d.warn(out, "level of detail", kNoOffset,
           plural(lod, "mesh has", "meshes have") + " level-of-detail data, which " + fmt +
               " cannot store: written at full detail");
  if (springs)
    d.warn(out, "springs", kNoOffset,
           plural(springs, "mesh has", "meshes have") + " cloth springs, which " + fmt +
               " cannot store: not written (the vertices follow the skinning)");
}

void noteMorphData(const Scene& s, const std::string& fmt, const std::string& out, Diagnostics& d) {
  std::size_t meshes = 0, targets = 0;
  for (const auto& m : s.meshes)
    if (!m.morphs.empty()) ++meshes, targets += m.morphs.size();
  if (targets)
    d.warn(out, "morph targets", kNoOffset,
           plural(meshes, "mesh has", "meshes have") + " " + plural(targets, "morph target", "morph targets") + ", which " + fmt +
               " cannot store: written in their base shape");
  if (const std::size_t clips = clipsWithMorphTracks(s))
    d.warn(out, "morph animation", kNoOffset,
           plural(clips, "clip animates", "clips animate") + " morph targets, which " + fmt +
               " cannot store: only bone tracks are written");
}

std::uint32_t argb8(const glm::vec4& c) {
  const auto byte = [](float v) { return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return byte(c.a) << 24 | byte(c.r) << 16 | byte(c.g) << 8 | byte(c.b);
}

std::string ddsName(const Texture& t) {
  std::string name = t.name.empty() ? t.path : t.name;
  const auto slash = name.find_last_of("/\\");
  if (slash != std::string::npos) name.erase(0, slash + 1);
  const auto dot = name.rfind('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  return name + ".dds";
}

std::size_t clipsWithMorphTracks(const Scene& s) {
  return static_cast<std::size_t>(std::count_if(s.clips.begin(), s.clips.end(),
                                                [](const Clip& c) { return !c.morphTracks.empty(); }));
}

namespace {

// The element named `value`, or numbered `value`; -1 when there is none.
template <class T>
int pick(const std::vector<T>& items, const std::string& value) {
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].name == value) return static_cast<int>(i);
  int index = -1;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), index);
  return r.ec == std::errc() && r.ptr == value.data() + value.size() && index >= 0 &&
                 static_cast<std::size_t>(index) < items.size()
             ? index
             : -1;
}

}  // namespace

Prepared prepare(const Scene& scene, Holds holds, const std::string& out, const WriteOptions& o) {
  Prepared p;
  WriteResult& r = p.result;
  Diagnostics& d = r.diagnostics;
  // Clips made for another skeleton (a horse animation beside a human) would play on the
  // written skeleton's bones of the same names: they are not written.
  p.scene = scene;
  Scene& s = p.scene;
  std::vector<std::size_t> kept;  // the source's index of each clip written
  for (std::size_t i = 0; i < s.clips.size(); ++i) {
    const Clip& c = s.clips[i];
    if (!madeForOtherSkeleton(c, s.skeleton)) {
      kept.push_back(i);
      continue;
    }
    d.warn(out, "", kNoOffset,
           "clip '" + c.name + "' is for the skeleton '" + c.skeleton + "', not '" +
               s.skeleton.name + "': not written");
  }
  if (kept.size() < s.clips.size()) {
    std::vector<Clip> clips;
    clips.reserve(kept.size());
    for (std::size_t i : kept) clips.push_back(std::move(s.clips[i]));
    s.clips = std::move(clips);
  }

  // Only the clips asked for, in the order the model has them.
  if (!o.clips.empty() && holds != Holds::Clip) {
    std::vector<char> wanted(s.clips.size(), 0);
    for (const std::string& name : o.clips) {
      const int at = pick(s.clips, name);
      if (at < 0) {
        r = refused(std::move(r), "no clip '" + name + "' in the model");
        return p;
      }
      wanted[static_cast<std::size_t>(at)] = 1;
    }
    std::vector<Clip> clips;
    for (std::size_t i = 0; i < s.clips.size(); ++i)
      if (wanted[i]) clips.push_back(std::move(s.clips[i]));
    s.clips = std::move(clips);
  }

  // What was asked for must be there.
  switch (holds) {
    case Holds::Skeleton:
      if (s.skeleton.empty()) r = refused(std::move(r), "the model has no skeleton to write");
      break;
    case Holds::Meshes:
      if (s.meshes.empty()) r = refused(std::move(r), "the model has no mesh to write");
      break;
    case Holds::Clip:
      if (o.clipIndex) {  // the source's clip, which must be one of those written
        const auto at = std::find(kept.begin(), kept.end(), *o.clipIndex);
        if (at == kept.end())
          r = refused(std::move(r), *o.clipIndex < scene.clips.size()
                                        ? "clip '" + scene.clips[*o.clipIndex].name +
                                              "' is for another skeleton than the model's"
                                        : "no clip " + std::to_string(*o.clipIndex) + " in the model");
        else
          p.clip = static_cast<int>(at - kept.begin());
        break;
      }
      if (s.clips.empty()) {
        r = refused(std::move(r), "the model has no clip to write");
        break;
      }
      p.clip = o.clip ? pick(s.clips, *o.clip) : 0;
      if (p.clip < 0) r = refused(std::move(r), "no clip '" + *o.clip + "' in the model");
      break;
    case Holds::Material:
      if (s.materials.empty()) {
        r = refused(std::move(r), "the model has no material to write");
        break;
      }
      p.material = o.materialIndex
                       ? (*o.materialIndex < s.materials.size() ? static_cast<int>(*o.materialIndex) : -1)
                   : o.material ? pick(s.materials, *o.material)
                                : 0;
      if (p.material < 0)
        r = refused(std::move(r), o.material && !o.materialIndex
                                      ? "no material '" + *o.material + "' in the model"
                                      : "no material " + std::to_string(*o.materialIndex) + " in the model");
      break;
    case Holds::Model: {
      // A file of animations, shaders or tables alone makes an empty file: said, not written.
      const bool geometry = std::any_of(s.meshes.begin(), s.meshes.end(), [](const Mesh& m) {
        return !m.positions.empty() && m.indices.size() >= 3;
      });
      if (!geometry && s.skeleton.empty()) {
        std::string has;
        const auto add = [&](std::size_t n, const char* what) {
          if (n) has += (has.empty() ? "" : ", ") + std::to_string(n) + " " + what;
        };
        add(s.clips.size(), "clip(s)");
        add(s.materials.size(), "material(s)");
        add(s.bodies.size(), "collision body(ies)");
        add(s.tables.size(), "table(s)");
        r.status = WriteResult::Status::Nothing;
        r.refusal = "nothing to write: the model has no mesh and no skeleton" +
                    (has.empty() ? std::string() : " (it holds " + has + ")");
      }
      break;
    }
    case Holds::Records: break;
  }
  return p;
}

}  // namespace writing

namespace {

std::string lowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Output outputFor(std::string_view path) {
  const std::string name = std::filesystem::path(std::string(path)).filename().string();
  const auto dot = name.rfind('.');
  if (dot == std::string::npos) return {};
  const std::string ext = lowerCase(std::string_view(name).substr(dot + 1));
  for (const FormatDescriptor* f : formatTable())
    for (const OutputKind& k : f->outputs)
      if (k.extension == ext) return {f, &k};
  return {};
}

std::string outputExtensions() {
  std::string out;
  for (const FormatDescriptor* f : formatTable())
    for (const OutputKind& k : f->outputs) out += (out.empty() ? "" : "|") + std::string(k.extension);
  return out;
}

std::string outputFormatsSentence() {
  std::string out;
  std::vector<const FormatDescriptor*> writers;
  for (const FormatDescriptor* f : formatTable())
    if (f->writes()) writers.push_back(f);
  for (std::size_t i = 0; i < writers.size(); ++i) {
    std::string exts;
    for (const OutputKind& k : writers[i]->outputs) exts += (exts.empty() ? "." : " .") + std::string(k.extension);
    out += (i == 0 ? "" : i + 1 == writers.size() ? " and " : ", ") + std::string(writers[i]->name) + " " + exts;
  }
  return out;
}

std::string outputFilter(const OutputKind& kind) {
  return std::string(kind.name) + " (*." + std::string(kind.extension) + ")";
}

std::optional<std::string> checkWriteOptions(const Output& output, const WriteOptions& options) {
  if (!output) return std::string("no output format");
  if (output.format->checkOptions) return output.format->checkOptions(*output.kind, options);
  return std::nullopt;
}

bool writesRecordsAsRead(const Output& output, const std::vector<std::string>& addresses, const WriteOptions& options) {
  if (!output || output.kind->holds != Holds::Records) return false;
  if (options.nodes) return true;
  // Files of the output's own format (a module.ini is a library of BRF files, not one).
  return !addresses.empty() && std::all_of(addresses.begin(), addresses.end(), [&](const std::string& in) {
    return detect({}, Address::parse(in).file) == output.format;
  });
}

WriteResult writeModel(const WriteSource& source, const std::string& path, const WriteOptions& options) {
  const Output output = outputFor(path);
  if (!output || !output.format->write)
    return writing::refused({}, "cannot write '" + path + "': the output formats are " + outputFormatsSentence());
  if (auto why = checkWriteOptions(output, options)) return writing::refused({}, *why);
  if (!source.scene && output.kind->holds != Holds::Records)
    return writing::failed({}, {"", "", kNoOffset, "no model is open"}, path);
  try {
    return output.format->write(source, *output.kind, path, options);
  } catch (const std::bad_alloc&) {
    return writing::failed({}, {"", "", kNoOffset, "ran out of memory while writing"}, path);
  } catch (const std::exception& e) {
    return writing::failed({}, {"", "", kNoOffset, e.what()}, path);
  }
}

}  // namespace marrow::formats
