// The inspector docks around the viewport: Scene, Bones, Properties, Log.
#pragma once

#include <QDockWidget>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "app/document.h"
#include "render/anim/pose.h"


class QPlainTextEdit;
class QSlider;
class QTreeWidget;
class QTreeWidgetItem;

namespace marrow::app {

enum class ItemKind { Scene, Mesh, Skeleton, Clip, Material, Texture };

// The model as a tree: meshes, skeleton, clips, materials, textures. Each material has a
// check box: unchecked, the meshes using it are not drawn.
class SceneDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit SceneDock(QWidget* parent = nullptr);
  void setDocument(const Document* doc);  // null clears
  void selectClip(int index);
  void setMaterialVisible(int material, bool visible);  // checks or unchecks its box
  bool materialVisible(int material) const;

 signals:
  void itemSelected(marrow::app::ItemKind kind, int index);
  void clipActivated(int index);
  void materialVisibilityChanged(int material, bool visible);

 private:
  QTreeWidget* tree_;
};

// The bone hierarchy, and the selected bone's local and model transform at the current time
// (updated with every pose, so live while playing). A bone can be hidden with its subtree
// (context menu); hidden bones are greyed.
class BonesDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit BonesDock(QWidget* parent = nullptr);
  void setScene(const formats::Scene* scene);
  void setPose(const anim::Pose& pose);
  void selectBone(int bone);  // and scrolls to it
  int selectedBone() const { return selected_; }
  // Hides (or shows) a bone and every bone under it.
  void setSubtreeHidden(int bone, bool hidden);
  void showAllBones();
  const std::vector<bool>& hiddenBones() const { return hidden_; }
  QString transformsText() const;

 signals:
  void boneSelected(int bone);
  void hiddenBonesChanged(const std::vector<bool>& hidden);

 private:
  void showTransforms();
  void contextMenu(const QPoint& at);
  void paintHidden();

  QTreeWidget* tree_;
  QPlainTextEdit* transforms_;
  std::vector<QTreeWidgetItem*> items_;
  const formats::Scene* scene_ = nullptr;
  anim::Pose pose_;
  int selected_ = -1;
  std::vector<bool> hidden_;
};

// What the user has set on the meshes: blend shape weights, level of detail.
struct MeshControls {
  // By target name: a face split over several submeshes has a target of one name in each, and
  // they move together.
  std::map<std::string, float> morphWeights;
  std::vector<float> levels;  // per mesh, 1 = full detail
  int meshLevel = 0;          // the level of level meshes (BRF NAME.lodN, formats/model/lod.h) drawn

  void reset(const formats::Scene& scene);
  // One weight per morph target of `mesh`, from the weights by name.
  std::vector<float> weightsFor(const formats::Mesh& mesh) const;
};

// A morph target's name as people read it: exporters that could not store UTF-8 wrote it as hex
// ("e5a4a7e58fa3" is 大口), which is shown decoded, the stored text after it.
QString morphDisplayName(const std::string& name);

// Name / value pairs of whatever is selected; sliders for morph targets and level of detail.
class PropertiesDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit PropertiesDock(QWidget* parent = nullptr);
  void show(const Document& doc, const MeshControls& controls, ItemKind kind, int index);
  void showBone(const formats::Scene& scene, int bone);
  // A node of an archive that is not part of a model on its own (a BRF texture or shader): the
  // archive's properties of it, and for an image the file the model found ("" when it names
  // none), with a thumbnail when it was decoded.
  void showNode(const formats::vfs::Archive& archive, const std::string& path,
                const QString& imagePath, const QImage& image);
  void clear();
  // While a clip drives morph targets (`driven`: target name → the weight playing now), their
  // sliders follow it and are disabled (the clip sets them); the others, and all of them when
  // `driven` is empty, show and take their own weights (`controls`).
  void followMorphWeights(const std::map<std::string, float>& driven, const MeshControls& controls);

 signals:
  void morphWeightChanged(const std::string& target, float weight);
  void levelOfDetailChanged(int mesh, float level);  // mesh -1: every mesh
  void meshLevelChanged(int level);                   // the level of level meshes drawn

 private:
  QSlider* addSlider(QTreeWidgetItem* item, float value, float lo, float hi,
                     std::function<void(float)> changed);
  void addMorphSliders(const std::vector<const formats::Mesh*>& meshes, const MeshControls& controls);
  static void setSliderValue(QSlider* slider, float value);
  // A row under `item` showing the image, at most kThumbnail pixels on a side.
  void addThumbnail(QTreeWidgetItem* item, const QImage& image);
  QTreeWidget* tree_;
  std::map<std::string, QSlider*> morphSliders_;  // of the morph targets shown, by name
};

// Every diagnostic and error, with file, field and offset.
class LogDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit LogDock(QWidget* parent = nullptr);
  void add(formats::Severity severity, const QString& file, const QString& field,
           std::uint64_t offset, const QString& message);
  void addDiagnostics(const formats::Diagnostics& diagnostics);
  void addError(const formats::FormatError& error);
  void addInfo(const QString& message);
  int count() const;

 private:
  void updateTitle();
  QTreeWidget* tree_;
  int problems_ = 0;
};

}  // namespace marrow::app
