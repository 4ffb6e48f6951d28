#include <QFontDatabase>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTreeWidget>

#include <algorithm>

#include <glm/gtc/quaternion.hpp>

#include "app/gui/docks.h"

namespace marrow::app {

BonesDock::BonesDock(QWidget* parent) : QDockWidget(tr("Bones"), parent) {
  setObjectName(QStringLiteral("BonesDock"));
  auto* split = new QSplitter(Qt::Vertical, this);
  tree_ = new QTreeWidget(split);
  tree_->setHeaderLabels({tr("Bone"), tr("#")});
  tree_->setUniformRowHeights(true);
  transforms_ = new QPlainTextEdit(split);
  transforms_->setReadOnly(true);
  transforms_->setLineWrapMode(QPlainTextEdit::NoWrap);
  transforms_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  transforms_->setPlaceholderText(tr("Select a bone to see its transforms at the current time."));
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  setWidget(split);
  // The selection, not the current row: Tab into the tree moves the current row to the first
  // bone without selecting it, and that must not change the selected bone.
  connect(tree_, &QTreeWidget::itemSelectionChanged, this, [this] {
    const auto picked = tree_->selectedItems();
    const int bone = picked.isEmpty() ? -1 : picked.front()->data(0, Qt::UserRole).toInt();
    if (bone == selected_) return;
    selected_ = bone;
    showTransforms();
    emit boneSelected(selected_);
  });
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(tree_, &QWidget::customContextMenuRequested, this, &BonesDock::contextMenu);
}

void BonesDock::contextMenu(const QPoint& at) {
  QTreeWidgetItem* item = tree_->itemAt(at);
  const int bone = item ? item->data(0, Qt::UserRole).toInt() : -1;
  QMenu menu(this);
  if (bone >= 0) {
    const bool hidden = static_cast<std::size_t>(bone) < hidden_.size() && hidden_[bone];
    const QString name = item->text(0);
    if (hidden)
      menu.addAction(tr("Show %1 and Its Children").arg(name), this,
                     [this, bone] { setSubtreeHidden(bone, false); });
    else
      menu.addAction(tr("Hide %1 and Its Children").arg(name), this,
                     [this, bone] { setSubtreeHidden(bone, true); });
  }
  QAction* all = menu.addAction(tr("Show All Bones"), this, &BonesDock::showAllBones);
  all->setEnabled(std::find(hidden_.begin(), hidden_.end(), true) != hidden_.end());
  menu.exec(tree_->viewport()->mapToGlobal(at));
}

void BonesDock::setSubtreeHidden(int bone, bool hidden) {
  if (!scene_ || bone < 0 || static_cast<std::size_t>(bone) >= hidden_.size()) return;
  const auto& bones = scene_->skeleton.bones;
  // Parents precede children (model invariant): one pass marks the whole subtree.
  std::vector<bool> inSubtree(bones.size(), false);
  inSubtree[bone] = true;
  for (std::size_t i = static_cast<std::size_t>(bone) + 1; i < bones.size(); ++i)
    inSubtree[i] = bones[i].parent >= 0 && inSubtree[bones[i].parent];
  std::vector<bool> next = hidden_;
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (inSubtree[i]) next[i] = hidden;
  if (next == hidden_) return;
  hidden_ = std::move(next);
  paintHidden();
  emit hiddenBonesChanged(hidden_);
}

void BonesDock::showAllBones() {
  if (std::find(hidden_.begin(), hidden_.end(), true) == hidden_.end()) return;
  hidden_.assign(hidden_.size(), false);
  paintHidden();
  emit hiddenBonesChanged(hidden_);
}

void BonesDock::paintHidden() {
  const QBrush shown = tree_->palette().brush(QPalette::Text);
  const QBrush greyed = tree_->palette().brush(QPalette::Disabled, QPalette::Text);
  for (std::size_t i = 0; i < items_.size(); ++i) {
    const bool h = i < hidden_.size() && hidden_[i];
    QFont f = items_[i]->font(0);
    f.setItalic(h);
    for (int c = 0; c < 2; ++c) {
      items_[i]->setFont(c, f);
      items_[i]->setForeground(c, h ? greyed : shown);
    }
    items_[i]->setToolTip(0, h ? tr("Hidden: not drawn, nor the triangles it weighs most")
                               : QString());
  }
}

QString BonesDock::transformsText() const { return transforms_->toPlainText(); }

void BonesDock::setScene(const formats::Scene* scene) {
  const QSignalBlocker block(tree_);
  scene_ = scene;
  tree_->clear();
  items_.clear();
  selected_ = -1;
  pose_ = {};
  transforms_->clear();
  hidden_.clear();
  if (!scene) return;
  const auto& bones = scene->skeleton.bones;
  hidden_.assign(bones.size(), false);
  items_.resize(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const int p = bones[i].parent;  // parents precede children (model invariant)
    const QStringList cols{QString::fromStdString(bones[i].name), QString::number(i)};
    auto* it = p >= 0 ? new QTreeWidgetItem(items_[p], cols) : new QTreeWidgetItem(tree_, cols);
    it->setData(0, Qt::UserRole, static_cast<int>(i));
    items_[i] = it;
  }
  tree_->expandAll();
  tree_->resizeColumnToContents(0);
  // A skeleton of roots only has no hierarchy in the files read (a Dragon Nest mesh keeps its
  // in the character's .ani): said here, where the flat list is seen.
  const bool flat = bones.size() > 1 && scene->skeleton.rootCount() == bones.size();
  transforms_->setPlaceholderText(
      flat ? tr("Each of the %1 bones is a root: the files read hold no hierarchy (a Dragon Nest mesh "
                "keeps its in the character's .ani: open it with the mesh).\n\nSelect a bone to see its "
                "transforms at the current time.")
                 .arg(bones.size())
           : tr("Select a bone to see its transforms at the current time."));
}

void BonesDock::setPose(const anim::Pose& pose) {
  pose_ = pose;
  if (selected_ >= 0 && isVisible()) showTransforms();
}

void BonesDock::selectBone(int bone) {
  if (bone == selected_) return;
  if (bone >= 0 && static_cast<std::size_t>(bone) < items_.size()) {
    tree_->setCurrentItem(items_[bone]);
    tree_->scrollToItem(items_[bone]);
  } else {
    tree_->clearSelection();  // emits the change (bone -1)
    tree_->setCurrentItem(nullptr);
  }
}

namespace {

QString vec(const glm::vec3& v) {
  return QStringLiteral("%1 %2 %3").arg(v.x, 10, 'f', 5).arg(v.y, 10, 'f', 5).arg(v.z, 10, 'f', 5);
}

}  // namespace

void BonesDock::showTransforms() {
  if (!scene_ || selected_ < 0 || static_cast<std::size_t>(selected_) >= pose_.local.size() ||
      pose_.model.size() != pose_.local.size()) {
    transforms_->clear();
    return;
  }
  const auto& l = pose_.local[selected_];
  const glm::mat4& m = pose_.model[selected_];
  const glm::vec3 euler = glm::degrees(glm::eulerAngles(l.rotation));
  QString text = QString::fromStdString(scene_->skeleton.bones[selected_].name) + '\n';
  text += tr("local (relative to the parent)\n");
  // Values on lines of their own, under what they are: no line is wider than four numbers, so
  // that a narrow dock cuts nothing (it scrolls sideways rather than wrap).
  text += tr("  translation (x y z)\n") + QStringLiteral("  %1\n").arg(vec(l.translation));
  text += tr("  rotation (quaternion x y z w)\n") +
          QStringLiteral("  %1 %2\n").arg(vec(glm::vec3(l.rotation.x, l.rotation.y, l.rotation.z))).arg(l.rotation.w, 10, 'f', 5);
  text += tr("  rotation (Euler XYZ, degrees)\n") + QStringLiteral("  %1\n").arg(vec(euler));
  text += tr("  scale (x y z)\n") + QStringLiteral("  %1\n").arg(vec(l.scale));
  text += tr("model (rows)\n");
  for (int r = 0; r < 4; ++r)
    text += QStringLiteral("  %1 %2 %3 %4\n")
                .arg(m[0][r], 10, 'f', 5).arg(m[1][r], 10, 'f', 5)
                .arg(m[2][r], 10, 'f', 5).arg(m[3][r], 10, 'f', 5);
  transforms_->setPlainText(text);
}

}  // namespace marrow::app
