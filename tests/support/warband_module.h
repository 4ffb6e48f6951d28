// A Warband install with one module, laid out on disk from the BRF fixtures (../shared/fixtures/brf)
// the way the game lays them out (warband_module.md §1), with names in the mixed case Windows
// folders have, and what real modules get wrong: a commented line, a file named twice, a file that
// is not there, a record defined twice, a skeleton defined again later, materials that name
// textures no file defines, a texture record without its DDS. Framework-free: the unit, CLI and
// GUI tests all use it.
//
//   ROOT/CommonRes/core_shaders.brf      wfas_core_shaders      (core file)
//   ROOT/CommonRes/Core_Pictures.brf     wfas_core_pictures     (core file, found in any case)
//   ROOT/CommonRes/skeletons.brf         wfas_skeletons         skel_human, anim_human
//   ROOT/CommonRes/horse_skeleton.brf    wfas_horse_skeleton    skel_horse (again: a duplicate)
//   ROOT/Textures/oim_bark_02.dds        kInstallBark02 (the install's Textures/)
//   ROOT/Textures/oim_bark_03.dds        (hidden by the module's)
//   ROOT/Modules/Test Module/module.ini  the lines below
//   ROOT/Modules/Test Module/actions.txt kActions
//   ROOT/Modules/Test Module/skins.txt, Item_Kinds1.txt: name boot_nomad_a, skel_human, SkinA.hard_lthr_a
//   ROOT/Modules/Test Module/Resource/Boots_A.BRF         wfas_boots_a        boot_nomad_a
//   ROOT/Modules/Test Module/Resource/ani_walk_backward.brf wfas_ani_walk_backward
//   ROOT/Modules/Test Module/Resource/flora.brf           wfas_oim_flora_materials
//   ROOT/Modules/Test Module/Resource/armour.brf          openbrf_redux_reference (M&B 1.011;
//                                                         skel_human and skel_horse again)
//   ROOT/Modules/Test Module/Textures/oim_bark_03.dds     kModuleBark03
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace marrow::testing {

// The module's resource lines, by line number as module.ini has them (1-based).
inline constexpr const char* kTestModuleIni =
    "# A module.ini as modders leave them\r\n"           // 1
    "first_wheel_key = 0x2ee\r\n"                         // 2: an engine setting
    "scan_module_textures = 1\r\n"                        // 3
    "load_resource = skeletons\r\n"                       // 4
    "#load_resource = commented_out\r\n"                  // 5
    "load_mod_resource = boots_a   # trailing comment\r\n"  // 6
    "\tload_mod_resource=ani_walk_backward\r\n"           // 7
    "load_module_resource = flora\r\n"                    // 8
    "load_mod_resource = armour\r\n"                      // 9
    "load_resource = horse_skeleton\r\n"                  // 10
    "load_mod_resource = not_there\r\n"                   // 11
    "load_resource = skeletons\r\n";                      // 12: again

// Four actions: one that plays a whole animation of the same name (so its clip is
// "walk_backward (action)"), one of two sequences (stand:1, stand:2) on anim_human, one played
// backwards (back_off), one on an animation no file has (ride). Flags past 2^31 printed as large
// positives, as the game's scripts print them; a 1.011-style header (3 fields) mixed in.
inline constexpr const char* kTestActions =
    "4\r\n"
    " walk_backward 0 16777216  1\r\n"
    "  1.000000 walk_backward 0 30 2415919364 58726 0.000000 0.000000 0.000000  0.000000 \r\n"
    " stand 0 16777216  2\r\n"
    "  3.000000 anim_human 50 52 1342177280 0 0.000000 0.000000 0.000000  0.250000 \r\n"
    "  2.000000 anim_human 60 62 1342177280 0 0.0 0.0 0.0 0.75 \r\n"
    " back_off 256  1\r\n"
    "  0.500000 walk_backward 30 0 2 0 0.0 0.0 0.0 0.0 \r\n"
    " ride 0 0  1\r\n"
    "  1.000000 anim_nobody_has 0 10 0 0 0.0 0.0 0.0 0.0 \r\n";

inline constexpr const char* kInstallBark02 = "the install's oim_bark_02";
inline constexpr const char* kModuleBark03 = "the module's oim_bark_03";

struct TestModule {
  std::filesystem::path install;  // ROOT
  std::filesystem::path module;   // ROOT/Modules/Test Module
  std::filesystem::path resource;
  std::filesystem::path commonRes;
};

// Lays the install out under `root` from the fixtures in `brfFixtures`; false when a fixture is
// missing (`missing` names it).
inline bool makeTestModule(const std::filesystem::path& root, const std::filesystem::path& brfFixtures,
                           TestModule& out, std::string& missing) {
  namespace fs = std::filesystem;
  out.install = root;
  out.commonRes = root / "CommonRes";
  out.module = root / "Modules" / "Test Module";
  out.resource = out.module / "Resource";
  const std::vector<std::pair<std::string, fs::path>> copies = {
      {"wfas_core_shaders.brf", out.commonRes / "core_shaders.brf"},
      {"wfas_core_pictures.brf", out.commonRes / "Core_Pictures.brf"},
      {"wfas_skeletons.brf", out.commonRes / "skeletons.brf"},
      {"wfas_horse_skeleton.brf", out.commonRes / "horse_skeleton.brf"},
      {"wfas_boots_a.brf", out.resource / "Boots_A.BRF"},
      {"wfas_ani_walk_backward.brf", out.resource / "ani_walk_backward.brf"},
      {"wfas_oim_flora_materials.brf", out.resource / "flora.brf"},
      {"openbrf_redux_reference.brf", out.resource / "armour.brf"},
  };
  for (const auto& [from, to] : copies) {
    if (!fs::exists(brfFixtures / from)) {
      missing = (brfFixtures / from).string();
      return false;
    }
    fs::create_directories(to.parent_path());
    fs::copy_file(brfFixtures / from, to, fs::copy_options::overwrite_existing);
  }
  const auto write = [](const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  };
  write(out.module / "module.ini", kTestModuleIni);
  write(out.module / "actions.txt", kTestActions);
  // What the module's troops and items name (usage): the boots and a skeleton, an armour.
  write(out.module / "skins.txt", "skins_begin 1\r\n man 0 skel_human boot_nomad_a man_body 0\r\n");
  write(out.module / "Item_Kinds1.txt", "itemsfile version 3\r\n 1\r\n itm_armour Armour 1  SkinA.hard_lthr_a 0\r\n");
  // Not real DDS files: which folder a texture came from shows in its bytes.
  write(root / "Textures" / "oim_bark_02.dds", kInstallBark02);
  write(root / "Textures" / "oim_bark_03.dds", "the install's oim_bark_03, hidden by the module's");
  write(out.module / "Textures" / "oim_bark_03.dds", kModuleBark03);
  return true;
}

}  // namespace marrow::testing
