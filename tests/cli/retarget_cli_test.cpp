// Animation across skeletons and clips as pictures, through marrow-cli: a cal3d clip retargeted
// onto an OMF skeleton (--animations, --bone-map) and image sequences / animated PNGs of a clip
// (render --frames, --fps); and the frame plan, file names and APNG assembly behind them.
//
// The cal3d source and the OMF target are one character written twice by the project's writers
// (tests/support/retarget_test_character.h, where the expected joint positions are worked out).
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtEndian>
#include <cmath>
#include <cstring>
#include <glm/gtc/quaternion.hpp>

#include "app/frame_output.h"
#include "cli_util.h"
#include "tests/support/retarget_test_character.h"
#include "tests/support/skip.h"

namespace {

constexpr float kPi = 3.14159265358979f;

// A command's usage lists the option only once app/cli/cli.cpp registers it.
bool takes(const char* command, const char* option) {
  return cli({QString::fromLatin1(command), QStringLiteral("--help")}).out.contains(option);
}
#define REQUIRE_OPTION(command, option)                          \
  if (!takes(command, option))                                   \
  MARROW_SKIP() << "marrow-cli " command " does not take " option \
                  " yet: it is registered in the commands() table of app/cli/cli.cpp"

bool writeBytes(const QString& path, const std::vector<std::byte>& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) &&
         f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size())) ==
             static_cast<qint64>(bytes.size());
}

struct Files {
  QString csf, caf, omf;
};
Files writeCharacter(const QDir& dir) {
  const auto c = marrow::testing::writeRetargetCharacter();
  EXPECT_FALSE(c.csf.empty() || c.caf.empty() || c.omf.empty());
  Files f{dir.filePath("hero.csf"), dir.filePath("hero_nod.caf"), dir.filePath("target.omf")};
  EXPECT_TRUE(writeBytes(f.csf, c.csf) && writeBytes(f.caf, c.caf) && writeBytes(f.omf, c.omf));
  return f;
}

glm::vec3 position(const QJsonObject& pose, const char* bone) {
  for (const auto& b : pose.value("bones").toArray()) {
    const QJsonObject o = b.toObject();
    if (o.value("name").toString() != QLatin1String(bone)) continue;
    const QJsonArray m = o.value("model").toArray();
    return {static_cast<float>(m[12].toDouble()), static_cast<float>(m[13].toDouble()),
            static_cast<float>(m[14].toDouble())};
  }
  ADD_FAILURE() << "no bone " << bone;
  return glm::vec3(NAN);
}

#define EXPECT_AT(pose, bone, wantX, wantY, wantZ)                            \
  do {                                                                        \
    const glm::vec3 p_ = position(pose, bone);                                \
    EXPECT_LT(glm::length(p_ - glm::vec3(wantX, wantY, wantZ)), 1e-4f)        \
        << bone << " is at (" << p_.x << ", " << p_.y << ", " << p_.z << ")"; \
  } while (false)

QStringList strings(const QJsonValue& v) {
  QStringList out;
  for (const auto& s : v.toArray()) out << s.toString();
  return out;
}

// ---- usage and load errors first ----------------------------------------------------------

TEST(RetargetCli, ABoneMapThatIsNotAMapIsALoadErrorNamingTheLine) {
  REQUIRE_OPTION("pose", "--bone-map");
  QTemporaryDir dir;
  const Files f = writeCharacter(QDir(dir.path()));
  const QString map = dir.filePath("bones.txt");
  QFile m(map);
  ASSERT_TRUE(m.open(QIODevice::WriteOnly));
  m.write("# a comment\nBip01 Tail sword\n");
  m.close();
  const CliRun r = cli({"pose", f.omf, "--animations", f.csf + "," + f.caf, "--bone-map", map});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("line 2")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("bones.txt")) << r.err.toStdString();
}

TEST(RetargetCli, AnAnimationFileThatCannotBeReadIsALoadError) {
  REQUIRE_OPTION("pose", "--animations");
  QTemporaryDir dir;
  const Files f = writeCharacter(QDir(dir.path()));
  const CliRun r = cli({"pose", f.omf, "--animations", dir.filePath("missing.caf")});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("missing.caf")) << r.err.toStdString();
}

// ---- retargeting --------------------------------------------------------------------------

TEST(RetargetCli, ACal3dClipOnAnOmfSkeletonReportsUnmatchedBonesAndMovesTheMatchedOnes) {
  REQUIRE_OPTION("pose", "--animations");
  QTemporaryDir dir;
  const Files f = writeCharacter(QDir(dir.path()));
  // At rest, the target is where it was written.
  const QJsonObject rest = cli({"pose", f.omf, "--json"}).json();
  EXPECT_AT(rest, "head", 0, 2, 0);
  EXPECT_AT(rest, "sword", 0.3f, 1.4f, 0);

  const CliRun r =
      cli({"pose", f.omf, "--animations", f.csf + "," + f.caf, "--time", "1", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject pose = r.json();
  EXPECT_EQ(pose.value("clip").toString(),
            "hero_nod");  // the first clip retargeted (cal3d names it after its file)
  EXPECT_EQ(pose.value("matched_tracks").toInt(), 3);
  EXPECT_EQ(strings(pose.value("unmatched_tracks")), QStringList{"Bip01 Tail"});
  EXPECT_EQ(strings(pose.value("bones_without_track")), QStringList{"sword"});
  const QJsonObject how = pose.value("retargeted").toObject();
  EXPECT_EQ(how.value("from").toString(), "hero.csf + hero_nod.caf");
  EXPECT_TRUE(how.value("rest_corrected").toBool());
  EXPECT_NEAR(how.value("size_ratio").toDouble(), 1.0, 1e-5);
  ASSERT_EQ(how.value("tracks").toArray().size(), 3);
  const QJsonObject first = how.value("tracks").toArray()[0].toObject();
  EXPECT_EQ(first.value("track").toString(), "Bip01 Pelvis");
  EXPECT_EQ(first.value("bone").toString(), "pelvis");
  EXPECT_EQ(first.value("by").toString(), "loose");
  // The source's (0.2, 0, 1), (0.2, 0, 1.5), (0.2, −0.5, 1.5) in Y-up axes; the sword turns with
  // the spine: its offset (0.3, −0.1, 0) turned 90° about X is (0.3, 0, −0.1).
  EXPECT_AT(pose, "pelvis", 0.2f, 1, 0);
  EXPECT_AT(pose, "spine", 0.2f, 1.5f, 0);
  EXPECT_AT(pose, "head", 0.2f, 1.5f, 0.5f);
  EXPECT_AT(pose, "sword", 0.5f, 1.5f, -0.1f);
  // Halfway: the spine has turned 45°.
  const QJsonObject half =
      cli({"pose", f.omf, "--animations", f.csf + "," + f.caf, "--time", "0.5", "--json"}).json();
  const float c = std::cos(kPi / 4), s = std::sin(kPi / 4);
  EXPECT_AT(half, "head", 0.1f, 1.5f + 0.5f * c, 0.5f * s);
}

TEST(RetargetCli, ABoneMapGivesATrackItsBone) {
  REQUIRE_OPTION("pose", "--bone-map");
  QTemporaryDir dir;
  const Files f = writeCharacter(QDir(dir.path()));
  const QString map = dir.filePath("bones.txt");
  QFile m(map);
  ASSERT_TRUE(m.open(QIODevice::WriteOnly));
  m.write("# tail onto the sword\nBip01 Tail = sword\n");
  m.close();
  const CliRun r = cli({"pose", f.omf, "--animations", f.csf + "," + f.caf, "--bone-map", map,
                        "--time", "1", "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonObject pose = r.json();
  EXPECT_EQ(pose.value("matched_tracks").toInt(), 4);
  EXPECT_TRUE(strings(pose.value("unmatched_tracks")).isEmpty());
  EXPECT_TRUE(strings(pose.value("bones_without_track")).isEmpty());
  bool mapped = false;
  for (const auto& t : pose.value("retargeted").toObject().value("tracks").toArray())
    mapped |= t.toObject().value("track") == "Bip01 Tail" &&
              t.toObject().value("bone") == "sword" && t.toObject().value("by") == "map";
  EXPECT_TRUE(mapped);
  // The tail's keys are its rest pose, so the sword gets its own rest transform on the turned
  // spine: the same place as without the map.
  EXPECT_AT(pose, "sword", 0.5f, 1.5f, -0.1f);
}

TEST(RetargetCli, InfoListsWhatEachRetargetedClipMatched) {
  REQUIRE_OPTION("info", "--animations");
  QTemporaryDir dir;
  const Files f = writeCharacter(QDir(dir.path()));
  const CliRun r = cli({"info", f.omf, "--animations", f.csf + "," + f.caf, "--json"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QJsonArray clips = r.json().value("clips").toArray();
  ASSERT_EQ(clips.size(), 1);
  const QJsonObject nod = clips[0].toObject();
  EXPECT_EQ(nod.value("name").toString(), "hero_nod");
  EXPECT_EQ(strings(nod.value("unmatched_tracks")), QStringList{"Bip01 Tail"});
  EXPECT_EQ(strings(nod.value("bones_without_track")), QStringList{"sword"});
  EXPECT_EQ(nod.value("matched_tracks").toInt(), 3);
  EXPECT_TRUE(nod.value("retargeted").toObject().value("rest_corrected").toBool());
  // Without --animations the shapes stay, with the binding added.
  const QJsonObject plain = cli({"info", ":demo", "--json"}).json();
  const QJsonObject walk = plain.value("clips").toArray()[0].toObject();
  for (const char* key : {"name", "duration", "frame_rate", "tracks", "keys", "unmatched_tracks",
                          "matched_tracks", "bones_without_track"})
    EXPECT_TRUE(walk.contains(key)) << key;
  EXPECT_FALSE(walk.contains("retargeted"));
}

// ---- frames -------------------------------------------------------------------------------

bool canRender() {
  return qEnvironmentVariableIsSet("DISPLAY") ||
         !QStandardPaths::findExecutable("xvfb-run").isEmpty();
}

double meanDifference(const QImage& a, const QImage& b) {
  if (a.size() != b.size()) return 1e9;
  const QImage x = a.convertToFormat(QImage::Format_RGBA8888),
               y = b.convertToFormat(QImage::Format_RGBA8888);
  double sum = 0;
  for (int r = 0; r < x.height(); ++r)
    for (int c = 0; c < x.width() * 4; ++c)
      sum += std::abs(x.constScanLine(r)[c] - y.constScanLine(r)[c]);
  return sum / (x.width() * x.height() * 4.0);
}

TEST(RenderFramesCli, WritesNumberedFramesThatDifferWhileTheClipMoves) {
  REQUIRE_OPTION("render", "--frames");
  if (!canRender()) MARROW_SKIP() << "no display and no xvfb-run";
  QTemporaryDir dir;
  const QString out = dir.filePath("walk.png");
  const CliRun r = cli({"render", ":demo", "--clip", "walk", "--mode", "loop", "--frames", "4",
                        "--size", "160x120", "-o", out});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  std::vector<QImage> frames;
  for (int i = 1; i <= 4; ++i) {
    const QString file =
        dir.filePath(QStringLiteral("walk_%1.png").arg(i, 4, 10, QLatin1Char('0')));
    frames.emplace_back(file);
    ASSERT_FALSE(frames.back().isNull()) << file.toStdString();
    EXPECT_EQ(frames.back().size(), QSize(160, 120));
  }
  EXPECT_FALSE(QFile::exists(dir.filePath("walk_0005.png")));
  EXPECT_FALSE(QFile::exists(out));
  for (int i = 1; i < 4; ++i)
    EXPECT_GT(meanDifference(frames[i - 1], frames[i]), 0.05) << "frames " << i << " and " << i + 1;
}

TEST(RenderFramesCli, AFrameRateCoversTheClip) {
  REQUIRE_OPTION("render", "--fps");
  if (!canRender()) MARROW_SKIP() << "no display and no xvfb-run";
  QTemporaryDir dir;
  // walk is 1.1 s: at 5 fps, once, frames at 0, 0.2, … 1.0: six.
  const CliRun r = cli({"render", ":demo", "--clip", "walk", "--fps", "5", "--size", "64x48", "-o",
                        dir.filePath("w.png")});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_TRUE(QFile::exists(dir.filePath("w_0006.png")));
  EXPECT_FALSE(QFile::exists(dir.filePath("w_0007.png")));
  EXPECT_TRUE(r.out.contains("6 frames at 5 fps")) << r.out.toStdString();
}

// The chunks of a PNG file: type and data.
std::vector<std::pair<QByteArray, QByteArray>> chunks(const QByteArray& png) {
  std::vector<std::pair<QByteArray, QByteArray>> out;
  for (qsizetype at = 8; at + 12 <= png.size();) {
    const quint32 len = qFromBigEndian<quint32>(png.constData() + at);
    out.emplace_back(png.mid(at + 4, 4), png.mid(at + 8, len));
    at += 12 + len;
  }
  return out;
}

// An APNG frame's pixels: its zlib stream inflated (one filter byte, then RGBA, per row).
QByteArray inflate(const QByteArray& zlib, int width, int height) {
  QByteArray sized(4, '\0');
  qToBigEndian<quint32>(static_cast<quint32>(height * (1 + width * 4)), sized.data());
  return qUncompress(sized + zlib);
}

TEST(RenderFramesCli, AnAnimatedPngHoldsEveryFrame) {
  REQUIRE_OPTION("render", "--frames");
  if (!canRender()) MARROW_SKIP() << "no display and no xvfb-run";
  QTemporaryDir dir;
  const QString apng = dir.filePath("walk.apng");
  const QStringList common = {":demo",    "--clip", "walk",   "--mode", "loop",
                              "--frames", "3",      "--size", "96x64"};
  ASSERT_EQ(cli(QStringList{"render"} + common + QStringList{"-o", apng}).code, 0);
  ASSERT_EQ(cli(QStringList{"render"} + common + QStringList{"-o", dir.filePath("seq.png")}).code,
            0);
  QFile f(apng);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QByteArray bytes = f.readAll();
  const auto list = chunks(bytes);
  ASSERT_GE(list.size(), 8u);
  EXPECT_EQ(list[0].first, "IHDR");
  EXPECT_EQ(list[1].first, "acTL");
  EXPECT_EQ(qFromBigEndian<quint32>(list[1].second.constData()), 3u);      // frames
  EXPECT_EQ(qFromBigEndian<quint32>(list[1].second.constData() + 4), 0u);  // plays forever
  EXPECT_EQ(list.back().first, "IEND");
  std::vector<QByteArray> data;  // each frame's zlib stream
  quint32 sequence = 0;
  for (const auto& [type, body] : list) {
    if (type == "fcTL") {
      EXPECT_EQ(qFromBigEndian<quint32>(body.constData()), sequence++);
      EXPECT_EQ(qFromBigEndian<quint32>(body.constData() + 4), 96u);
      EXPECT_EQ(qFromBigEndian<quint32>(body.constData() + 8), 64u);
    } else if (type == "IDAT") {
      data.push_back(body);
    } else if (type == "fdAT") {
      EXPECT_EQ(qFromBigEndian<quint32>(body.constData()), sequence++);
      data.push_back(body.mid(4));
    }
  }
  ASSERT_EQ(data.size(), 3u);
  // A viewer without APNG support shows the first frame; each frame is the sequence's frame.
  const QImage first(apng, "PNG");
  ASSERT_FALSE(first.isNull());
  EXPECT_LT(meanDifference(first, QImage(dir.filePath("seq_0001.png"))), 0.5);
  for (int i = 0; i < 3; ++i) {
    const QByteArray raw = inflate(data[static_cast<std::size_t>(i)], 96, 64);
    ASSERT_EQ(raw.size(), 64 * (1 + 96 * 4)) << "frame " << i + 1;
    QImage img(96, 64, QImage::Format_RGBA8888);
    for (int y = 0; y < 64; ++y) {
      EXPECT_EQ(raw[y * (1 + 96 * 4)], '\0');  // filter 0
      std::memcpy(img.scanLine(y), raw.constData() + y * (1 + 96 * 4) + 1, 96 * 4);
    }
    const QImage seq(
        dir.filePath(QStringLiteral("seq_%1.png").arg(i + 1, 4, 10, QLatin1Char('0'))));
    EXPECT_LT(meanDifference(img, seq), 0.5) << "frame " << i + 1;
  }
}

TEST(RenderFramesCli, UsageErrors) {
  REQUIRE_OPTION("render", "--frames");
  QTemporaryDir dir;
  const QString out = dir.filePath("x.png");
  EXPECT_EQ(cli({"render", ":demo", "--frames", "0", "-o", out}).code, 2);
  EXPECT_EQ(cli({"render", ":demo", "--frames", "2.5", "-o", out}).code, 2);
  EXPECT_EQ(cli({"render", ":demo", "--fps", "-3", "-o", out}).code, 2);
  EXPECT_EQ(cli({"render", ":demo", "-o", dir.filePath("x.apng")}).code, 2);
  EXPECT_EQ(cli({"render", ":demo", "--clip", "none", "--frames", "3", "-o", out}).code, 2);
}

// ---- the frame plan, names and APNG assembly (app/frame_output.h) --------------------------

using marrow::anim::PlayMode;
using marrow::app::planFrames;

TEST(FramePlan, RefusesWhatCannotBeRendered) {
  EXPECT_FALSE(planFrames(1.0, PlayMode::Once, 0, 0.0).error.empty());
  EXPECT_FALSE(planFrames(1.0, PlayMode::Once, -1, 0.0).error.empty());
  EXPECT_FALSE(planFrames(1.0, PlayMode::Once, marrow::app::kMaxFrames + 1, 0.0).error.empty());
  EXPECT_FALSE(planFrames(1.0, PlayMode::Once, 0, -2.0).error.empty());
  EXPECT_FALSE(planFrames(1.0, PlayMode::Once, 0, 1001.0).error.empty());
  EXPECT_FALSE(planFrames(0.0, PlayMode::Once, 3, 0.0).error.empty());
  EXPECT_FALSE(planFrames(1000.0, PlayMode::Once, 0, 1000.0).error.empty());  // a million frames
}

TEST(FramePlan, AFrameRateOnceRunsToTheEndInclusive) {
  const auto r = planFrames(1.1, PlayMode::Once, 0, 5.0);
  ASSERT_TRUE(r.error.empty());
  ASSERT_EQ(r.plan.playheads.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(r.plan.playheads[k], 0.2 * k, 1e-12);
  EXPECT_EQ(planFrames(1.0, PlayMode::Once, 0, 4.0).plan.playheads.size(), 5u);  // 0 … 1
  // A duration read as a float: 1.1f s at 30 fps loops in 33 frames, not 34.
  EXPECT_EQ(planFrames(1.1f, PlayMode::Loop, 0, 30.0).plan.playheads.size(), 33u);
  EXPECT_EQ(planFrames(1.1f, PlayMode::Once, 0, 30.0).plan.playheads.size(), 34u);
}

TEST(FramePlan, ALoopLeavesOutItsEndWhichIsItsStart) {
  const auto r = planFrames(1.0, PlayMode::Loop, 0, 4.0);
  ASSERT_EQ(r.plan.playheads.size(), 4u);
  EXPECT_NEAR(r.plan.playheads.back(), 0.75, 1e-12);
  const auto pp = planFrames(1.0, PlayMode::PingPong, 0, 4.0);  // there and back
  EXPECT_EQ(pp.plan.playheads.size(), 8u);
}

TEST(FramePlan, ACountSpreadsOverTheClip) {
  auto r = planFrames(2.0, PlayMode::Once, 5, 0.0);
  ASSERT_EQ(r.plan.playheads.size(), 5u);
  EXPECT_NEAR(r.plan.playheads[4], 2.0, 1e-12);
  EXPECT_NEAR(r.plan.fps, 2.0, 1e-12);
  r = planFrames(2.0, PlayMode::Loop, 4, 0.0);
  ASSERT_EQ(r.plan.playheads.size(), 4u);
  EXPECT_NEAR(r.plan.playheads[3], 1.5, 1e-12);
  r = planFrames(2.0, PlayMode::Once, 3, 10.0, 0.5);  // both: 3 frames 0.1 s apart from 0.5
  ASSERT_EQ(r.plan.playheads.size(), 3u);
  EXPECT_NEAR(r.plan.playheads[2], 0.7, 1e-12);
}

TEST(FramePath, NumbersFromOneWithFourDigits) {
  using marrow::app::framePath;
  EXPECT_EQ(framePath("out/walk.png", 1), "out/walk_0001.png");
  EXPECT_EQ(framePath("walk.jpg", 12345), "walk_12345.jpg");
  EXPECT_EQ(framePath("walk", 7), "walk_0007.png");
  EXPECT_TRUE(marrow::app::isAnimatedPngPath("a.APNG"));
  EXPECT_FALSE(marrow::app::isAnimatedPngPath("a.png"));
}

TEST(ApngWriter, RefusesFramesOfAnotherSize) {
  marrow::app::ApngWriter w(10.0);
  QImage a(4, 3, QImage::Format_RGBA8888), b(3, 4, QImage::Format_RGBA8888);
  a.fill(Qt::red);
  b.fill(Qt::blue);
  std::string error;
  EXPECT_TRUE(w.add(a, &error));
  EXPECT_FALSE(w.add(b, &error));
  EXPECT_NE(error.find("frame 2"), std::string::npos);
  EXPECT_FALSE(w.add(QImage(), &error));
  EXPECT_EQ(w.frames(), 1u);
}

TEST(ApngWriter, WritesChunksWithCorrectCrcsAndTheDelay) {
  marrow::app::ApngWriter w(12.5);
  for (QColor c : {QColor(Qt::red), QColor(Qt::green)}) {
    QImage img(5, 2, QImage::Format_RGBA8888);
    img.fill(c);
    ASSERT_TRUE(w.add(img, nullptr));
  }
  const std::vector<std::byte> out = w.finish();
  const QByteArray bytes(reinterpret_cast<const char*>(out.data()),
                         static_cast<qsizetype>(out.size()));
  EXPECT_TRUE(bytes.startsWith("\x89PNG\r\n\x1a\n"));
  // Every chunk's CRC is the CRC-32 of its type and data (computed here bit by bit).
  const auto crc = [](const QByteArray& d) {
    quint32 c = 0xffffffffu;
    for (char ch : d) {
      c ^= static_cast<unsigned char>(ch);
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
  };
  int fctl = 0;
  for (qsizetype at = 8; at + 12 <= bytes.size();) {
    const quint32 len = qFromBigEndian<quint32>(bytes.constData() + at);
    const QByteArray typeAndData = bytes.mid(at + 4, 4 + len);
    EXPECT_EQ(qFromBigEndian<quint32>(bytes.constData() + at + 8 + len), crc(typeAndData))
        << typeAndData.left(4).toStdString();
    if (typeAndData.startsWith("fcTL")) {
      ++fctl;
      // 12.5 fps: a delay of 100/1250 s.
      EXPECT_EQ(qFromBigEndian<quint16>(typeAndData.constData() + 4 + 20), 100);
      EXPECT_EQ(qFromBigEndian<quint16>(typeAndData.constData() + 4 + 22), 1250);
    }
    at += 12 + len;
  }
  EXPECT_EQ(fctl, 2);
}

}  // namespace
