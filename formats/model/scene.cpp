#include "formats/model/scene.h"

#include <algorithm>
#include <limits>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/transform.hpp>

namespace marrow::formats {

glm::mat4 toDisplay(const Basis& basis) {
  // Left-handed data is first mirrored along its depth axis (the one neither up nor X), which
  // makes it right-handed; then a proper rotation brings the up axis to +Y.
  glm::mat4 m(1.0f);
  switch (basis.up) {
    case Axis::Y: break;
    case Axis::Z:  // (x, y, z) -> (x, z, -y)
      m = glm::mat4(glm::vec4(1, 0, 0, 0), glm::vec4(0, 0, -1, 0), glm::vec4(0, 1, 0, 0),
                    glm::vec4(0, 0, 0, 1));
      break;
    case Axis::X:  // (x, y, z) -> (-y, x, z)
      m = glm::mat4(glm::vec4(0, 1, 0, 0), glm::vec4(-1, 0, 0, 0), glm::vec4(0, 0, 1, 0),
                    glm::vec4(0, 0, 0, 1));
      break;
  }
  if (!basis.rightHanded) {
    glm::mat4 mirror(1.0f);
    const int depth = basis.up == Axis::Z ? 1 : 2;
    mirror[depth][depth] = -1.0f;
    m = m * mirror;
  }
  // The depth axis lands on display -Z when Z is up, on +Z otherwise, and the other way round
  // when the data was mirrored along it (left-handed): a model facing away from the camera is
  // turned half round the up axis (a rotation: nothing is mirrored).
  const int depthToCamera = (basis.up == Axis::Z ? -1 : 1) * (basis.rightHanded ? 1 : -1);
  const int facesCamera = basis.front * depthToCamera;
  if (facesCamera < 0)
    m = glm::mat4(glm::vec4(-1, 0, 0, 0), glm::vec4(0, 1, 0, 0), glm::vec4(0, 0, -1, 0),
                  glm::vec4(0, 0, 0, 1)) * m;
  const float s = basis.unitMeters > 0.0f ? basis.unitMeters : 1.0f;
  return glm::scale(glm::vec3(s)) * m;
}

bool flipsWinding(const Basis& basis) { return !basis.rightHanded; }

std::string describe(const Basis& basis) {
  std::string s = basis.up == Axis::X ? "X-up" : basis.up == Axis::Y ? "Y-up" : "Z-up";
  s += basis.rightHanded ? ", right-handed" : ", left-handed";
  if (basis.unitMeters != 1.0f) s += ", 1 unit = " + std::to_string(basis.unitMeters) + " m";
  return s;
}

std::span<const Influence> Mesh::influencesOf(std::size_t vertex) const {
  if (vertex + 1 >= influenceStart.size()) return {};
  const std::uint32_t b = influenceStart[vertex];
  const std::uint32_t e = influenceStart[vertex + 1];
  return std::span<const Influence>(influences).subspan(b, e - b);
}

std::uint32_t Mesh::maxInfluences() const {
  std::uint32_t n = parentBone >= 0 ? 1 : 0;
  for (std::size_t v = 0; v + 1 < influenceStart.size(); ++v)
    n = std::max(n, influenceStart[v + 1] - influenceStart[v]);
  return n;
}

void Mesh::addInfluences(std::span<const Influence> vertexInfluences) {
  if (influenceStart.empty()) influenceStart.push_back(0);
  influences.insert(influences.end(), vertexInfluences.begin(), vertexInfluences.end());
  influenceStart.push_back(static_cast<std::uint32_t>(influences.size()));
}

int Skeleton::find(std::string_view name) const {
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (bones[i].name == name) return static_cast<int>(i);
  return -1;
}

std::size_t Skeleton::rootCount() const {
  return static_cast<std::size_t>(
      std::count_if(bones.begin(), bones.end(), [](const Bone& b) { return b.parent < 0; }));
}

std::vector<glm::mat4> Skeleton::restModelMatrices() const {
  std::vector<glm::mat4> model(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const Bone& b = bones[i];
    const glm::mat4 local =
        glm::translate(b.translation) * glm::mat4_cast(b.rotation) * glm::scale(b.scale);
    model[i] = (b.parent >= 0 && static_cast<std::size_t>(b.parent) < i) ? model[b.parent] * local
                                                                         : local;
  }
  return model;
}

std::vector<glm::mat4> Skeleton::inverseBindMatrices() const {
  if (inverseBind.size() == bones.size()) return inverseBind;
  std::vector<glm::mat4> inv = restModelMatrices();
  for (auto& m : inv) m = glm::inverse(m);
  return inv;
}

std::size_t Clip::keyCount() const {
  std::size_t n = 0;
  for (const auto& t : tracks) n += t.keyCount();
  for (const auto& t : morphTracks) n += t.weight.size();
  return n;
}

const char* bodyPartKindName(BodyPart::Kind kind) {
  switch (kind) {
    case BodyPart::Kind::Manifold: return "manifold";
    case BodyPart::Kind::Face: return "face";
    case BodyPart::Kind::Sphere: return "sphere";
    case BodyPart::Kind::Capsule: return "capsule";
  }
  return "?";
}

int Material::diffuseTexture() const {
  for (const auto& m : maps)
    if (m.kind == "diffuse") return m.texture;
  return -1;
}

namespace {

bool sameBoneNames(const Skeleton& a, const Skeleton& b) {
  if (a.bones.size() != b.bones.size()) return false;
  for (std::size_t i = 0; i < a.bones.size(); ++i)
    if (a.bones[i].name != b.bones[i].name) return false;
  return true;
}

// Adds the bones of `extra` that `into` lacks (by name) to `into`, keeping their hierarchy;
// returns, per bone of `extra`, its index in the grown skeleton.
std::vector<int> unionSkeleton(Skeleton& into, const Skeleton& extra) {
  const bool explicitBinds = !into.inverseBind.empty() || !extra.inverseBind.empty();
  std::vector<glm::mat4> binds = explicitBinds ? into.inverseBindMatrices() : std::vector<glm::mat4>{};
  const std::vector<glm::mat4> extraBinds =
      explicitBinds ? extra.inverseBindMatrices() : std::vector<glm::mat4>{};
  std::vector<int> map(extra.bones.size(), -1);
  for (std::size_t i = 0; i < extra.bones.size(); ++i) {
    map[i] = into.find(extra.bones[i].name);
    if (map[i] >= 0) continue;
    Bone b = extra.bones[i];
    b.parent = b.parent >= 0 ? map[b.parent] : -1;  // parents precede children in both
    map[i] = static_cast<int>(into.bones.size());
    into.bones.push_back(std::move(b));
    if (explicitBinds) binds.push_back(extraBinds[i]);
  }
  into.inverseBind = std::move(binds);
  into.inverseBindParts.clear();  // the grown skeleton is no one file's any more
  return map;
}

// Re-targets a mesh's bone references through `map` (bone of its own skeleton → merged bone).
// Where a shared bone's bind differs between the two skeletons, the mesh keeps its own.
void remapMeshBones(Mesh& mesh, const std::vector<int>& map, const Skeleton& from,
                    const Skeleton& merged) {
  for (auto& inf : mesh.influences)
    if (inf.bone < map.size()) inf.bone = static_cast<std::uint32_t>(map[inf.bone]);
  if (mesh.parentBone >= 0 && static_cast<std::size_t>(mesh.parentBone) < map.size())
    mesh.parentBone = map[mesh.parentBone];
  const std::vector<glm::mat4> own =
      mesh.inverseBind.size() == from.bones.size() ? mesh.inverseBind : from.inverseBindMatrices();
  std::vector<glm::mat4> binds = merged.inverseBindMatrices();
  bool differs = false;
  for (std::size_t i = 0; i < map.size(); ++i) {
    differs = differs || binds[map[i]] != own[i];
    binds[map[i]] = own[i];
  }
  mesh.inverseBind = differs ? std::move(binds) : std::vector<glm::mat4>{};
}

}  // namespace

void merge(Scene& into, Scene part, const std::string& partName) {
  into.partial = into.partial || part.partial;
  const bool intoEmpty = into.meshes.empty() && into.skeleton.empty() && into.clips.empty() &&
                         into.materials.empty() && into.bodies.empty() && into.tables.empty();
  if (intoEmpty) {
    into.basis = part.basis;
  } else if (!(into.basis == part.basis)) {
    into.diagnostics.warn(partName, "basis", kNoOffset,
                          "coordinates are " + describe(part.basis) + " but the model is " +
                              describe(into.basis) + "; the part is shown as if they matched");
  }
  into.format = into.format.empty() ? part.format : into.format + " + " + part.format;
  into.diagnostics.append(part.diagnostics);

  // A second, different skeleton joins the first: bones it shares by name are one bone, the
  // others are added, so that both files' meshes and clips keep working.
  std::vector<int> boneMap;
  if (!part.skeleton.empty()) {
    if (into.skeleton.empty()) {
      into.skeleton = std::move(part.skeleton);
    } else if (!sameBoneNames(into.skeleton, part.skeleton)) {
      const std::size_t before = into.skeleton.bones.size();
      boneMap = unionSkeleton(into.skeleton, part.skeleton);
      into.diagnostics.info(partName, "skeleton", kNoOffset,
                            "its skeleton shares " +
                                std::to_string(part.skeleton.bones.size() -
                                               (into.skeleton.bones.size() - before)) +
                                " bones by name with the model's and adds " +
                                std::to_string(into.skeleton.bones.size() - before));
      // Meshes merged earlier keep their binds for the bones they knew.
      for (auto& mesh : into.meshes)
        if (!mesh.inverseBind.empty()) {
          const auto all = into.skeleton.inverseBindMatrices();
          mesh.inverseBind.insert(mesh.inverseBind.end(), all.begin() + static_cast<long>(before),
                                  all.end());
        }
    }
  }

  const int materialBase = static_cast<int>(into.materials.size());
  const int textureBase = static_cast<int>(into.textures.size());
  for (auto& m : part.materials) {
    for (auto& map : m.maps)
      if (map.texture >= 0) map.texture += textureBase;
    into.materials.push_back(std::move(m));
  }
  for (auto& t : part.textures) into.textures.push_back(std::move(t));
  for (auto& mesh : part.meshes) {
    if (mesh.material >= 0) mesh.material += materialBase;
    if (!boneMap.empty()) remapMeshBones(mesh, boneMap, part.skeleton, into.skeleton);
    into.meshes.push_back(std::move(mesh));
  }
  for (auto& c : part.clips) into.clips.push_back(std::move(c));
  for (auto& b : part.bodies) into.bodies.push_back(std::move(b));
  for (auto& a : part.attachments) into.attachments.push_back(std::move(a));
  for (auto& t : part.tables) into.tables.push_back(std::move(t));
  for (auto& a : part.actions) into.actions.push_back(std::move(a));
}

bool restBounds(const Scene& scene, glm::vec3& lo, glm::vec3& hi) {
  lo = glm::vec3(std::numeric_limits<float>::max());
  hi = glm::vec3(std::numeric_limits<float>::lowest());
  bool any = false;
  for (const auto& mesh : scene.meshes)
    for (const auto& p : mesh.positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
      any = true;
    }
  return any;
}

}  // namespace marrow::formats
