// MainWindow and the archive dock: the records picked in an open BRF file make the model shown.
// toScene takes milliseconds on real files (the 1 MB OpenBRF reference: about 5 ms), so it runs
// on the GUI thread; the textures come from the whole files' model, already decoded.
#include <QStatusBar>

#include <glm/geometric.hpp>

#include <algorithm>

#include "app/gui/archive_dock.h"
#include "formats/model/model_archive.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_dock.h"
#include "app/gui/viewport.h"
#include "render/gl/surface_look.h"

namespace marrow::app {

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

void MainWindow::showPicked(int index) {
  if (!doc_) return;
  const auto& all = doc_->archives.archives();
  if (index < 0 || static_cast<std::size_t>(index) >= all.size()) return;
  const auto* models = dynamic_cast<const formats::ModelArchive*>(all[static_cast<std::size_t>(index)].get());
  if (!models) return;
  const std::vector<std::string> picked = archive_->selectedPaths(index);
  auto shown = models->show(picked, onScreen_, archive_->chosenSkeleton());
  if (!shown) {
    log_->addError(shown.error());
    statusBar()->showMessage(tr("Cannot show the records: %1").arg(QString::fromStdString(shown.error().describe())), 8000);
    return;
  }
  using What = formats::ModelArchive::Shown::What;
  if (shown->what == What::Inspect) return inspectNodes(index, picked, std::move(shown->scene));

  // The clip playing goes on playing where it was, if the new model has it.
  const std::string clip = !shown->clip.empty() ? shown->clip
                           : player_.clip()     ? player_.clip()->name
                                                : std::string();
  const bool sameClip = shown->clip.empty() && player_.clip();
  const double time = player_.time();
  const bool playing = player_.playing() || !shown->clip.empty();
  const std::shared_ptr<const formats::Scene> before = doc_->scene;

  if (shown->what == What::WholeFiles) {
    doc_->scene = filesScene_;
    doc_->textures = filesTextures_;
  } else {
    doc_->textures = texturesFor(shown->scene);
    doc_->scene = std::make_shared<const formats::Scene>(std::move(shown->scene));
  }
  onScreen_ = shown->onScreen;
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
  const auto& skeleton = doc_->scene->skeleton;
  archive_->setSkeletons(shown->skeletons,
                         QString::fromStdString(skeleton.bones.empty() ? std::string() : skeleton.name),
                         shown->chosenSkeleton);
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

void MainWindow::inspectNodes(int index, const std::vector<std::string>& paths, formats::Scene scene) {
  const formats::vfs::Archive* a = archive_->archiveAt(index);
  if (!a || paths.empty()) return;
  // A material as a model has it (flags, shader, maps), with its textures found and decoded.
  if (!scene.materials.empty()) {
    Document material;
    material.paths = doc_->paths;
    material.textures = texturesFor(scene);
    material.scene = std::make_shared<const formats::Scene>(std::move(scene));
    const std::string name = a->node(paths.front()) ? a->node(paths.front())->name : std::string();
    const auto& materials = material.scene->materials;
    const auto it = std::find_if(materials.begin(), materials.end(),
                                 [&](const formats::Material& m) { return m.name == name; });
    properties_->show(material, controls_, ItemKind::Material,
                      it != materials.end() ? static_cast<int>(it - materials.begin()) : 0);
    return;
  }
  // Anything else (a texture, a shader): its fields, and the image the model found for it.
  const auto node = a->node(paths.front());
  QImage image;
  QString imagePath;
  if (node && filesScene_)
    for (std::size_t i = 0; i < filesScene_->textures.size(); ++i)
      if (filesScene_->textures[i].name == node->name) {
        imagePath = filesScene_->textures[i].data.empty() ? tr("not found")
                                                          : QString::fromStdString(filesScene_->textures[i].path);
        if (i < filesTextures_.size()) image = filesTextures_[i];
        break;
      }
  properties_->showNode(*a, paths.front(), imagePath, image);
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
