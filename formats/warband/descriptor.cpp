// Warband modules in the format table: a module folder or its module.ini reads the module's
// BRF files as one library (formats/warband/module.h), its actions cutting the animations into
// clips; an actions.txt read on its own cuts the animations of the BRF files given with it.
#include <filesystem>

#include "formats/brf/archive.h"
#include "formats/format.h"
#include "formats/io/file.h"
#include "formats/warband/actions.h"
#include "formats/warband/module.h"

namespace marrow::formats {

namespace {

namespace fs = std::filesystem;
namespace wb = formats::warband;

bool isModuleIni(const std::string& name) {
  return vfs::lowerAscii(fs::path(name).filename().string()) == "module.ini";
}

// The model of a module: the records addressed (MODULE::RECORD, found in any of its files),
// else its skeletons and animations (a library, not a heap of every mesh); its actions.
struct ReadModule {
  Part part;
  wb::Module module;
};

Result<ReadModule> readModule(const Input& in) {
  const auto folders = wb::moduleOf(in.diskPath.empty() ? in.ctx.name : in.diskPath);
  if (!folders) return FormatError{in.ctx.name, "", kNoOffset, "is not the module.ini of a module folder"};
  auto module = wb::openModule(*folders, in.ctx.limits, in.ctx.fetchTextures);
  if (!module) return module.error();
  brf::Selection selection;
  if (!in.records.empty()) {
    std::vector<std::vector<brf::RecordRef>> addressed(module->sources.size());
    for (const std::string& name : in.records) {
      bool found = false;
      for (std::size_t s = 0; s < module->sources.size() && !found; ++s)
        if (auto r = brf::findRecords(module->sources, s, std::span(&name, 1))) {
          addressed[s].insert(addressed[s].end(), r->records.begin(), r->records.end());
          found = true;
        }
      if (!found)
        return FormatError{folders->moduleIni, "record", kNoOffset,
                           "no file of the module has a record named '" + name + "'"};
    }
    // Files none of whose records were named give nothing.
    selection.meshes = selection.bodies = selection.animations = selection.materials = std::vector<brf::RecordRef>{};
    for (const auto& list : addressed)
      for (const brf::RecordRef& r : list) switch (r.kind) {
          case brf::Section::Mesh: selection.meshes->push_back(r); break;
          case brf::Section::Body: selection.bodies->push_back(r); break;
          case brf::Section::Animation: selection.animations->push_back(r); break;
          case brf::Section::Material: selection.materials->push_back(r); break;
          case brf::Section::Skeleton: selection.skeleton = r; break;
          default: break;
        }
    // No animation named: every animation of the module (those of the skeleton's bone count play),
    // as for the records of BRF files.
    if (selection.animations->empty()) selection.animations.reset();
  } else {
    selection.meshes = selection.bodies = selection.materials = std::vector<brf::RecordRef>{};
  }
  auto scene = brf::toScene(module->sources, selection);
  if (!scene) return scene.error();
  scene->actions = module->actions;
  scene->format = "Warband module " + folders->name;
  Diagnostics d = module->diagnostics;
  d.append(scene->diagnostics);
  scene->diagnostics = std::move(d);
  return ReadModule{Part{folders->moduleIni, std::move(scene).value()}, std::move(module).value()};
}

std::shared_ptr<const vfs::Archive> archiveOf(wb::Module module) {
  brf::BrfArchive::Library library{module.folders.name, {module.folders.moduleIni}, module.actions,
                                   wb::moduleUsage(module), true};
  return std::make_shared<const brf::BrfArchive>(std::move(module.sources), std::move(library));
}

Result<Scene> readOne(std::span<const std::byte> data, const ReadContext& ctx) {
  if (isModuleIni(ctx.name)) {
    Input in{std::vector<std::byte>(data.begin(), data.end()), ctx, {}, ctx.name};
    auto read = readModule(in);
    if (!read) return read.error();
    return std::move(read->part.scene);
  }
  auto actions = wb::readActions(data, ctx);
  if (!actions) return actions.error();
  Scene s;
  s.format = "Warband actions";
  s.actions = std::move(actions).value();
  return s;
}

Result<GroupRead> readGroup(std::vector<Input> inputs) {
  GroupRead out;
  for (const Input& in : inputs) {
    if (!isModuleIni(in.ctx.name)) {
      auto s = readOne(in.bytes, in.ctx);
      if (!s) return s.error();
      out.parts.push_back({in.ctx.name, std::move(s).value()});
      continue;
    }
    auto read = readModule(in);
    if (!read) return read.error();
    if (!out.archive) out.archive = archiveOf(std::move(read->module));  // the library browsed
    out.parts.push_back(std::move(read->part));
  }
  return out;
}

Result<std::shared_ptr<const vfs::Archive>> mount(std::span<const std::string> paths, const MountOptions&) {
  for (const std::string& p : paths) {
    const auto folders = wb::moduleOf(p);
    if (!folders) continue;
    auto module = wb::openModule(*folders, {}, false);
    if (!module) return module.error();
    return archiveOf(std::move(module).value());
  }
  return FormatError{paths.empty() ? std::string() : paths.front(), "", kNoOffset, "is not in a Warband module"};
}

std::optional<std::string> libraryOf(const std::string& path) {
  if (const auto folders = wb::moduleOf(path)) return folders->module;
  return std::nullopt;
}

}  // namespace

const FormatDescriptor& warbandFormat() {
  static const FormatDescriptor d{
      .id = "warband",
      .name = "Warband module",
      .notes = "a module folder or its `module.ini`: every resource line's BRF from the module's "
               "`Resource/` and the install's `CommonRes/` in order, the core files first, "
               "textures from both `Textures/` folders, duplicates, missing references, ordering "
               "problems and missing DDS files reported, records the module's text files and other "
               "records use marked; `actions.txt` (Warband and M&B 1.011) cuts the animations into "
               "one clip per action sequence",
      .extensions = {},
      // Plain text files that other programs own: the desktop entry claims no type for them.
      .fileNames = {"module.ini", "actions.txt"},
      .mime = "text/plain",
      .mimeTypes = {},
      .recognise = [](std::span<const std::byte> head) { return wb::looksLikeActions(head); },
      .read = readOne,
      .readGroup = readGroup,
      .mount = mount,
      .hasRecords = true,
      .libraryOf = libraryOf,
  };
  return d;
}

}  // namespace marrow::formats
