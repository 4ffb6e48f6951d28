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

// Each skeleton gets the parts its own .cfg names (cally, paladin) or that carry its name
// (DokuroChan): nothing more, nothing less, skeleton first.
TEST_F(Cal3dFolderModels, PartsAreGroupedAsEachCharactersCfgGroupsThem) {
  const FolderModels found = cal3d::modelsInFolder(filesOf(folder_.folder));
  ASSERT_EQ(found.models.size(), 3u);
  for (const auto& model : found.models) {
    const std::string skeleton = name(model.front());
    ASSERT_TRUE(folder_.parts.count(skeleton)) << skeleton;
    std::set<std::string> parts;
    for (std::size_t i = 1; i < model.size(); ++i) parts.insert(name(model[i]));
    EXPECT_EQ(parts, folder_.parts.at(skeleton)) << skeleton;
  }
  std::vector<std::string> unfit;
  for (const auto& u : found.unfit) unfit.push_back(name(u.file));
  EXPECT_EQ(unfit, folder_.unfit);
  // Each says why: the name that says one skeleton and bones that say others; a fit to several.
  EXPECT_NE(found.unfit[0].why.find("its name says cally.csf, but it uses bone id 44"), std::string::npos)
      << found.unfit[0].why;
  EXPECT_NE(found.unfit[1].why.find("fits DokuroChan.csf, cally.csf and paladin.csf alike"), std::string::npos)
      << found.unfit[1].why;
}

// Without DokuroChan's skeleton, its animation uses a bone neither other skeleton has, its
// materials and morph animation (no bone ids) say no skeleton: none of them goes to cally or
// paladin by accident of name.
TEST_F(Cal3dFolderModels, PartsOfAMissingSkeletonFitNoneOrOnlyByTheirBones) {
  fs::remove(folder_.folder / "DokuroChan.csf");
  const FolderModels found = cal3d::modelsInFolder(filesOf(folder_.folder));
  ASSERT_EQ(found.models.size(), 2u);
  std::map<std::string, std::string> why;
  for (const auto& u : found.unfit) why[name(u.file)] = u.why;
  EXPECT_NE(why["DokuroChan_test_bone.caf"].find("uses bone id 98, which none of the folder's skeletons has"),
            std::string::npos)
      << why["DokuroChan_test_bone.caf"];
  EXPECT_NE(why["DokuroChan_0.xrf"].find("uses no bone id"), std::string::npos) << why["DokuroChan_0.xrf"];
  for (const auto& model : found.models)
    for (const auto& part : model) {
      if (name(part).rfind("DokuroChan", 0) != 0) continue;
      // Only a mesh whose bone ids only paladin has may go there (the bones decide).
      EXPECT_TRUE(name(model.front()) == "paladin.csf" && name(part).find(".cmf") != std::string::npos)
          << name(part) << " went to " << name(model.front());
    }
}

// One skeleton: every part is its model, as before; a .cfg: each .cfg is a model.
TEST_F(Cal3dFolderModels, OneSkeletonOrACfgKeepsTheSimpleRules) {
  const fs::path paladin = kCal3d / "paladin";
  std::vector<std::string> parts;
  for (const std::string& f : testing::cfgFiles(paladin / "paladin.cfg")) parts.push_back((paladin / f).string());
  const FolderModels one = cal3d::modelsInFolder(parts);
  ASSERT_EQ(one.models.size(), 1u);
  EXPECT_EQ(name(one.models[0].front()), "paladin.csf");
  EXPECT_EQ(one.models[0].size(), parts.size());
  EXPECT_TRUE(one.unfit.empty());
  parts.push_back((paladin / "paladin.cfg").string());
  const FolderModels withCfg = cal3d::modelsInFolder(parts);
  ASSERT_EQ(withCfg.models.size(), 1u);
  EXPECT_EQ(withCfg.models[0], std::vector<std::string>{(paladin / "paladin.cfg").string()});
}

// A skeleton that cannot be read is reported, and the parts go to the others.
TEST_F(Cal3dFolderModels, AnUnreadableSkeletonIsReported) {
  std::ofstream(folder_.folder / "broken.csf", std::ios::binary) << "CSF\0 not a skeleton";
  const FolderModels found = cal3d::modelsInFolder(filesOf(folder_.folder));
  EXPECT_EQ(found.models.size(), 3u);
  ASSERT_FALSE(found.unfit.empty());
  EXPECT_EQ(name(found.unfit.front().file), "broken.csf");
  EXPECT_NE(found.unfit.front().why.find("not read"), std::string::npos) << found.unfit.front().why;
}

// Every format's models in one folder, and a part's model.
TEST_F(Cal3dFolderModels, APartsModelIsItsSkeletonsGroup) {
  const std::string part = *folder_.parts.at("paladin.csf").begin();
  const auto files = modelFilesOf((folder_.folder / part).string());
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(name(files.front()), "paladin.csf");
  EXPECT_EQ(files.size(), folder_.parts.at("paladin.csf").size() + 1);
  EXPECT_EQ(modelFilesOf((folder_.folder / "zombie_walk.caf").string()),
            std::vector<std::string>{(folder_.folder / "zombie_walk.caf").string()});
  const FolderContents all = modelsInFolder(filesOf(folder_.folder));
  EXPECT_EQ(all.models.size(), 3u);
  EXPECT_EQ(all.unfit.size(), 2u);
}

}  // namespace
}  // namespace marrow::formats
