#include "tests/reference/cal3d_synthetic.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>

namespace marrow::reference {
namespace {

using formats::Bone;
using formats::Influence;

glm::quat rot(float degrees, glm::vec3 axis) {
  return glm::angleAxis(glm::radians(degrees), glm::normalize(axis));
}

glm::mat4 trs(const glm::vec3& t, const glm::quat& r) {
  glm::mat4 m = glm::mat4_cast(r);
  m[3] = glm::vec4(t, 1.0f);
  return m;
}

// A small deterministic generator (the same numbers with every standard library).
struct Lcg {
  std::uint32_t state;
  std::uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
  std::uint32_t below(std::uint32_t n) { return next() % n; }
};

}  // namespace

formats::Scene syntheticCal3dModel() {
  formats::Scene s;
  s.format = "synthetic";
  s.basis = formats::Basis{formats::Axis::Z, true, 1.0f};

  auto& bones = s.skeleton.bones;
  bones.push_back(Bone{"root", -1, {1.0f, 2.0f, 3.0f}, rot(30.0f, {0, 0, 1})});
  bones.push_back(Bone{"spine", 0, {0.0f, 0.5f, 10.0f}, rot(20.0f, {1, 1, 0})});
  bones.push_back(Bone{"arm", 1, {5.0f, 0.0f, 2.0f}, rot(-45.0f, {1, 0, 0.3f})});
  bones.push_back(Bone{"hand", 2, {6.0f, 1.0f, 0.0f}, rot(15.0f, {0.2f, 1, 0})});
  bones.push_back(Bone{"head", 1, {0.0f, 0.0f, 6.0f}, rot(10.0f, {0, 1, 0})});

  // The bind pose: the rest pose except for the arm, bound 12° further round and 0.4 along x.
  std::vector<glm::mat4> bind(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) {
    glm::vec3 t = bones[i].translation;
    glm::quat r = bones[i].rotation;
    if (bones[i].name == "arm") {
      t.x += 0.4f;
      r = rot(12.0f, {0, 0, 1}) * r;
    }
    const glm::mat4 local = trs(t, r);
    bind[i] =
        bones[i].parent >= 0 ? bind[static_cast<std::size_t>(bones[i].parent)] * local : local;
  }
  for (const auto& m : bind) s.skeleton.inverseBind.push_back(glm::inverse(m));

  // Submesh 0: a ring of four vertices around every bone, weighted to it and its ancestors.
  formats::Mesh body;
  body.name = "synth#0";
  body.material = 0;
  body.uvSets.resize(1);
  const glm::vec3 ring[4] = {{1, 1, 0}, {-1, 1, 0.5f}, {-1, -1, 0}, {1, -1, -0.5f}};
  for (std::uint32_t b = 0; b < bones.size(); ++b) {
    for (int k = 0; k < 4; ++k) {
      body.positions.push_back(glm::vec3(bind[b] * glm::vec4(ring[k], 1.0f)));
      body.normals.push_back(
          glm::normalize(glm::mat3(bind[b]) * (ring[k] + glm::vec3(0, 0, 0.7f))));
      body.uvSets[0].push_back({0.25f * static_cast<float>(k), 0.2f * static_cast<float>(b)});
      const int parent = bones[b].parent;
      const int grandparent = parent >= 0 ? bones[static_cast<std::size_t>(parent)].parent : -1;
      std::vector<Influence> in;
      if (parent < 0) {
        in = {{b, 1.0f}};
      } else if (grandparent < 0 || k % 2 == 0) {
        in = {{b, 0.65f}, {static_cast<std::uint32_t>(parent), 0.35f}};
      } else {
        in = {{b, 0.5f},
              {static_cast<std::uint32_t>(parent), 0.3f},
              {static_cast<std::uint32_t>(grandparent), 0.2f}};
      }
      body.addInfluences(in);
    }
    if (b + 1 < bones.size()) {
      const std::uint32_t o = 4 * b;
      body.indices.insert(body.indices.end(), {o, o + 1, o + 2, o, o + 2, o + 3, o, o + 4, o + 1});
    }
  }
  s.meshes.push_back(std::move(body));

  // Submesh 1: a flap on the hand with springs; its last vertex has no influences at all.
  formats::Mesh flap;
  flap.name = "synth#1";
  flap.material = -1;
  flap.uvSets.resize(1);
  const glm::vec3 flapLocal[6] = {{0, 0, 0},  {2, 0, 0},     {0, 0, -2},
                                  {2, 0, -2}, {0, 0.5f, -4}, {3, 3, 3}};
  for (int v = 0; v < 6; ++v) {
    const glm::mat4& m = bind[3];
    flap.positions.push_back(glm::vec3(m * glm::vec4(flapLocal[v], 1.0f)));
    flap.normals.push_back(
        glm::normalize(glm::mat3(m) * glm::vec3(0.1f * static_cast<float>(v), 1, 0.2f)));
    flap.uvSets[0].push_back({0.5f, 0.1f * static_cast<float>(v)});
    if (v == 5)
      flap.addInfluences({});
    else if (v < 2)
      flap.addInfluences(std::vector<Influence>{{3, 1.0f}});
    else
      flap.addInfluences(std::vector<Influence>{{3, 0.7f}, {2, 0.3f}});
  }
  flap.indices = {0, 2, 1, 1, 2, 3, 2, 4, 3};
  flap.springs = {{0, 2, 0.8f, 2.0f}, {1, 3, 0.8f, 2.0f}, {2, 4, 0.5f, 2.1f}};
  flap.physicalWeights = {0.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.0f};
  s.meshes.push_back(std::move(flap));

  formats::Material skin;
  skin.name = "synth_skin";
  skin.diffuse = {0.8f, 0.6f, 0.4f, 1.0f};
  skin.ambient = {0.2f, 0.2f, 0.2f, 1.0f};
  skin.specular = {1.0f, 1.0f, 1.0f, 1.0f};
  skin.shininess = 0.5f;
  skin.maps.push_back({"diffuse", 0, 0, "Diffuse Color"});
  s.materials.push_back(skin);
  s.textures.push_back({"skin.png", "skin.png", {}});

  // A cycle whose keys end 0.5 s before its duration: looping runs from the last key back to the
  // first. Large steps about skewed axes, so that conjugating or not makes a visible difference.
  formats::Clip cycle;
  cycle.name = "synth_cycle";
  cycle.duration = 2.0f;
  cycle.wrapsToFirstKey = true;
  auto track = [](const char* bone, int index) {
    formats::Track t;
    t.bone = bone;
    t.sourceIndex = index;
    return t;
  };
  const float times[4] = {0.0f, 0.5f, 1.0f, 1.5f};
  {
    formats::Track t = track("root", 0);
    const glm::vec3 p[4] = {{1, 2, 3}, {3, 2, 3}, {3, 5, 3}, {1, 5, 4}};
    const float a[4] = {30, 120, 210, 300};
    for (int k = 0; k < 4; ++k) {
      t.translation.add(times[k], p[k]);
      t.rotation.add(times[k], rot(a[k], {0, 0, 1}));
    }
    cycle.tracks.push_back(t);
  }
  {
    formats::Track t = track("spine", 1);
    const float a[4] = {20, 80, 140, 60};
    for (int k = 0; k < 4; ++k) {
      t.translation.add(times[k], {0.0f, 0.5f, 10.0f + 0.5f * static_cast<float>(k)});
      t.rotation.add(times[k], rot(a[k], {1, 2, 3}));
    }
    cycle.tracks.push_back(t);
  }
  {
    formats::Track t = track("arm", 2);
    const float a[4] = {-45, 45, 100, 0};
    for (int k = 0; k < 4; ++k) {
      t.translation.add(times[k], {5.0f, static_cast<float>(k), 2.0f});
      t.rotation.add(times[k], rot(a[k], {1, -1, 0.5f}));
    }
    cycle.tracks.push_back(t);
  }
  {
    formats::Track t = track("head", 4);  // rotation only: the translation stays at rest
    const float a[4] = {10, -30, 40, 0};
    for (int k = 0; k < 4; ++k) t.rotation.add(times[k], rot(a[k], {0, 1, 0.2f}));
    cycle.tracks.push_back(t);
  }
  s.clips.push_back(cycle);

  // A clip that closes at its duration with a copy of its first key (as hero and Arthur data
  // do), with a constant single-key track.
  formats::Clip closed;
  closed.name = "synth_closed";
  closed.duration = 1.0f;
  closed.wrapsToFirstKey = true;
  {
    formats::Track t = track("arm", 2);
    const float a[3] = {-45, 60, -45};
    const float z[3] = {2.0f, 3.5f, 2.0f};
    for (int k = 0; k < 3; ++k) {
      t.translation.add(0.5f * static_cast<float>(k), {5.0f, 0.0f, z[k]});
      t.rotation.add(0.5f * static_cast<float>(k), rot(a[k], {0.3f, 1, 1}));
    }
    closed.tracks.push_back(t);
  }
  {
    formats::Track t = track("spine", 1);
    t.translation.add(0.0f, {0.0f, 0.5f, 10.0f});
    t.rotation.add(0.0f, rot(50.0f, {1, 0, 1}));
    closed.tracks.push_back(t);
  }
  s.clips.push_back(closed);
  return s;
}

formats::Scene syntheticLodModel(const std::string& name) {
  formats::Scene s;
  s.format = "synthetic";
  s.basis = formats::Basis{formats::Axis::Z, true, 1.0f};
  s.skeleton.bones.push_back(Bone{"root", -1, {0.0f, 0.0f, 0.0f}, glm::quat(1, 0, 0, 0)});

  constexpr int kSide = 5;
  constexpr std::uint32_t kGrid = kSide * kSide;
  constexpr std::uint32_t kVertices = kGrid + 1;  // the grid and one vertex no face uses
  constexpr std::uint32_t kCollapsible = kVertices - 4;
  Lcg random{20240611u};

  // Grid point i sits at vertex order[i]; the first grid point keeps index 0 so that the first
  // face (which cal3d's winding rule looks at) is the same in both submeshes.
  std::array<std::uint32_t, kGrid> order{};
  for (std::uint32_t i = 0; i < kGrid; ++i) order[i] = i;
  for (std::uint32_t i = kGrid - 1; i > 1; --i) std::swap(order[i], order[1 + random.below(i)]);

  std::vector<std::array<std::uint32_t, 3>> faces;
  for (int y = 0; y + 1 < kSide; ++y)
    for (int x = 0; x + 1 < kSide; ++x) {
      const auto at = [&](int dx, int dy) {
        return order[static_cast<std::size_t>((y + dy) * kSide + x + dx)];
      };
      faces.push_back({at(0, 0), at(1, 0), at(1, 1)});  // counter-clockwise seen from +z
      faces.push_back({at(0, 0), at(1, 1), at(0, 1)});
    }

  // Collapse last-first: each vertex onto one of the vertices it shares a face with now; the faces
  // that held both die with it.
  std::vector<std::int32_t> collapseTo(kVertices, -1), faceCollapseCount(kVertices, 0);
  std::vector<std::uint32_t> representative(kVertices);
  for (std::uint32_t v = 0; v < kVertices; ++v) representative[v] = v;
  const auto current = [&](std::uint32_t v) {
    while (representative[v] != v) v = representative[v];
    return v;
  };
  std::vector<bool> alive(faces.size(), true);
  std::vector<std::size_t> removedOrder;  // faces in the order they die
  for (std::uint32_t v = kVertices - 1; v >= kVertices - kCollapsible; --v) {
    std::set<std::uint32_t> neighbours;
    for (std::size_t f = 0; f < faces.size(); ++f) {
      if (!alive[f]) continue;
      const std::array<std::uint32_t, 3> c = {current(faces[f][0]), current(faces[f][1]),
                                              current(faces[f][2])};
      if (std::find(c.begin(), c.end(), v) == c.end()) continue;
      for (std::uint32_t u : c)
        if (u != v) neighbours.insert(u);
    }
    if (neighbours.empty()) continue;  // used by no face: collapses nowhere
    // Mostly the highest neighbour (itself collapsible soon: chains), sometimes another.
    std::vector<std::uint32_t> choice(neighbours.begin(), neighbours.end());
    const std::uint32_t t =
        random.below(3) == 0 ? choice[random.below(static_cast<std::uint32_t>(choice.size()))]
                             : choice.back();
    collapseTo[v] = static_cast<std::int32_t>(t);
    for (std::size_t f = 0; f < faces.size(); ++f) {
      if (!alive[f]) continue;
      const std::array<std::uint32_t, 3> c = {current(faces[f][0]), current(faces[f][1]),
                                              current(faces[f][2])};
      if (std::find(c.begin(), c.end(), v) != c.end() &&
          std::find(c.begin(), c.end(), t) != c.end()) {
        alive[f] = false;
        removedOrder.push_back(f);
        ++faceCollapseCount[v];
      }
    }
    representative[v] = t;
  }
  // The faces that never die first (in grid order), then the dead ones, the first to die last.
  std::vector<std::array<std::uint32_t, 3>> ordered;
  for (std::size_t f = 0; f < faces.size(); ++f)
    if (alive[f]) ordered.push_back(faces[f]);
  for (auto it = removedOrder.rbegin(); it != removedOrder.rend(); ++it)
    ordered.push_back(faces[*it]);

  std::array<glm::vec3, kVertices> positions{};
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x)
      positions[order[static_cast<std::size_t>(y * kSide + x)]] = glm::vec3(
          static_cast<float>(x), static_cast<float>(y), 0.1f * static_cast<float>(x * y % 3));
  positions[kGrid] = glm::vec3(2.0f, 2.0f, 3.0f);

  for (int clockwise = 0; clockwise < 2; ++clockwise) {
    formats::Mesh m;
    m.name = name + "#" + std::to_string(clockwise);
    m.material = -1;
    m.uvSets.resize(1);
    for (std::uint32_t v = 0; v < kVertices; ++v) {
      m.positions.push_back(positions[v]);
      m.normals.push_back({0.0f, 0.0f, 1.0f});
      m.uvSets[0].push_back({positions[v].x / kSide, positions[v].y / kSide});
      m.addInfluences(std::vector<Influence>{{0, 1.0f}});
    }
    for (const auto& f : ordered) {
      if (clockwise)
        m.indices.insert(m.indices.end(), {f[0], f[2], f[1]});
      else
        m.indices.insert(m.indices.end(), {f[0], f[1], f[2]});
    }
    m.lod.collapsible = kCollapsible;
    m.lod.collapseTo = collapseTo;
    m.lod.faceCollapseCount = faceCollapseCount;
    s.meshes.push_back(std::move(m));
  }
  return s;
}

}  // namespace marrow::reference
