// A small skinned cal3d-style character for tests of how surfaces are drawn: a box of two bones
// with one clip, its vertex colours chosen by the test, and the same written as the files of a
// cal3d v1300 character without materials (the colour layout stores a colour at every vertex).
#pragma once

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

#include <span>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "formats/cal3d/writer.h"
#include "formats/model/scene.h"

namespace marrow::testing {

// A box of two bones, 1 wide and 2 tall, standing on z = 0 (cal3d is Z-up): its lower half on
// the first bone, its upper half on the second.
formats::Scene twoBoneBox(const glm::vec4& color) {
  formats::Scene s;
  s.basis = {formats::Axis::Z, true, 1.0f};
  formats::Bone root, upper;
  root.name = "root";
  upper.name = "upper";
  upper.parent = 0;
  upper.translation = {0, 0, 1};
  s.skeleton.bones = {root, upper};
  formats::Mesh m;
  m.name = "box";
  for (int z = 0; z < 2; ++z)  // two rings of four corners
    for (int c = 0; c < 4; ++c) {
      const float x = (c == 1 || c == 2) ? 0.5f : -0.5f, y = c >= 2 ? 0.5f : -0.5f;
      m.positions.push_back({x, y, 2.0f * static_cast<float>(z)});
      m.normals.push_back(glm::normalize(glm::vec3(x, y, z == 0 ? -0.5f : 0.5f)));
      m.uvSets.resize(1);
      m.uvSets[0].push_back({x + 0.5f, y + 0.5f});
      m.colors.push_back(color);
      const formats::Influence inf{static_cast<std::uint32_t>(z), 1.0f};
      m.addInfluences(std::span(&inf, 1));
    }
  const std::uint32_t quads[6][4] = {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6},
                                     {3, 0, 4, 7}, {3, 2, 1, 0}, {4, 5, 6, 7}};
  for (const auto& q : quads)
    for (std::uint32_t i : {q[0], q[1], q[2], q[0], q[2], q[3]}) m.indices.push_back(i);
  s.meshes.push_back(m);
  formats::Clip walk;
  walk.name = "sway";
  walk.duration = 1.0f;
  formats::Track t;
  t.bone = "upper";
  t.translation.add(0.0f, glm::vec3(0, 0, 1));
  t.rotation.add(0.0f, glm::quat(1, 0, 0, 0));
  t.rotation.add(1.0f, glm::angleAxis(0.4f, glm::vec3(1, 0, 0)));
  walk.tracks.push_back(t);
  s.clips.push_back(walk);
  return s;
}

// The skeleton, mesh and clip files of twoBoneBox(color) as cal3d v1300 writes them (no .cfg,
// no material), in `dir`; their paths, or an empty list with `error` set.
inline QStringList writeColouredCal3dBox(const QDir& dir, const glm::vec4& color, std::string* error) {
  formats::Diagnostics written;
  auto files = formats::cal3d::writeModel(twoBoneBox(color), "arthur", {false, 1300}, written);
  if (!files.ok()) {
    *error = files.error().describe();
    return {};
  }
  QStringList paths;
  for (const auto& f : *files) {
    const QString path = dir.filePath(QString::fromStdString(f.name));
    if (path.endsWith(QStringLiteral(".cfg")) || path.endsWith(QStringLiteral(".crf"))) continue;
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) ||
        out.write(reinterpret_cast<const char*>(f.bytes.data()), static_cast<qint64>(f.bytes.size())) !=
            static_cast<qint64>(f.bytes.size())) {
      *error = "cannot write " + path.toStdString();
      return {};
    }
    paths << path;
  }
  return paths;
}

}  // namespace marrow::testing
