#include <QHeaderView>
#include <QTreeWidget>

#include "app/gui/docks.h"

namespace marrow::app {

namespace {
constexpr int kKindRole = Qt::UserRole;
constexpr int kIndexRole = Qt::UserRole + 1;

QTreeWidgetItem* item(QTreeWidgetItem* parent, const QString& name, const QString& detail,
                      ItemKind kind, int index) {
  auto* i = new QTreeWidgetItem(parent, {name, detail});
  i->setData(0, kKindRole, static_cast<int>(kind));
  i->setData(0, kIndexRole, index);
  return i;
}
}  // namespace

SceneDock::SceneDock(QWidget* parent) : QDockWidget(tr("Scene"), parent) {
  setObjectName(QStringLiteral("SceneDock"));
  tree_ = new QTreeWidget(this);
  tree_->setHeaderLabels({tr("Name"), tr("Details")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setUniformRowHeights(true);
  setWidget(tree_);
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* cur) {
    if (!cur) return;
    emit itemSelected(static_cast<ItemKind>(cur->data(0, kKindRole).toInt()),
                      cur->data(0, kIndexRole).toInt());
  });
  connect(tree_, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* it, int column) {
    if (column != 0 || static_cast<ItemKind>(it->data(0, kKindRole).toInt()) != ItemKind::Material)
      return;
    emit materialVisibilityChanged(it->data(0, kIndexRole).toInt(),
                                   it->checkState(0) == Qt::Checked);
  });
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it) {
    if (static_cast<ItemKind>(it->data(0, kKindRole).toInt()) == ItemKind::Clip)
      emit clipActivated(it->data(0, kIndexRole).toInt());
  });
}

void SceneDock::setDocument(const Document* doc) {
  const QSignalBlocker block(tree_);
  tree_->clear();
  if (!doc || !doc->scene) return;
  const auto& s = *doc->scene;
  auto* root = new QTreeWidgetItem(tree_, {doc->title(), QString::fromStdString(s.format)});
  root->setData(0, kKindRole, static_cast<int>(ItemKind::Scene));
  root->setData(0, kIndexRole, -1);

  auto* meshes = item(root, tr("Meshes"), QString::number(s.meshes.size()), ItemKind::Scene, -1);
  for (std::size_t i = 0; i < s.meshes.size(); ++i) {
    const auto& m = s.meshes[i];
    item(meshes, QString::fromStdString(m.name),
         tr("%1 vertices, %2 triangles").arg(m.vertexCount()).arg(m.triangleCount()),
         ItemKind::Mesh, static_cast<int>(i));
  }
  item(root, tr("Skeleton"),
       tr("%1 bones, %2 roots").arg(s.skeleton.bones.size()).arg(s.skeleton.rootCount()),
       ItemKind::Skeleton, -1);
  auto* clips = item(root, tr("Clips"), QString::number(s.clips.size()), ItemKind::Scene, -1);
  for (std::size_t i = 0; i < s.clips.size(); ++i) {
    const auto& c = s.clips[i];
    item(clips, QString::fromStdString(c.name),
         tr("%1 s, %2 tracks").arg(c.duration, 0, 'f', 3).arg(c.tracks.size()), ItemKind::Clip,
         static_cast<int>(i));
  }
  if (!s.attachments.empty()) {
    auto* dummies =
        item(root, tr("Dummies"), QString::number(s.attachments.size()), ItemKind::Scene, -1);
    for (const auto& a : s.attachments) {
      const glm::vec3 at(a.local[3]);
      const QString where = tr("(%1, %2, %3)").arg(at.x).arg(at.y).arg(at.z);
      const QString detail = a.parent.empty()
                                 ? tr("on the model at %1").arg(where)
                                 : tr("on %1 at %2").arg(QString::fromStdString(a.parent), where);
      auto* row = item(dummies, QString::fromStdString(a.name), detail, ItemKind::Scene, -1);
      row->setToolTip(1, tr("Position relative to the parent bone; drawn as an axis cross with "
                            "the skeleton (View › Skeleton)"));
    }
  }
  if (!s.tables.empty()) {
    auto* tables = item(root, tr("Tables"), QString::number(s.tables.size()), ItemKind::Scene, -1);
    for (const auto& t : s.tables)
      item(tables, QString::fromStdString(t.name),
           tr("%1 columns, %2 rows (see the Tables dock)").arg(t.columns.size()).arg(t.rows.size()),
           ItemKind::Scene, -1);
  }
  auto* mats = item(root, tr("Materials"), QString::number(s.materials.size()), ItemKind::Scene, -1);
  for (std::size_t i = 0; i < s.materials.size(); ++i) {
    int users = 0;
    for (const auto& m : s.meshes) users += m.material == static_cast<int>(i);
    auto* row = item(mats, QString::fromStdString(s.materials[i].name),
                     users == 1 ? tr("1 mesh") : tr("%1 meshes").arg(users), ItemKind::Material,
                     static_cast<int>(i));
    row->setFlags(row->flags() | Qt::ItemIsUserCheckable);
    row->setCheckState(0, Qt::Checked);
    row->setToolTip(0, tr("Unchecked: the meshes of this material are not drawn"));
  }
  if (!s.textures.empty()) {
    auto* texs = item(root, tr("Textures"), QString::number(s.textures.size()), ItemKind::Scene, -1);
    for (std::size_t i = 0; i < s.textures.size(); ++i) {
      const auto& t = s.textures[i];
      const bool loaded = i < doc->textures.size() && !doc->textures[i].isNull();
      item(texs, QString::fromStdString(t.path.empty() ? t.name : t.path),
           loaded ? tr("%1×%2").arg(doc->textures[i].width()).arg(doc->textures[i].height())
                  : tr("not found"),
           ItemKind::Texture, static_cast<int>(i));
    }
  }
  tree_->expandToDepth(0);
}

void SceneDock::setMaterialVisible(int material, bool visible) {
  for (QTreeWidgetItemIterator it(tree_); *it; ++it)
    if (static_cast<ItemKind>((*it)->data(0, kKindRole).toInt()) == ItemKind::Material &&
        (*it)->data(0, kIndexRole).toInt() == material) {
      (*it)->setCheckState(0, visible ? Qt::Checked : Qt::Unchecked);  // emits the change
      return;
    }
}

bool SceneDock::materialVisible(int material) const {
  for (QTreeWidgetItemIterator it(tree_); *it; ++it)
    if (static_cast<ItemKind>((*it)->data(0, kKindRole).toInt()) == ItemKind::Material &&
        (*it)->data(0, kIndexRole).toInt() == material)
      return (*it)->checkState(0) == Qt::Checked;
  return true;
}

void SceneDock::selectClip(int index) {
  const QSignalBlocker block(tree_);
  for (QTreeWidgetItemIterator it(tree_); *it; ++it)
    if (static_cast<ItemKind>((*it)->data(0, kKindRole).toInt()) == ItemKind::Clip &&
        (*it)->data(0, kIndexRole).toInt() == index) {
      tree_->setCurrentItem(*it);
      return;
    }
}

}  // namespace marrow::app
