// Dragon Nest records → the neutral model (dragonnest.h says how the two map).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <glm/gtx/matrix_decompose.hpp>
#include <unordered_map>

#include "formats/dragonnest/dragonnest.h"
#include "formats/dragonnest/dragonnest_internal.h"
#include "formats/model/texture_table.h"

namespace marrow::formats::dragonnest {

using detail::lower;
using std::to_string;

// The shortest text that reads back as the same float ("0.5", "1e-07"), for inspectors.
static std::string shortest(float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

Basis dragonNestBasis() {
  // An actor's front is its local +Z, and the game's character views look at it from there
  // (dragonnest.md, "Facing"): the display turns it to face the camera, animated and at rest alike
  // (bind poses need not face +Z: the rest pose may show the back).
  return Basis{Axis::Y, false, 0.01f, +1};
}

namespace {

glm::quat unit(const glm::quat& q) {
  const float len = glm::length(q);
  return len > 1e-6f && std::isfinite(len) ? q / len : glm::quat(1, 0, 0, 0);
}

Bone boneFromWorld(std::string name, const glm::mat4& world) {
  Bone b;
  b.name = std::move(name);
  glm::vec3 skew;
  glm::vec4 perspective;
  if (!glm::decompose(world, b.scale, b.rotation, b.translation, skew, perspective) ||
      !std::isfinite(b.translation.x + b.translation.y + b.translation.z + b.scale.x + b.scale.y +
                     b.scale.z + b.rotation.x + b.rotation.y + b.rotation.z + b.rotation.w)) {
    // A singular or non-finite bind matrix (§3.2 stores its inverse) gives no rest pose: the
    // bone keeps its name, what is finite of the translation, and no rotation or scale.
    const glm::vec3 t(world[3]);
    b.translation = std::isfinite(t.x + t.y + t.z) ? t : glm::vec3(0.0f);
    b.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    b.scale = glm::vec3(1.0f);
  }
  b.rotation = unit(b.rotation);
  return b;
}

class Builder {
 public:
  Builder(std::span<const MeshSource> meshes, std::span<const AniSource> anis)
      : meshes_(meshes), anis_(anis) {}

  Scene build() {
    scene_.basis = dragonNestBasis();
    std::string format;
    for (const auto& m : meshes_) {
      format += (format.empty() ? "" : " + ") + std::string("Dragon Nest MSH v") +
                to_string(m.msh.version);
      if (m.skin) format += " + SKN v" + to_string(m.skin->version);
    }
    for (const auto& a : anis_)
      format += (format.empty() ? "" : " + ") + std::string("Dragon Nest ANI v") +
                to_string(a.ani.version);
    scene_.format = format;
    if (!meshes_.empty()) buildSkeleton();
    for (const auto& m : meshes_) addMesh(m);
    for (const auto& a : anis_) addClips(a);
    return std::move(scene_);
  }

 private:
  int findBone(std::string_view name) const {
    const auto it = boneIndex_.find(lower(name));
    return it == boneIndex_.end() ? -1 : it->second;
  }
  int addBone(Bone b, const glm::mat4& inverseBind) {
    const int i = static_cast<int>(scene_.skeleton.bones.size());
    boneIndex_.emplace(lower(b.name), i);
    scene_.skeleton.bones.push_back(std::move(b));
    scene_.skeleton.inverseBind.push_back(inverseBind);
    return i;
  }

  // The ANI bones in an order where parents come first; parents resolved by name after all
  // bones are known (§5.2: the file's order is not to be relied on).
  void addAniBones() {
    struct Node {
      const AniBone* bone;
      std::string file;
      int parent = -1;
    };
    std::vector<Node> nodes;
    std::unordered_map<std::string, std::size_t> byName;
    for (const auto& a : anis_)
      for (const auto& b : a.ani.bones)
        if (byName.emplace(lower(b.name), nodes.size()).second) nodes.push_back({&b, a.file});
    for (auto& n : nodes) {
      const auto it = byName.find(lower(n.bone->parent));
      n.parent = it == byName.end() ? -1 : static_cast<int>(it->second);
    }
    std::vector<int> state(nodes.size(), 0);  // 0 new, 1 on the path, 2 placed
    for (std::size_t start = 0; start < nodes.size(); ++start) {
      std::vector<std::size_t> path;
      for (std::size_t i = start; state[i] == 0;) {
        state[i] = 1;
        path.push_back(i);
        if (nodes[i].parent < 0) break;
        const auto p = static_cast<std::size_t>(nodes[i].parent);
        if (state[p] == 1) {  // a cycle: this bone becomes a root
          scene_.diagnostics.warn(nodes[i].file, "bone '" + nodes[i].bone->name + "'", kNoOffset,
                                  "its parent chain loops; it is made a root");
          nodes[i].parent = -1;
          break;
        }
        i = p;
      }
      for (auto it = path.rbegin(); it != path.rend(); ++it) {
        const Node& n = nodes[*it];
        Bone b;
        b.name = n.bone->name;
        if (!n.bone->tracks.empty()) {  // rest = the first animation's base pose (§6)
          const AniTrack& t = n.bone->tracks.front();
          b.translation = t.basePosition;
          b.rotation = unit(t.baseRotation);
          b.scale = t.baseScale;
        }
        b.parent =
            n.parent < 0 ? -1 : findBone(nodes[static_cast<std::size_t>(n.parent)].bone->name);
        addBone(std::move(b), glm::mat4(1.0f));
        state[*it] = 2;
      }
    }
    // Inverse binds derived from that rest pose until a mesh gives its own.
    const auto rest = scene_.skeleton.restModelMatrices();
    for (std::size_t i = 0; i < rest.size(); ++i)
      scene_.skeleton.inverseBind[i] = glm::inverse(rest[i]);
  }

  void buildSkeleton() {
    if (!anis_.empty()) addAniBones();
    std::vector<bool> given(scene_.skeleton.bones.size(), false);
    for (const auto& m : meshes_)
      for (const auto& hb : m.msh.bones) {
        const glm::mat4 inv = toGlm(hb.inverseBind);
        const int i = findBone(hb.name);
        if (i < 0) {  // a mesh bone no animation has: a root at its bind pose
          addBone(boneFromWorld(hb.name, glm::inverse(inv)), inv);
          given.push_back(true);
        } else if (!given[static_cast<std::size_t>(i)]) {
          scene_.skeleton.inverseBind[static_cast<std::size_t>(i)] =
              inv;  // §3.2: binds come from here
          given[static_cast<std::size_t>(i)] = true;
        }
      }
  }

  int paletteBone(const std::string& name, const std::string& file) {
    int b = findBone(name);
    if (b >= 0) return b;
    // §6 [INFERRED]: an influence on an unknown bone leaves the vertex at bind pose.
    scene_.diagnostics.warn(file, "palette bone '" + name + "'", kNoOffset,
                            "no bone of that name; its vertices stay at the bind pose");
    Bone bone;
    bone.name = name;
    return addBone(std::move(bone), glm::mat4(1.0f));
  }

  void addMaterials(const Skn& skn, const MeshSource& source) {
    for (const auto& sm : skn.materials) {
      Material m;
      m.name = sm.name;
      m.properties.push_back({"effect", sm.effect});
      m.properties.push_back({"alpha", shortest(sm.alpha)});
      m.properties.push_back({"alpha blend", to_string(sm.alphaBlend)});
      m.diffuseAlphaIsOpacity = sm.alphaBlend != 0;
      for (const auto& p : sm.parameters) {
        std::string value;
        switch (p.type) {
          case SknParameter::Int: value = to_string(p.intValue); break;
          case SknParameter::Float: value = shortest(p.floatValue); break;
          case SknParameter::Vector:
            value = shortest(p.vector.x) + " " + shortest(p.vector.y) + " " +
                    shortest(p.vector.z) + " " + shortest(p.vector.w);
            break;
          case SknParameter::Texture: value = p.texture; break;
          default: value = "(type " + to_string(p.type) + ", no value)";
        }
        m.properties.push_back({p.name, value});
        if (p.type == SknParameter::Vector && detail::sameName(p.name, "g_MaterialDiffuse"))
          m.diffuse = p.vector;
        if (p.type == SknParameter::Vector && detail::sameName(p.name, "g_MaterialAmbient"))
          m.ambient = p.vector;
        if (p.type == SknParameter::Texture) addMap(m, p, source);
      }
      if (sm.alphaBlend) m.diffuse.a *= sm.alpha;
      scene_.materials.push_back(std::move(m));
    }
  }

  void addMap(Material& m, const SknParameter& p, const MeshSource& source) {
    MaterialMap map;
    map.label = p.name;
    // §4.2: g_DiffuseTex or g_DiffuseVolumeTex is the diffuse map.
    const std::string name = lower(p.name);
    map.kind = name == "g_diffusetex" || name == "g_diffusevolumetex" ? "diffuse"
               : name.find("emissive") != std::string::npos           ? "emissive"
               : name.find("normal") != std::string::npos             ? "normal"
               : name.find("mask") != std::string::npos               ? "mask"
                                                                      : p.name;
    const std::string key = lower(p.texture);
    if (auto it = textureIndex_.find(key); it != textureIndex_.end()) {
      map.texture = it->second;
    } else {
      Texture t;
      t.name = p.texture;
      t.path = p.texture;
      if (source.ctx && source.ctx->fetchTextures) {
        auto found = fetchNamedFile(*source.ctx, p.texture);
        if (!found && lower(p.texture) != p.texture)
          found = fetchNamedFile(*source.ctx, lower(p.texture));
        if (found) {
          t.path = found->name;
          t.data = std::move(found->bytes);
        } else {
          scene_.diagnostics.warn(source.file, "texture '" + p.texture + "'", kNoOffset,
                                  "not found beside the skin; the material shows without it");
        }
      }
      map.texture = textureTable_.add(std::move(t));
      textureIndex_.emplace(key, map.texture);
    }
    m.maps.push_back(std::move(map));
  }

  void addMesh(const MeshSource& src) {
    const int materialBase = static_cast<int>(scene_.materials.size());
    std::size_t materials = 0;
    if (src.skin) {
      addMaterials(*src.skin, src);
      materials = src.skin->materials.size();
      if (materials != src.msh.submeshes.size())
        scene_.diagnostics.warn(src.file, "material count", kNoOffset,
                                to_string(materials) + " materials for " +
                                    to_string(src.msh.submeshes.size()) +
                                    " submeshes; they pair by index (§4.1)");
    }
    for (std::size_t i = 0; i < src.msh.submeshes.size(); ++i) {
      const MshSubmesh& s = src.msh.submeshes[i];
      Mesh mesh;
      mesh.name = s.name;
      mesh.positions = s.positions;
      mesh.normals = s.normals;
      mesh.uvSets = s.uvSets;
      for (std::uint32_t c : s.colors)  // D3DCOLOR: A8R8G8B8
        mesh.colors.emplace_back(((c >> 16) & 0xFF) / 255.0f, ((c >> 8) & 0xFF) / 255.0f,
                                 (c & 0xFF) / 255.0f, ((c >> 24) & 0xFF) / 255.0f);
      mesh.indices = triangleList(s);
      if (i < materials) mesh.material = materialBase + static_cast<int>(i);
      if (s.skinned) {
        std::vector<int> palette;
        for (const auto& name : s.palette) palette.push_back(paletteBone(name, src.file));
        std::vector<Influence> row;
        for (std::size_t v = 0; v < s.positions.size(); ++v) {
          row.clear();
          for (std::size_t k = 0; k < 4; ++k) {
            const float w = s.weights[v][k];
            const int slot = s.boneIndices[v][k];
            if (w == 0.0f || slot < 0 || static_cast<std::size_t>(slot) >= palette.size()) continue;
            row.push_back({static_cast<std::uint32_t>(palette[static_cast<std::size_t>(slot)]), w});
          }
          mesh.addInfluences(row);
        }
      } else if (!s.parent.empty() && s.parent != detail::kSceneRoot) {
        mesh.parentBone = findBone(s.parent);  // §6: rigid; unknown parent → static
      }
      scene_.meshes.push_back(std::move(mesh));
    }
    addCollisions(src);
    for (const auto& d : src.msh.dummies)
      scene_.attachments.push_back({d.name, canonical(d.parent), toGlm(d.matrix)});
  }

  std::string canonical(const std::string& bone) const {
    const int i = findBone(bone);
    return i < 0 ? bone : scene_.skeleton.bones[static_cast<std::size_t>(i)].name;
  }

  void addCollisions(const MeshSource& src) {
    for (std::size_t i = 0; i < src.msh.collisions.size(); ++i) {
      const MshCollision& c = src.msh.collisions[i];
      Body body;
      body.name = "collision " + to_string(i) + (c.parent.empty() ? "" : " (" + c.parent + ")");
      BodyPart part;
      switch (c.type) {
        case MshCollision::Box: {
          part.kind = BodyPart::Kind::Manifold;
          for (int k = 0; k < 8; ++k)
            part.positions.push_back(c.centre + (k & 1 ? 1.0f : -1.0f) * c.extent.x * c.axes[0] +
                                     (k & 2 ? 1.0f : -1.0f) * c.extent.y * c.axes[1] +
                                     (k & 4 ? 1.0f : -1.0f) * c.extent.z * c.axes[2]);
          part.polygons = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
          break;
        }
        case MshCollision::Sphere:
          part.kind = BodyPart::Kind::Sphere;
          part.a = c.centre;
          part.radius = c.radius;
          break;
        case MshCollision::Capsule:
          part.kind = BodyPart::Kind::Capsule;
          part.a = c.centre;
          part.b = c.centre + c.segment;
          part.radius = c.radius;
          break;
        default:
          part.kind = BodyPart::Kind::Manifold;
          for (const auto& t : c.triangles) {
            const auto base = static_cast<std::uint32_t>(part.positions.size());
            part.positions.insert(part.positions.end(), {t[0], t[0] + t[1], t[0] + t[2]});
            part.polygons.push_back({base, base + 1, base + 2});
          }
      }
      // §3.4 stores finite values, but corners and end points are sums of them: a box or
      // capsule too large for floats has no shape to show.
      if (!finiteShape(part)) {
        scene_.diagnostics.warn(src.file, body.name, kNoOffset,
                                "its shape does not fit in floats (a corner or end point is "
                                "infinite); it is left out");
        continue;
      }
      body.parts.push_back(std::move(part));
      scene_.bodies.push_back(std::move(body));
    }
  }

  static bool finiteShape(const BodyPart& part) {
    const auto finite = [](const glm::vec3& v) {
      return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    };
    if (!std::isfinite(part.radius) || !finite(part.a) || !finite(part.b)) return false;
    return std::all_of(part.positions.begin(), part.positions.end(), finite);
  }

  // Keys at frame / 60 s, clamped to [0, length − 1], strictly increasing (§6).
  template <class T, class Fix>
  std::size_t channel(Channel<T>& out, const std::vector<AniKey<T>>& keys, const T& base,
                      std::int32_t length, Fix fix) {
    std::size_t dropped = 0;
    const std::int32_t last = std::max(length - 1, 0);
    for (const auto& k : keys) {
      const float t = static_cast<float>(std::clamp(k.frame, 0, last)) / kFramesPerSecond;
      if (!out.empty() && !(t > out.times.back())) {
        ++dropped;
        continue;
      }
      out.add(t, fix(k.value));
    }
    if (out.empty()) out.add(0.0f, fix(base));  // §6: an empty key list holds the base value
    return dropped;
  }

  void addClips(const AniSource& src) {
    const Ani& a = src.ani;
    for (std::size_t c = 0; c < a.names.size(); ++c) {
      Clip clip;
      clip.name = a.names[c];
      // Clips are listed by the file they come from (a skin brings several, animationsBeside).
      const auto slash = src.file.find_last_of("/\\");
      clip.group = slash == std::string::npos ? src.file : src.file.substr(slash + 1);
      clip.frameRate = kFramesPerSecond;
      clip.duration = static_cast<float>(std::max(a.lengths[c], 0)) / kFramesPerSecond;
      std::size_t dropped = 0;
      for (std::size_t b = 0; b < a.bones.size(); ++b) {
        const AniBone& bone = a.bones[b];
        if (c >= bone.tracks.size()) continue;
        const AniTrack& t = bone.tracks[c];
        Track track;
        track.bone = canonical(bone.name);
        track.sourceIndex = static_cast<int>(b);
        auto same = [](const glm::vec3& v) { return v; };
        dropped += channel(track.translation, t.positions, t.basePosition, a.lengths[c], same);
        dropped += channel(track.rotation, t.rotations, t.baseRotation, a.lengths[c], unit);
        track.scale.interpolation = Interpolation::Step;  // §6: scale does not interpolate
        dropped += channel(track.scale, t.scales, t.baseScale, a.lengths[c], same);
        clip.tracks.push_back(std::move(track));
      }
      if (dropped)
        scene_.diagnostics.warn(
            src.file, "animation '" + clip.name + "'", kNoOffset,
            to_string(dropped) +
                " keys repeat or go back in frame (after "
                "clamping to the animation's length); the first of each is kept");
      scene_.clips.push_back(std::move(clip));
    }
  }

  std::span<const MeshSource> meshes_;
  std::span<const AniSource> anis_;
  Scene scene_;
  std::unordered_map<std::string, int> boneIndex_;
  std::unordered_map<std::string, int> textureIndex_;
  TextureTable textureTable_{scene_.textures};  // each image once, whatever names find it
};

}  // namespace

Scene toScene(std::span<const MeshSource> meshes, std::span<const AniSource> animations) {
  return Builder(meshes, animations).build();
}

}  // namespace marrow::formats::dragonnest
