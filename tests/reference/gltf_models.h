// The models every glTF export check runs on: the demo character, two cal3d characters, two BRF
// models (a skinned mesh with a walk, a vertex-animated mesh), the Dragon Nest test character
// and models of assimp's test corpus.
// A model whose fixture is absent gives a reason to skip.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "formats/registry.h"
#include "tests/support/dragonnest_test_character.h"

namespace marrow::gltf_testing {

// Models of assimp's own test corpus (Debian's assimp-testmodels) that the writer was not
// written against: skins, clips and hierarchies from exporters of every kind.
struct CorpusModel {
  const char* id;
  const char* path;  // under MARROW_ASSIMP_MODELS_DIR
};
inline const CorpusModel kCorpusModels[] = {
    {"assimp_x_bcn_epileptic", "X/BCN_Epileptic.X"},
    {"assimp_x_testwuson", "X/Testwuson.X"},
    {"assimp_x_anim_test", "X/anim_test.x"},
    {"assimp_fbx_animation_with_skeleton", "FBX/animation_with_skeleton.fbx"},
    {"assimp_fbx_huesitos", "FBX/huesitos.fbx"},
    {"assimp_dae_full_rotations", "Collada/anims_with_full_rotations_between_keys.DAE"},
    {"assimp_mdl_hl1_man", "MDL/MDL (HL1)/man.mdl"},
    {"assimp_ase_motion_capture", "ASE/MotionCaptureROM.ase"},
    {"assimp_gltf2_simple_skin", "glTF2/simple_skin/simple_skin.gltf"},
    {"assimp_smd_wuson", "SMD/WusonSMD.smd"},
    {"assimp_lws_bezier", "LWS/move_xz_bezier.lws"},
    {"assimp_csm_fechten", "CSM/ThomasFechten.csm"},
};

inline const char* const kExportModels[] = {
    "demo", "cal3d_paladin", "cal3d_cally", "cal3d_dokurochan_facial", "brf_boots_walk", "brf_map_icons", "dragonnest",
    "assimp_x_bcn_epileptic", "assimp_x_testwuson", "assimp_x_anim_test",
    "assimp_fbx_animation_with_skeleton", "assimp_fbx_huesitos", "assimp_dae_full_rotations",
    "assimp_mdl_hl1_man", "assimp_ase_motion_capture", "assimp_gltf2_simple_skin",
    "assimp_smd_wuson", "assimp_lws_bezier", "assimp_csm_fechten"};

inline std::vector<std::byte> fileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<std::byte> b(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) b[i] = static_cast<std::byte>(c[i]);
  return b;
}

// The model, or nullopt with `skip` saying which fixture is missing.
inline std::optional<formats::Result<formats::Scene>> loadExportModel(const std::string& name,
                                                                      std::string& skip) {
  const std::string fixtures = MARROW_FIXTURES_DIR;
  auto need = [&](const std::string& path) {
    if (std::filesystem::exists(path)) return true;
    skip = "fixture " + path + " is absent";
    return false;
  };
  if (name == "demo") {
    if (!need(MARROW_DEMO_OMF)) return std::nullopt;
    return formats::loadFile(MARROW_DEMO_OMF);
  }
  for (const CorpusModel& m : kCorpusModels)
    if (name == m.id) {
      const std::string path = std::string(MARROW_ASSIMP_MODELS_DIR) + "/" + m.path;
      if (!need(path)) return std::nullopt;
      return formats::loadFile(path);
    }
  if (name == "cal3d_paladin" || name == "cal3d_cally") {
    const std::string who = name.substr(6);
    const std::string cfg = fixtures + "/cal3d/" + who + "/" + who + ".cfg";
    if (!need(cfg)) return std::nullopt;
    return formats::loadFile(cfg);
  }
  if (name == "cal3d_dokurochan_facial") {  // morph targets played by a morph animation (.xpf)
    const std::string dir = fixtures + "/cal3d/dokurochan_v1300/";
    const std::vector<std::string> files = {dir + "DokuroChan.csf", dir + "DokuroChan_mesh.001.cmf",
                                            dir + "DokuroChan_Key_test_facial.xpf"};
    for (const auto& f : files)
      if (!need(f)) return std::nullopt;
    return formats::loadFiles(files);
  }
  if (name == "brf_boots_walk" || name == "brf_map_icons") {
    const bool boots = name == "brf_boots_walk";
    const std::string file =
        fixtures + "/brf/" + (boots ? "openbrf_redux_reference.brf" : "wfas_map_icons_c.brf");
    if (!need(file)) return std::nullopt;
    std::vector<formats::Input> inputs(1);
    inputs[0].bytes = fileBytes(file);
    inputs[0].ctx.name = file;
    if (boots) inputs[0].records = {"SkinA.light_leather_boots", "man_walk"};
    return formats::readInputs(std::move(inputs));
  }
  // Dragon Nest: the character the project's own writers make from the spec.
  namespace dn = formats::dragonnest::testing;
  const auto f = dn::writeCharacter(10);
  std::map<std::string, std::vector<std::byte>> files = {{"Character.msh", f.msh}};
  std::vector<formats::Input> inputs(2);
  inputs[0].bytes = f.skn;
  inputs[0].ctx.name = "Character.skn";
  inputs[0].ctx.resolve = dn::memoryResolver(files);
  inputs[1].bytes = f.ani;
  inputs[1].ctx.name = "Character.ani";
  return formats::readInputs(std::move(inputs));
}

}  // namespace marrow::gltf_testing
