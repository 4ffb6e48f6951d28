// A loaded model written in another format: the formats, what each cannot hold, the bytes of
// every file an output makes, and writing them whole or not at all.
#include "app/export.h"

#include <QSaveFile>
#include <QString>
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <memory>

#include "formats/cal3d/writer.h"
#include "formats/gltf/gltf_writer.h"
#include "formats/omf/omf.h"
#include "render/anim/pose.h"

namespace marrow::app {

namespace brf = formats::brf;
using Holds = ExportFormat::Holds;

namespace {

constexpr std::array<ExportFormat, 13> kFormats{{
    {"glb", "glTF 2.0 binary", Holds::Model},
    {"gltf", "glTF 2.0 with .bin and images beside it", Holds::Model},
    {"omf", "OMF model", Holds::Model},
    {"cfg", "cal3d model (.cfg and its files beside it)", Holds::Model},
    {"csf", "cal3d skeleton", Holds::Skeleton},
    {"cmf", "cal3d meshes", Holds::Meshes},
    {"caf", "cal3d animation (the current clip)", Holds::Clip},
    {"crf", "cal3d material", Holds::Material},
    {"xsf", "cal3d XML skeleton", Holds::Skeleton},
    {"xmf", "cal3d XML meshes", Holds::Meshes},
    {"xaf", "cal3d XML animation (the current clip)", Holds::Clip},
    {"xrf", "cal3d XML material", Holds::Material},
    {"brf", "Mount&Blade resource (BRF records)", Holds::BrfRecords},
}};

std::string lowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool isCal3d(const ExportFormat& f) {
  return f.extension == "cfg" || (f.holds != Holds::Model && f.holds != Holds::BrfRecords);
}

bool isGltf(const ExportFormat& f) {
  return f.extension == "glb" || f.extension == "gltf";
}

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

ExportResult refused(ExportResult r, std::string why) {
  r.status = ExportResult::Status::Refused;
  r.refusal = std::move(why);
  return r;
}

ExportResult failed(ExportResult r, formats::FormatError e, const std::string& out) {
  if (e.file.empty() || e.file == "glTF") e.file = out;
  r.status = ExportResult::Status::Failed;
  r.error = std::move(e);
  r.files.clear();
  return r;
}

// What the writer could not keep is said of the output.
void nameTheOutput(formats::Diagnostics& d, const std::string& out) {
  for (auto& item : d.items)
    if (item.file.empty() || item.file == "glTF") item.file = out;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// ---- .brf: records as they are ----

// BRF → BRF: the records as they are (a single whole file comes back byte for byte), or some of
// them (FILE.brf::RECORD), or several files in one, at version 0 (M&B 1.011) or 1 (Warband).
ExportResult exportBrf(const Document& doc, const std::string& out, const ExportOptions& o) {
  ExportResult r;
  std::vector<brf::RecordRef> records;
  bool wholeFile = false;
  if (o.brfRecords) {
    records = *o.brfRecords;
    if (records.empty()) return refused(std::move(r), "no BRF record to write");
    for (const brf::RecordRef& ref : records)
      if (ref.source >= doc.brf.size() ||
          ref.index >= brf::recordCount(*doc.brf[ref.source].doc, ref.kind))
        return failed(std::move(r),
                      {"", "records", formats::kNoOffset, "names a record the open files lack"},
                      out);
  } else {
    std::vector<std::string> addresses = o.brfAddresses;
    if (addresses.empty())
      for (const QString& p : doc.paths) addresses.push_back(p.toStdString());
    // Which records each input names, by file; inputs that are not BRF files cannot be written.
    std::vector<std::vector<brf::RecordRef>> addressed(doc.brf.size());
    for (const auto& input : addresses) {
      const auto [file, record] = brf::splitAddress(input);
      std::size_t source = doc.brf.size();
      for (std::size_t i = 0; i < doc.brf.size(); ++i)
        if (doc.brf[i].name == file) source = i;
      if (source == doc.brf.size())
        return failed(std::move(r),
                      {file, "", formats::kNoOffset,
                       "not a BRF file; .brf files are written from BRF records only"},
                      out);
      if (record.empty()) {
        wholeFile = true;
        continue;
      }
      auto found = brf::findRecords(doc.brf, source, std::span(&record, 1));
      if (!found) return failed(std::move(r), found.error(), out);
      // Shaders and textures are found by name too, for writing.
      for (brf::Section kind : {brf::Section::Texture, brf::Section::Shader})
        for (std::size_t i = 0; i < brf::recordCount(*doc.brf[source].doc, kind); ++i)
          if (brf::recordName(doc.brf[source], kind, i) == record)
            found->records.push_back({source, kind, i});
      addressed[source].insert(addressed[source].end(), found->records.begin(),
                               found->records.end());
    }
    if (doc.brf.empty())
      return failed(std::move(r),
                    {"", "", formats::kNoOffset,
                     "the model was not read from BRF files; .brf files are written from BRF "
                     "records only"},
                    out);
    // A file given whole brings all its records; a file given by records, those records.
    for (std::size_t s = 0; s < doc.brf.size(); ++s) {
      if (!addressed[s].empty()) {
        records.insert(records.end(), addressed[s].begin(), addressed[s].end());
        continue;
      }
      for (brf::Section kind : brf::kSections)
        for (std::size_t i = 0; i < brf::recordCount(*doc.brf[s].doc, kind); ++i)
          records.push_back({s, kind, i});
    }
  }
  const int target = o.version ? *o.version : doc.brf.front().doc->version;
  if (wholeFile && doc.brf.size() == 1 && target == doc.brf.front().doc->version) {
    r.files.push_back({out, brf::write(*doc.brf.front().doc)});
    return r;
  }
  const brf::Document written = brf::gather(doc.brf, records, target, r.diagnostics);
  nameTheOutput(r.diagnostics, out);
  if (auto problem = brf::checkWritable(written)) return failed(std::move(r), *problem, out);
  r.files.push_back({out, brf::write(written)});
  return r;
}

// ---- what a format cannot hold, that its writer does not already say ----

// Collision bodies, attachment points and tables belong to no model format Marrow writes but
// BRF and Dragon Nest's own; the writers pass over them in silence.
void noteModelExtras(const formats::Scene& s, const std::string& fmt, const std::string& out,
                     formats::Diagnostics& d) {
  if (!s.bodies.empty())
    d.warn(out, "bodies", formats::kNoOffset,
           plural(s.bodies.size(), "collision body is", "collision bodies are") +
               " not written: " + fmt + " has no collision shapes");
  if (!s.attachments.empty())
    d.warn(out, "attachments", formats::kNoOffset,
           plural(s.attachments.size(), "attachment point (dummy) is",
                  "attachment points (dummies) are") +
               " not written: " + fmt + " has no place for them");
  if (!s.tables.empty())
    d.warn(out, "tables", formats::kNoOffset,
           plural(s.tables.size(), "data table is", "data tables are") + " not written: " + fmt +
               " holds models, not tables");
}

// cal3d's progressive meshes and springs: only cal3d stores them.
void noteCal3dOnlyData(const formats::Scene& s, const std::string& fmt, const std::string& out,
                       formats::Diagnostics& d) {
  std::size_t lod = 0, springs = 0;
  for (const auto& m : s.meshes) {
    lod += !m.lod.empty() && m.lod.collapsible > 0;
    springs += !m.springs.empty() || !m.physicalWeights.empty();
  }
  if (lod)
    d.warn(out, "level of detail", formats::kNoOffset,
           plural(lod, "mesh has", "meshes have") + " level-of-detail data, which " + fmt +
               " cannot store: written at full detail");
  if (springs)
    d.warn(out, "springs", formats::kNoOffset,
           plural(springs, "mesh has", "meshes have") + " cloth springs, which " + fmt +
               " cannot store: not written (the vertices follow the skinning)");
}

std::size_t clipsWithMorphTracks(const formats::Scene& s) {
  return static_cast<std::size_t>(
      std::count_if(s.clips.begin(), s.clips.end(),
                    [](const formats::Clip& c) { return !c.morphTracks.empty(); }));
}

// Whether cal3d can store a clip at all: a duration, and a key for a bone of the skeleton
// (calClipOf refuses others, which would fail a whole model).
bool cal3dCanStore(const formats::Clip& c, const formats::Skeleton& skeleton) {
  if (!(c.duration > 0.0f)) return false;
  return std::any_of(c.tracks.begin(), c.tracks.end(), [&](const formats::Track& t) {
    return skeleton.find(t.bone) >= 0 && (!t.translation.empty() || !t.rotation.empty());
  });
}

// The version cal3d files are written at, and what choosing it for the model means.
int cal3dVersion(const formats::Scene& s, const ExportOptions& o, const std::string& out,
                 formats::Diagnostics& d) {
  if (o.version && *o.version > 0) return *o.version;
  const int v = formats::cal3d::versionFor(s);
  if (v == 1300)
    d.info(out, "version", formats::kNoOffset,
           "the model has vertex colours: written at version 1300 (cal3d 0.13), which cal3d 0.11 "
           "and 0.12 do not open; version 1100 opens everywhere but leaves the colours out");
  else if (v == 1301)
    d.info(out, "version", formats::kNoOffset,
           "the model has morph targets: written at version 1301 (the cal3d fork), which cal3d "
           "0.11 and 0.12 do not open; version 1100 opens everywhere but leaves the morph targets "
           "out");
  return v;
}

// The binary mesh layout with colours stores RGB (spec §5); the XML writer says so itself.
void noteCal3dAlpha(const formats::Scene& s, int version, bool xml, const std::string& out,
                    formats::Diagnostics& d) {
  const bool colours = (version >= 911 && version <= 999) || version == 1300;
  if (xml || !colours) return;
  std::size_t translucent = 0;
  for (const auto& m : s.meshes)
    for (const auto& c : m.colors) translucent += c.a != 1.0f;
  if (translucent)
    d.warn(out, "meshes", formats::kNoOffset,
           plural(translucent, "vertex colour is", "vertex colours are") +
               " not opaque; cal3d stores RGB only (alpha left out)");
}

// ---- model formats ----

ExportResult exportModel(const Document& doc, const ExportFormat& f, const std::string& out,
                         const ExportOptions& o) {
  ExportResult r;
  formats::Diagnostics& d = r.diagnostics;
  if (!doc.scene)
    return failed(std::move(r), {"", "", formats::kNoOffset, "no model is open"}, out);
  // Clips made for another skeleton (a horse animation beside a human) would play on the
  // written skeleton's bones of the same names: they are not written.
  formats::Scene s = *doc.scene;
  std::vector<std::size_t> kept;  // the document's index of each clip written
  for (std::size_t i = 0; i < s.clips.size(); ++i) {
    const formats::Clip& c = s.clips[i];
    if (!anim::bind(c, s.skeleton).otherSkeleton) {
      kept.push_back(i);
      continue;
    }
    d.warn(out, "", formats::kNoOffset,
           "clip '" + c.name + "' is for the skeleton '" + c.skeleton + "', not '" +
               s.skeleton.name + "': not written");
  }
  if (kept.size() < s.clips.size()) {
    std::vector<formats::Clip> clips;
    clips.reserve(kept.size());
    for (std::size_t i : kept) clips.push_back(std::move(s.clips[i]));
    s.clips = std::move(clips);
  }

  // What was asked for must be there.
  int clip = 0, material = 0;
  switch (f.holds) {
    case Holds::Skeleton:
      if (s.skeleton.empty()) return refused(std::move(r), "the model has no skeleton to write");
      break;
    case Holds::Meshes:
      if (s.meshes.empty()) return refused(std::move(r), "the model has no mesh to write");
      break;
    case Holds::Clip:
      if (o.clipIndex) {  // the document's clip, which must be one of those written
        const auto at = std::find(kept.begin(), kept.end(), *o.clipIndex);
        if (at == kept.end())
          return refused(std::move(r),
                         *o.clipIndex < doc.scene->clips.size()
                             ? "clip '" + doc.scene->clips[*o.clipIndex].name +
                                   "' is for another skeleton than the model's"
                             : "no clip " + std::to_string(*o.clipIndex) + " in the model");
        clip = static_cast<int>(at - kept.begin());
        break;
      }
      if (s.clips.empty()) return refused(std::move(r), "the model has no clip to write");
      clip = o.clip ? pick(s.clips, *o.clip) : 0;
      if (clip < 0) return refused(std::move(r), "no clip '" + *o.clip + "' in the model");
      break;
    case Holds::Material:
      if (s.materials.empty()) return refused(std::move(r), "the model has no material to write");
      material =
          o.materialIndex
              ? (*o.materialIndex < s.materials.size() ? static_cast<int>(*o.materialIndex) : -1)
          : o.material ? pick(s.materials, *o.material)
                       : 0;
      if (material < 0)
        return refused(std::move(r),
                       o.material && !o.materialIndex
                           ? "no material '" + *o.material + "' in the model"
                           : "no material " + std::to_string(*o.materialIndex) + " in the model");
      break;
    case Holds::Model: {
      // A file of animations, shaders or tables alone makes an empty file: said, not written.
      const bool geometry = std::any_of(s.meshes.begin(), s.meshes.end(), [](const formats::Mesh& m) {
        return !m.positions.empty() && m.indices.size() >= 3;
      });
      if (!geometry && s.skeleton.empty()) {
        std::string holds;
        const auto add = [&](std::size_t n, const char* what) {
          if (n) holds += (holds.empty() ? "" : ", ") + std::to_string(n) + " " + what;
        };
        add(s.clips.size(), "clip(s)");
        add(s.materials.size(), "material(s)");
        add(s.bodies.size(), "collision body(ies)");
        add(s.tables.size(), "table(s)");
        r.status = ExportResult::Status::Nothing;
        r.refusal = "nothing to write: the model has no mesh and no skeleton" +
                    (holds.empty() ? std::string() : " (it holds " + holds + ")");
        return r;
      }
      break;
    }
    case Holds::BrfRecords: break;
  }

  const std::filesystem::path target(out);
  const std::string stem = target.stem().string();
  const auto beside = [&](const std::string& name) {
    // Writers name files plainly; a name is never allowed to climb out of the folder.
    return (target.parent_path() / std::filesystem::path(name).filename()).string();
  };
  formats::Result<std::vector<std::byte>> bytes = std::vector<std::byte>{};

  if (isGltf(f)) {
    noteModelExtras(s, "glTF", out, d);
    noteCal3dOnlyData(s, "glTF", out, d);
    if (f.extension == "glb") {
      bytes = formats::writeGlb(s, d);
    } else {  // the .gltf, its .bin and its images, side by side
      auto files = formats::writeGltf(s, stem, d);
      nameTheOutput(d, out);
      if (!files) return failed(std::move(r), files.error(), out);
      for (auto& file : files->files)
        r.files.push_back(
            {&file == &files->files.front() ? out : beside(file.name), std::move(file.bytes)});
      return r;
    }
  } else if (f.extension == "omf") {
    noteModelExtras(s, "OMF", out, d);
    noteCal3dOnlyData(s, "OMF", out, d);
    if (const std::size_t n = clipsWithMorphTracks(s))
      d.warn(out, "clips", formats::kNoOffset,
             plural(n, "clip animates", "clips animate") +
                 " morph targets (vertex animation), which OMF cannot store: those weights are "
                 "not written");
    bytes = formats::writeOmf(s, d);
  } else {  // cal3d
    formats::cal3d::WriteOptions cal3d;
    cal3d.xml = o.xml || (f.extension.size() == 3 && f.extension[0] == 'x');
    cal3d.version = cal3dVersion(s, o, out, d);
    if (f.holds == Holds::Model || f.holds == Holds::Meshes)
      noteCal3dAlpha(s, cal3d.version, cal3d.xml, out, d);
    if (f.holds == Holds::Model) {
      noteModelExtras(s, "cal3d", out, d);
      if (!s.textures.empty())
        d.info(out, "textures", formats::kNoOffset,
               plural(s.textures.size(), "texture is", "textures are") +
                   " named by the materials but not written: cal3d files name their images, "
                   "which belong beside the .cfg");
      // A clip cal3d cannot store at all would fail the whole model: it is left out instead.
      for (const auto& c : s.clips)
        if (!cal3dCanStore(c, s.skeleton))
          d.warn(out, "clip '" + c.name + "'", formats::kNoOffset,
                 !(c.duration > 0.0f) ? "lasts no time; cal3d needs a duration over 0: not written"
                 : !c.morphTracks.empty() ? "animates morph targets only (vertex animation), which "
                                            "cal3d animations cannot: not written"
                                          : "moves no bone of the skeleton: not written");
      std::erase_if(s.clips, [&](const formats::Clip& c) { return !cal3dCanStore(c, s.skeleton); });
    }
    if (f.holds == Holds::Model || f.holds == Holds::Clip) {
      std::size_t morphed = clipsWithMorphTracks(s);
      if (f.holds == Holds::Clip) {  // a clip of morph weights only: the writer refuses it
        const formats::Clip& one = s.clips[static_cast<std::size_t>(clip)];
        morphed = !one.morphTracks.empty() && cal3dCanStore(one, s.skeleton);
      }
      if (morphed)
        d.warn(out, "clips", formats::kNoOffset,
               plural(morphed, "clip animates", "clips animate") +
                   " morph targets besides bones; cal3d animations move bones only: those "
                   "weights are not written");
    }
    if (f.holds == Holds::Model) {
      auto files = formats::cal3d::writeModel(s, stem, cal3d, d);
      nameTheOutput(d, out);
      if (!files) return failed(std::move(r), files.error(), out);
      // The .cfg (written last) is the output; the parts go beside it.
      for (auto& file : *files) {
        const bool cfg = &file == &files->back();
        r.files.push_back({cfg ? out : beside(file.name), std::move(file.bytes)});
      }
      return r;
    }
    switch (f.holds) {
      case Holds::Skeleton: bytes = formats::cal3d::writeSkeleton(s, cal3d, d); break;
      case Holds::Clip:
        bytes = formats::cal3d::writeAnimation(s, static_cast<std::size_t>(clip), cal3d, d);
        break;
      case Holds::Meshes: {
        std::vector<std::size_t> all(s.meshes.size());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
        bytes = formats::cal3d::writeMesh(s, all, cal3d, d);
        break;
      }
      default:
        bytes = formats::cal3d::writeMaterial(s, static_cast<std::size_t>(material), cal3d, d);
        break;
    }
  }
  nameTheOutput(d, out);
  if (!bytes) return failed(std::move(r), bytes.error(), out);
  r.files.push_back({out, std::move(bytes).value()});
  return r;
}

}  // namespace

std::span<const ExportFormat> exportFormats() {
  return kFormats;
}

const ExportFormat* exportFormatFor(std::string_view path) {
  const std::string name = std::filesystem::path(std::string(path)).filename().string();
  const auto dot = name.rfind('.');
  if (dot == std::string::npos) return nullptr;
  const std::string ext = lowerCase(std::string_view(name).substr(dot + 1));
  for (const ExportFormat& f : kFormats)
    if (f.extension == ext) return &f;
  return nullptr;
}

std::string exportFilter(const ExportFormat& format) {
  return std::string(format.name) + " (*." + std::string(format.extension) + ")";
}

std::string exportExtensions() {
  // The CLI's order: OMF, cal3d binary then XML, BRF, glTF.
  return "omf|cfg|csf|cmf|caf|crf|xsf|xmf|xaf|xrf|brf|glb|gltf";
}

std::string exportFormatsSentence() {
  return ".omf, cal3d's .cfg (the whole model), .csf .cmf .caf .crf and .xsf .xmf .xaf .xrf, "
         ".brf (from BRF records), and glTF 2.0 .glb or .gltf";
}

std::string ExportResult::why() const {
  switch (status) {
    case Status::Ok: return {};
    case Status::Refused:
    case Status::Nothing: return refusal;
    case Status::Failed: return error.describe();
  }
  return {};
}

std::optional<std::string> checkExportOptions(const ExportFormat& format,
                                              const ExportOptions& options) {
  if (format.holds == Holds::BrfRecords && options.version && *options.version != 0 &&
      *options.version != 1)
    return std::string("--version for .brf is 0 (M&B 1.011) or 1 (Warband)");
  if (isCal3d(format) && options.version && *options.version < 0)
    return std::string("a cal3d version is a whole number such as 700, 1100 or 1300");
  return std::nullopt;
}

ExportResult exportDocument(const Document& doc, const std::string& path,
                            const ExportOptions& options) {
  const ExportFormat* format = exportFormatFor(path);
  if (!format) {
    ExportResult r;
    return refused(std::move(r), "cannot write '" + path + "': the output formats are " +
                                     exportFormatsSentence());
  }
  if (auto why = checkExportOptions(*format, options)) return refused(ExportResult{}, *why);
  try {
    return format->holds == Holds::BrfRecords ? exportBrf(doc, path, options)
                                              : exportModel(doc, *format, path, options);
  } catch (const std::bad_alloc&) {
    return failed(ExportResult{}, {"", "", formats::kNoOffset, "ran out of memory while writing"},
                  path);
  } catch (const std::exception& e) {
    return failed(ExportResult{}, {"", "", formats::kNoOffset, e.what()}, path);
  }
}

WrittenFiles writeExportFiles(std::span<const ExportFile> files) {
  WrittenFiles w;
  // Every file is written under a temporary name first; only when all are whole are they
  // renamed into place (an uncommitted QSaveFile removes its temporary file).
  std::vector<std::unique_ptr<QSaveFile>> pending;
  for (const ExportFile& f : files) {
    auto save = std::make_unique<QSaveFile>(QString::fromStdString(f.path));
    save->setDirectWriteFallback(false);
    const auto size = static_cast<qint64>(f.bytes.size());
    if (!save->open(QIODevice::WriteOnly) ||
        save->write(reinterpret_cast<const char*>(f.bytes.data()), size) != size) {
      w.failedPath = f.path;
      w.reason = save->errorString().toStdString();
      return w;
    }
    pending.push_back(std::move(save));
  }
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (!pending[i]->commit()) {
      w.failedPath = files[i].path;
      w.reason = pending[i]->errorString().toStdString();
      return w;
    }
    w.written.emplace_back(files[i].path, files[i].bytes.size());
  }
  return w;
}

}  // namespace marrow::app
