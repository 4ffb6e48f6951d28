// A folder of several cal3d characters without .cfg files (formats/cal3d/folder_models.h): the
// parts are grouped per skeleton exactly as each character's own .cfg groups them, and what fits
// none is reported with why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "formats/cal3d/folder_models.h"
#include "formats/folder_models.h"
#include "tests/support/cal3d_folder.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

namespace marrow::formats {
namespace {

namespace fs = std::filesystem;

const fs::path kCal3d = fs::path(MARROW_FIXTURES_DIR) / "cal3d";

std::vector<std::string> filesOf(const fs::path& folder) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(folder)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string name(const std::string& path) { return fs::path(path).filename().string(); }

class Cal3dFolderModels : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kCal3d / "dokurochan_v1300")) MARROW_SKIP() << "no cal3d fixtures in " << kCal3d;
    ASSERT_TRUE(testing::makeCal3dFolder(dir_.path / "mixed", kCal3d, folder_));
  }
  testing::TempDir dir_;
  testing::Cal3dFolder folder_;
};

std::string stemOf(const std::string& file) { return fs::path(file).stem().string(); }

// Each skeleton gets every part of its character, once: of a part kept in binary and XML, one
// form (the other listed unfit), and every file its own .cfg names (or that file's twin). The
// two misfits are listed with why, and DokuroChan's numbered materials keep their numbers' order.
TEST_F(Cal3dFolderModels, PartsAreGroupedPerCharacter) {
  const FolderModels found = cal3d::modelsInFolder(filesOf(folder_.folder));
  ASSERT_EQ(found.models.size(), 3u);
  std::map<std::string, std::string> unfit;
  for (const auto& u : found.unfit) unfit[name(u.file)] = u.why;
  for (const auto& model : found.models) {
    const std::string skeleton = name(model.front());
    ASSERT_TRUE(folder_.files.count(skeleton)) << skeleton;
    std::set<std::string> group, stems;
    for (std::size_t i = 1; i < model.size(); ++i) {
      group.insert(name(model[i]));
      stems.insert(stemOf(model[i]));
    }
    for (const auto& f : group) EXPECT_TRUE(folder_.files.at(skeleton).count(f)) << f << " in " << skeleton;
    for (const auto& f : folder_.files.at(skeleton)) {
      if (group.count(f)) continue;
      // Left out only as the other form of a part that is in.
      EXPECT_TRUE(stems.count(stemOf(f))) << f << " of " << skeleton;
      EXPECT_NE(unfit[f].find("in another form"), std::string::npos) << f << ": " << unfit[f];
    }
    if (folder_.cfgNames.count(skeleton)) {
      for (const auto& f : folder_.cfgNames.at(skeleton)) {
        if (f != skeleton) {
          EXPECT_TRUE(stems.count(stemOf(f))) << f << " of " << skeleton << "'s .cfg";
        }
      }
    }
    if (skeleton == "DokuroChan.csf") {
      std::vector<int> numbers;
      for (const auto& part : model)
        if (name(part).rfind("DokuroChan_", 0) == 0 && fs::path(part).extension() == ".xrf")
          numbers.push_back(std::stoi(stemOf(part).substr(11)));
      ASSERT_FALSE(numbers.empty());
      EXPECT_TRUE(std::is_sorted(numbers.begin(), numbers.end()));
    }
  }
  EXPECT_NE(unfit["cally_extra.cmf"].find("its name says cally.csf, but it uses bone id 44"), std::string::npos)
      << unfit["cally_extra.cmf"];
  EXPECT_NE(unfit["zombie_walk.caf"].find("its name says no skeleton of the folder, and its bone ids fit "
                                          "cally.csf, DokuroChan.csf and paladin.csf"),
            std::string::npos)
      << unfit["zombie_walk.caf"];
}

// Without DokuroChan's skeleton none of its parts goes to cally or paladin: its animation uses a
// bone neither has, its materials name no bone and no skeleton, its meshes say no skeleton.
TEST_F(Cal3dFolderModels, PartsOfAMissingSkeletonGoNowhere) {
  fs::remove(folder_.folder / "DokuroChan.csf");
  const FolderModels found = cal3d::modelsInFolder(filesOf(folder_.folder));
  ASSERT_EQ(found.models.size(), 2u);
  std::map<std::string, std::string> why;
  for (const auto& u : found.unfit) why[name(u.file)] = u.why;
  EXPECT_NE(why["DokuroChan_test_bone.caf"].find("uses bone id 98, which none of the folder's skeletons has"),
            std::string::npos)
      << why["DokuroChan_test_bone.caf"];
  EXPECT_NE(why["DokuroChan_0.xrf"].find("its name says no skeleton of the folder, and it names no bone"),
            std::string::npos)
      << why["DokuroChan_0.xrf"];
  for (const auto& model : found.models)
    for (const auto& part : model) EXPECT_NE(name(part).rfind("DokuroChan", 0), 0u) << name(part) << " went to " << name(model.front());
}

// "hero2_body" is hero2's (the longest name it begins with), and when hero2's bones do not fit
// it, it is hero2's misfit, not hero's part; "hero_walk" is hero's.
TEST_F(Cal3dFolderModels, TheLongestNameDecidesAndMustFit) {
  testing::TempDir dir;
  const auto copy = [&](const fs::path& from, const char* to) { fs::copy_file(from, dir.path / to); };
  copy(kCal3d / "paladin" / "paladin.csf", "hero.csf");   // 58 bones
  copy(kCal3d / "cally" / "cally.csf", "hero2.csf");      // 37 bones
  copy(kCal3d / "paladin" / "paladin_body.cmf", "hero2_body.cmf");  // paladin's bones, past 37
  copy(kCal3d / "paladin" / "paladin_walk.caf", "hero_walk.caf");
  copy(kCal3d / "cally" / "cally_head.cmf", "hero2_head.cmf");
  const FolderModels found = cal3d::modelsInFolder(filesOf(dir.path));
  ASSERT_EQ(found.models.size(), 2u);
  std::map<std::string, std::vector<std::string>> models;
  for (const auto& m : found.models)
    for (std::size_t i = 1; i < m.size(); ++i) models[name(m.front())].push_back(name(m[i]));
  EXPECT_EQ(models["hero.csf"], std::vector<std::string>{"hero_walk.caf"});
  EXPECT_EQ(models["hero2.csf"], std::vector<std::string>{"hero2_head.cmf"});
  ASSERT_EQ(found.unfit.size(), 1u);
  EXPECT_EQ(name(found.unfit[0].file), "hero2_body.cmf");
  EXPECT_NE(found.unfit[0].why.find("its name says hero2.csf"), std::string::npos) << found.unfit[0].why;
}

// One skeleton: every part is its model, of each twin one form; a .cfg: each .cfg is a model.
TEST_F(Cal3dFolderModels, OneSkeletonOrACfgKeepsTheSimpleRules) {
  const fs::path paladin = kCal3d / "paladin";
  std::vector<std::string> parts;
  for (const auto& e : fs::directory_iterator(paladin))
    if (testing::isCal3dPart(e.path())) parts.push_back(e.path().string());
  const FolderModels one = cal3d::modelsInFolder(parts);
  ASSERT_EQ(one.models.size(), 1u);
  EXPECT_EQ(name(one.models[0].front()), "paladin.csf");
  std::set<std::string> kept;
  for (const auto& f : one.models[0]) kept.insert(name(f));
  EXPECT_TRUE(kept.count("paladin_body.cmf"));
  EXPECT_FALSE(kept.count("paladin_body.xmf"));
  EXPECT_EQ(one.models[0].size() + one.unfit.size(), parts.size());
  for (const auto& u : one.unfit) EXPECT_NE(u.why.find("in another form"), std::string::npos) << u.why;
  parts.push_back((paladin / "paladin.cfg").string());
  const FolderModels withCfg = cal3d::modelsInFolder(parts);
  ASSERT_EQ(withCfg.models.size(), 1u);
  EXPECT_EQ(withCfg.models[0], std::vector<std::string>{(paladin / "paladin.cfg").string()});
  EXPECT_TRUE(withCfg.unfit.empty());
}

// A .cfg beside another character's loose parts: the .cfg is one model, the loose parts with
// their skeleton another; the .cfg's own other files (clips it leaves out) are neither.
TEST_F(Cal3dFolderModels, ACfgBesideAnotherCharactersParts) {
  testing::TempDir dir;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(kCal3d / "cally")) {
    fs::copy_file(e.path(), dir.path / e.path().filename());
    files.push_back((dir.path / e.path().filename()).string());
  }
  for (const char* f : {"paladin.csf", "paladin_body.cmf", "paladin_walk.caf", "paladin_chest.xrf"}) {
    fs::copy_file(kCal3d / "paladin" / f, dir.path / f);
    files.push_back((dir.path / f).string());
  }
  const FolderModels found = cal3d::modelsInFolder(files);
  ASSERT_EQ(found.models.size(), 2u);
  EXPECT_EQ(found.models[0], std::vector<std::string>{(dir.path / "cally.cfg").string()});
  std::vector<std::string> paladin;
  for (const auto& f : found.models[1]) paladin.push_back(name(f));
  EXPECT_EQ(paladin, (std::vector<std::string>{"paladin.csf", "paladin_body.cmf", "paladin_chest.xrf", "paladin_walk.caf"}));
  EXPECT_TRUE(found.unfit.empty());
}

// A skeleton that cannot be read is reported, and the parts go to the others.
TEST_F(Cal3dFolderModels, AnUnreadableSkeletonIsReported) {
  std::ofstream(folder_.folder / "broken.csf", std::ios::binary) << "CSF\0 not a skeleton";
  const FolderModels found = cal3d::modelsInFolder(filesOf(folder_.folder));
  EXPECT_EQ(found.models.size(), 3u);
  ASSERT_FALSE(found.unfit.empty());
  const auto broken = std::find_if(found.unfit.begin(), found.unfit.end(),
                                   [](const auto& u) { return name(u.file) == "broken.csf"; });
  ASSERT_NE(broken, found.unfit.end());
  EXPECT_TRUE(broken->unreadable);
  EXPECT_NE(broken->why.find("not read"), std::string::npos) << broken->why;
}

// Every format's models in one folder, and a part's model.
TEST_F(Cal3dFolderModels, APartsModelIsItsSkeletonsGroup) {
  const auto files = modelFilesOf((folder_.folder / "paladin_walk.caf").string());
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(name(files.front()), "paladin.csf");
  const FolderModels found = cal3d::modelsInFolder(filesOf(folder_.folder));
  for (const auto& m : found.models) {
    if (name(m.front()) == "paladin.csf") {
      EXPECT_EQ(files, m);
    }
  }
  EXPECT_EQ(modelFilesOf((folder_.folder / "zombie_walk.caf").string()),
            std::vector<std::string>{(folder_.folder / "zombie_walk.caf").string()});
  const FolderContents all = modelsInFolder(filesOf(folder_.folder));
  EXPECT_EQ(all.models.size(), 3u);
  EXPECT_EQ(all.unfit.size(), found.unfit.size());
}

}  // namespace
}  // namespace marrow::formats
