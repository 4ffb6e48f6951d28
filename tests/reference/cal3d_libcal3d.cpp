#include "tests/reference/cal3d_libcal3d.h"

#include <cal3d/cal3d.h>
#include <cal3d/corekeyframe.h>
#include <cal3d/coretrack.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace marrow::reference {
namespace {

std::string stem(const std::string& path) {
  const std::size_t slash = path.find_last_of("/\\");
  std::string s = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = s.find_last_of('.');
  return dot == std::string::npos ? s : s.substr(0, dot);
}

std::string lastError() {
  return CalError::getLastErrorDescription() + " (" + CalError::getLastErrorText() + ", " +
         CalError::getLastErrorFile() + ":" + std::to_string(CalError::getLastErrorLine()) + ")";
}

glm::vec3 vec(const CalVector& v) {
  return {v.x, v.y, v.z};
}

// One CalCoreModel with every file of the model loaded into it.
struct Core {
  CalCoreModel model{"reference"};
  std::vector<int> meshIds;
  std::vector<std::string> meshStems;
  std::vector<int> animationIds;

  std::string load(const Cal3dFiles& files) {
    if (!files.skeleton.empty() && !model.loadCoreSkeleton(files.skeleton))
      return files.skeleton + ": " + lastError();
    for (const auto& f : files.materials)
      if (model.loadCoreMaterial(f) < 0) return f + ": " + lastError();
    for (const auto& f : files.meshes) {
      const int id = model.loadCoreMesh(f);
      if (id < 0) return f + ": " + lastError();
      meshIds.push_back(id);
      meshStems.push_back(stem(f));
    }
    for (const auto& f : files.animations) {
      const int id = model.loadCoreAnimation(f);
      if (id < 0) return f + ": " + lastError();
      animationIds.push_back(id);
    }
    return {};
  }
};

// A CalModel of `core` with its meshes attached, full detail and no spring simulation (see the
// header for why both).
struct Instance {
  CalModel model;
  explicit Instance(Core& core) : model(&core.model) {
    for (int id : core.meshIds) model.attachMesh(id);
    model.setLodLevel(1.0f);
    model.disableInternalData();
  }
};

Cal3dFrame capture(Core& core, CalModel& model, float mixerTime) {
  Cal3dFrame f;
  f.mixerTime = mixerTime;
  if (CalSkeleton* skeleton = model.getSkeleton()) {
    const std::vector<CalBone*>& bones = skeleton->getVectorBone();
    f.bones.reserve(bones.size());
    for (CalBone* b : bones) {
      Cal3dBone out;
      out.name = b->getCoreBone()->getName();
      out.parent = b->getCoreBone()->getParentId();
      out.origin = vec(b->getTranslationAbsolute());
      for (int k = 0; k < 3; ++k) {
        CalVector axis(k == 0 ? 1.0f : 0.0f, k == 1 ? 1.0f : 0.0f, k == 2 ? 1.0f : 0.0f);
        axis *= b->getRotationAbsolute();
        out.axes[static_cast<std::size_t>(k)] = vec(axis);
      }
      f.bones.push_back(std::move(out));
    }
  }
  CalPhysique* physique = model.getPhysique();
  for (std::size_t m = 0; m < core.meshIds.size(); ++m) {
    CalMesh* mesh = model.getMesh(core.meshIds[m]);
    const int count = mesh->getSubmeshCount();
    for (int s = 0; s < count; ++s) {
      CalSubmesh* sub = mesh->getSubmesh(s);
      const std::size_t n = static_cast<std::size_t>(sub->getVertexCount());
      // NaN-filled, so that a vertex libcal3d did not write cannot pass for a skinned one.
      std::vector<float> p(n * 3, std::numeric_limits<float>::quiet_NaN());
      std::vector<float> q(n * 3, std::numeric_limits<float>::quiet_NaN());
      physique->calculateVertices(sub, p.data());
      physique->calculateNormals(sub, q.data());
      Cal3dSubmesh out;
      out.name = count == 1 ? core.meshStems[m] : core.meshStems[m] + "#" + std::to_string(s);
      out.positions.resize(n);
      out.normals.resize(n);
      for (std::size_t v = 0; v < n; ++v) {
        out.positions[v] = {p[3 * v], p[3 * v + 1], p[3 * v + 2]};
        out.normals[v] = {q[3 * v], q[3 * v + 1], q[3 * v + 2]};
      }
      f.submeshes.push_back(std::move(out));
    }
  }
  return f;
}

Cal3dKeyRange rangeOf(CalCoreAnimation& a) {
  Cal3dKeyRange r;
  r.duration = a.getDuration();
  r.lastKeyMinMulti = r.duration;
  bool first = true, firstMulti = true;
  for (CalCoreTrack* t : a.getListCoreTrack()) {
    const int n = t->getCoreKeyframeCount();
    if (n <= 0) continue;
    const float t0 = t->getCoreKeyframe(0)->getTime();
    const float t1 = t->getCoreKeyframe(n - 1)->getTime();
    if (first) {
      r.firstKeyMax = t0;
      r.lastKeyMax = r.lastKeyOfFirstTrack = t1;
      first = false;
    }
    r.firstKeyMax = std::max(r.firstKeyMax, t0);
    r.lastKeyMax = std::max(r.lastKeyMax, t1);
    if (n >= 2) {
      r.firstKeyMaxMulti = firstMulti ? t0 : std::max(r.firstKeyMaxMulti, t0);
      r.lastKeyMinMulti = firstMulti ? t1 : std::min(r.lastKeyMinMulti, t1);
      firstMulti = false;
    }
    ++r.tracks;
  }
  return r;
}

}  // namespace

struct Libcal3dModel::Impl {
  Core cycles, actions;  // two core models: blendCycle changes the core animations it plays
  std::vector<Cal3dKeyRange> ranges;
  std::string error;
};

Libcal3dModel::Libcal3dModel(const Cal3dFiles& files) : impl_(std::make_unique<Impl>()) {
  impl_->error = impl_->cycles.load(files);
  if (impl_->error.empty()) impl_->error = impl_->actions.load(files);
  if (!impl_->error.empty()) return;
  for (int id : impl_->cycles.animationIds)
    impl_->ranges.push_back(rangeOf(*impl_->cycles.model.getCoreAnimation(id)));
}

Libcal3dModel::~Libcal3dModel() = default;

const std::string& Libcal3dModel::error() const {
  return impl_->error;
}

int Libcal3dModel::boneCount() const {
  CalCoreSkeleton* s = impl_->cycles.model.getCoreSkeleton();
  return s ? static_cast<int>(s->getVectorCoreBone().size()) : 0;
}

int Libcal3dModel::animationCount() const {
  return static_cast<int>(impl_->cycles.animationIds.size());
}

const Cal3dKeyRange& Libcal3dModel::keyRange(int animation) const {
  return impl_->ranges.at(static_cast<std::size_t>(animation));
}

std::vector<glm::vec3> Libcal3dModel::restVertices() const {
  std::vector<glm::vec3> out;
  for (int id : impl_->cycles.meshIds)
    for (CalCoreSubmesh* s : impl_->cycles.model.getCoreMesh(id)->getVectorCoreSubmesh())
      for (const auto& v : s->getVectorVertex()) out.push_back(vec(v.position));
  return out;
}

Cal3dFrame Libcal3dModel::rest() {
  Instance i(impl_->cycles);
  i.model.getMixer()->updateAnimation(0.0f);
  i.model.getMixer()->updateSkeleton();
  return capture(impl_->cycles, i.model, 0.0f);
}

Cal3dFrame Libcal3dModel::cycle(int animation, float t) {
  Instance i(impl_->cycles);
  CalMixer* mixer = i.model.getMixer();
  mixer->blendCycle(impl_->cycles.animationIds.at(static_cast<std::size_t>(animation)), 1.0f, 0.0f);
  mixer->updateAnimation(0.0f);  // full weight, and the cycle's duration becomes the mixer's
  mixer->updateAnimation(t);
  mixer->updateSkeleton();
  return capture(impl_->cycles, i.model, mixer->getAnimationTime());
}

std::vector<Cal3dFrame> Libcal3dModel::springCycle(int animation, float dt, int steps) {
  CalModel model(&impl_->cycles.model);
  for (int id : impl_->cycles.meshIds) model.attachMesh(id);
  model.setLodLevel(1.0f);
  model.getMixer()->blendCycle(impl_->cycles.animationIds.at(static_cast<std::size_t>(animation)),
                               1.0f, 0.0f);
  std::vector<Cal3dFrame> frames;
  for (int i = 0; i <= steps; ++i) {
    model.update(i == 0 ? 0.0f : dt);
    Cal3dFrame f;
    f.mixerTime = model.getMixer()->getAnimationTime();
    for (std::size_t m = 0; m < impl_->cycles.meshIds.size(); ++m) {
      CalMesh* mesh = model.getMesh(impl_->cycles.meshIds[m]);
      const int count = mesh->getSubmeshCount();
      for (int s = 0; s < count; ++s) {
        CalSubmesh* sub = mesh->getSubmesh(s);
        Cal3dSubmesh out;
        const std::string& stemName = impl_->cycles.meshStems[m];
        out.name = count == 1 ? stemName : stemName + "#" + std::to_string(s);
        for (const CalVector& v : sub->getVectorVertex()) out.positions.push_back(vec(v));
        f.submeshes.push_back(std::move(out));
      }
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

Cal3dFrame Libcal3dModel::action(int animation, float t) {
  Instance i(impl_->actions);
  CalMixer* mixer = i.model.getMixer();
  mixer->executeAction(impl_->actions.animationIds.at(static_cast<std::size_t>(animation)), 0.0f,
                       0.0f);
  mixer->updateAnimation(0.0f);
  mixer->updateAnimation(t);
  mixer->updateSkeleton();
  const auto& list = mixer->getAnimationActionList();
  return capture(impl_->actions, i.model, list.empty() ? t : list.front()->getTime());
}

Cal3dFrame Libcal3dModel::heldKeys(int animation, bool last) {
  Instance i(impl_->actions);
  CalSkeleton* skeleton = i.model.getSkeleton();
  CalCoreAnimation* a = impl_->actions.model.getCoreAnimation(
      impl_->actions.animationIds.at(static_cast<std::size_t>(animation)));
  skeleton->clearState();
  for (CalCoreTrack* t : a->getListCoreTrack()) {
    const int n = t->getCoreKeyframeCount();
    if (n <= 0) continue;
    CalCoreKeyframe* k = t->getCoreKeyframe(last ? n - 1 : 0);
    skeleton->getBone(t->getCoreBoneId())->blendState(1.0f, k->getTranslation(), k->getRotation());
  }
  skeleton->lockState();
  skeleton->calculateState();
  return capture(impl_->actions, i.model, last ? a->getDuration() : 0.0f);
}

std::vector<Cal3dLodSubmesh> Libcal3dModel::levelOfDetail(float level) {
  Core& core = impl_->cycles;
  Instance i(core);
  i.model.setLodLevel(level);
  CalRenderer* renderer = i.model.getRenderer();
  std::vector<Cal3dLodSubmesh> out;
  if (!renderer->beginRendering()) return out;
  for (std::size_t m = 0; m < core.meshIds.size(); ++m) {
    CalCoreMesh* coreMesh = core.model.getCoreMesh(core.meshIds[m]);
    const int count = renderer->getSubmeshCount(core.meshIds[m]);
    for (int s = 0; s < count; ++s) {
      CalCoreSubmesh* coreSubmesh = coreMesh->getCoreSubmesh(s);
      Cal3dLodSubmesh sub;
      sub.name = count == 1 ? core.meshStems[m] : core.meshStems[m] + "#" + std::to_string(s);
      sub.coreVertexCount = coreSubmesh->getVertexCount();
      sub.lodCount = coreSubmesh->getLodCount();
      sub.coreFaceCount = coreSubmesh->getFaceCount();
      for (const auto& v : coreSubmesh->getVectorVertex())
        sub.restPositions.push_back(vec(v.position));
      if (renderer->selectMeshSubmesh(core.meshIds[m], s)) {
        sub.vertexCount = renderer->getVertexCount();
        const int faces = renderer->getFaceCount();
        if (faces > 0) {
          std::vector<CalIndex> buffer(static_cast<std::size_t>(faces) * 3);
          const int got = renderer->getFaces(buffer.data());
          for (int f = 0; f < got && f < faces; ++f) {
            const std::size_t k = static_cast<std::size_t>(f) * 3;
            sub.faces.push_back({static_cast<int>(buffer[k]), static_cast<int>(buffer[k + 1]),
                                 static_cast<int>(buffer[k + 2])});
          }
        }
      }
      out.push_back(std::move(sub));
    }
  }
  renderer->endRendering();
  return out;
}

}  // namespace marrow::reference
