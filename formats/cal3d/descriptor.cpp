// cal3d in the format table: its files are read as one model (a .cfg, or the parts given), the
// material files in the order a .cfg beside them gives; written as a whole model (.cfg and its
// files) or one file of each kind, binary or XML, at any version real files use.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "formats/cal3d/cal3d.h"
#include "formats/cal3d/common.h"
#include "formats/cal3d/folder_models.h"
#include "formats/cal3d/parts.h"
#include "formats/cal3d/writer.h"
#include "formats/write_support.h"

namespace marrow::formats {

namespace {

namespace fs = std::filesystem;
namespace cal3d = formats::cal3d;

bool recognise(std::span<const std::byte> head) {
  for (const char* magic : {"CSF", "CAF", "CMF", "CRF", "CPF"})  // with the NUL
    if (head.size() >= 4 && std::memcmp(head.data(), magic, 4) == 0) return true;
  return false;
}

constexpr std::string_view kExtensions[] = {"csf", "caf", "cmf", "crf", "cpf", "xsf",
                                            "xaf", "xmf", "xrf", "xpf", "cfg"};

bool claims(std::string_view ext) {
  return std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

cal3d::FileKind kindOf(const Input& in) {
  return cal3d::detectKind(std::span(in.bytes).first(std::min<std::size_t>(in.bytes.size(), 1024)),
                           in.ctx.name);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Submeshes find their materials by position in the model's material list, which only a .cfg
// gives. When material files are given on their own, a .cfg beside them that names them all says
// their order; the inputs are put in that order. Without one, a note says that the order given
// is the order used.
void orderMaterials(std::vector<Input>& inputs, Diagnostics& notes) {
  std::vector<std::size_t> materials;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const cal3d::FileKind kind = kindOf(inputs[i]);
    if (kind == cal3d::FileKind::Material) materials.push_back(i);
    else if (kind == cal3d::FileKind::Config) return;  // the .cfg itself is read: it orders them
  }
  if (materials.size() < 2) return;
  const std::string& first = inputs[materials.front()].diskPath;
  std::vector<fs::path> cfgs;
  std::error_code ec;
  if (!first.empty())
    for (const auto& e : fs::directory_iterator(fs::path(first).parent_path(), ec))
      if (e.is_regular_file(ec) && lower(e.path().extension().string()) == ".cfg") cfgs.push_back(e.path());
  std::sort(cfgs.begin(), cfgs.end());
  for (const fs::path& cfgPath : cfgs) {
    if (fs::file_size(cfgPath, ec) > (1u << 20) || ec) continue;
    std::ifstream f(cfgPath, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    ReadContext ctx;
    ctx.name = cfgPath.string();
    const auto cfg = cal3d::parseConfig(std::as_bytes(std::span(text.data(), text.size())), ctx);
    if (!cfg) continue;
    std::vector<std::size_t> rank(materials.size(), ~std::size_t{0});
    for (std::size_t m = 0; m < materials.size(); ++m) {
      const std::string name = lower(fs::path(inputs[materials[m]].ctx.name).filename().string());
      for (std::size_t k = 0; k < cfg->materials.size(); ++k)
        if (lower(fs::path(cfg->materials[k].file).filename().string()) == name) rank[m] = k;
    }
    if (std::find(rank.begin(), rank.end(), ~std::size_t{0}) != rank.end()) continue;
    std::vector<std::size_t> order(materials.size());
    for (std::size_t m = 0; m < order.size(); ++m) order[m] = m;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
    std::vector<Input> sorted;
    for (std::size_t m : order) sorted.push_back(std::move(inputs[materials[m]]));
    for (std::size_t m = 0; m < materials.size(); ++m) inputs[materials[m]] = std::move(sorted[m]);
    notes.info(ctx.name, "material", kNoOffset, "the material files were put in the order this .cfg gives them");
    return;
  }
  notes.info(inputs[materials.front()].ctx.name, "materials", kNoOffset,
             std::to_string(materials.size()) +
                 " material files were given without a .cfg naming them: submeshes find them in "
                 "the order they were given (a .cfg fixes that order)");
}

Result<Scene> readOne(std::span<const std::byte> data, const ReadContext& ctx) {
  if (cal3d::detectKind(data.first(std::min<std::size_t>(data.size(), 1024)), ctx.name) ==
      cal3d::FileKind::Config)
    return cal3d::readConfig(data, ctx);
  const cal3d::Input one{data, ctx};
  return cal3d::readModel(std::span(&one, 1));
}

// One .cfg and loose files (an extra animation, say) are one model; with several .cfg files each
// is a model of its own and loose files form one more.
Result<GroupRead> readGroup(std::vector<Input> inputs) {
  GroupRead out;
  orderMaterials(inputs, out.notes);
  std::vector<const Input*> configs;
  std::vector<cal3d::Input> parts;
  for (const Input& in : inputs) {
    if (kindOf(in) == cal3d::FileKind::Config) configs.push_back(&in);
    else parts.push_back({in.bytes, in.ctx});
  }
  const bool joinConfig = configs.size() == 1 && !parts.empty();
  for (const Input* cfg : configs) {
    auto r = cal3d::readConfig(cfg->bytes, cfg->ctx,
                               joinConfig ? std::span<const cal3d::Input>(parts) : std::span<const cal3d::Input>());
    if (!r) return r.error();
    out.parts.push_back({cfg->ctx.name, std::move(r).value()});
  }
  if (!parts.empty() && !joinConfig) {
    auto r = cal3d::readModel(parts);
    if (!r) return r.error();
    out.parts.push_back({parts.front().ctx.name, std::move(r).value()});
  }
  return out;
}

// ---- writing ----

// Whether cal3d can store a clip at all at `version`: a duration, and a key for a bone of the
// skeleton or, at versions that hold them, morph target weights. The writers refuse other clips,
// which would fail a whole model.
bool canStore(const Clip& c, const Skeleton& skeleton, int version) {
  if (!(c.duration > 0.0f)) return false;
  return cal3d::hasBoneKeys(c, skeleton) ||
         (!c.morphTracks.empty() && cal3d::holdsMorphAnimations(version));
}

bool isMorphOutput(const OutputKind& kind) {
  return kind.extension == "cpf" || kind.extension == "xpf";
}

// The version the files are written at, and what choosing it for the model means.
int versionFor(const Scene& s, const WriteOptions& o, const std::string& out, Diagnostics& d) {
  if (o.version && *o.version > 0) return *o.version;
  const int v = cal3d::versionFor(s);
  if (v == 1300)
    d.info(out, "version", kNoOffset,
           "the model has vertex colours: written at version 1300 (cal3d 0.13), which cal3d 0.11 "
           "and 0.12 do not open; version 1100 opens everywhere but leaves the colours out");
  else if (v == 1301)
    d.info(out, "version", kNoOffset,
           "the model has morph targets or morph target animation: written at version 1301 (the "
           "cal3d fork), which cal3d 0.11 and 0.12 do not open; version 1100 opens everywhere but "
           "leaves them out");
  return v;
}

// The binary mesh layout with colours stores RGB (spec §5); the XML writer says so itself.
void noteAlpha(const Scene& s, int version, bool xml, const std::string& out, Diagnostics& d) {
  const bool colours = (version >= 911 && version <= 999) || version == 1300;
  if (xml || !colours) return;
  std::size_t translucent = 0;
  for (const auto& m : s.meshes)
    for (const auto& c : m.colors) translucent += c.a != 1.0f;
  if (translucent)
    d.warn(out, "meshes", kNoOffset,
           writing::plural(translucent, "vertex colour is", "vertex colours are") +
               " not opaque; cal3d stores RGB only (alpha left out)");
}

WriteResult write(const WriteSource& source, const OutputKind& kind, const std::string& out,
                  const WriteOptions& o) {
  using namespace writing;
  Prepared p = prepare(*source.scene, kind.holds, out, o);
  WriteResult r = std::move(p.result);
  if (!r.ok()) return r;
  Scene& s = p.scene;
  Diagnostics& d = r.diagnostics;
  cal3d::WriteOptions options;
  options.xml = o.xml || (kind.extension.size() == 3 && kind.extension[0] == 'x');
  options.version = versionFor(s, o, out, d);
  if (kind.holds == Holds::Model || kind.holds == Holds::Meshes) noteAlpha(s, options.version, options.xml, out, d);
  if (kind.holds == Holds::Model) {
    noteModelExtras(s, "cal3d", out, d);
    if (!s.textures.empty())
      d.info(out, "textures", kNoOffset,
             plural(s.textures.size(), "texture is", "textures are") +
                 " named by the materials but not written: cal3d files name their images, "
                 "which belong beside the .cfg");
    // A clip cal3d cannot store at all would fail the whole model: it is left out instead.
    for (const auto& c : s.clips)
      if (!canStore(c, s.skeleton, options.version))
        d.warn(out, "clip '" + c.name + "'", kNoOffset,
               !(c.duration > 0.0f)     ? "lasts no time; cal3d needs a duration over 0: not written"
               : !c.morphTracks.empty() ? "animates morph targets only, which cal3d morph "
                                          "animations hold at IMVU's versions and 1300/1301, "
                                          "not at version " +
                                              std::to_string(options.version) + ": not written"
                                        : "moves no bone of the skeleton: not written");
    std::erase_if(s.clips, [&](const Clip& c) { return !canStore(c, s.skeleton, options.version); });
  }
  if (kind.holds == Holds::Model && !cal3d::holdsMorphAnimations(options.version)) {
    const std::size_t morphed = clipsWithMorphTracks(s);
    if (morphed)
      d.warn(out, "clips", kNoOffset,
             plural(morphed, "clip animates", "clips animate") +
                 " morph targets besides bones; cal3d morph animations exist at IMVU's versions "
                 "and 1300/1301, not at version " + std::to_string(options.version) + ": those weights are not "
                 "written");
  }
  if (kind.holds == Holds::Clip) {
    // An animation file holds bones, a morph animation file weights: what the other holds is
    // said to be left out.
    const Clip& one = s.clips[static_cast<std::size_t>(p.clip)];
    if (!isMorphOutput(kind) && !one.morphTracks.empty() && cal3d::hasBoneKeys(one, s.skeleton))
      d.warn(out, "clip '" + one.name + "'", kNoOffset,
             "animates morph targets besides bones; a cal3d animation moves bones only: those "
             "weights are not written (a .cpf or .xpf holds them)");
    if (isMorphOutput(kind) && cal3d::hasBoneKeys(one, s.skeleton))
      d.warn(out, "clip '" + one.name + "'", kNoOffset,
             "moves bones besides morph targets; a cal3d morph animation holds weights only: the "
             "bones are not written (a .caf or .xaf holds them)");
  }
  const fs::path target(out);
  if (kind.holds == Holds::Model) {
    auto files = cal3d::writeModel(s, target.stem().string(), options, d);
    nameTheOutput(d, out);
    if (!files) return failed(std::move(r), files.error(), out);
    // The .cfg (written last) is the output; the parts go beside it, never out of the folder.
    for (auto& file : *files) {
      const bool cfg = &file == &files->back();
      r.files.push_back({cfg ? out : (target.parent_path() / fs::path(file.name).filename()).string(),
                         std::move(file.bytes)});
    }
    return r;
  }
  Result<std::vector<std::byte>> bytes = std::vector<std::byte>{};
  switch (kind.holds) {
    case Holds::Skeleton: bytes = cal3d::writeSkeleton(s, options, d); break;
    case Holds::Clip:
      bytes = isMorphOutput(kind)
                  ? cal3d::writeMorphAnimation(s, static_cast<std::size_t>(p.clip), options, d)
                  : cal3d::writeAnimation(s, static_cast<std::size_t>(p.clip), options, d);
      break;
    case Holds::Meshes: {
      std::vector<std::size_t> all(s.meshes.size());
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
      bytes = cal3d::writeMesh(s, all, options, d);
      break;
    }
    default: bytes = cal3d::writeMaterial(s, static_cast<std::size_t>(p.material), options, d); break;
  }
  nameTheOutput(d, out);
  if (!bytes) return failed(std::move(r), bytes.error(), out);
  r.files.push_back({out, std::move(bytes).value()});
  return r;
}

std::optional<std::string> checkOptions(const OutputKind&, const WriteOptions& o) {
  if (o.version && *o.version < 0) return std::string("a cal3d version is a whole number such as 700, 1100 or 1300");
  return std::nullopt;
}

}  // namespace

const FormatDescriptor& cal3dFormat() {
  static const FormatDescriptor d{
      .id = "cal3d",
      .name = "cal3d",
      .notes = "every version 699–1301 (plain, IMVU/0.13 colour + morphs, 2017 count-prefixed morphs), "
          "compressed animations (0.12 quantised, IMVU bit-packed), LOD, springs, morph targets, "
          "morph animations (.xpf / .cpf, target names or the fork's numbers), "
          "several uv sets; `.cfg` model files; writers at 700–1100, 1300, 1301, binary or XML; "
          "checked against libcal3d 0.11",
      .extensions = {std::begin(kExtensions), std::end(kExtensions)},
      .mime = "model/x-cal3d-config",
      .mimeTypes = {"model/x-cal3d-skeleton", "model/x-cal3d-animation", "model/x-cal3d-mesh",
                    "model/x-cal3d-material", "model/x-cal3d-skeleton+xml",
                    "model/x-cal3d-animation+xml", "model/x-cal3d-mesh+xml",
                    "model/x-cal3d-material+xml", "model/x-cal3d-config",
                    "model/x-cal3d-morph-animation", "model/x-cal3d-morph-animation+xml"},
      .recognise = recognise,
      .claimsExtension = claims,
      .read = readOne,
      .readGroup = readGroup,
      .animationExtensions = {"caf", "xaf", "cpf", "xpf"},
      .modelsInFolder = cal3d::modelsInFolder,
      .outputs = {{"cfg", "cal3d model (.cfg and its files beside it)", Holds::Model},
                  {"csf", "cal3d skeleton", Holds::Skeleton},
                  {"cmf", "cal3d meshes", Holds::Meshes},
                  {"caf", "cal3d animation (the current clip)", Holds::Clip},
                  {"crf", "cal3d material", Holds::Material},
                  {"cpf", "cal3d morph animation (the current clip's morph target weights)", Holds::Clip},
                  {"xsf", "cal3d XML skeleton", Holds::Skeleton},
                  {"xmf", "cal3d XML meshes", Holds::Meshes},
                  {"xaf", "cal3d XML animation (the current clip)", Holds::Clip},
                  {"xrf", "cal3d XML material", Holds::Material},
                  {"xpf", "cal3d XML morph animation (the current clip's morph target weights)", Holds::Clip}},
      .write = write,
      .cannotHold = "collision bodies, attachment points, tables; vertex colours before 1300, "
                    "morph targets and morph animations before 1300 (IMVU's 911–999 for a lone .xpf/.cpf)",
      .checkOptions = checkOptions,
  };
  return d;
}

}  // namespace marrow::formats
