#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QStringDecoder>
#include <QTreeWidget>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>

#include "app/gui/docks.h"
#include "formats/model/lod.h"
#include "render/gl/surface_look.h"

namespace marrow::app {

namespace {

constexpr int kThumbnail = 128;

QString str(const std::string& s) { return QString::fromStdString(s); }

QString vec(const glm::vec3& v) {
  return QStringLiteral("%1, %2, %3").arg(v.x, 0, 'g', 6).arg(v.y, 0, 'g', 6).arg(v.z, 0, 'g', 6);
}

QString color(const glm::vec4& c) {
  return QStringLiteral("%1, %2, %3, %4")
      .arg(c.r, 0, 'g', 4).arg(c.g, 0, 'g', 4).arg(c.b, 0, 'g', 4).arg(c.a, 0, 'g', 4);
}

class Rows {
 public:
  explicit Rows(QTreeWidget* tree) : tree_(tree) { tree_->clear(); }
  ~Rows() { tree_->expandAll(); }
  QTreeWidgetItem* add(const QString& name, const QString& value = {}, QTreeWidgetItem* under = nullptr) {
    return under ? new QTreeWidgetItem(under, {name, value}) : new QTreeWidgetItem(tree_, {name, value});
  }

 private:
  QTreeWidget* tree_;
};

}  // namespace

void MeshControls::reset(const formats::Scene& scene) {
  morphWeights.clear();
  levels.assign(scene.meshes.size(), 1.0f);
  meshLevel = 0;
}

std::vector<float> MeshControls::weightsFor(const formats::Mesh& mesh) const {
  std::vector<float> w(mesh.morphs.size(), 0.0f);
  for (std::size_t k = 0; k < w.size(); ++k)
    if (const auto it = morphWeights.find(mesh.morphs[k].name); it != morphWeights.end())
      w[k] = it->second;
  return w;
}

QString morphDisplayName(const std::string& name) {
  const QString stored = QString::fromStdString(name);
  if (name.size() < 4 || name.size() % 2 != 0) return stored;
  const QByteArray bytes = QByteArray::fromHex(QByteArray::fromStdString(name));
  if (bytes.size() * 2 != static_cast<qsizetype>(name.size()) ||
      !std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isxdigit(c); }))
    return stored;
  QStringDecoder utf8(QStringDecoder::Utf8);
  const QString text = utf8.decode(bytes);
  if (utf8.hasError() || text.isEmpty() ||
      std::any_of(text.begin(), text.end(), [](QChar c) { return !c.isPrint(); }))
    return stored;
  return text + QStringLiteral("  (") + stored + QLatin1Char(')');
}

void PropertiesDock::addMorphSliders(const std::vector<const formats::Mesh*>& meshes,
                                     const MeshControls& controls) {
  std::vector<std::string> names;  // each name once, in the order the meshes have them
  for (const auto* m : meshes)
    for (const auto& t : m->morphs)
      if (std::find(names.begin(), names.end(), t.name) == names.end()) names.push_back(t.name);
  if (names.empty()) return;
  auto* group = new QTreeWidgetItem(tree_, {tr("Morph targets"), QString::number(names.size())});
  for (const auto& name : names) {
    const auto it = controls.morphWeights.find(name);
    morphSliders_[name] =
        addSlider(new QTreeWidgetItem(group, {morphDisplayName(name), {}}),
                  it == controls.morphWeights.end() ? 0.0f : it->second, 0.0f, 1.0f,
                  [this, name](float weight) { emit morphWeightChanged(name, weight); });
  }
}

void PropertiesDock::setSliderValue(QSlider* slider, float value) {
  const QSignalBlocker quiet(slider);  // a weight shown, not one picked
  slider->setValue(static_cast<int>(std::lround(std::clamp(value, 0.0f, 1.0f) * 1000.0f)));
  slider->setToolTip(QString::number(static_cast<double>(value), 'f', 3));
}

void PropertiesDock::followMorphWeights(const std::map<std::string, float>& driven,
                                        const MeshControls& controls) {
  for (const auto& [name, slider] : morphSliders_) {
    const auto playing = driven.find(name);
    if (playing != driven.end()) {
      setSliderValue(slider, playing->second);
      slider->setToolTip(tr("%1 (set by the clip playing)")
                             .arg(static_cast<double>(playing->second), 0, 'f', 3));
      slider->setEnabled(false);
    } else if (!slider->isEnabled()) {
      const auto own = controls.morphWeights.find(name);
      setSliderValue(slider, own == controls.morphWeights.end() ? 0.0f : own->second);
      slider->setEnabled(true);
    }
  }
}

QSlider* PropertiesDock::addSlider(QTreeWidgetItem* item, float value, float lo, float hi,
                                   std::function<void(float)> changed) {
  auto* slider = new QSlider(Qt::Horizontal);
  slider->setRange(0, 1000);
  const auto toSlider = [lo, hi](float v) { return static_cast<int>(std::lround((v - lo) / (hi - lo) * 1000.0f)); };
  slider->setValue(toSlider(value));
  slider->setToolTip(QString::number(static_cast<double>(value), 'f', 3));
  connect(slider, &QSlider::valueChanged, slider, [slider, lo, hi, changed](int v) {
    const float picked = lo + (hi - lo) * static_cast<float>(v) / 1000.0f;
    slider->setToolTip(QString::number(static_cast<double>(picked), 'f', 3));
    changed(picked);
  });
  tree_->setItemWidget(item, 1, slider);
  return slider;
}

PropertiesDock::PropertiesDock(QWidget* parent) : QDockWidget(tr("Properties"), parent) {
  setObjectName(QStringLiteral("PropertiesDock"));
  tree_ = new QTreeWidget(this);
  tree_->setHeaderLabels({tr("Property"), tr("Value")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setUniformRowHeights(false);  // texture thumbnails are taller than text rows
  setWidget(tree_);
}

void PropertiesDock::clear() {
  morphSliders_.clear();
  tree_->clear();
}

void PropertiesDock::show(const Document& doc, const MeshControls& controls, ItemKind kind,
                          int index) {
  if (!doc.scene) return clear();
  const auto& s = *doc.scene;
  morphSliders_.clear();
  Rows rows(tree_);
  switch (kind) {
    case ItemKind::Scene:
    case ItemKind::Skeleton: {
      rows.add(tr("Files"), doc.paths.join(QStringLiteral(", ")));
      if (!s.format.empty())
        rows.add(tr("Format"), str(s.format));
      else if (!doc.archives.empty())  // archives alone (a pak, a folder): nothing is a model yet
        rows.add(tr("Format"), tr("archives only: double-click an entry in Archives to open it"));
      else
        rows.add(tr("Format"), tr("none"));
      rows.add(tr("Coordinates"), str(formats::describe(s.basis)));
      std::size_t v = 0, t = 0;
      for (const auto& m : s.meshes) v += m.vertexCount(), t += m.triangleCount();
      rows.add(tr("Meshes"), tr("%1 (%2 vertices, %3 triangles)").arg(s.meshes.size()).arg(v).arg(t));
      rows.add(tr("Bones"), tr("%1 (%2 roots)").arg(s.skeleton.bones.size()).arg(s.skeleton.rootCount()));
      bool ownBinds = false;
      for (const auto& m : s.meshes) ownBinds = ownBinds || !m.inverseBind.empty();
      rows.add(tr("Bind pose"), ownBinds ? tr("per mesh (each mesh has its own bind matrices)")
                                : s.skeleton.inverseBind.empty() ? tr("the rest pose")
                                                                 : tr("the skeleton's inverse bind matrices"));
      rows.add(tr("Clips"), QString::number(s.clips.size()));
      rows.add(tr("Materials"), QString::number(s.materials.size()));
      rows.add(tr("Diagnostics"), QString::number(s.diagnostics.items.size()));
      glm::vec3 lo, hi;
      if (formats::restBounds(s, lo, hi)) rows.add(tr("Bounds (native)"), vec(lo) + QStringLiteral("  …  ") + vec(hi));
      std::vector<const formats::Mesh*> all;
      for (const auto& m : s.meshes) all.push_back(&m);
      addMorphSliders(all, controls);
      if (std::any_of(s.meshes.begin(), s.meshes.end(), [](const auto& m) { return !m.lod.empty(); })) {
        float level = 1.0f;
        for (std::size_t m = 0; m < s.meshes.size() && m < controls.levels.size(); ++m)
          if (!s.meshes[m].lod.empty()) level = std::min(level, controls.levels[m]);
        addSlider(rows.add(tr("Level of detail (all)")), level, 0.0f, 1.0f,
                  [this](float picked) { emit levelOfDetailChanged(-1, picked); });
      }
      if (const formats::MeshLevels levels = formats::meshLevels(s); levels.deepest > 0) {
        // Level meshes (NAME.lod1 …): one level of each is drawn, 0 the full mesh.
        auto* spin = new QSpinBox;
        spin->setRange(0, levels.deepest);
        spin->setValue(std::min(controls.meshLevel, levels.deepest));
        spin->setObjectName(QStringLiteral("meshLevel"));
        spin->setToolTip(tr("Meshes NAME.lod1 … NAME.lod%1 are levels of NAME: the level drawn (0: NAME itself)")
                             .arg(levels.deepest));
        connect(spin, &QSpinBox::valueChanged, this, [this](int level) { emit meshLevelChanged(level); });
        tree_->setItemWidget(rows.add(tr("Level meshes drawn")), 1, spin);
      }
      break;
    }
    case ItemKind::Mesh: {
      if (index < 0 || static_cast<std::size_t>(index) >= s.meshes.size()) return clear();
      const auto& m = s.meshes[index];
      rows.add(tr("Name"), str(m.name));
      rows.add(tr("Vertices"), QString::number(m.vertexCount()));
      rows.add(tr("Triangles"), QString::number(m.triangleCount()));
      rows.add(tr("Normals"), m.normals.empty() ? tr("none (computed for display)") : tr("yes"));
      rows.add(tr("Tangents"), m.tangents.empty() ? tr("no") : tr("yes"));
      rows.add(tr("UV sets"), QString::number(m.uvSets.size()));
      rows.add(tr("Vertex colours"), m.colors.empty() ? tr("no") : tr("yes"));
      rows.add(tr("Skinning"), m.parentBone >= 0
                                   ? tr("rigid, attached to %1").arg(str(s.skeleton.bones[m.parentBone].name))
                                   : m.skinned() ? tr("up to %1 influences per vertex").arg(m.maxInfluences())
                                                 : tr("none"));
      rows.add(tr("Own inverse binds"), m.inverseBind.empty() ? tr("no") : tr("yes"));
      rows.add(tr("Morph targets"), QString::number(m.morphs.size()));
      rows.add(tr("Material"), m.material >= 0 ? str(s.materials[m.material].name) : tr("none"));
      {
        const render::SurfaceLook look = render::surfaceLook(s, m);
        const std::string why = look.why();
        rows.add(tr("Drawn with"), why.empty() ? tr("its material and vertex colours, as stored")
                                               : str(why))
            ->setToolTip(1, tr("How View › Surface Colour › Materials draws this mesh"));
      }
      if (!m.springs.empty())
        rows.add(tr("Springs"), tr("%1 (cloth/hair; drawn skinned, not simulated)").arg(m.springs.size()));
      if (const formats::MeshLevels levels = formats::meshLevels(s); levels.deepest > 0) {
        const int of = levels.of[static_cast<std::size_t>(index)];
        if (of != index)
          rows.add(tr("Level"), tr("%1 of %2").arg(levels.level[static_cast<std::size_t>(index)]).arg(str(s.meshes[of].name)));
        // Each level's figures, the mesh's own first.
        QStringList figures;
        for (int level = 0; level <= levels.deepest; ++level)
          for (std::size_t k = 0; k < s.meshes.size(); ++k)
            if (levels.of[k] == of && levels.level[k] == level)
              figures << tr("%1: %2 vertices, %3 triangles").arg(level).arg(s.meshes[k].vertexCount()).arg(s.meshes[k].triangleCount());
        if (figures.size() > 1) rows.add(tr("Levels"), figures.join(QStringLiteral("; ")))->setToolTip(1, figures.join('\n'));
      }
      if (!m.lod.empty()) {
        const float level = static_cast<std::size_t>(index) < controls.levels.size() ? controls.levels[index] : 1.0f;
        addSlider(rows.add(tr("Level of detail"), {}), level, 0.0f, 1.0f,
                  [this, index](float picked) { emit levelOfDetailChanged(index, picked); });
      }
      if (!m.morphs.empty()) addMorphSliders({&m}, controls);
      break;
    }
    case ItemKind::Clip: {
      if (index < 0 || static_cast<std::size_t>(index) >= s.clips.size()) return clear();
      const auto& c = s.clips[index];
      const anim::Binding b = anim::bind(c, s.skeleton);
      rows.add(tr("Name"), str(c.name));
      rows.add(tr("Duration"), tr("%1 s").arg(c.duration, 0, 'f', 4));
      rows.add(tr("Frame rate"), tr("%1 fps").arg(c.frameRate, 0, 'g', 5));
      rows.add(tr("Tracks"), QString::number(c.tracks.size()));
      rows.add(tr("Keys"), QString::number(c.keyCount()));
      rows.add(tr("Bound bones"), tr("%1 of %2").arg(b.matched()).arg(s.skeleton.bones.size()));
      if (!b.tracksWithoutBone.empty()) {
        auto* miss = rows.add(tr("Tracks without a bone"), QString::number(b.tracksWithoutBone.size()));
        for (const auto& n : b.tracksWithoutBone) rows.add({}, str(n), miss);
      }
      if (!b.bonesWithoutTrack.empty()) {
        auto* rest = rows.add(tr("Bones at rest"), QString::number(b.bonesWithoutTrack.size()));
        for (const auto& n : b.bonesWithoutTrack) rows.add({}, str(n), rest);
        rest->setExpanded(false);
      }
      break;
    }
    case ItemKind::Material: {
      if (index < 0 || static_cast<std::size_t>(index) >= s.materials.size()) return clear();
      const auto& m = s.materials[index];
      rows.add(tr("Name"), str(m.name));
      rows.add(tr("Diffuse"), color(m.diffuse));
      rows.add(tr("Ambient"), color(m.ambient));
      rows.add(tr("Specular"), color(m.specular));
      rows.add(tr("Shininess"), QString::number(m.shininess));
      for (const auto& map : m.maps) {
        const bool ok = map.texture >= 0 && static_cast<std::size_t>(map.texture) < s.textures.size();
        const bool found = ok && !s.textures[map.texture].data.empty();
        const bool decoded = found && static_cast<std::size_t>(map.texture) < doc.textures.size() &&
                             !doc.textures[map.texture].isNull();
        const QString note = !found ? tr("  (not found)") : decoded ? QString() : tr("  (not decodable)");
        auto* row = rows.add(tr("%1 map").arg(str(map.kind)),
                             ok ? str(s.textures[map.texture].path) + note : QString());
        if (decoded) addThumbnail(row, doc.textures[map.texture]);
      }
      for (const auto& p : m.properties) rows.add(str(p.name), str(p.value));
      break;
    }
    case ItemKind::Texture: {
      if (index < 0 || static_cast<std::size_t>(index) >= s.textures.size()) return clear();
      const auto& t = s.textures[index];
      rows.add(tr("Name"), str(t.name));
      rows.add(tr("Path"), str(t.path));
      rows.add(tr("Stored"), t.embedded ? tr("in the model file, %1 bytes").arg(t.data.size())
                             : t.data.empty() ? tr("not found")
                                              : tr("beside the model, %1 bytes").arg(t.data.size()));
      const bool loaded = static_cast<std::size_t>(index) < doc.textures.size() && !doc.textures[index].isNull();
      rows.add(tr("Image"), loaded ? tr("%1 × %2").arg(doc.textures[index].width()).arg(doc.textures[index].height())
                                   : tr("not found or not decodable"));
      break;
    }
  }
}

void PropertiesDock::showBone(const formats::Scene& s, int bone) {
  if (bone < 0 || static_cast<std::size_t>(bone) >= s.skeleton.bones.size()) return clear();
  morphSliders_.clear();
  Rows rows(tree_);
  const auto& b = s.skeleton.bones[bone];
  rows.add(tr("Bone"), str(b.name));
  rows.add(tr("Index"), QString::number(bone));
  rows.add(tr("Parent"), b.parent >= 0 ? str(s.skeleton.bones[b.parent].name) : tr("none (root)"));
  int children = 0;
  for (const auto& o : s.skeleton.bones) children += o.parent == bone;
  rows.add(tr("Children"), QString::number(children));
  rows.add(tr("Rest translation"), vec(b.translation));
  rows.add(tr("Rest rotation (x y z w)"),
           vec(glm::vec3(b.rotation.x, b.rotation.y, b.rotation.z)) +
               QStringLiteral(", %1").arg(b.rotation.w, 0, 'g', 6));
  rows.add(tr("Rest scale"), vec(b.scale));
  std::size_t weighted = 0;
  for (const auto& m : s.meshes)
    for (const auto& inf : m.influences) weighted += inf.bone == static_cast<std::uint32_t>(bone) && inf.weight > 0;
  rows.add(tr("Weighted vertices"), QString::number(weighted));
}

void PropertiesDock::addThumbnail(QTreeWidgetItem* item, const QImage& image) {
  auto* row = new QTreeWidgetItem(item, {tr("%1 × %2").arg(image.width()).arg(image.height())});
  auto* label = new QLabel;
  label->setPixmap(QPixmap::fromImage(
      image.scaled(kThumbnail, kThumbnail, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
  label->setToolTip(item->text(1));
  tree_->setItemWidget(row, 1, label);
}

void PropertiesDock::showNode(const formats::vfs::Archive& archive, const std::string& path,
                              const QString& imagePath, const QImage& image) {
  morphSliders_.clear();
  tree_->clear();
  for (const auto& [name, value] : archive.properties(path))
    new QTreeWidgetItem(tree_, {str(name), str(value)});
  const auto node = archive.node(path);
  if (node && node->kind == "texture") {
    auto* row = new QTreeWidgetItem(tree_, {tr("Image"), imagePath.isEmpty() ? tr("not used by the model's materials") : imagePath});
    if (!image.isNull()) addThumbnail(row, image);
  }
  tree_->expandAll();
}

}  // namespace marrow::app
