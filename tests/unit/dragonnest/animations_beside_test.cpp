// A Dragon Nest skin or mesh opened alone brings its animations (issue 16): the .ani of its own
// name beside it first, then every .ani of its folder whose bones cover the mesh's; on disk and in
// a pak, where a file of the same name in another folder is not "beside" it. The files are made
// with the project's writers (tests/support/dragonnest_test_character.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "formats/load.h"
#include "tests/support/dragonnest_test_character.h"
#include "tests/support/pak_builder.h"
#include "tests/support/temp_dir.h"

namespace marrow::formats {
namespace {

namespace fs = std::filesystem;
namespace dn = dragonnest;

std::vector<std::byte> aniNamed(std::vector<std::string> clips) {
  dn::Ani a = dn::testing::characterAni(11);
  a.names = std::move(clips);
  return dn::writeAni(a).value();
}

// An animation of bones the character does not have.
std::vector<std::byte> strangerAni() {
  dn::Ani a = dn::testing::characterAni(11);
  a.names = {"Stranger", "Other"};
  for (auto& b : a.bones) b.name = "Tail_" + b.name, b.parent = b.parent == "Scene Root" ? b.parent : "Tail_" + b.parent;
  return dn::writeAni(a).value();
}

void write(const fs::path& p, const std::vector<std::byte>& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

struct Clips {
  std::vector<std::string> names, groups;
};
Clips clipsOf(const Scene& s) {
  Clips c;
  for (const Clip& clip : s.clips) c.names.push_back(clip.name), c.groups.push_back(clip.group);
  return c;
}

using ::marrow::testing::TempDir;

std::string said(const Scene& s) {
  std::string out;
  for (const auto& d : s.diagnostics.items) out += describe(d) + "\n";
  return out;
}

TEST(AnimationsBeside, ASkinOnDiskPlaysItsOwnAnimationThenThoseThatFit) {
  TempDir dir;
  const fs::path root = dir.path;
  const auto files = dn::testing::writeCharacter(11);
  write(root / "Character.skn", files.skn);
  write(root / "Character.msh", files.msh);
  write(root / "Character.ani", files.ani);               // Wave, Idle
  write(root / "character_battle.ani", aniNamed({"Attack", "Guard"}));
  write(root / "horse.ani", strangerAni());               // other bones: not played
  write(root / "broken.ani", std::vector<std::byte>(2000, std::byte{0x41}));  // damaged: passed over
  auto r = load(std::vector<std::string>{(root / "Character.skn").string()});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Clips c = clipsOf(r->scene);
  EXPECT_EQ(c.names, (std::vector<std::string>{"Wave", "Idle", "Attack", "Guard"}));
  EXPECT_EQ(c.groups, (std::vector<std::string>{"Character.ani", "Character.ani", "character_battle.ani",
                                                "character_battle.ani"}));
  // The animations give the bones their hierarchy: one root, not three.
  EXPECT_EQ(r->scene.skeleton.rootCount(), 1u);
  EXPECT_NE(said(r->scene).find("plays the animations found beside it: Character.ani, character_battle.ani"),
            std::string::npos)
      << said(r->scene);
  // A mesh alone does the same.
  auto mesh = load(std::vector<std::string>{(root / "Character.msh").string()});
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(clipsOf(mesh->scene).names.size(), 4u);
  // Animations given: nothing else is brought.
  auto given = load(std::vector<std::string>{(root / "Character.skn").string(), (root / "character_battle.ani").string()});
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(clipsOf(given->scene).names, (std::vector<std::string>{"Attack", "Guard"}));
}

TEST(AnimationsBeside, ASkinInAPakPlaysTheAnimationsOfItsFolderOnly) {
  TempDir dir;
  const auto files = dn::testing::writeCharacter(11);
  const std::string pak = (dir.path / "Resource00.pak").string();
  write(pak, testing::PakBuilder()
                 .add("resource/char/warrior/Character.skn", files.skn)
                 .add("resource/char/warrior/Character.msh", files.msh)
                 .add("resource/char/warrior/warrior_move.ani", aniNamed({"Run_Front", "Stand_Fighting"}))
                 .add("resource/char/warrior/horse.ani", strangerAni())
                 .add("resource/char/archer/Character.ani", aniNamed({"Archer_Wave", "Archer_Idle"}))
                 .bytes());
  auto r = load(std::vector<std::string>{pak + "::resource/char/warrior/character.skn"});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  // No warrior/Character.ani: the archer's of the same name is in another folder. The fitting
  // animation of its own folder plays.
  const Clips c = clipsOf(r->scene);
  EXPECT_EQ(c.names, (std::vector<std::string>{"Run_Front", "Stand_Fighting"})) << said(r->scene);
  EXPECT_EQ(r->scene.skeleton.rootCount(), 1u);
}

}  // namespace
}  // namespace marrow::formats
