// MainWindow and the archive dock: the records picked in an open BRF file make the model shown.
// toScene takes milliseconds on real files (the 1 MB OpenBRF reference: about 5 ms), so it runs
// on the GUI thread; the textures come from the whole files' model, already decoded.
#include <QStatusBar>

#include <glm/geometric.hpp>

#include <algorithm>

#include "app/gui/archive_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "render/gl/surface_look.h"

namespace marrow::app {

namespace brf = formats::brf;

namespace {

// Whether the camera should move to show `next`: nothing was shown before, or the new model is
// far from the old one or of another size.
bool needsFraming(const formats::Scene& before, const formats::Scene& next) {
  glm::vec3 lo0, hi0, lo1, hi1;
  if (!formats::restBounds(before, lo0, hi0) || !formats::restBounds(next, lo1, hi1)) return true;
  const float r0 = std::max(glm::length(hi0 - lo0), 1e-6f), r1 = std::max(glm::length(hi1 - lo1), 1e-6f);
  const float moved = glm::length((lo1 + hi1) - (lo0 + hi0)) * 0.5f;
  return r1 > 3.0f * r0 || r0 > 3.0f * r1 || moved > std::max(r0, r1);
}

}  // namespace

void MainWindow::showPickedRecords() {
  if (!doc_ || doc_->brf.empty()) return;
  const auto picked = archive_->selectedRecords();
  const ArchiveChoice choice = chooseRecords(doc_->brf, picked, shown_, archive_->chosenSkeleton());
  if (choice.show == ArchiveChoice::Show::KeepModel) {
    inspectRecord(picked.front());
    return;
  }
  showChoice(choice);
}

void MainWindow::showChoice(const ArchiveChoice& choice) {
  // The clip playing goes on playing where it was, if the new model has it.
  const std::string clip = !choice.clip.empty() ? choice.clip
                           : player_.clip()     ? player_.clip()->name
                                                : std::string();
  const bool sameClip = choice.clip.empty() && player_.clip();
  const double time = player_.time();
  const bool playing = player_.playing() || !choice.clip.empty();
  const std::shared_ptr<const formats::Scene> before = doc_->scene;

  if (choice.show == ArchiveChoice::Show::WholeFiles) {
    doc_->scene = filesScene_;
    doc_->textures = filesTextures_;
  } else {
    auto scene = brf::toScene(doc_->brf, choice.selection);
    if (!scene) {
      log_->addError(scene.error());
      statusBar()->showMessage(tr("Cannot show the records: %1").arg(QString::fromStdString(scene.error().describe())), 8000);
      return;
    }
    doc_->textures = texturesFor(*scene);
    doc_->scene = std::make_shared<const formats::Scene>(std::move(scene).value());
  }
  shown_ = choice.shown;
  showModel(needsFraming(*before, *doc_->scene));

  const auto& clips = doc_->scene->clips;
  for (std::size_t c = 0; c < clips.size(); ++c)
    if (clips[c].name == clip) {
      timeline_->setClip(static_cast<int>(c));
      if (sameClip) player_.setTime(time);
      break;
    }
  if (playing && player_.clip()) timeline_->play();
  timeline_->refresh();
  updatePose();
  logNewDiagnostics(doc_->scene->diagnostics);
  logNewDiagnostics(render::surfaceNotes(*doc_->scene));

  // The skeletons to choose from are those that fit what is now shown.
  brf::Selection unchosen = choice.selection;
  unchosen.skeleton.reset();
  const auto& skeleton = doc_->scene->skeleton;
  archive_->setFittingSkeletons(fittingSkeletonsFor(doc_->brf, unchosen),
                                QString::fromStdString(skeleton.bones.empty() ? std::string() : skeleton.name),
                                choice.chosenSkeleton);
  const auto& s = *doc_->scene;
  statusBar()->showMessage(
      player_.mismatch().empty()
          ? tr("Showing %1 meshes, %2 bodies, skeleton %3, %4 clips")
                .arg(s.meshes.size()).arg(s.bodies.size())
                .arg(s.skeleton.bones.empty() ? tr("none") : QString::fromStdString(s.skeleton.name))
                .arg(s.clips.size())
          : QString::fromStdString(player_.mismatch()),
      8000);
}

void MainWindow::inspectRecord(const brf::RecordRef& record) {
  if (record.kind != brf::Section::Material) return properties_->showBrfRecord(*doc_, record);
  // A material as the model has it (flags, shader, maps), with its textures found and decoded.
  brf::Selection only;
  only.meshes = only.bodies = only.animations = std::vector<brf::RecordRef>{};
  only.materials = std::vector<brf::RecordRef>{record};
  only.noSkeleton = true;
  auto scene = brf::toScene(doc_->brf, only);
  if (!scene) return log_->addError(scene.error());
  Document material;
  material.paths = doc_->paths;
  material.textures = texturesFor(*scene);
  material.scene = std::make_shared<const formats::Scene>(std::move(scene).value());
  const std::string& name = brf::recordName(doc_->brf[record.source], record.kind, record.index);
  const auto& materials = material.scene->materials;
  const auto it = std::find_if(materials.begin(), materials.end(),
                               [&](const formats::Material& m) { return m.name == name; });
  if (it != materials.end())
    properties_->show(material, controls_, ItemKind::Material, static_cast<int>(it - materials.begin()));
}

std::vector<QImage> MainWindow::texturesFor(formats::Scene& scene) {
  // The whole files' model decoded every texture a material of theirs names: reuse those.
  std::vector<QImage> images(scene.textures.size());
  formats::Scene missing;
  std::vector<std::size_t> where;
  for (std::size_t i = 0; i < scene.textures.size(); ++i) {
    const auto& t = scene.textures[i];
    bool found = false;
    for (std::size_t j = 0; filesScene_ && j < filesScene_->textures.size() && !found; ++j)
      if (filesScene_->textures[j].name == t.name && filesScene_->textures[j].path == t.path) {
        if (j < filesTextures_.size()) images[i] = filesTextures_[j];
        found = true;
      }
    if (!found) {
      missing.textures.push_back(t);
      where.push_back(i);
    }
  }
  if (!missing.textures.empty()) {
    const auto decoded = decodeTextures(missing);
    for (std::size_t k = 0; k < where.size(); ++k) images[where[k]] = decoded[k];
    scene.diagnostics.append(missing.diagnostics);
  }
  return images;
}

void MainWindow::logNewDiagnostics(const formats::Diagnostics& diagnostics) {
  // Each pick makes a new model with the same warnings about the same records: log them once.
  formats::Diagnostics fresh;
  for (const auto& d : diagnostics.items)
    if (logged_.insert(d.file + '\n' + d.field + '\n' + d.message).second) fresh.items.push_back(d);
  log_->addDiagnostics(fresh);
}

}  // namespace marrow::app
