// A Dragon Nest client folder opened whole (issue 16): every pak in it mounts as one file system
// in the client's override order (dragonnest.md §2.4: byte-wise order of the paths, so
// 00Resource.pak overrides Resource00.pak), and FOLDER::path opens an entry of any of them; a
// skin in one pak plays the animation its folder holds in another.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "formats/load.h"
#include "tests/support/dragonnest_test_character.h"
#include "tests/support/pak_builder.h"

namespace marrow::formats {
namespace {

namespace fs = std::filesystem;
namespace dn = dragonnest;

void write(const fs::path& p, const std::vector<std::byte>& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::string text(const std::vector<std::byte>& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

TEST(ClientFolder, EveryPakMountsAsOneFileSystemInTheClientsOrder) {
  const fs::path client = fs::temp_directory_path() / "marrow_client_folder";
  fs::remove_all(client);
  const auto files = dn::testing::writeCharacter(11);
  write(client / "Resource00.pak", testing::PakBuilder()
                                       .add("resource/char/warrior/Character.skn", files.skn)
                                       .add("resource/char/warrior/Character.msh", files.msh)
                                       .add("resource/etc/version.txt", "from Resource00")
                                       .bytes());
  write(client / "Resource01.pak", testing::PakBuilder().add("resource/char/warrior/Character.ani", files.ani).bytes());
  write(client / "00Resource.pak", testing::PakBuilder().add("resource/etc/version.txt", "from 00Resource").bytes());
  write(client / "DragonNest.exe", std::vector<std::byte>(16, std::byte{0x4D}));  // not an archive
  // A Quake pak of the same extension: not the client's, left alone.
  write(client / "quake.pak", {std::byte{'P'}, std::byte{'A'}, std::byte{'C'}, std::byte{'K'}, std::byte{12},
                               std::byte{0}, std::byte{0}, std::byte{0}, std::byte{0}, std::byte{0}, std::byte{0},
                               std::byte{0}});

  auto whole = load(std::vector<std::string>{client.string()});
  ASSERT_TRUE(whole.ok()) << whole.error().describe();
  ASSERT_EQ(whole->archives.archives().size(), 1u);
  const auto& paks = *whole->archives.archives()[0];
  EXPECT_EQ(paks.kind(), "pak");
  EXPECT_EQ(paks.openedFrom().size(), 3u);
  auto version = paks.read("resource/etc/version.txt", {});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(text(*version), "from 00Resource");  // the override order

  // FOLDER::path: the skin, from Resource00, with its animation from Resource01 beside it.
  auto skin = load(std::vector<std::string>{client.string() + "::resource/char/warrior/character.skn"});
  ASSERT_TRUE(skin.ok()) << skin.error().describe();
  EXPECT_FALSE(skin->scene.meshes.empty());
  ASSERT_EQ(skin->scene.clips.size(), 2u);
  EXPECT_EQ(skin->scene.clips[0].name, "Wave");
  fs::remove_all(client);
}

}  // namespace
}  // namespace marrow::formats
