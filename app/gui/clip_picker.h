// The timeline's clip chooser: a combo box whose popup is a filter line over a tree of the
// clips, each clip cut from an animation (Clip::group) under that animation, so that the
// hundreds of clips of a Warband module stay usable. Keyboard: Enter, F4 or Alt+Down opens it;
// typing filters (case-insensitive, on a clip's name or its group); Up/Down move; Enter plays;
// Esc clears the filter, then closes. Up/Down on the closed box step through the clips listed.
#pragma once

#include <QComboBox>
#include <vector>

#include "formats/model/scene.h"

class QFrame;
class QLineEdit;
class QModelIndex;
class QStandardItem;
class QStandardItemModel;
class QTreeView;

namespace marrow::app {

class ClipPicker : public QComboBox {
  Q_OBJECT

 public:
  explicit ClipPicker(QWidget* parent = nullptr);

  // The clips to offer, after the rest pose (-1); clip i is `clips[i]`. The filter stays.
  void setClips(const std::vector<formats::Clip>& clips);
  void setCurrentClip(int clip);  // shows it as chosen; emits nothing
  int currentClip() const { return current_; }

  QString filterText() const;
  void setFilterText(const QString& text);
  // The clips the list offers under the filter, in the order listed (-1: the rest pose).
  std::vector<int> offeredClips() const;
  // The clip highlighted in the list (what Enter plays), or kNoClip.
  int highlightedClip() const;
  // What a clip is listed under: its group's header, or "" at the top level.
  QString listedUnder(int clip) const;

  QLineEdit* filterEdit() const { return filter_; }
  QTreeView* listView() const { return view_; }
  bool popupVisible() const;

  void showPopup() override;
  void hidePopup() override;

  static constexpr int kNoClip = -2;  // a group header without a clip of the group's name

 signals:
  void clipPicked(int clip);  // the user chose it

 protected:
  void keyPressEvent(QKeyEvent* e) override;
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  void applyFilter();
  void pick(const QModelIndex& index);
  void highlight(const QModelIndex& index);
  void moveHighlight(int delta);
  void stepClip(int delta);  // on the closed box
  std::vector<QModelIndex> offeredIndexes() const;
  QModelIndex indexOf(int clip) const;
  void placePopup();

  QFrame* popup_;
  QLineEdit* filter_;
  QTreeView* view_;
  QStandardItemModel* model_;
  std::vector<QStandardItem*> items_;  // clip i at i + 1, the rest pose at 0
  int current_ = -1;
  int longest_ = 0;  // the popup's width that shows every name and detail whole
};

}  // namespace marrow::app
