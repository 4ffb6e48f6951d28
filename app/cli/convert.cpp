// marrow-cli convert: any model Marrow reads, written in another format.
#include <charconv>
#include <cmath>
#include <set>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <QFileInfo>

#include "app/cli/common.h"
#include "formats/cal3d/writer.h"
#include "formats/gltf/gltf_writer.h"
#include "formats/omf/omf.h"

namespace marrow::app::cli {
namespace {

bool writeBytes(const std::string& path, const std::vector<std::byte>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) {
    std::fprintf(stderr, "marrow-cli: %s: could not be written\n", path.c_str());
    return false;
  }
  std::fprintf(stderr, "wrote %s (%zu bytes)\n", path.c_str(), bytes.size());
  return true;
}

// Index of the element named `value` or numbered `value`; -1 when there is none.
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

// BRF → BRF: the records as they are (a single whole file comes back byte for byte), or some of
// them (FILE.brf::RECORD), or several files in one, at --version 0 (M&B 1.011) or 1 (Warband).
int convertToBrf(const Args& args, const std::string& out, double version) {
  if (version != 0.0 && version != 1.0)
    return usageError("convert", "--version for .brf is 0 (M&B 1.011) or 1 (Warband)");
  auto doc = loadInputs(args);
  if (!doc) return kLoadError;
  namespace brf = formats::brf;
  // Which records each input names, by file; inputs that are not BRF files cannot be written.
  std::vector<std::vector<brf::RecordRef>> addressed(doc->brf.size());
  bool whole = false;
  for (const auto& input : args.inputs) {
    const auto [file, record] = brf::splitAddress(input);
    std::size_t source = doc->brf.size();
    for (std::size_t i = 0; i < doc->brf.size(); ++i)
      if (doc->brf[i].name == file) source = i;
    if (source == doc->brf.size()) {
      std::fprintf(stderr, "marrow-cli: %s: not a BRF file; .brf files are written from BRF records only\n",
                   file.c_str());
      return kLoadError;
    }
    if (record.empty()) {
      whole = true;
      continue;
    }
    auto found = brf::findRecords(doc->brf, source, std::span(&record, 1));
    if (!found) {
      std::fprintf(stderr, "marrow-cli: %s\n", found.error().describe().c_str());
      return kLoadError;
    }
    // Shaders and textures are found by name too, for writing.
    for (brf::Section kind : {brf::Section::Texture, brf::Section::Shader})
      for (std::size_t i = 0; i < brf::recordCount(*doc->brf[source].doc, kind); ++i)
        if (brf::recordName(doc->brf[source], kind, i) == record) found->records.push_back({source, kind, i});
    addressed[source].insert(addressed[source].end(), found->records.begin(), found->records.end());
  }
  const int target = args.option("--version") ? static_cast<int>(version) : doc->brf.front().doc->version;
  if (whole && doc->brf.size() == 1 && target == doc->brf.front().doc->version)
    return writeBytes(out, brf::write(*doc->brf.front().doc)) ? kOk : kLoadError;
  // A file given whole brings all its records; a file given by records, those records.
  std::vector<brf::RecordRef> records;
  for (std::size_t s = 0; s < doc->brf.size(); ++s) {
    if (!addressed[s].empty()) {
      records.insert(records.end(), addressed[s].begin(), addressed[s].end());
      continue;
    }
    for (brf::Section kind : brf::kSections)
      for (std::size_t i = 0; i < brf::recordCount(*doc->brf[s].doc, kind); ++i)
        records.push_back({s, kind, i});
  }
  formats::Diagnostics diag;
  const brf::Document written = brf::gather(doc->brf, records, target, diag);
  for (auto& d : diag.items)
    if (d.file.empty()) d.file = out;
  printDiagnostics(diag);
  if (auto problem = brf::checkWritable(written)) {
    if (problem->file.empty()) problem->file = out;
    std::fprintf(stderr, "marrow-cli: %s\n", problem->describe().c_str());
    return kLoadError;
  }
  return writeBytes(out, brf::write(written)) ? kOk : kLoadError;
}

}  // namespace

int runConvert(const Args& args) {
  const std::string* out = args.option("-o");
  if (!out) return usageError("convert", "no output given (-o OUTPUT)");
  const std::string ext = QFileInfo(QString::fromStdString(*out)).suffix().toLower().toStdString();
  static const std::set<std::string> kOutputs = {"omf", "cfg", "csf", "xsf", "cmf", "xmf",
                                                 "caf", "xaf", "crf", "xrf", "brf",
                                                 "glb", "gltf"};
  if (!kOutputs.count(ext))
    return usageError("convert", "cannot write '." + ext +
                                     "' files; the output formats are .omf, cal3d's .cfg "
                                     "(the whole model), .csf .cmf .caf .crf and .xsf .xmf .xaf "
                                     ".xrf, .brf (from BRF records), and glTF 2.0 .glb or .gltf");
  formats::cal3d::WriteOptions cal3d;
  cal3d.xml = ext.size() == 3 && ext[0] == 'x';
  double version = 0.0;
  if (!numberOption(args, "--version", version)) return kUsage;
  if (version != std::floor(version) || version < 0.0 || version > 1e6)
    return usageError("convert", "--version is a whole number such as 700, 1100 or 1300");
  if (ext == "brf") return convertToBrf(args, *out, version);

  // glTF carries the textures themselves; the other formats only name them.
  const bool gltf = ext == "glb" || ext == "gltf";
  auto doc = loadInputs(args, gltf ? Textures::Find : Textures::Skip);
  if (!doc) return kLoadError;
  printDiagnostics(doc->scene->diagnostics);  // what reading found, before what writing loses
  // Clips made for another skeleton (a horse animation beside a human) would play on the
  // written skeleton's bones of the same names: they are not written.
  formats::Scene filtered;
  const formats::Scene* source = doc->scene.get();
  for (const auto& c : source->clips)
    if (anim::bind(c, source->skeleton).otherSkeleton) {
      if (source != &filtered) filtered = *doc->scene, source = &filtered;
      std::fprintf(stderr, "warning: %s: clip '%s' is for the skeleton '%s', not '%s': not written\n",
                   out->c_str(), c.name.c_str(), c.skeleton.c_str(), filtered.skeleton.name.c_str());
    }
  if (source == &filtered)
    std::erase_if(filtered.clips, [&](const formats::Clip& c) {
      return anim::bind(c, filtered.skeleton).otherSkeleton;
    });
  const formats::Scene& s = *source;
  cal3d.version = version > 0.0 ? static_cast<int>(version) : formats::cal3d::versionFor(s);
  if (args.has("--xml")) cal3d.xml = true;

  formats::Diagnostics diag;
  formats::Result<std::vector<std::byte>> bytes = std::vector<std::byte>{};
  if (ext == "omf") {
    bytes = formats::writeOmf(s, diag);
  } else if (ext == "glb") {
    bytes = formats::writeGlb(s, diag);
  } else if (ext == "gltf") {  // the .gltf, its .bin and its images, side by side
    const std::filesystem::path target(*out);
    auto files = formats::writeGltf(s, target.stem().string(), diag);
    for (auto& d : diag.items)
      if (d.file.empty() || d.file == "glTF") d.file = *out;
    printDiagnostics(diag);
    if (!files) {
      std::fprintf(stderr, "marrow-cli: %s\n", files.error().describe().c_str());
      return kLoadError;
    }
    for (const auto& f : files->files)
      if (!writeBytes((target.parent_path() / (&f == &files->files.front() ? target.filename().string() : f.name)).string(), f.bytes))
        return kLoadError;
    return kOk;
  } else if (ext == "cfg") {
    const std::filesystem::path target(*out);
    auto files = formats::cal3d::writeModel(s, target.stem().string(), cal3d, diag);
    for (auto& d : diag.items)
      if (d.file.empty()) d.file = *out;
    printDiagnostics(diag);
    if (!files) {
      formats::FormatError e = files.error();
      if (e.file.empty()) e.file = *out;
      std::fprintf(stderr, "marrow-cli: %s\n", e.describe().c_str());
      return kLoadError;
    }
    const auto dir = target.parent_path();
    for (const auto& f : *files)
      if (!writeBytes((dir / (f.name == target.stem().string() + ".cfg" ? target.filename().string() : f.name)).string(), f.bytes))
        return kLoadError;
    return kOk;
  } else if (ext == "csf" || ext == "xsf") {
    if (s.skeleton.empty()) return usageError("convert", "the model has no skeleton to write");
    bytes = formats::cal3d::writeSkeleton(s, cal3d, diag);
  } else if (ext == "caf" || ext == "xaf") {
    if (s.clips.empty()) return usageError("convert", "the model has no clip to write");
    const int clip = args.option("--clip") ? pick(s.clips, *args.option("--clip")) : 0;
    if (clip < 0) return usageError("convert", "no clip '" + *args.option("--clip") + "' in the model");
    bytes = formats::cal3d::writeAnimation(s, static_cast<std::size_t>(clip), cal3d, diag);
  } else if (ext == "cmf" || ext == "xmf") {
    if (s.meshes.empty()) return usageError("convert", "the model has no mesh to write");
    std::vector<std::size_t> all(s.meshes.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    bytes = formats::cal3d::writeMesh(s, all, cal3d, diag);
  } else {  // crf, xrf
    if (s.materials.empty()) return usageError("convert", "the model has no material to write");
    const int m = args.option("--material") ? pick(s.materials, *args.option("--material")) : 0;
    if (m < 0) return usageError("convert", "no material '" + *args.option("--material") + "' in the model");
    bytes = formats::cal3d::writeMaterial(s, static_cast<std::size_t>(m), cal3d, diag);
  }
  for (auto& d : diag.items)
    if (d.file.empty() || d.file == "glTF") d.file = *out;  // what the writer could not keep, said of the output
  printDiagnostics(diag);
  if (!bytes) {
    formats::FormatError e = bytes.error();
    if (e.file.empty()) e.file = *out;
    std::fprintf(stderr, "marrow-cli: %s\n", e.describe().c_str());
    return kLoadError;
  }
  return writeBytes(*out, *bytes) ? kOk : kLoadError;
}

}  // namespace marrow::app::cli
