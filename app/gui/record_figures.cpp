#include "app/gui/record_figures.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>

namespace marrow::app {

namespace brf = formats::brf;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("RecordFigures", text); }

// "1 part", "3 parts" (without a translator Qt leaves "%n part(s)" as it is).
QString count(std::size_t n, const char* one, const char* many) {
  return (n == 1 ? tr(one) : tr(many)).arg(n);
}
QString str(const std::string& s) { return QString::fromStdString(s); }

// "0, 100, 104, 108, …": the first few of many times.
template <typename Times>
QString listTimes(const Times& times) {
  constexpr std::size_t kShown = 6;
  QStringList out;
  for (std::size_t i = 0; i < times.size() && i < kShown; ++i) out << QString::number(times[i]);
  if (times.size() > kShown) out << QStringLiteral("…");
  return out.join(QStringLiteral(", "));
}

QStringList meshFigures(const brf::Mesh& m) {
  const QString size = tr("%1 vertices, %2 faces, %3 positions")
                           .arg(m.vertices.size()).arg(m.faces.size()).arg(m.positions.size());
  QStringList animation;
  if (const int highest = brf::maxRiggedBone(m); highest >= 0)
    animation << tr("rigged to %1 bones (needs %2)").arg(brf::riggedBoneCount(m)).arg(highest + 1);
  if (!m.frames.empty()) {
    std::vector<std::int32_t> times;
    for (const auto& f : m.frames) times.push_back(f.time);
    animation << count(times.size(), "%1 frame at %2", "%1 frames at %2").arg(listTimes(times));
  }
  return {size, animation.join(QStringLiteral("; ")), str(m.material)};
}

QStringList animationFigures(const brf::Animation& a) {
  const brf::KeyTimes times = brf::keyTimes(a);
  const QString range = times.count == 0
                            ? tr("no keys")
                            : tr("%1 frames, %2–%3").arg(times.count).arg(times.first).arg(times.last);
  return {tr("%1 bones").arg(a.tracks.size()), range, {}};
}

QStringList bodyFigures(const brf::Body& b) {
  std::map<std::string, int> kinds;
  for (const auto& p : b.parts) ++kinds[p.kind];
  QStringList parts;
  for (const auto& [kind, n] : kinds) parts << QStringLiteral("%1 %2").arg(n).arg(str(kind));
  QString size = count(b.parts.size(), "%1 part", "%1 parts");
  if (!parts.isEmpty()) size += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
  return {size, {}, b.composite ? tr("composite") : QString()};
}

QString hex(std::uint32_t v) { return QStringLiteral("0x%1").arg(v, 0, 16); }

}  // namespace

QString kindTitle(brf::Section kind) {
  switch (kind) {
    case brf::Section::Texture: return tr("Textures");
    case brf::Section::Shader: return tr("Shaders");
    case brf::Section::Material: return tr("Materials");
    case brf::Section::Mesh: return tr("Meshes");
    case brf::Section::Skeleton: return tr("Skeletons");
    case brf::Section::Animation: return tr("Animations");
    case brf::Section::Body: return tr("Bodies");
  }
  return {};
}

QStringList recordFigures(const brf::Source& source, brf::Section kind, std::size_t index) {
  const brf::Document& d = *source.doc;
  switch (kind) {
    case brf::Section::Mesh: return meshFigures(d.meshes.at(index));
    case brf::Section::Skeleton: return {tr("%1 bones").arg(d.skeletons.at(index).bones.size()), {}, {}};
    case brf::Section::Animation: return animationFigures(d.animations.at(index));
    case brf::Section::Body: return bodyFigures(d.bodies.at(index));
    case brf::Section::Material: {
      const auto& m = d.materials.at(index);
      return {tr("flags %1").arg(hex(m.flags)), {},
              tr("shader %1, diffuse %2").arg(str(m.shader), str(m.diffuseA))};
    }
    case brf::Section::Texture: {
      const auto& t = d.textures.at(index);
      return {tr("flags %1").arg(hex(t.flags)),
              t.frames() > 0 ? tr("%1 frames").arg(t.frames()) : QString(), {}};
    }
    case brf::Section::Shader: {
      const auto& s = d.shaders.at(index);
      return {tr("technique %1, ").arg(str(s.technique)) + count(s.stages.size(), "%1 stage", "%1 stages"),
              {}, s.fallback ? tr("fallback %1").arg(str(*s.fallback)) : QString()};
    }
  }
  return {};
}

}  // namespace marrow::app
