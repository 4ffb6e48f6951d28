// A Warband module as an input of marrow-cli (issue 16): list, find, info with its actions, pose
// and render an action. The module is laid out from the BRF fixtures (tests/support/warband_module.h);
// the records expected are read from each BRF file by the record layer, not by the CLI.
#include <gtest/gtest.h>

#include <QJsonArray>
#include <QTemporaryDir>

#include <filesystem>
#include <map>
#include <set>

#include "formats/brf/document.h"
#include "formats/io/file.h"
#include "tests/cli/cli_util.h"
#include "tests/support/skip.h"
#include "tests/support/warband_module.h"

namespace {

namespace fs = std::filesystem;
using namespace marrow;
namespace support = marrow::testing;

class ModuleCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    std::string missing;
    if (!support::makeTestModule(fs::path(dir_.path().toStdString()), fs::path(MARROW_FIXTURES_DIR) / "brf", m_,
                                 missing))
      MARROW_SKIP() << missing << " is absent (../shared/fixtures)";
    module_ = QString::fromStdString(m_.module.string());
  }
  QTemporaryDir dir_;
  support::TestModule m_;
  QString module_;
};

// (file, kind, name) of every record of a BRF file, from the record layer.
std::multiset<std::tuple<std::string, std::string, std::string>> recordsOf(const fs::path& file) {
  std::multiset<std::tuple<std::string, std::string, std::string>> out;
  auto bytes = formats::readFile(file.string());
  EXPECT_TRUE(bytes.ok());
  formats::ReadContext ctx;
  ctx.name = file.string();
  auto doc = formats::brf::parse(*bytes, ctx);
  EXPECT_TRUE(doc.ok());
  for (const auto& m : doc->meshes) out.insert({file.string(), "mesh", m.name});
  for (const auto& s : doc->skeletons) out.insert({file.string(), "skeleton", s.name});
  for (const auto& a : doc->animations) out.insert({file.string(), "animation", a.name});
  for (const auto& m : doc->materials) out.insert({file.string(), "material", m.name});
  for (const auto& t : doc->textures) out.insert({file.string(), "texture", t.name});
  for (const auto& s : doc->shaders) out.insert({file.string(), "shader", s.name});
  for (const auto& b : doc->bodies) out.insert({file.string(), "body", b.name});
  return out;
}

TEST_F(ModuleCli, ListJsonListsEveryRecordOfEveryFileItLoadsWithItsFile) {
  std::multiset<std::tuple<std::string, std::string, std::string>> expected;
  for (const fs::path& f : {m_.commonRes / "core_shaders.brf", m_.commonRes / "Core_Pictures.brf",
                            m_.commonRes / "skeletons.brf", m_.resource / "Boots_A.BRF",
                            m_.resource / "ani_walk_backward.brf", m_.resource / "flora.brf",
                            m_.resource / "armour.brf", m_.commonRes / "horse_skeleton.brf"})
    expected.merge(recordsOf(f));
  for (const QString& input : {module_, module_ + "/module.ini"}) {
    const CliRun r = cli({"list", "--json", input});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    std::multiset<std::tuple<std::string, std::string, std::string>> listed;
    std::vector<std::string> order;
    for (const auto& v : r.json().value("records").toArray()) {
      const QJsonObject o = v.toObject();
      listed.insert({o.value("file").toString().toStdString(), o.value("kind").toString().toStdString(),
                     o.value("name").toString().toStdString()});
      const std::string file = fs::path(o.value("file").toString().toStdString()).filename().string();
      if (order.empty() || order.back() != file) order.push_back(file);
    }
    EXPECT_EQ(listed, expected);
    // In load order: the core files, then module.ini's lines.
    EXPECT_EQ(order, (std::vector<std::string>{"core_shaders.brf", "Core_Pictures.brf", "skeletons.brf",
                                               "Boots_A.BRF", "ani_walk_backward.brf", "flora.brf", "armour.brf",
                                               "horse_skeleton.brf"}));
  }
}

TEST_F(ModuleCli, FindKeepsTheRecordsWhoseNameHoldsTheText) {
  const CliRun r = cli({"list", "--json", module_, "--find", "BOOT", "--kind", "mesh"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  std::set<std::string> names;
  for (const auto& v : r.json().value("records").toArray()) names.insert(v.toObject().value("name").toString().toStdString());
  EXPECT_EQ(names, (std::set<std::string>{"boot_nomad_a", "SkinA.light_leather_boots"}));
  // The GUI filter's form, KIND:TEXT, and the text listing.
  const CliRun text = cli({"list", module_, "--find", "material:bark_0"});
  ASSERT_EQ(text.code, 0);
  EXPECT_TRUE(text.out.contains("flora.brf")) << text.out.toStdString();
  EXPECT_EQ(text.out.count("    oim_bark_0"), 4) << text.out.toStdString();
  EXPECT_FALSE(text.out.contains("skeletons.brf"));
}

TEST_F(ModuleCli, InfoJsonHasTheActionsAndTheClipsTheyMake) {
  const CliRun r = cli({"info", "--json", module_});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject info = r.json();
  const QJsonArray actions = info.value("actions").toArray();
  ASSERT_EQ(actions.size(), 4);
  const QJsonObject stand = actions[1].toObject();
  EXPECT_EQ(stand.value("name").toString(), "stand");
  EXPECT_EQ(stand.value("flags").toInteger(), 0);
  const QJsonArray seqs = stand.value("sequences").toArray();
  ASSERT_EQ(seqs.size(), 2);
  const QJsonObject second = seqs[1].toObject();
  EXPECT_EQ(second.value("animation").toString(), "anim_human");
  EXPECT_EQ(second.value("begin").toInt(), 60);
  EXPECT_EQ(second.value("end").toInt(), 62);
  EXPECT_EQ(second.value("duration").toDouble(), 2.0);
  EXPECT_EQ(second.value("flags").toInteger(), 1342177280);
  EXPECT_EQ(second.value("clip").toString(), "stand:2");
  EXPECT_EQ(actions[0].toObject().value("sequences").toArray()[0].toObject().value("flags").toInteger(),
            2415919364LL);
  EXPECT_EQ(actions[3].toObject().value("sequences").toArray()[0].toObject().value("clip").toString(), "");
  // The clip it names: what it was cut from, the frames it plays, that it loops.
  bool seen = false;
  for (const auto& v : info.value("clips").toArray()) {
    const QJsonObject c = v.toObject();
    if (c.value("name") == "back_off") {
      seen = true;
      EXPECT_EQ(c.value("group").toString(), "walk_backward");
      EXPECT_EQ(c.value("source_frames").toObject().value("first").toInt(), 30);
      EXPECT_EQ(c.value("source_frames").toObject().value("last").toInt(), 0);
      EXPECT_EQ(c.value("loops"), QJsonValue(false));
      EXPECT_DOUBLE_EQ(c.value("duration").toDouble(), 0.5);
    }
    if (c.value("name") == "anim_human") {
      EXPECT_TRUE(c.value("source_frames").isNull());
      EXPECT_TRUE(c.value("loops").isNull());
    }
  }
  EXPECT_TRUE(seen);
}

// An action's pose is its animation's at the action's frames: stand:2 at 0 s is anim_human at
// frame 60 (2 s), at its end (2 s) frame 62; back_off plays walk_backward from frame 30 down.
TEST_F(ModuleCli, PoseOfAnActionIsTheAnimationsAtItsFrames) {
  const auto modelAt = [&](const QString& clip, const QString& time) {
    const CliRun r = cli({"pose", "--json", module_, "--clip", clip, "--time", time});
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    std::vector<double> out;
    for (const auto& b : r.json().value("bones").toArray())
      for (const auto& x : b.toObject().value("model").toArray()) out.push_back(x.toDouble());
    return out;
  };
  const auto near = [](const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size() || a.empty()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::abs(a[i] - b[i]) > 1e-4) return false;
    return true;
  };
  EXPECT_TRUE(near(modelAt("stand:2", "0"), modelAt("anim_human", "2")));
  EXPECT_TRUE(near(modelAt("stand:2", "2"), modelAt("anim_human", QString::number(62.0 / 30.0, 'g', 10))));
  EXPECT_TRUE(near(modelAt("back_off", "0"), modelAt("walk_backward", "1")));
  EXPECT_TRUE(near(modelAt("back_off", "0.25"), modelAt("walk_backward", "0.5")));
  EXPECT_FALSE(near(modelAt("back_off", "0"), modelAt("back_off", "0.25")));  // it moves (frames 30 and 0 of the cycle are one pose)
}

TEST_F(ModuleCli, RenderPlaysAnActionOnARecordOfTheModule) {
  const QString out = dir_.filePath("boots.png");
  const CliRun r = cli({"render", module_ + "::boot_nomad_a", "--clip", "back_off", "--time", "0.2", "-o", out,
                        "--size", "64x64"});
  if (r.code != 0 && r.err.contains("OpenGL")) MARROW_SKIP() << "no OpenGL here: " << r.err.toStdString();
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_TRUE(fs::exists(out.toStdString()));
  const CliRun missing = cli({"render", module_ + "::boot_nomad_a", "--clip", "no_such_action", "-o", out});
  EXPECT_EQ(missing.code, 2) << missing.err.toStdString();  // a usage error, naming the clips there are
}

}  // namespace
