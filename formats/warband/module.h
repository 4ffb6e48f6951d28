// A Warband (or M&B 1.011) module as one library (warband_module.md §1, §2): module.ini's
// resource lines read in order from the module's Resource/ and the install's CommonRes/, the
// core files first; textures looked up in the module's Textures/, then the install's; the
// module's actions.txt; what the files say of each other (duplicates, missing references,
// ordering problems, missing DDS files), naming both places.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/brf/brf.h"
#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/scene.h"

namespace marrow::formats::warband {

// One resource line of module.ini.
struct ResourceLine {
  enum class From { CommonRes, Module };
  std::string key;   // "load_resource", "load_mod_resource", …
  std::string name;  // the BRF without its extension
  From from = From::CommonRes;
  std::size_t line = 0;  // 1-based
};

struct ModuleIni {
  std::vector<ResourceLine> resources;
  bool scanModuleTextures = false;
  Diagnostics diagnostics;  // lines that say nothing Marrow understands are not reported
};

// Per line: cut at '#', trim, split at the first '='; keys compared in lower case.
Result<ModuleIni> readModuleIni(std::span<const std::byte> data, const ReadContext& ctx);

// Where a module's files are, found case-insensitively (files come from Windows).
struct ModuleFolders {
  std::string module;           // the module folder (holds module.ini)
  std::string moduleIni;
  std::string resource;         // <module>/Resource, or "" when absent
  std::string moduleTextures;   // <module>/Textures, or ""
  std::string moduleData;       // <module>/Data, or ""
  std::string install;          // two levels up when the module sits in <install>/Modules, else ""
  std::string commonRes;        // <install>/CommonRes, or ""
  std::string installTextures;  // <install>/Textures, or ""
  std::string name;             // the module folder's name
};

// The module a path belongs to: a module folder, its module.ini, or a BRF in its Resource/
// (OpenBRF's rule: a Resource folder whose parent holds module.ini); nothing otherwise.
std::optional<ModuleFolders> moduleOf(const std::string& path);

// The core files every module loads before its module.ini lines.
inline constexpr const char* kCoreResources[] = {"core_shaders", "core_textures", "core_materials",
                                                 "core_pictures", "core_ui_meshes"};

struct Module {
  ModuleFolders folders;
  std::vector<brf::Source> sources;  // in load order; each Source::note says its line and origin
  std::vector<Action> actions;       // the module's actions.txt, when it has one
  Diagnostics diagnostics;
};

// Reads the module: the core files, every resource line in order (a file named twice is read
// once), actions.txt. A BRF that is missing or cannot be read is a diagnostic naming its line;
// a module with no BRF at all is an error. Sources resolve textures in the module's Textures/,
// then the install's.
Result<Module> openModule(const ModuleFolders& folders, const Limits& limits, bool fetchTextures);

// The module's text files that name records (warband_module.md §1): read for usage.
inline constexpr const char* kUsageFiles[] = {"actions.txt",     "skins.txt",       "item_kinds1.txt",
                                              "meshes.txt",      "scene_props.txt", "map_icons.txt",
                                              "particle_systems.txt", "tableau_materials.txt", "scenes.txt"};
// The text files of the Data/ folder (the module's, else the install's) that name records.
inline constexpr const char* kUsageDataFiles[] = {"flora_kinds.txt", "ground_specs.txt", "skyboxes.txt"};

// What uses each record of the module, by brf::BrfArchive::usageKey(kind, name): the text files
// above that name it as a token (a mesh NAME.lodN is used where NAME is), the meshes that name a
// material, the materials that name a shader or texture; the core files' records are the game's
// own. At most `limit` users each, then "… N more".
std::map<std::string, std::vector<std::string>> moduleUsage(const Module& module, std::size_t limit = 20);

// What the module's files say of each other: a record defined again under the same name and
// kind (the first wins), a mesh naming a material or a material naming a shader or texture that
// no file defines, or that only a later file defines (an ordering problem), a texture record
// whose DDS is in neither Textures folder. At most `limit` of each kind are listed, then a count.
Diagnostics checkModule(const Module& module, std::size_t limit = 20);

}  // namespace marrow::formats::warband
