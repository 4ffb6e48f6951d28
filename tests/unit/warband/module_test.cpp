// A Warband module as one library (warband_module.md §1, §2): the real module.ini's lines, and a
// module laid out from the BRF fixtures (tests/support/warband_module.h) opened by its folder, its
// module.ini or a BRF inside it: load order, origins, first definition wins, textures from both
// Textures folders, and what the files say of each other.
#include "formats/warband/module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/brf/archive.h"
#include "formats/brf/document.h"
#include "formats/format_table.h"
#include "formats/io/file.h"
#include "formats/load.h"
#include "tests/support/read_context.h"
#include "tests/support/skip.h"
#include "tests/support/warband_module.h"

namespace marrow::formats {
namespace {

namespace fs = std::filesystem;
using testing::named;

const fs::path kFixtures = fs::path(MARROW_FIXTURES_DIR);

// A fresh install with the test module, removed at the end of the test.
class ModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("marrow_module_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    std::string missing;
    if (!testing::makeTestModule(root_, kFixtures / "brf", m_, missing))
      MARROW_SKIP() << missing << " is absent (../shared/fixtures)";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  Loaded load(const std::vector<std::string>& addresses) {
    auto r = formats::load(addresses);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
    return r.ok() ? std::move(r).value() : Loaded{};
  }
  static std::string messages(const Diagnostics& d) {
    std::string out;
    for (const auto& i : d.items) out += describe(i) + "\n";
    return out;
  }
  fs::path root_;
  testing::TestModule m_;
};

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(WarbandModuleIni, TheRealFilesResourceLinesInOrder) {
  const std::string path = (kFixtures / "warband" / "module.ini").string();
  if (!fs::exists(path)) MARROW_SKIP() << path << " is absent (../shared/fixtures)";
  auto data = readFile(path);
  ASSERT_TRUE(data.ok());
  const auto ini = warband::readModuleIni(*data, named(path));
  ASSERT_TRUE(ini.ok()) << ini.error().describe();
  // Counted with grep over the file's uncommented lines: 71 load_resource, 91 load_mod_resource,
  // 34 commented resource lines left out; the first at line 125 (shaders), the last at 365.
  ASSERT_EQ(ini->resources.size(), 162u);
  EXPECT_EQ(std::count_if(ini->resources.begin(), ini->resources.end(),
                          [](const auto& r) { return r.from == warband::ResourceLine::From::CommonRes; }),
            71);
  EXPECT_EQ(ini->resources.front().name, "shaders");
  EXPECT_EQ(ini->resources.front().line, 125u);
  EXPECT_EQ(ini->resources.back().name, "00_work");
  EXPECT_EQ(ini->resources.back().line, 365u);
  EXPECT_TRUE(ini->scanModuleTextures);
  EXPECT_TRUE(ini->diagnostics.items.empty());
}

TEST(WarbandModuleIni, NamesThatLeaveTheFolderAreLeftOut) {
  const auto ini = warband::readModuleIni(
      testing::bytes("load_resource = ../../etc/passwd\nload_mod_resource = C:\\x\nLOAD_MOD_RESOURCE = ok\n"
                     "load_resource =\n"),
      named("module.ini"));
  ASSERT_TRUE(ini.ok());
  ASSERT_EQ(ini->resources.size(), 1u);
  EXPECT_EQ(ini->resources[0].name, "ok");
  EXPECT_EQ(ini->resources[0].line, 3u);
  EXPECT_EQ(ini->diagnostics.items.size(), 3u);
}

TEST_F(ModuleTest, AFolderItsIniOrABrfInsideNameTheModule) {
  for (const fs::path& p : {m_.module, m_.module / "module.ini", m_.resource / "Boots_A.BRF"}) {
    const auto f = warband::moduleOf(p.string());
    ASSERT_TRUE(f) << p;
    EXPECT_EQ(fs::path(f->module), m_.module);
    EXPECT_EQ(f->name, "Test Module");
    EXPECT_EQ(fs::path(f->commonRes), m_.commonRes);
    EXPECT_EQ(fs::path(f->moduleTextures), m_.module / "Textures");
    EXPECT_EQ(fs::path(f->installTextures), root_ / "Textures");
  }
  EXPECT_FALSE(warband::moduleOf((m_.commonRes / "skeletons.brf").string()));
  EXPECT_FALSE(warband::moduleOf(root_.string()));
  // The format table's word for File › Open Module of This File.
  const FormatDescriptor* f = formatById("warband");
  ASSERT_TRUE(f && f->libraryOf);
  EXPECT_EQ(f->libraryOf((m_.resource / "armour.brf").string()), m_.module.string());
}

TEST_F(ModuleTest, LoadsTheCoreFilesThenEveryLineInOrderEachWithItsOrigin) {
  const auto folders = warband::moduleOf(m_.module.string());
  ASSERT_TRUE(folders);
  auto module = warband::openModule(*folders, {}, false);
  ASSERT_TRUE(module.ok()) << module.error().describe();
  std::vector<std::string> files, notes;
  for (const auto& s : module->sources) {
    files.push_back(fs::path(s.name).filename().string());
    notes.push_back(s.note);
  }
  EXPECT_EQ(files, (std::vector<std::string>{"core_shaders.brf", "Core_Pictures.brf", "skeletons.brf", "Boots_A.BRF",
                                             "ani_walk_backward.brf", "flora.brf", "armour.brf",
                                             "horse_skeleton.brf"}));
  EXPECT_EQ(notes, (std::vector<std::string>{"core", "core", "module.ini line 4, CommonRes", "module.ini line 6, module",
                                             "module.ini line 7, module", "module.ini line 8, module",
                                             "module.ini line 9, module", "module.ini line 10, CommonRes"}));
  EXPECT_EQ(module->actions.size(), 4u);
  const std::string said = messages(module->diagnostics);
  // The core files that are not there, the line whose file is not there, the file named twice.
  EXPECT_EQ(count(said, "core file core_"), 3u) << said;
  EXPECT_NE(said.find("load_mod_resource = not_there (line 11)"), std::string::npos) << said;
  EXPECT_NE(said.find("(line 12): names skeletons.brf again"), std::string::npos) << said;
  // Duplicates name both places; the first wins.
  EXPECT_NE(said.find("armour.brf: skeleton 'skel_human': is defined again here; the first, in skeletons.brf "
                      "(module.ini line 4, CommonRes), is the one used"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("horse_skeleton.brf: skeleton 'skel_horse': is defined again here; the first, in armour.brf"),
            std::string::npos)
      << said;
  // Missing references: the boots' material is in no file.
  EXPECT_NE(said.find("mesh 'boot_nomad_a': uses material 'costumes8_skin', which no file of the module defines"),
            std::string::npos)
      << said;
  // DDS files: flora's 9 texture records, 2 of which are in a Textures folder (the module's, the
  // install's).
  EXPECT_EQ(count(said, "is in neither the module's Textures/ nor the game's"), 7u) << said;
  EXPECT_EQ(said.find("oim_bark_02.dds is in neither"), std::string::npos);
  EXPECT_EQ(said.find("oim_bark_03.dds is in neither"), std::string::npos);
}

TEST_F(ModuleTest, ARecordUsedBeforeTheFileThatDefinesItIsAnOrderingProblem) {
  // A file loaded after the boots that defines the boots' material.
  brf::Document late;
  late.version = 1;
  brf::Material m;
  m.name = "costumes8_skin";
  m.shader = "def_shader";
  m.diffuseA = "none";
  m.bump = m.enviro = "none";
  m.spec = "none";
  late.materials.push_back(m);
  const auto bytes = brf::write(late);
  std::ofstream(m_.resource / "late.brf", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  std::ofstream(m_.module / "module.ini", std::ios::app | std::ios::binary) << "load_mod_resource = late\r\n";
  auto module = warband::openModule(*warband::moduleOf(m_.module.string()), {}, false);
  ASSERT_TRUE(module.ok());
  const std::string said = messages(module->diagnostics);
  EXPECT_NE(said.find("mesh 'boot_nomad_a': uses material 'costumes8_skin', defined only later, in late.brf "
                      "(module.ini line 13, module) (an ordering problem"),
            std::string::npos)
      << said;
  EXPECT_EQ(said.find("'costumes8_skin', which no file"), std::string::npos) << said;
}

TEST_F(ModuleTest, AModuleIsAnInputLikeAnyOther) {
  // By its folder: a library of skeletons and animations (not every mesh at once) with its actions.
  for (const fs::path& p : {m_.module, m_.module / "module.ini"}) {
    const Loaded l = load({p.string()});
    EXPECT_EQ(l.scene.format, "Warband module Test Module");
    EXPECT_TRUE(l.scene.meshes.empty());
    EXPECT_EQ(l.scene.skeleton.name, "skel_human");
    EXPECT_EQ(l.scene.actions.size(), 4u);
    std::vector<std::string> cut;
    for (const Clip& c : l.scene.clips)
      if (c.sourceFrames) cut.push_back(c.name);
    EXPECT_EQ(cut, (std::vector<std::string>{"walk_backward (action)", "stand:1", "stand:2", "back_off"}));
    ASSERT_EQ(l.archives.archives().size(), 1u);
    EXPECT_EQ(l.archives.archives()[0]->kind(), "module");
    EXPECT_EQ(l.archives.archives()[0]->title(), "Test Module");
  }
  // MODULE::RECORD: the record, found in whichever file has it, with what it needs.
  const Loaded boots = load({m_.module.string() + "::boot_nomad_a"});
  ASSERT_EQ(boots.scene.meshes.size(), 1u);
  EXPECT_EQ(boots.scene.skeleton.name, "skel_human");
  EXPECT_FALSE(boots.scene.clips.empty());
  // First definition wins: skel_horse comes from armour.brf (line 9), not horse_skeleton.brf.
  const auto archive = load({m_.module.string()}).archives.archives().at(0);
  const auto horse = archive->find("skel_horse");
  ASSERT_TRUE(horse);
  EXPECT_EQ(fs::path(archive->addressOf(*horse).file).filename(), "armour.brf");
  // Textures: the module's Textures/, then the install's.
  const Loaded bark = load({m_.module.string() + "::oim_bark_03", m_.module.string() + "::oim_bark_02"});
  std::map<std::string, std::string> found;
  for (const Texture& t : bark.scene.textures)
    if (!t.data.empty()) found[t.name] = std::string(reinterpret_cast<const char*>(t.data.data()), t.data.size());
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found["oim_bark_03.dds"], testing::kModuleBark03);
  EXPECT_EQ(found["oim_bark_02.dds"], testing::kInstallBark02);
}

TEST_F(ModuleTest, FindsAcrossTheModuleByNameAndKind) {
  const auto archive = load({m_.module.string()}).archives.archives().at(0);
  const auto names = [&](const std::string& query) {
    std::vector<std::string> out;
    for (const auto& n : archive->search(query, 1000)) out.push_back(n.name);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(names("mesh:BOOT"), (std::vector<std::string>{"SkinA.light_leather_boots", "boot_nomad_a"}));
  EXPECT_EQ(names("skeleton:"), (std::vector<std::string>{"skel_horse", "skel_horse", "skel_human", "skel_human"}));
  EXPECT_EQ(names("animation:walk"), (std::vector<std::string>{"man_walk", "walk_backward"}));
  // Each file of the module shows where it comes from.
  bool shown = false;
  for (const auto& file : archive->children(""))
    if (file.name == "Boots_A.BRF") shown = file.detail.find("module.ini line 6, module") != std::string::npos;
  EXPECT_TRUE(shown);
}

// Usage: what the module's text files name, what records name, the core files; the rest unused.
TEST_F(ModuleTest, RecordsSayWhatUsesThem) {
  const auto archive = load({m_.module.string()}).archives.archives().at(0);
  const auto usage = [&](const std::string& kind, const std::string& name, const std::string& file = {}) {
    for (const auto& n : archive->search(kind + ":" + name, 100)) {
      if (n.name != name || (!file.empty() && archive->addressOf(n.path).file.find(file) == std::string::npos))
        continue;
      std::string users;
      for (const auto& [label, text] : archive->properties(n.path))
        if (label == "Used by") users += (users.empty() ? "" : "; ") + text;
      return std::string(n.has(vfs::Node::Unused) ? "unused: " : "used: ") + users;
    }
    return std::string("not found");
  };
  EXPECT_EQ(usage("mesh", "boot_nomad_a"), "used: skins.txt");
  EXPECT_EQ(usage("mesh", "SkinA.hard_lthr_a"), "used: Item_Kinds1.txt");
  EXPECT_EQ(usage("mesh", "SkinA.light_leather_boots"), "unused: nothing in Test Module");
  EXPECT_EQ(usage("skeleton", "skel_human", "skeletons.brf"), "used: skins.txt");
  EXPECT_EQ(usage("skeleton", "skel_horse", "armour.brf"), "unused: nothing in Test Module");
  EXPECT_EQ(usage("animation", "anim_human"), "used: actions.txt");
  EXPECT_EQ(usage("animation", "man_walk"), "unused: nothing in Test Module");
  EXPECT_EQ(usage("material", "oim_bark_03"), "unused: nothing in Test Module");
  EXPECT_EQ(usage("texture", "oim_bark_03_bump.dds"), "used: material 'oim_bark_03'");
  EXPECT_EQ(usage("shader", "def_shader"), "used: the game (a core file)");
  EXPECT_EQ(usage("mesh", "pic_mb_warrior_1"), "used: the game (a core file)");
  // users(): the same, with the record a user is, to go to (the context menu's "Used by").
  const auto bump = archive->search("texture:oim_bark_03_bump.dds", 10);
  ASSERT_FALSE(bump.empty());
  const auto users = archive->users(bump[0].path);
  ASSERT_TRUE(users);
  ASSERT_EQ(users->size(), 1u);
  EXPECT_EQ(users->at(0).text, "material 'oim_bark_03'");
  const auto material = archive->node(users->at(0).path);
  ASSERT_TRUE(material);
  EXPECT_EQ(material->kind, "material");
  EXPECT_EQ(material->name, "oim_bark_03");
  const auto boots = archive->search("mesh:boot_nomad_a", 10);
  ASSERT_FALSE(boots.empty());
  const auto byText = archive->users(boots[0].path);
  ASSERT_TRUE(byText);
  ASSERT_EQ(byText->size(), 1u);
  EXPECT_EQ(byText->at(0).path, "");  // skins.txt: not a node
  const auto unused = archive->search("animation:man_walk", 10);
  ASSERT_FALSE(unused.empty());
  const auto none = archive->users(unused[0].path);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(archive->users(""));  // not a record
}

// The Data/ text files (flora, ground, skyboxes) come from the module's Data/ folder, else the
// install's, never the module's root.
TEST_F(ModuleTest, DataTextFilesComeFromTheModulesDataElseTheInstalls) {
  const auto write = [](const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  };
  write(m_.module / "flora_kinds.txt", "man_walk 0 0\n");                      // not read: the root
  write(m_.module / "Data" / "flora_kinds.txt", "SkinA.light_leather_boots 0\n");
  write(m_.install / "Data" / "flora_kinds.txt", "skel_horse\n");              // hidden by the module's
  write(m_.install / "Data" / "ground_specs.txt", "oim_bark_03 0.5\n");
  const auto archive = load({m_.module.string()}).archives.archives().at(0);
  const auto usedBy = [&](const std::string& kind, const std::string& name) {
    std::string out;
    for (const auto& n : archive->search(kind + ":" + name, 100))
      if (n.name == name)
        if (const auto users = archive->users(n.path))
          for (const auto& u : *users) out += (out.empty() ? "" : "; ") + u.text;
    return out;
  };
  EXPECT_EQ(usedBy("mesh", "SkinA.light_leather_boots"), "flora_kinds.txt");
  EXPECT_EQ(usedBy("material", "oim_bark_03"), "ground_specs.txt");
  EXPECT_EQ(usedBy("animation", "man_walk"), "");
  EXPECT_EQ(usedBy("skeleton", "skel_horse"), "");
}

TEST_F(ModuleTest, WithoutAnInstallTheModuleReadsItsOwnFilesAndSaysWhatIsLeftOut) {
  const fs::path alone = root_ / "alone";
  fs::create_directories(alone);
  fs::rename(m_.module, alone / "Test Module");
  const Loaded l = load({(alone / "Test Module").string()});
  const std::string said = messages(l.scene.diagnostics);
  EXPECT_NE(said.find("not in an install's Modules folder"), std::string::npos) << said;
  // The module's own files only: walk_backward from Resource/, no anim_human.
  std::vector<std::string> clips;
  for (const Clip& c : l.scene.clips) clips.push_back(c.name);
  EXPECT_NE(std::find(clips.begin(), clips.end(), "walk_backward"), clips.end());
  EXPECT_EQ(std::find(clips.begin(), clips.end(), "anim_human"), clips.end());
}

TEST_F(ModuleTest, AModuleThatLoadsNothingIsAnError) {
  fs::remove_all(m_.resource);
  fs::remove_all(m_.commonRes);
  const auto r = formats::load(std::vector<std::string>{m_.module.string()});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("loads no BRF file"), std::string::npos) << r.error().describe();
}

}  // namespace
}  // namespace marrow::formats
