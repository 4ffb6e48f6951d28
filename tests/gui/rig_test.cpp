// app/rig.h without a window (label: unit): a T-pose model with its own bone names rigged onto an
// A-pose skeleton of another basis. The arm's vertices come to lie along the target's arm, each
// influence moves to its bone's partner (loosely matched, mapped, or the nearest matched ancestor),
// and a clip turning the model's elbow turns the target's.
#include <QTest>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "app/rig.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"

using marrow::formats::Scene;
namespace formats = marrow::formats;

namespace {

formats::Bone bone(const char* name, int parent, glm::vec3 t, glm::quat r = glm::quat(1, 0, 0, 0)) {
  formats::Bone b;
  b.name = name;
  b.parent = parent;
  b.translation = t;
  b.rotation = r;
  return b;
}

// Y-up, metres: hips, spine, an upper arm straight out along +X (T-pose), a forearm, and a
// "twist" helper bone the target lacks. Vertices along the arm, rigged to upper arm, forearm
// and the helper.
Scene tPoseModel() {
  Scene s;
  s.basis = formats::Basis{formats::Axis::Y, true, 1.0f, 0};
  s.skeleton.bones = {bone("mixamorig:Hips", -1, {0, 1, 0}), bone("mixamorig:Spine", 0, {0, 0.4f, 0}),
                      bone("UpperArm_L", 1, {0.1f, 0.1f, 0}), bone("mixamorig:ForeArm_L", 2, {0.3f, 0, 0}),
                      bone("arm_twist", 3, {0.1f, 0, 0})};
  formats::Mesh m;
  m.name = "arm";
  for (int i = 0; i <= 6; ++i) {
    m.positions.push_back({0.1f + 0.1f * static_cast<float>(i), 1.5f, 0.0f});
    m.normals.push_back({0, 1, 0});
    const std::uint32_t b = i < 3 ? 2u : i < 5 ? 3u : 4u;
    std::vector<formats::Influence> inf{{b, 1.0f}};
    m.addInfluences(inf);
  }
  for (std::uint32_t i = 0; i + 2 <= 6; ++i) m.indices.insert(m.indices.end(), {i, i + 1, i + 2});
  s.meshes.push_back(m);
  formats::Clip bend;
  bend.name = "bend";
  bend.duration = 1.0f;
  formats::Track elbow;
  elbow.bone = "mixamorig:ForeArm_L";
  elbow.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  elbow.rotation.add(1.0f, glm::angleAxis(1.2f, glm::vec3(0, 0, 1)));
  bend.tracks = {elbow};
  s.clips = {bend};
  return s;
}

// Z-up, centimetres (a game's): the same bones under other names, the arm hanging 45° down
// (A-pose), a forearm a little longer.
Scene aPoseSkeleton() {
  Scene s;
  s.basis = formats::Basis{formats::Axis::Z, true, 0.01f, 0};
  const glm::quat down = glm::angleAxis(0.785398f, glm::vec3(0, 1, 0));  // +X tipped towards −Z
  s.skeleton.name = "skel_game";
  s.skeleton.bones = {bone("hips", -1, {0, 0, 100}), bone("spine", 0, {0, 0, 40}), bone("upperarm.L", 1, {10, 0, 10}, down),
                      bone("forearm.L", 2, {33, 0, 0})};
  return s;
}

std::vector<glm::vec3> skinned(const Scene& s, const formats::Clip* clip, float t) {
  const marrow::anim::Pose pose = marrow::anim::evaluate(s.skeleton, clip, t);
  std::vector<glm::mat4> palette;
  marrow::anim::skinPalette(s.skeleton, s.meshes[0], pose, palette);
  std::vector<glm::vec3> v;
  marrow::anim::skin(s.meshes[0], marrow::anim::packInfluences(s.meshes[0]), palette, v);
  return v;
}

}  // namespace

class RigTest : public QObject {
  Q_OBJECT

 private slots:
  void aTPoseModelLiesAlongAnAPoseSkeletonsArm() {
    const Scene model = tPoseModel();
    const Scene target = aPoseSkeleton();
    marrow::anim::BoneNameMap map;
    map.pairs["UpperArm_L"] = "upperarm.L";
    marrow::app::RigReport report;
    auto rigged = marrow::app::rigOnto(model, target, map, report);
    QVERIFY2(rigged.ok(), rigged ? "" : rigged.error().describe().c_str());
    QCOMPARE(report.mapped, std::size_t{1});
    QCOMPARE(report.loose, std::size_t{3});  // hips, spine, forearm: prefixes and case left out
    QCOMPARE(report.unmatched, std::vector<std::string>{"arm_twist"});
    QCOMPARE(rigged->skeleton.name, std::string("skel_game"));
    QCOMPARE(rigged->basis, target.basis);
    // Influences on the partners; the helper's on its nearest matched ancestor (the forearm).
    const formats::Mesh& m = rigged->meshes[0];
    QCOMPARE(m.influencesOf(0)[0].bone, 2u);
    QCOMPARE(m.influencesOf(4)[0].bone, 3u);
    QCOMPARE(m.influencesOf(6)[0].bone, 3u);
    // The arm's vertices run from the shoulder down at 45° in the target's (centimetre) space:
    // x and −z grow together, y stays.
    for (std::size_t v = 1; v < m.vertexCount(); ++v) {
      const glm::vec3 d = m.positions[v] - m.positions[0];
      QVERIFY2(std::abs(d.x + d.z) < 1e-3f * glm::length(d) + 1e-4f, qPrintable(QString("vertex %1: %2 %3 %4").arg(v).arg(d.x).arg(d.y).arg(d.z)));
      QVERIFY(d.x > 0.0f);
      QVERIFY(std::abs(d.y) < 1e-3f);
    }
    QVERIFY(std::abs(glm::length(m.positions[6] - m.positions[0]) - 60.0f) < 1e-2f);  // 0.6 m in centimetres
    // Bound at the target's rest pose: at rest the skin leaves the vertices where they are.
    const auto rest = skinned(*rigged, nullptr, 0.0f);
    for (std::size_t v = 0; v < rest.size(); ++v) QVERIFY(glm::length(rest[v] - m.positions[v]) < 1e-3f);
    // The clip bends the target's elbow: the forearm's vertices move, the upper arm's do not.
    QCOMPARE(rigged->clips.size(), std::size_t{1});
    const auto bent = skinned(*rigged, &rigged->clips[0], 1.0f);
    QVERIFY(glm::length(bent[1] - m.positions[1]) < 1e-3f);
    QVERIFY(glm::length(bent[5] - m.positions[5]) > 5.0f);
    // The bend keeps the forearm's length from the elbow (a rotation about it).
    const glm::vec3 elbow = m.positions[0] + glm::normalize(m.positions[6] - m.positions[0]) * 33.0f;
    QVERIFY(std::abs(glm::length(bent[5] - elbow) - glm::length(m.positions[5] - elbow)) < 1e-2f);
  }

  void nothingToMatchIsAnError() {
    Scene model = tPoseModel();
    for (auto& b : model.skeleton.bones) b.name = "x" + b.name;  // no loose match either: "xmixamorig:..."
    model.skeleton.bones[0].name = "zz";
    marrow::app::RigReport report;
    Scene target = aPoseSkeleton();
    for (auto& b : target.skeleton.bones) b.name = "other_" + b.name;
    QVERIFY(!marrow::app::rigOnto(model, target, {}, report).ok());
    QVERIFY(!marrow::app::rigOnto(model, Scene{}, {}, report).ok());
  }
};

QTEST_GUILESS_MAIN(RigTest)
#include "rig_test.moc"
