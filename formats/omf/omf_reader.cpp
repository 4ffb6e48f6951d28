// OMF 1 reader (../shared/specs/omf.md). Every read goes through ByteReader; every count is
// checked against the file and ctx.limits before anything is allocated for it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <stdexcept>
#include <unordered_map>

#include "formats/io/byte_reader.h"
#include "formats/io/guarded.h"
#include "formats/model/validate.h"
#include "formats/omf/omf.h"
#include "formats/omf/omf_layout.h"

namespace marrow::formats {
namespace {

using omf::RigidPose;
using std::to_string;

constexpr std::uint32_t kUnused = std::numeric_limits<std::uint32_t>::max();

std::string label(std::string_view what, std::uint64_t i, std::string_view field) {
  std::string s(what);
  s += ' ';
  s += to_string(i);
  s += ": ";
  s += field;
  return s;
}

// A repair seen once or many times: reported once, at its first place, with the count.
struct Repair {
  std::size_t count = 0;
  std::string field;
  std::uint64_t offset = kNoOffset;

  void note(std::string f, std::uint64_t at) {
    if (count++ == 0) {
      field = std::move(f);
      offset = at;
    }
  }
};

struct VertexChannel {
  std::uint8_t code = 0;
  std::uint32_t offset = 0;  // inside one vertex
};

class Reader {
 public:
  Reader(std::span<const std::byte> data, const ReadContext& ctx)
      : r_(data, ctx.name), ctx_(ctx), budget_(ctx.limits.maxAllocation(data.size())) {}

  Scene read() {
    scene_.format = "OMF 1";
    readHeader();
    readArmature();  // first: vertex weights and mesh parts name bones
    readVertexHeader();
    readVertices();
    readParts();
    readAnimation();
    report();
    return std::move(scene_);
  }

 private:
  std::uint64_t fileSize() const { return r_.size(); }
  std::uint32_t boneCount() const { return static_cast<std::uint32_t>(armature_.size()); }

  void charge(std::uint64_t bytes, std::string_view field, std::uint64_t at) {
    if (bytes > budget_)
      r_.failAt(at, field, "needs more memory than the limit for a file of this size");
    budget_ -= bytes;
  }

  // A signed count field: not negative, not over `max`.
  std::uint64_t checkCount(std::int64_t n, std::uint64_t max, std::string_view field,
                           std::uint64_t at) const {
    if (n < 0) r_.failAt(at, field, "is " + to_string(n) + ", a negative count");
    if (static_cast<std::uint64_t>(n) > max)
      r_.failAt(at, field, "is " + to_string(n) + ", over the limit of " + to_string(max));
    return static_cast<std::uint64_t>(n);
  }

  // `count` records of `size` bytes could not fit in this file wherever they were placed.
  void checkFits(std::uint64_t count, std::uint64_t size, std::string_view field,
                 std::uint64_t at) const {
    if (count * size > fileSize() - std::min(fileSize(), omf::kFileHeaderSize))
      r_.failAt(at, field,
                "is " + to_string(count) + " but " + to_string(count) + " records of " +
                    to_string(size) + " bytes do not fit in the " + to_string(fileSize()) +
                    "-byte file");
  }

  // An offset field whose target spans `size` bytes: inside the file and past the file header
  // (spec: Validation). A zero-length target overlaps nothing, so only its bound is checked.
  std::uint64_t section(std::int64_t value, std::uint64_t size, std::string_view field,
                        std::uint64_t at) const {
    if (value < 0) r_.failAt(at, field, "is " + to_string(value) + ", a negative offset");
    const auto off = static_cast<std::uint64_t>(value);
    if (size == 0 && off <= fileSize()) return off;
    if (off < omf::kFileHeaderSize)
      r_.failAt(at, field, "is " + to_string(off) + ", inside the 24-byte file header");
    if (off > fileSize() || size > fileSize() - off)
      r_.failAt(at, field,
                "is " + to_string(off) + " but the " + to_string(size) +
                    " bytes there run past the end of the " + to_string(fileSize()) + "-byte file");
    return off;
  }
  std::uint64_t u32Offset(const std::string& field, std::uint64_t size) {
    const std::uint64_t at = r_.offset();
    return section(r_.u32(field), size, field, at);
  }
  std::uint64_t i32Offset(const std::string& field, std::uint64_t size) {
    const std::uint64_t at = r_.offset();
    return section(r_.i32(field), size, field, at);
  }

  // Reads n floats; a non-finite one fails at its own offset (spec: Validation).
  template <class Name>
  void floats(float* out, int n, const Name& name) {
    for (int k = 0; k < n; ++k) {
      const std::uint64_t at = r_.offset();
      out[k] = r_.f32("float");
      if (!std::isfinite(out[k])) r_.failAt(at, name(), "is not a finite number");
    }
  }
  template <class Name>
  glm::vec3 vec3(const Name& name) {
    float v[3];
    floats(v, 3, name);
    return {v[0], v[1], v[2]};
  }
  // Quaternions are unit length; past the tolerance they are normalised (spec: Conventions).
  template <class Name>
  glm::quat quat(const Name& name, Repair& repair) {
    const std::uint64_t at = r_.offset();
    float v[4];
    floats(v, 4, name);
    const glm::quat q(v[3], v[0], v[1], v[2]);
    const glm::dquat d(v[3], v[0], v[1], v[2]);
    const double len = std::sqrt(d.w * d.w + d.x * d.x + d.y * d.y + d.z * d.z);
    if (len == 0.0) r_.failAt(at, name(), "is the zero quaternion, which is no rotation");
    if (std::abs(len - 1.0) <= omf::kUnitTolerance) return q;
    repair.note(name(), at);
    return omf::normalized(d);
  }

  void readHeader() {
    if (r_.u32("File ID") != omf::kFileId)
      r_.failAt(0, "File ID", "is not the bytes 'OMF1'; this is not an OMF 1 file");
    r_.require(omf::kFileHeaderSize - 4, "file header");
    numParts_ = r_.u32("NumMeshParts");
    vertexHeader_ = u32Offset("Vertex header offset", omf::kVertexHeaderSize);
    indexHeader_ = u32Offset("Index header offset", omf::kIndexHeaderSize);
    // Offset 0 means absent for these two only (spec: Conventions).
    std::uint64_t at = r_.offset();
    std::uint32_t v = r_.u32("Armature header offset");
    if (v) armatureHeader_ = section(v, omf::kArmatureHeaderSize, "Armature header offset", at);
    at = r_.offset();
    v = r_.u32("Animation header offset");
    if (v) animationHeader_ = section(v, omf::kAnimationHeaderSize, "Animation header offset", at);
  }

  void readArmature() {
    if (!armatureHeader_) return;
    r_.seek(armatureHeader_, "Armature header");
    const std::string countField = "Armature header: Bone Count";
    const std::uint64_t countAt = r_.offset();
    const std::uint64_t n =
        checkCount(r_.i32(countField), ctx_.limits.maxBones, countField, countAt);
    checkFits(n, omf::kBoneSize, countField, countAt);
    const std::uint64_t first = i32Offset("Armature header: first bone offset", n * omf::kBoneSize);
    charge(n * (sizeof(Bone) + sizeof(RigidPose) + 64), countField, countAt);
    armature_.reserve(n);
    scene_.skeleton.bones.reserve(n);
    std::unordered_map<std::string, std::uint64_t> names;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t base = first + i * omf::kBoneSize;
      r_.seek(base, "Bone record");
      Bone b;
      b.name = r_.fixedString(omf::kNameSize, "bone name");
      if (!names.emplace(b.name, i).second)
        r_.failAt(base, label("Bone", i, "name"),
                  "'" + b.name + "' is also the name of bone " + to_string(names[b.name]) +
                      "; bone names are unique");
      if (r_.i32("Index") != static_cast<std::int64_t>(i))
        r_.failAt(base + 16, label("Bone", i, "Index"),
                  "must equal the record's position " + to_string(i));
      b.parent = r_.i32("Parent Index");
      if (b.parent < -1 || b.parent >= static_cast<std::int64_t>(i))
        r_.failAt(base + 20, label("Bone", i, "Parent Index"),
                  "is " + to_string(b.parent) + "; a parent precedes its child (-1 for a root)");
      depth_.push_back(b.parent < 0 ? 1 : depth_[static_cast<std::size_t>(b.parent)] + 1);
      if (depth_.back() > ctx_.limits.maxHierarchyDepth)
        r_.failAt(base + 20, label("Bone", i, "Parent Index"),
                  "nests the bone " + to_string(depth_.back()) + " bones deep, over the limit of " +
                      to_string(ctx_.limits.maxHierarchyDepth));
      RigidPose rest;
      rest.position = vec3([&] { return label("Bone", i, "rest position"); });
      rest.rotation = quat([&] { return label("Bone", i, "rest rotation"); }, rotations_);
      const RigidPose* parent = b.parent >= 0 ? &armature_[b.parent] : nullptr;
      const RigidPose local = omf::armatureToLocal(parent, rest);
      if (!std::isfinite(local.position.x) || !std::isfinite(local.position.y) ||
          !std::isfinite(local.position.z))
        r_.failAt(base + 24, label("Bone", i, "rest position"),
                  "is too far from its parent for a float offset");
      b.translation = local.position;
      b.rotation = local.rotation;
      armature_.push_back(rest);
      scene_.skeleton.bones.push_back(std::move(b));
    }
  }

  void readVertexHeader() {
    r_.seek(vertexHeader_, "Vertex header");
    const std::string countField = "Vertex header: Vertex Count";
    const std::uint64_t countAt = r_.offset();
    vertexCount_ = r_.u32(countField);
    const std::uint64_t strideAt = r_.offset();
    stride_ = r_.u16("Vertex header: Vertex Stride");
    const std::uint64_t channelsAt = r_.offset();
    const std::uint16_t numChannels = r_.u16("Vertex header: Num of Channels");
    const std::uint64_t dataAt = r_.offset();
    const std::uint32_t dataOffset = r_.u32("Vertex header: vertex data offset");
    r_.require(numChannels, "Vertex header: channel type codes");
    std::uint64_t sum = 0;
    int positions = 0;
    for (std::uint32_t c = 0; c < numChannels; ++c) {
      const std::uint64_t at = r_.offset();
      const std::uint8_t code = r_.u8("channel type code");
      const auto field = [c] { return "Vertex header: channel " + to_string(c) + " type code"; };
      const std::uint32_t size = omf::channelSize(code);
      if (size == 0)
        r_.failAt(at, field(), "is " + to_string(code) + ", not a channel code of OMF 1 (1 to 8)");
      if (code == omf::kPosition && positions++ > 0)
        r_.failAt(at, field(), "is a second Position channel; exactly one is required");
      if (code == omf::kBoneWeight) {
        if (weightChannels_.size() == omf::kMaxWeightChannels)
          r_.failAt(at, field(), "is a 9th Bone Weight channel; at most 8 are allowed");
        if (!armatureHeader_)
          r_.failAt(at, field(), "is a Bone Weight channel but the file has no armature");
      }
      const VertexChannel ch{code, static_cast<std::uint32_t>(sum)};
      sum += size;
      if (code == omf::kUv) {
        uvChannels_.push_back(ch);
      } else if (code == omf::kBoneWeight) {
        weightChannels_.push_back(ch);
      } else {
        // Only one of each of the other kinds fits the model; the first one wins.
        const int slot = code == omf::kColor4 ? int{omf::kColor3} : int{code};
        if (!single_[slot].code)
          single_[slot] = ch;
        else
          ignoredChannel_.note(field(), at);
      }
    }
    if (positions == 0)
      r_.failAt(channelsAt, "Vertex header: Num of Channels",
                "lists no Position channel; exactly one is required");
    if (stride_ < sum)
      r_.failAt(strideAt, "Vertex header: Vertex Stride",
                "is " + to_string(stride_) + " but the channels need " + to_string(sum) + " bytes");
    checkCount(vertexCount_, ctx_.limits.maxVertices, countField, countAt);
    checkFits(vertexCount_, stride_, countField, countAt);
    dataOffset_ =
        section(dataOffset, vertexCount_ * stride_, "Vertex header: vertex data offset", dataAt);
  }

  // Decodes the shared vertex buffer once; parts copy the vertices they use from it.
  void readVertices() {
    const std::uint64_t n = vertexCount_;
    const VertexChannel& normal = single_[omf::kNormal];
    const VertexChannel& tangent = single_[omf::kTangent];
    const VertexChannel& binormal = single_[omf::kBinormal];
    const VertexChannel& color = single_[omf::kColor3];
    const std::uint64_t perVertex = 12 + (normal.code ? 12 : 0) + (tangent.code ? 16 : 0) +
                                    (color.code ? 16 : 0) + 8 * uvChannels_.size() +
                                    (weightChannels_.empty() ? 0 : 4 + 8 * weightChannels_.size()) +
                                    8;  // the remap entry and use flag of readParts
    charge(n * perVertex, "Vertex header: Vertex Count", vertexHeader_);
    Mesh& m = shared_;
    m.positions.resize(n);
    if (normal.code) m.normals.resize(n);
    if (tangent.code) m.tangents.resize(n);
    if (color.code) m.colors.resize(n);
    m.uvSets.assign(uvChannels_.size(), std::vector<glm::vec2>(n));
    weighted_.assign(weightChannels_.empty() ? 0 : n, 0);
    if (!weightChannels_.empty()) m.influences.reserve(n);
    Influence infl[omf::kMaxWeightChannels];
    for (std::uint64_t v = 0; v < n; ++v) {
      const std::uint64_t base = dataOffset_ + v * stride_;
      const auto at = [&](const VertexChannel& c) {
        r_.seek(base + c.offset, "vertex data");
        return base + c.offset;
      };
      // Field names are only built for an error: this loop runs for every vertex.
      const auto name = [v](std::string_view what) {
        return [v, what] { return label("Vertex", v, what); };
      };
      at(single_[omf::kPosition]);
      m.positions[v] = vec3(name("Position"));
      if (normal.code) {
        at(normal);
        m.normals[v] = vec3(name("Normal"));
      }
      if (tangent.code) {
        at(tangent);
        const glm::vec3 t = vec3(name("Tangent"));
        float w = 1.0f;
        // Handedness from the binormal when both it and the normal are there; Binormal itself
        // has no place in the model (its w sign is all it adds).
        if (binormal.code) {
          at(binormal);
          const glm::vec3 b = vec3(name("Binormal"));
          if (normal.code && glm::dot(glm::cross(m.normals[v], t), b) < 0.0f) w = -1.0f;
        }
        m.tangents[v] = glm::vec4(t, w);
      }
      if (color.code) {
        at(color);
        float c[4] = {0.0f, 0.0f, 0.0f, 1.0f};  // Color3 is opaque
        floats(c, color.code == omf::kColor4 ? 4 : 3, name("Color"));
        m.colors[v] = glm::vec4(c[0], c[1], c[2], c[3]);
      }
      for (std::size_t k = 0; k < uvChannels_.size(); ++k) {
        at(uvChannels_[k]);
        float uv[2];
        floats(uv, 2, [v, k] { return label("Vertex", v, "UV " + to_string(k)); });
        m.uvSets[k][v] = glm::vec2(uv[0], uv[1]);  // v = 0 is the top row in both conventions
      }
      if (weightChannels_.empty()) continue;
      std::size_t count = 0;
      double sum = 0.0;
      for (std::size_t k = 0; k < weightChannels_.size(); ++k) {
        const std::uint64_t boneAt = at(weightChannels_[k]);
        const std::int32_t bone = r_.i32("bone index");
        float w;
        floats(&w, 1,
               [v, k] { return label("Vertex", v, "Bone Weight " + to_string(k) + " weight"); });
        if (w < 0.0f)
          r_.failAt(boneAt + 4, label("Vertex", v, "Bone Weight " + to_string(k) + " weight"),
                    "is negative");
        // Vertex header: "an influence with weight 0 is unused", so its bone index is not
        // looked at (writers fill unused slots with 0 or -1).
        if (w == 0.0f) continue;
        if (bone < 0 || static_cast<std::uint32_t>(bone) >= boneCount())
          r_.failAt(
              boneAt, label("Vertex", v, "Bone Weight " + to_string(k) + " bone index"),
              "is " + to_string(bone) + ", not one of the " + to_string(boneCount()) + " bones");
        infl[count++] = {static_cast<std::uint32_t>(bone), w};
        sum += w;
      }
      if (count > 0 && std::abs(sum - 1.0) > omf::kUnitTolerance) {
        weights_.note(label("Vertex", v, "Bone Weight"), base + weightChannels_[0].offset);
        for (std::size_t k = 0; k < count; ++k)
          infl[k].weight = static_cast<float>(infl[k].weight / sum);
      }
      weighted_[v] = count > 0;
      m.addInfluences(std::span<const Influence>(infl, count));
    }
  }

  void readParts() {
    r_.seek(indexHeader_, "Index header");
    const std::string countField = "Index header: Meshpart Count";
    const std::uint64_t countAt = r_.offset();
    const std::uint32_t n = r_.u32(countField);
    if (n != numParts_)
      r_.failAt(
          countAt, countField,
          "is " + to_string(n) + " but the file header's NumMeshParts is " + to_string(numParts_));
    checkCount(n, ctx_.limits.maxMeshes, countField, countAt);
    if (4ull * n > fileSize() - r_.offset())
      r_.failAt(countAt, countField,
                "is " + to_string(n) + " but its offset table runs past the end of the file");
    std::vector<std::uint64_t> offsets(n);
    for (std::uint32_t i = 0; i < n; ++i)
      offsets[i] = u32Offset(label("Index header: Meshpart", i, "offset"), omf::kMeshPartSize);
    charge(n * sizeof(Mesh), countField, countAt);
    remap_.assign(vertexCount_, kUnused);
    used_.assign(vertexCount_, 0);
    scene_.meshes.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) readPart(i, offsets[i]);
  }

  void readPart(std::uint32_t i, std::uint64_t base) {
    const auto field = [i](std::string_view f) { return label("Meshpart header", i, f); };
    r_.seek(base, "Meshpart header");
    Mesh mesh;
    mesh.name = r_.fixedString(omf::kNameSize, "part name");
    if (r_.i32("Index") != static_cast<std::int64_t>(i))
      r_.failAt(base + 16, field("Index"), "must equal the part's position " + to_string(i));
    const std::uint64_t triAt = r_.offset();
    const std::int32_t triValue = r_.i32("NumberTriangles");
    const std::uint64_t tri = checkCount(
        triValue, ctx_.limits.maxTriangles - std::min(ctx_.limits.maxTriangles, triangles_),
        field("NumberTriangles"), triAt);
    checkFits(tri, 12, field("NumberTriangles"), triAt);
    triangles_ += tri;
    const std::string material = r_.fixedString(omf::kNameSize, "material name");
    mesh.parentBone = r_.i32("ParentBone");
    if (mesh.parentBone < -1 || mesh.parentBone >= static_cast<std::int64_t>(boneCount()))
      r_.failAt(base + 40, field("ParentBone"),
                "is " + to_string(mesh.parentBone) + ", neither -1 nor one of the " +
                    to_string(boneCount()) + " bones");
    const std::uint64_t data = i32Offset(field("index data offset"), tri * 12);
    const std::uint64_t vertices = std::min<std::uint64_t>(3 * tri, vertexCount_);
    charge(tri * 12 + vertices * (12 + 16 + 12 + 16 + 8 * shared_.uvSets.size() + 8 * 9 + 4),
           field("NumberTriangles"), triAt);

    // One shared buffer serves all parts (spec: Vertex header); a part keeps only the vertices
    // its triangles use, in first-use order.
    std::vector<std::uint32_t> used;
    used.reserve(vertices);
    mesh.indices.resize(3 * tri);
    r_.seek(data, "index data");
    for (std::uint64_t k = 0; k < 3 * tri; ++k) {
      const std::uint64_t at = r_.offset();
      const std::uint32_t index = r_.u32("index");
      if (index >= vertexCount_)
        r_.failAt(at, label("Meshpart", i, "index " + to_string(k)),
                  "is " + to_string(index) + ", past the " + to_string(vertexCount_) + " vertices");
      if (remap_[index] == kUnused) {
        remap_[index] = static_cast<std::uint32_t>(used.size());
        used.push_back(index);
        used_[index] = 1;
      }
      mesh.indices[k] = remap_[index];
    }
    for (std::uint32_t v : used) remap_[v] = kUnused;
    copyVertices(mesh, used);
    if (!material.empty()) {
      auto [it, added] = materialIndex_.emplace(material, scene_.materials.size());
      if (added) {
        scene_.materials.emplace_back();
        scene_.materials.back().name = material;
      }
      mesh.material = static_cast<int>(it->second);
    }
    scene_.meshes.push_back(std::move(mesh));
  }

  void copyVertices(Mesh& mesh, const std::vector<std::uint32_t>& used) {
    const Mesh& s = shared_;
    const auto gather = [&](const auto& from, auto& to) {
      if (from.empty()) return;
      to.reserve(used.size());
      for (std::uint32_t v : used) to.push_back(from[v]);
    };
    gather(s.positions, mesh.positions);
    gather(s.normals, mesh.normals);
    gather(s.tangents, mesh.tangents);
    gather(s.colors, mesh.colors);
    mesh.uvSets.resize(s.uvSets.size());
    for (std::size_t k = 0; k < s.uvSets.size(); ++k) gather(s.uvSets[k], mesh.uvSets[k]);
    // Meshpart header, ParentBone: a rigid part moves with its bone whatever the weights say,
    // and a part where no vertex has a weight is static; neither has influences.
    if (mesh.parentBone >= 0 || weighted_.empty()) return;
    std::size_t zero = 0;
    for (std::uint32_t v : used) zero += !weighted_[v];
    if (zero == used.size()) return;
    unskinned_ += zero;
    for (std::uint32_t v : used) mesh.addInfluences(s.influencesOf(v));
  }

  void readAnimation() {
    if (!animationHeader_) return;
    r_.seek(animationHeader_, "Animation header");
    const std::string countField = "Animation header: Action Count";
    const std::uint64_t countAt = r_.offset();
    const std::uint64_t n =
        checkCount(r_.i32(countField), ctx_.limits.maxClips, countField, countAt);
    if (4 + 4 * n > fileSize() - r_.offset())
      r_.failAt(countAt, countField,
                "is " + to_string(n) + " but its offset table runs past the end of the file");
    const std::uint64_t fpsAt = r_.offset();
    fps_ = r_.f32("Animation header: FPS");
    if (!std::isfinite(fps_) || !(fps_ > 0.0f))
      r_.failAt(fpsAt, "Animation header: FPS", "is " + to_string(fps_) + "; it must be above 0");
    std::vector<std::uint64_t> offsets(n);
    for (std::uint64_t i = 0; i < n; ++i)
      offsets[i] =
          i32Offset(label("Animation header: Action", i, "offset"), omf::kActionHeaderSize);
    charge(n * sizeof(Clip) + boneCount() * sizeof(std::uint64_t), countField, countAt);
    trackOf_.assign(boneCount(), kNoOffset);
    scene_.clips.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i) readAction(i, offsets[i]);
  }

  void readAction(std::uint64_t i, std::uint64_t base) {
    const auto field = [i](std::string_view f) { return label("Action", i, f); };
    r_.seek(base, "Action header");
    Clip clip;
    clip.name = r_.fixedString(omf::kNameSize, "action name");
    clip.frameRate = fps_;
    if (r_.i32("Index") != static_cast<std::int64_t>(i))
      r_.failAt(base + 16, field("Index"), "must equal the action's position " + to_string(i));
    const std::uint64_t tracksAt = r_.offset();
    const std::int32_t tracksValue = r_.i32("NumBones");
    // Two tracks for one bone are rejected below, so more tracks than bones cannot be valid.
    const std::uint64_t tracks = checkCount(tracksValue, boneCount(), field("NumBones"), tracksAt);
    if (4 + 4 * tracks > fileSize() - r_.offset())
      r_.failAt(tracksAt, field("NumBones"),
                "is " + to_string(tracks) + " but its offset table runs past the end of the file");
    const std::uint64_t durationAt = r_.offset();
    clip.duration = r_.f32("Duration");
    if (!std::isfinite(clip.duration) || clip.duration < 0.0f)
      r_.failAt(durationAt, field("Duration"),
                "is " + to_string(clip.duration) + "; it must be a finite number >= 0");
    std::vector<std::uint64_t> offsets(tracks);
    for (std::uint64_t j = 0; j < tracks; ++j)
      offsets[j] = i32Offset(field("BoneAction " + to_string(j) + " offset"), omf::kBoneActionSize);
    charge(tracks * sizeof(Track), field("NumBones"), tracksAt);
    clip.tracks.reserve(tracks);
    for (std::uint64_t j = 0; j < tracks; ++j) clip.tracks.push_back(readTrack(i, j, offsets[j]));
    scene_.clips.push_back(std::move(clip));
  }

  Track readTrack(std::uint64_t action, std::uint64_t j, std::uint64_t base) {
    const std::string prefix = "Action " + to_string(action) + " BoneAction " + to_string(j);
    const auto field = [&](std::string_view f) { return prefix + ": " + std::string(f); };
    r_.seek(base, "BoneAction");
    const std::int32_t bone = r_.i32("bone index");
    if (bone < 0 || static_cast<std::uint32_t>(bone) >= boneCount())
      r_.failAt(base, field("bone index"),
                "is " + to_string(bone) + ", not one of the " + to_string(boneCount()) + " bones");
    // Two tracks for one bone in one action would leave the pose ambiguous: rejected.
    if (trackOf_[bone] != kNoOffset && trackOf_[bone] >> 32 == action)
      r_.failAt(base, field("bone index"),
                "is " + to_string(bone) + ", which BoneAction " +
                    to_string(trackOf_[bone] & 0xFFFFFFFFu) + " of this action already animates");
    trackOf_[bone] = action << 32 | j;
    const std::uint64_t keysAt = r_.offset();
    const std::uint64_t keys = checkCount(
        r_.i32("number of keyframes"), ctx_.limits.maxKeys - std::min(ctx_.limits.maxKeys, keys_),
        field("number of keyframes"), keysAt);
    checkFits(keys, omf::kKeyframeSize, field("number of keyframes"), keysAt);
    keys_ += keys;
    const std::uint64_t first = i32Offset(field("keyframe offset"), keys * omf::kKeyframeSize);
    charge(keys * 2 * (sizeof(float) + sizeof(glm::quat)), field("number of keyframes"), keysAt);

    Track t;
    t.bone = scene_.skeleton.bones[bone].name;
    t.sourceIndex = bone;
    t.translation.times.reserve(keys);
    t.translation.values.reserve(keys);
    t.rotation.times.reserve(keys);
    t.rotation.values.reserve(keys);
    std::int32_t previous = 0;
    for (std::uint64_t k = 0; k < keys; ++k) {
      const std::uint64_t at = first + k * omf::kKeyframeSize;
      const auto key = [&](std::string_view f) {
        return [&prefix, k, f] {
          return prefix + " keyframe " + to_string(k) + ": " + std::string(f);
        };
      };
      r_.seek(at, "keyframe");
      const std::int32_t frame = r_.i32("frame number");
      if (k > 0 && frame <= previous)
        r_.failAt(at, key("frame number")(),
                  "is " + to_string(frame) + ", not after the previous key's " +
                      to_string(previous) + "; frames strictly increase");
      const auto time = static_cast<float>(static_cast<double>(frame) / fps_);
      if (!std::isfinite(time) || (k > 0 && !(time > t.translation.times.back())))
        r_.failAt(at, key("frame number")(),
                  "is " + to_string(frame) + ", whose time at " + to_string(fps_) +
                      " fps cannot be told from the previous key's as a float number of seconds");
      previous = frame;
      t.translation.add(time, vec3(key("translation")));
      t.rotation.add(time, quat(key("rotation"), rotations_));
    }
    return t;
  }

  void report() {
    Diagnostics& d = scene_.diagnostics;
    const std::string& file = ctx_.name;
    if (rotations_.count)
      d.warn(file, rotations_.field, rotations_.offset,
             to_string(rotations_.count) +
                 " quaternion(s) were not unit length and were normalised (this is the first)");
    if (weights_.count)
      d.warn(file, weights_.field, weights_.offset,
             to_string(weights_.count) +
                 " vertices have weights that do not sum to 1 and were renormalised (this is the "
                 "first)");
    if (unskinned_)
      d.warn(file, "Bone Weight channels", kNoOffset,
             to_string(unskinned_) +
                 " vertices of skinned mesh parts have only zero weights; they are left "
                 "unskinned");
    if (ignoredChannel_.count)
      d.warn(file, ignoredChannel_.field, ignoredChannel_.offset,
             "repeats a channel the model holds once; " + to_string(ignoredChannel_.count) +
                 " such channel(s) are ignored and the first of each kind is used");
    const auto unused = std::count(used_.begin(), used_.end(), 0);
    if (unused)
      d.info(file, "Vertex header: Vertex Count", vertexHeader_,
             to_string(unused) + " vertices are used by no mesh part and were left out");
  }

  ByteReader r_;
  const ReadContext& ctx_;
  std::uint64_t budget_;
  Scene scene_;

  std::uint32_t numParts_ = 0;
  std::uint64_t vertexHeader_ = 0, indexHeader_ = 0, armatureHeader_ = 0, animationHeader_ = 0;
  std::vector<RigidPose> armature_;   // the rest pose as the file stores it: armature space
  std::vector<std::uint32_t> depth_;  // per bone: 1 for a root, its parent's + 1 otherwise

  std::uint64_t vertexCount_ = 0;
  std::uint16_t stride_ = 0;
  std::uint64_t dataOffset_ = 0;
  VertexChannel single_[omf::kColor4 + 1];  // by code; both colour kinds share kColor3's slot
  std::vector<VertexChannel> uvChannels_, weightChannels_;
  Mesh shared_;                         // the whole vertex buffer, decoded
  std::vector<std::uint8_t> weighted_;  // per vertex: has a non-zero weight
  std::vector<std::uint32_t> remap_;    // shared vertex → part vertex while a part is read
  std::vector<std::uint8_t> used_;      // per vertex: some part uses it
  std::unordered_map<std::string, std::size_t> materialIndex_;

  std::uint64_t triangles_ = 0, keys_ = 0;
  float fps_ = 0.0f;
  std::vector<std::uint64_t> trackOf_;  // per bone: (action << 32 | BoneAction) that animates it

  Repair rotations_, weights_, ignoredChannel_;
  std::size_t unskinned_ = 0;
};

}  // namespace

Result<Scene> readOmf(std::span<const std::byte> data, const ReadContext& ctx) {
  return guarded<Scene>(ctx, [&] { return Reader(data, ctx).read(); });
}

}  // namespace marrow::formats
