// A folder of several cal3d characters without their .cfg files, as models are shared: the parts
// of cally and paladin (the files their .cfg files name) and every file of DokuroChan
// (../shared/fixtures/cal3d) side by side, with what goes wrong in such folders: an animation
// named after no skeleton that fits several (`zombie_walk.caf`, cally's walk), and a mesh named
// after a skeleton whose bones it does not fit (`cally_extra.cmf`, a mesh of DokuroChan that
// uses bone 44; cally has 37). Framework-free: the unit, CLI and GUI tests all use it.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace marrow::testing {

struct Cal3dFolder {
  std::filesystem::path folder;
  // Per skeleton file name: the parts that belong to it, as its own .cfg names them (cally,
  // paladin) or as its folder holds them (DokuroChan), file names.
  std::map<std::string, std::set<std::string>> parts;
  std::vector<std::string> unfit{"cally_extra.cmf", "zombie_walk.caf"};
};

// The files a .cfg names (skeleton=, mesh=, material=, animation=, morphanim=), in order.
inline std::vector<std::string> cfgFiles(const std::filesystem::path& cfg) {
  std::ifstream in(cfg);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto eq = line.find('=');
    if (eq == std::string::npos || line[0] == '#') continue;
    const std::string key = line.substr(0, eq);
    if (key == "skeleton" || key == "mesh" || key == "material" || key == "animation" || key == "morphanim")
      out.push_back(line.substr(eq + 1));
  }
  return out;
}

// Lays the folder out in `root` from the cal3d fixtures; false when one is missing.
inline bool makeCal3dFolder(const std::filesystem::path& root, const std::filesystem::path& cal3dFixtures,
                            Cal3dFolder& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  out.folder = root;
  fs::create_directories(root, ec);
  const auto copy = [&](const fs::path& from, const std::string& name) {
    return fs::copy_file(from, root / name, fs::copy_options::overwrite_existing, ec);
  };
  for (const char* model : {"cally", "paladin"}) {
    const fs::path dir = cal3dFixtures / model;
    const auto files = cfgFiles(dir / (std::string(model) + ".cfg"));
    if (files.empty()) return false;
    for (const std::string& f : files) {
      if (!copy(dir / f, f)) return false;
      if (f != std::string(model) + ".csf") out.parts[std::string(model) + ".csf"].insert(f);
    }
  }
  const fs::path dokuro = cal3dFixtures / "dokurochan_v1300";
  for (const auto& e : fs::directory_iterator(dokuro, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("DokuroChan", 0) != 0) continue;
    if (!copy(e.path(), name)) return false;
    if (name != "DokuroChan.csf") out.parts["DokuroChan.csf"].insert(name);
  }
  if (ec || out.parts["DokuroChan.csf"].empty()) return false;
  return copy(cal3dFixtures / "cally" / "cally_walk.caf", "zombie_walk.caf") &&
         copy(dokuro / "DokuroChan_mesh.001.cmf", "cally_extra.cmf");
}

}  // namespace marrow::testing
