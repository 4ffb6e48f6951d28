// The neutral model every reader fills and every consumer reads: plain data, no Qt, no GL.
//
// Conventions (the same for every format, so consumers never ask where data came from):
// - Positions, normals and bone transforms stay in the file's own coordinates; `Scene::basis`
//   says what those are. `toDisplay(basis)` is the one conversion to Y-up right-handed metres.
// - Triangles are lists of three indices, counter-clockwise front faces *in the native basis*.
// - Texture coordinates: v = 0 is the top row of the image (glTF and Direct3D convention).
// - Skinning: v' = sum_i w_i * (M_bone_i(t) * inverseBind_i) * v, the formula render/anim owns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "formats/io/diagnostics.h"
#include "formats/model/glm.h"

namespace marrow::formats {

enum class Axis : std::uint8_t { X, Y, Z };

// What the native coordinates of a scene mean.
struct Basis {
  Axis up = Axis::Y;
  bool rightHanded = true;
  float unitMeters = 1.0f;  // length of one model unit in metres (1 when the format does not say)
  // Which way the model faces along its depth axis (Y when Z is up, else Z), in its own
  // coordinates, when the format says: +1 or -1. The display turns it about the up axis to face
  // the default camera (+Z); 0 (unknown) turns nothing.
  int front = 0;

  bool operator==(const Basis&) const = default;
};

// Native → display (Y-up, right-handed, metres). Its determinant is negative exactly when the
// basis is left-handed: then triangle winding must be flipped to keep front faces in front.
glm::mat4 toDisplay(const Basis& basis);
bool flipsWinding(const Basis& basis);
std::string describe(const Basis& basis);

struct Influence {
  std::uint32_t bone = 0;
  float weight = 0.0f;
  bool operator==(const Influence&) const = default;
};

// A blend shape: the whole target shape (absolute values, not offsets) of the vertices it moves.
// Blending with weights w_k: p = base + sum_k w_k * (target_k - base), the same for normals.
struct MorphTarget {
  std::string name;
  // The vertices the target moves, ascending. Empty means every vertex, in order, when
  // `positions` has one per vertex, and no vertex at all when `positions` is empty too.
  std::vector<std::uint32_t> vertices;
  std::vector<glm::vec3> positions;            // one per moved vertex
  std::vector<glm::vec3> normals;              // empty, or one per moved vertex
  std::vector<std::vector<glm::vec2>> uvSets;  // empty, or one per mesh uv set, each one per moved vertex

  std::size_t movedCount(std::size_t meshVertices) const {
    return vertices.empty() ? (positions.empty() ? 0 : meshVertices) : vertices.size();
  }
  std::size_t vertexAt(std::size_t i) const { return vertices.empty() ? i : vertices[i]; }
};

// Progressive-mesh level of detail (cal3d): the last `collapsible` vertices collapse, last
// first, each onto collapseTo[v] (-1: never), taking faceCollapseCount[v] faces with it; faces
// are ordered so that those removed first are at the end.
struct LevelOfDetail {
  std::uint32_t collapsible = 0;
  std::vector<std::int32_t> collapseTo;         // one per vertex
  std::vector<std::int32_t> faceCollapseCount;  // one per vertex

  bool empty() const { return collapseTo.empty(); }
};

// Cloth / hair springs (cal3d): physically simulated vertices joined by springs
// (render/anim/springs.h simulates them as libcal3d does: the viewer's View › Simulate Springs,
// `pose --springs`, `render --springs`); the data is kept and written back.
struct Spring {
  std::uint32_t a = 0, b = 0;
  float coefficient = 0.0f;
  float idleLength = 0.0f;
};

struct Mesh {
  std::string name;
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;                // empty, or one per vertex
  std::vector<glm::vec4> tangents;               // empty, or one per vertex (w: bitangent sign)
  std::vector<std::vector<glm::vec2>> uvSets;    // each set has one per vertex
  std::vector<glm::vec4> colors;                 // empty, or one per vertex, RGBA in 0..1
  // Influences in compressed rows: vertex v owns influences[influenceStart[v], influenceStart[v+1]).
  // Both empty for a mesh that is not skinned.
  std::vector<std::uint32_t> influenceStart;
  std::vector<Influence> influences;
  std::vector<std::uint32_t> indices;            // triangle list
  int material = -1;                             // index into Scene::materials, -1 for none
  // The material index the file gave when the model has no such material (a cal3d submesh's
  // thread id with its material file not loaded), kept so that writers can write it back.
  int materialSlot = -1;
  // >= 0: the mesh is rigidly attached to this bone; its vertices are in model space at rest
  // and move with that bone's skinning matrix, whatever the influences say.
  int parentBone = -1;
  // Per-bone inverse bind matrices for this mesh when they differ from the skeleton's
  // (glTF skins, assimp offset matrices); empty means Skeleton::inverseBind.
  std::vector<glm::mat4> inverseBind;
  std::vector<MorphTarget> morphs;
  LevelOfDetail lod;
  std::vector<Spring> springs;
  std::vector<float> physicalWeights;            // empty, or one per vertex (0: follows skinning)

  std::size_t vertexCount() const { return positions.size(); }
  std::size_t triangleCount() const { return indices.size() / 3; }
  bool skinned() const { return !influenceStart.empty(); }
  std::span<const Influence> influencesOf(std::size_t vertex) const;
  std::uint32_t maxInfluences() const;
  // Appends one vertex's influences; call once per vertex, in order.
  void addInfluences(std::span<const Influence> vertexInfluences);
};

struct Bone {
  std::string name;
  int parent = -1;  // always < the bone's own index
  glm::vec3 translation{0.0f};             // rest pose, relative to the parent
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};

// A transform stored as translation and rotation (T · R).
struct RigidParts {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

struct Skeleton {
  std::string name;  // when the format names skeletons (BRF "skel_human"); clips may ask for one
  std::vector<Bone> bones;
  // Per bone: the inverse of its model-space bind matrix. Empty means "the rest pose is the bind
  // pose"; `inverseBindOf` derives it then.
  std::vector<glm::mat4> inverseBind;
  // The inverse binds as the file stored them, when it stored translation and rotation (cal3d's
  // bone space): a writer of such a format writes these while they still give inverseBind, so
  // that a re-written file keeps its values bit for bit. Empty otherwise.
  std::vector<RigidParts> inverseBindParts;

  bool empty() const { return bones.empty(); }
  int find(std::string_view name) const;  // -1 when absent
  std::size_t rootCount() const;
  std::vector<glm::mat4> restModelMatrices() const;
  std::vector<glm::mat4> inverseBindMatrices() const;  // the stored ones, or derived from rest
};

enum class Interpolation : std::uint8_t { Step, Linear };

template <class T>
struct Channel {
  std::vector<float> times;  // seconds, strictly increasing
  std::vector<T> values;     // one per time
  Interpolation interpolation = Interpolation::Linear;

  bool empty() const { return times.empty(); }
  std::size_t size() const { return times.size(); }
  void add(float t, const T& v) {
    times.push_back(t);
    values.push_back(v);
  }
};

// Animation of one bone, naming the bone so that a clip plays on any skeleton that matches.
struct Track {
  std::string bone;
  int sourceIndex = -1;  // the bone's index in the file the track came from
  Channel<glm::vec3> translation;
  Channel<glm::quat> rotation;
  Channel<glm::vec3> scale;

  std::size_t keyCount() const {
    return translation.size() + rotation.size() + scale.size();
  }
};

// Animation of one blend shape weight: the target `target` of every mesh named `mesh`.
// Vertex animation (a BRF mesh's frames) is a morph target per frame and these weights.
struct MorphTrack {
  std::string mesh;
  std::string target;
  Channel<float> weight;
};

struct Clip {
  std::string name;
  float duration = 0.0f;   // seconds
  float frameRate = 30.0f;  // frames per second the file was authored at
  std::vector<Track> tracks;
  // When looped, the interval from a track's last key to `duration` interpolates back to its
  // first key (cal3d cycles); otherwise the last key holds until the end.
  bool wrapsToFirstKey = false;
  std::vector<MorphTrack> morphTracks;
  // The skeleton the clip was made for when the format says (a BRF animation fits skeletons of
  // its bone count, and only those): bound to a skeleton of another name, nothing plays.
  // Empty: any skeleton whose bone names match.
  std::string skeleton;
  // Key times are whole frame indices / frameRate, as the file numbers them (BRF animations):
  // such a clip can be cut into actions by frame index (formats/model/actions.h).
  bool frameIndexed = false;
  // A clip cut from another: the source's frame indices at its start and at its end (the end
  // may be lower: played backwards), for frame numbers shown as the file's.
  struct FrameSpan {
    int first = 0, last = 0;
  };
  std::optional<FrameSpan> sourceFrames;
  // Whether the source says the clip loops (a cyclic action) or plays once; unset: it does not say.
  std::optional<bool> loops;
  // What the clip belongs to, for lists that group clips: the animation an action was cut from.
  std::string group;

  std::size_t keyCount() const;
};

// Whether a clip was made for a skeleton of another name (a BRF horse animation beside a human
// skeleton): it does not play on `skeleton`, and writers leave it out.
inline bool madeForOtherSkeleton(const Clip& clip, const Skeleton& skeleton) {
  return !clip.skeleton.empty() && !skeleton.name.empty() && clip.skeleton != skeleton.name;
}

struct Texture {
  std::string name;
  std::string path;             // as the file names it (or where the reader found it)
  // The encoded image (PNG, TGA, DDS, …): embedded in the file, or fetched by the reader from
  // beside it through ReadContext::resolve; empty when it was not found.
  std::vector<std::byte> data;
  bool embedded = false;        // the bytes came from inside the model file
};

struct MaterialMap {
  std::string kind;   // "diffuse", "normal", "specular", "opacity", …: what the map is for
  int texture = -1;   // index into Scene::textures
  int uvSet = 0;      // which of the mesh's uv sets it is sampled with
  std::string label;  // the format's own name for the slot, when it has one ("Diffuse Color")
};

struct MaterialProperty {
  std::string name;
  std::string value;
};

struct Material {
  std::string name;
  glm::vec4 diffuse{1.0f};
  glm::vec4 ambient{0.0f, 0.0f, 0.0f, 1.0f};
  glm::vec4 specular{0.0f, 0.0f, 0.0f, 1.0f};
  float shininess = 0.0f;
  // Whether diffuse.a is the surface's opacity. cal3d stores an alpha no renderer used, 0 in
  // the sample data (spec §6), so its readers say it is not.
  bool diffuseAlphaIsOpacity = true;
  std::vector<MaterialMap> maps;
  std::vector<MaterialProperty> properties;  // everything else the format says, for inspectors

  int diffuseTexture() const;  // the first "diffuse" map's texture, or -1
};

// Collision shapes (BRF bodies): drawn over the model, kept for inspection and writing back.
struct BodyPart {
  enum class Kind : std::uint8_t { Manifold, Face, Sphere, Capsule };
  Kind kind = Kind::Sphere;
  std::vector<glm::vec3> positions;                // manifold, face (one polygon, in order)
  std::vector<std::vector<std::uint32_t>> polygons;  // manifold: indices into positions
  float radius = 0.0f;                             // sphere, capsule
  glm::vec3 a{0.0f}, b{0.0f};                      // sphere: a is the centre; capsule: the axis ends
  std::uint32_t flags = 0;
};
const char* bodyPartKindName(BodyPart::Kind kind);

struct Body {
  std::string name;
  std::vector<BodyPart> parts;
};

// A point things attach to (a Dragon Nest dummy: a weapon, an effect), kept for inspection:
// its transform relative to the bone `parent` (empty: the model itself), column-vector form.
struct Attachment {
  std::string name;
  std::string parent;
  glm::mat4 local{1.0f};
};

// A data table (Dragon Nest .dnt / .ext): named, typed columns and rows of cells.
struct TableColumn {
  std::string name;
  std::uint8_t type = 0;  // the format's own type code (DNT: 1 text, 2 bool, 3 int, 4/5 float)
};
using TableCell = std::variant<std::int32_t, float, std::string>;
struct Table {
  std::string name;
  std::vector<TableColumn> columns;
  std::vector<std::int32_t> rowIds;          // one per row, or empty when rows have no id
  std::vector<std::vector<TableCell>> rows;  // each one cell per column
};

// A Warband action (module's actions.txt, warband_module.md §3): a name and its sequences, each
// a range of frame indices of a frame-indexed animation played over a duration.
struct ActionSequence {
  float duration = 0.0f;     // seconds to play begin → end
  std::string animation;     // the animation record (clip) name
  std::int32_t begin = 0, end = 0;
  std::uint32_t flags = 0;   // arf_*: 0x10000000 cyclic
  std::uint32_t pack = 0;
  glm::vec3 offset{0.0f};
  float phase = 0.0f;
  std::string clip;          // the clip made of it, once the animation is open ("" when it is not)
};
struct Action {
  std::string name;
  std::uint32_t flags = 0;        // acf_*
  std::uint32_t masterFlags = 0;  // amf_* (Warband; 0 in M&B 1.011 files)
  std::vector<ActionSequence> sequences;
};

struct Scene {
  std::string format;  // e.g. "OMF 1", "assimp: glTF 2.0"
  Basis basis;
  std::vector<Mesh> meshes;
  Skeleton skeleton;
  std::vector<Clip> clips;
  std::vector<Material> materials;
  std::vector<Texture> textures;
  std::vector<Body> bodies;
  std::vector<Attachment> attachments;
  std::vector<Table> tables;
  std::vector<Action> actions;  // Warband actions: what cuts the frame-indexed clips into clips
  Diagnostics diagnostics;
  // Read from a damaged file as far as the damage (ReadContext::partial); the error is among the
  // diagnostics.
  bool partial = false;
};

// Combines several files into one model: the first skeleton wins, meshes that reference bones
// need the skeleton they were made for, clips bind by bone name later. Everything `part` brings
// is appended to `into`; conflicts become diagnostics.
void merge(Scene& into, Scene part, const std::string& partName);

// Axis-aligned bounds of all mesh positions at rest (native coordinates); false when empty.
bool restBounds(const Scene& scene, glm::vec3& lo, glm::vec3& hi);

}  // namespace marrow::formats
