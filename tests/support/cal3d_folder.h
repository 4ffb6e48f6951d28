// A folder of several cal3d characters without their .cfg files, as models are shared: every
// cal3d file of cally and paladin (their .cfg files left out; meshes and materials kept in both
// binary and XML, clips the .cfg files do not name) and every file of DokuroChan
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
  // Per skeleton file name: every other file of that character copied (file names), and the
  // files its own .cfg names (cally, paladin; DokuroChan has none).
  std::map<std::string, std::set<std::string>> files;
  std::map<std::string, std::vector<std::string>> cfgNames;
  std::vector<std::string> misfits{"cally_extra.cmf", "zombie_walk.caf"};
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

inline bool isCal3dPart(const std::filesystem::path& p) {
  static const std::set<std::string> kinds = {".csf", ".caf", ".cmf", ".crf", ".cpf",
                                              ".xsf", ".xaf", ".xmf", ".xrf", ".xpf"};
  return kinds.count(p.extension().string()) > 0;
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
  for (const char* model : {"cally", "paladin", "dokurochan_v1300"}) {
    const fs::path dir = cal3dFixtures / model;
    std::string skeleton;
    std::vector<fs::path> parts;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      if (!isCal3dPart(e.path()) || name.rfind("base.", 0) == 0) continue;  // DokuroChan's folder holds another model
      if (e.path().extension() == ".csf") skeleton = name;
      else parts.push_back(e.path());
    }
    if (skeleton.empty() || parts.empty() || !copy(dir / skeleton, skeleton)) return false;
    for (const auto& p : parts) {
      if (!copy(p, p.filename().string())) return false;
      out.files[skeleton].insert(p.filename().string());
    }
    const fs::path cfg = dir / (fs::path(skeleton).stem().string() + ".cfg");
    if (fs::exists(cfg)) out.cfgNames[skeleton] = cfgFiles(cfg);
  }
  return copy(cal3dFixtures / "cally" / "cally_walk.caf", "zombie_walk.caf") &&
         copy(cal3dFixtures / "dokurochan_v1300" / "DokuroChan_mesh.001.cmf", "cally_extra.cmf");
}

}  // namespace marrow::testing
