// Edits of a .glb for tests that need what other tools write: a root joint a DCC adds above a
// skeleton (3ds Max, Maya and FBX rigs have one), which a game's skeleton lacks.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <cstring>

namespace marrow::testing {

namespace glb {

inline quint32 u32(const QByteArray& b, qsizetype at) {
  quint32 v = 0;
  std::memcpy(&v, b.constData() + at, 4);  // little-endian, as the machines the tests run on
  return v;
}
inline void putU32(QByteArray& b, quint32 v) { b.append(reinterpret_cast<const char*>(&v), 4); }

}  // namespace glb

// Puts a joint named `name` (identity, unmoving) above the scene's roots of a .glb and into every
// skin, with an identity inverse bind. Returns false when the file is no .glb it can read.
inline bool addRootJoint(const QString& path, const QString& name) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return false;
  const QByteArray bytes = f.readAll();
  f.close();
  if (bytes.size() < 28 || glb::u32(bytes, 0) != 0x46546C67u) return false;
  const quint32 jsonLength = glb::u32(bytes, 12);
  QJsonObject doc = QJsonDocument::fromJson(bytes.mid(20, jsonLength)).object();
  const qsizetype binAt = 20 + jsonLength;
  QByteArray bin = bytes.size() >= binAt + 8 ? bytes.mid(binAt + 8, glb::u32(bytes, binAt)) : QByteArray();

  QJsonArray nodes = doc.value("nodes").toArray(), scenes = doc.value("scenes").toArray();
  QJsonObject scene = scenes.at(0).toObject();
  QJsonObject root{{"name", name}, {"children", scene.value("nodes")}};
  const int rootIndex = static_cast<int>(nodes.size());
  nodes.append(root);
  scene.insert("nodes", QJsonArray{rootIndex});
  scenes.replace(0, scene);

  QJsonArray skins = doc.value("skins").toArray(), accessors = doc.value("accessors").toArray(),
             views = doc.value("bufferViews").toArray();
  const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  for (qsizetype s = 0; s < skins.size(); ++s) {
    QJsonObject skin = skins.at(s).toObject();
    QJsonArray joints = skin.value("joints").toArray();
    const QJsonObject old = accessors.at(skin.value("inverseBindMatrices").toInt()).toObject();
    const QJsonObject oldView = views.at(old.value("bufferView").toInt()).toObject();
    const qsizetype from = oldView.value("byteOffset").toInt() + old.value("byteOffset").toInt();
    while (bin.size() % 4) bin.append('\0');
    const qsizetype at = bin.size();
    bin.append(bin.mid(from, joints.size() * 64));
    bin.append(reinterpret_cast<const char*>(identity), 64);
    views.append(QJsonObject{{"buffer", 0}, {"byteOffset", at}, {"byteLength", (joints.size() + 1) * 64}});
    accessors.append(QJsonObject{{"bufferView", views.size() - 1}, {"componentType", 5126},
                                 {"count", joints.size() + 1}, {"type", "MAT4"}});
    joints.append(rootIndex);
    skin.insert("joints", joints);
    skin.insert("inverseBindMatrices", accessors.size() - 1);
    skins.replace(s, skin);
  }
  doc.insert("nodes", nodes);
  doc.insert("scenes", scenes);
  doc.insert("skins", skins);
  doc.insert("accessors", accessors);
  doc.insert("bufferViews", views);
  QJsonArray buffers = doc.value("buffers").toArray();
  QJsonObject buffer = buffers.at(0).toObject();
  while (bin.size() % 4) bin.append('\0');
  buffer.insert("byteLength", bin.size());
  buffers.replace(0, buffer);
  doc.insert("buffers", buffers);

  QByteArray json = QJsonDocument(doc).toJson(QJsonDocument::Compact);
  while (json.size() % 4) json.append(' ');
  QByteArray out;
  glb::putU32(out, 0x46546C67u);
  glb::putU32(out, 2);
  glb::putU32(out, static_cast<quint32>(12 + 8 + json.size() + 8 + bin.size()));
  glb::putU32(out, static_cast<quint32>(json.size()));
  glb::putU32(out, 0x4E4F534Au);
  out.append(json);
  glb::putU32(out, static_cast<quint32>(bin.size()));
  glb::putU32(out, 0x004E4942u);
  out.append(bin);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return f.write(out) == out.size();
}

}  // namespace marrow::testing
