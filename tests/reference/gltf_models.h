// The models every glTF export check runs on: the demo character, two cal3d characters, two BRF
// models (a skinned mesh with a walk, a vertex-animated mesh) and the Dragon Nest test character.
// A model whose fixture is absent gives a reason to skip.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "formats/registry.h"
#include "tests/unit/dragonnest_test_character.h"

namespace marrow::gltf_testing {

inline const char* const kExportModels[] = {"demo",           "cal3d_paladin", "cal3d_cally",
                                            "brf_boots_walk", "brf_map_icons", "dragonnest"};

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
  if (name == "cal3d_paladin" || name == "cal3d_cally") {
    const std::string who = name.substr(6);
    const std::string cfg = fixtures + "/cal3d/" + who + "/" + who + ".cfg";
    if (!need(cfg)) return std::nullopt;
    return formats::loadFile(cfg);
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
