// Binary mesh .cmf (§5): the plain, colour+sentinel and count-prefixed layouts, tried in the
// version's order until one consumes the file exactly (§1).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "formats/cal3d/binary_format.h"
#include "formats/cal3d/parts.h"

namespace marrow::formats::cal3d {
namespace {

using std::to_string;

// §8 minimum sizes.
constexpr std::uint64_t kMinVertexBytes = 36;
constexpr std::uint64_t kColourBytes = 12;
constexpr std::uint64_t kSpringBytes = 16;
constexpr std::uint64_t kFaceBytes = 12;
constexpr std::uint64_t kSubmeshHeaderBytes = 24;
// A morph target is at least its name's length and a sentinel id or a count.
constexpr std::uint64_t kMinMorphBytes = 8;
// Far above the 0–2 uv sets seen in real files; keeps a submesh of no vertices from asking for
// millions of empty sets.
constexpr std::uint32_t kMaxUvSets = 64;

const char* layoutName(CmfLayout l) {
  switch (l) {
    case CmfLayout::ColourSentinel: return "vertex colours, sentinel-ended morphs";
    case CmfLayout::CountPrefixed: return "count-prefixed morphs";
    default: return "plain";
  }
}

struct SubmeshHeader {
  std::int32_t material = -1;
  std::uint32_t vertices = 0, faces = 0, lod = 0, springs = 0, maps = 0, morphs = 0;
};

class CmfParser {
 public:
  CmfParser(std::span<const std::byte> data, const ReadContext& ctx, const BoneMap& bones,
            CmfLayout layout)
      : r_(data, ctx.name),
        ctx_(ctx),
        bones_(bones),
        layout_(layout),
        budget_(ctx.limits.maxAllocation(data.size())) {}

  MeshPart parse() {
    version_ = readHeader(r_, std::string_view("CMF\0", 4));
    const std::uint32_t count =
        readCount(r_, "submeshCount", ctx_.limits.maxMeshes, kSubmeshHeaderBytes + morphField());
    const std::string stem = fileStem(ctx_.name);
    MeshPart part;
    part.meshes.reserve(count);
    for (std::uint32_t s = 0; s < count; ++s)
      within([s] { return label("submesh", s); },
             [&] {
               Mesh mesh;
               part.materialThreads.push_back(readSubmesh(mesh));
               mesh.name = submeshName(stem, s, count);
               // §5: the official binary loader's rule, part of the format; IMVU's never flips.
               if (!isImvuVersion(version_)) applyWindingRule(mesh);
               part.meshes.push_back(std::move(mesh));
             });
    requireEnd(r_, "the last submesh");
    dropPlaceholderColours(part.meshes, ctx_.name, diagnostics_);
    if (count == 0) diagnostics_.warn(ctx_.name, "submeshCount", 8, "is 0; the file holds no mesh");
    part.format = "cal3d CMF " + to_string(version_);
    if (layout_ != CmfLayout::Plain || cmfDefaultLayout(version_) != CmfLayout::Plain)
      part.format += std::string(" (") + layoutName(layout_) + ")";
    part.diagnostics = std::move(diagnostics_);
    return part;
  }

 private:
  bool morphLayout() const { return layout_ != CmfLayout::Plain; }
  std::uint64_t morphField() const { return morphLayout() ? 4 : 0; }

  std::uint32_t headerCount(std::string_view field, std::uint64_t max) {
    return readCount(r_, field, max, 0);
  }

  std::int32_t readSubmesh(Mesh& mesh) {
    SubmeshHeader h;
    h.material = r_.i32("materialThreadId");
    const std::size_t verticesAt = r_.offset();
    h.vertices = headerCount("vertexCount", ctx_.limits.maxVertices);
    const std::size_t facesAt = r_.offset();
    h.faces = headerCount("faceCount", ctx_.limits.maxTriangles);
    const std::size_t lodAt = r_.offset();
    h.lod = headerCount("lodCount", ctx_.limits.maxVertices);
    if (h.lod > h.vertices)
      r_.failAt(
          lodAt, "lodCount",
          "is " + to_string(h.lod) + ", more than the " + to_string(h.vertices) + " vertices");
    const std::size_t springsAt = r_.offset();
    h.springs = headerCount("springCount", ctx_.limits.maxVertices * 8);
    h.maps = headerCount("mapCount", kMaxUvSets);
    const std::size_t morphsAt = r_.offset();
    if (morphLayout()) h.morphs = headerCount("morphCount", ctx_.limits.maxMeshes);
    // §8: each count against the bytes left, after what the earlier sections need at least.
    const std::uint64_t vertexBytes = kMinVertexBytes + 8ull * h.maps +
                                      (layout_ == CmfLayout::ColourSentinel ? kColourBytes : 0) +
                                      (h.springs > 0 ? 4 : 0);
    std::uint64_t reserved = 0;
    checkedCount(r_, static_cast<std::int32_t>(h.vertices), verticesAt, "vertexCount",
                 ctx_.limits.maxVertices, vertexBytes, reserved);
    reserved += h.vertices * vertexBytes;
    checkedCount(r_, static_cast<std::int32_t>(h.springs), springsAt, "springCount",
                 ctx_.limits.maxVertices * 8, kSpringBytes, reserved);
    reserved += h.springs * kSpringBytes;
    checkedCount(r_, static_cast<std::int32_t>(h.morphs), morphsAt, "morphCount",
                 ctx_.limits.maxMeshes, kMinMorphBytes, reserved);
    reserved += h.morphs * kMinMorphBytes;
    checkedCount(r_, static_cast<std::int32_t>(h.faces), facesAt, "faceCount",
                 ctx_.limits.maxTriangles, kFaceBytes, reserved);
    // What the model holds per record can outgrow the file's bytes (a submesh or morph target
    // with no vertices still carries its uv sets): kept within Limits::maxAllocation.
    const std::uint64_t uvSetBytes = h.maps * sizeof(std::vector<glm::vec2>);
    charge(sizeof(Mesh) + uvSetBytes +
               h.vertices *
                   (sizeof(glm::vec3) * 2 + sizeof(glm::vec2) * h.maps + sizeof(glm::vec4) + 16) +
               h.faces * 12ull + h.springs * sizeof(Spring),
           "vertexCount", verticesAt);
    charge(h.morphs * (sizeof(MorphTarget) + uvSetBytes), "morphCount", morphsAt);

    readVertices(mesh, h);
    mesh.springs.resize(h.springs);
    for (std::uint32_t i = 0; i < h.springs; ++i)
      within([i] { return label("spring", i); }, [&] { readSpring(mesh.springs[i], h); });
    mesh.morphs.resize(h.morphs);
    for (std::uint32_t i = 0; i < h.morphs; ++i)
      within([i] { return label("morph", i); }, [&] { readMorph(mesh.morphs[i], h); });
    mesh.indices.resize(3ull * h.faces);
    for (std::uint32_t f = 0; f < h.faces; ++f)
      within([f] { return label("face", f); },
             [&] {
               for (int k = 0; k < 3; ++k)
                 mesh.indices[3ull * f + k] = vertexId("vertexId", h.vertices);
             });
    return h.material;
  }

  // A vertex index of this submesh, read as i32.
  std::uint32_t vertexId(std::string_view field, std::uint32_t vertices) {
    const std::size_t at = r_.offset();
    const std::int32_t v = r_.i32(field);
    if (v < 0 || static_cast<std::uint32_t>(v) >= vertices)
      r_.failAt(at, field,
                "is " + to_string(v) + "; the submesh has " + to_string(vertices) + " vertices");
    return static_cast<std::uint32_t>(v);
  }

  void readVertices(Mesh& mesh, const SubmeshHeader& h) {
    const std::size_t n = h.vertices;
    mesh.positions.resize(n);
    mesh.normals.resize(n);
    if (layout_ == CmfLayout::ColourSentinel) mesh.colors.resize(n);
    mesh.uvSets.assign(h.maps, std::vector<glm::vec2>(n));
    LevelOfDetail& lod = mesh.lod;
    lod.collapsible = h.lod;
    lod.collapseTo.resize(n);
    lod.faceCollapseCount.resize(n);
    if (h.springs > 0) mesh.physicalWeights.resize(n);
    // Without a skeleton the file's bone ids are kept as they are: readModel stands in
    // placeholder bones for them (cal3d.h), so that nothing of the file is lost.
    const bool mapped = bones_.skeleton != nullptr;
    std::vector<std::uint32_t> starts;
    starts.reserve(n + 1);
    starts.push_back(0);
    std::vector<Influence> influences;
    for (std::size_t v = 0; v < n; ++v)
      within([v] { return label("vertex", v); },
             [&] {
               mesh.positions[v] = readVec3(r_, "position");
               mesh.normals[v] = readVec3(r_, "normal");
               if (layout_ == CmfLayout::ColourSentinel)
                 mesh.colors[v] = glm::vec4(readVec3(r_, "color"), 1.0f);
               const std::size_t collapseAt = r_.offset();
               lod.collapseTo[v] = r_.i32("collapseId");
               if (lod.collapseTo[v] < -1 || lod.collapseTo[v] >= static_cast<std::int64_t>(n))
                 r_.failAt(collapseAt, "collapseId",
                           "is " + to_string(lod.collapseTo[v]) + "; it must be -1 or one of the " +
                               to_string(n) + " vertices");
               const std::size_t faceCollapseAt = r_.offset();
               lod.faceCollapseCount[v] = r_.i32("faceCollapseCount");
               if (lod.faceCollapseCount[v] < 0)
                 r_.failAt(faceCollapseAt, "faceCollapseCount",
                           "is " + to_string(lod.faceCollapseCount[v]) + ", a negative count");
               for (std::uint32_t m = 0; m < h.maps; ++m) {
                 const float u = r_.finiteF32("uv");
                 mesh.uvSets[m][v] = {u, r_.finiteF32("uv")};
               }
               const std::uint32_t count =
                   readCount(r_, "influenceCount", ctx_.limits.maxInfluencesPerVertex, 8);
               for (std::uint32_t k = 0; k < count; ++k)
                 within([k] { return label("influence", k); },
                        [&] {
                          const std::size_t at = r_.offset();
                          const std::int32_t id = r_.i32("boneId");
                          const float weight = r_.finiteF32("weight");
                          const int bone = mapped ? bones_.find(id) : id;
                          if (bone < 0 || (!mapped && id >= static_cast<std::int64_t>(ctx_.limits.maxBones)))
                            r_.failAt(at, "boneId",
                                      "is " + to_string(id) +
                                          (mapped ? ", not a bone of the skeleton; the mesh belongs "
                                                    "to another skeleton"
                                                  : ", not a bone id"));
                          influences.push_back({static_cast<std::uint32_t>(bone), weight});
                        });
               starts.push_back(static_cast<std::uint32_t>(influences.size()));
               if (h.springs > 0) mesh.physicalWeights[v] = r_.finiteF32("physicalWeight");
             });
    // A submesh none of whose vertices has an influence is not skinned (§5: such vertices stay
    // in model space).
    if (!influences.empty()) {
      mesh.influenceStart = std::move(starts);
      mesh.influences = std::move(influences);
    }
    // No collapsible vertex and nothing set: the submesh has no level of detail.
    if (h.lod == 0 &&
        std::all_of(lod.collapseTo.begin(), lod.collapseTo.end(), [](int c) { return c == -1; }) &&
        std::all_of(lod.faceCollapseCount.begin(), lod.faceCollapseCount.end(),
                    [](int c) { return c == 0; }))
      mesh.lod = {};
  }

  void readSpring(Spring& s, const SubmeshHeader& h) {
    s.a = vertexId("vertexA", h.vertices);
    s.b = vertexId("vertexB", h.vertices);
    s.coefficient = r_.finiteF32("springCoefficient");
    s.idleLength = r_.finiteF32("idleLength");
  }

  void readBlendVertex(MorphTarget& m, std::uint32_t id, std::uint64_t idAt,
                       const SubmeshHeader& h) {
    if (!m.vertices.empty() && id <= m.vertices.back())
      r_.failAt(idAt, "vertexId",
                "is " + to_string(id) + ", not after the previous blend vertex's " +
                    to_string(m.vertices.back()) + " (ids strictly increase)");
    within([&] { return label("blend vertex", id); },
           [&] {
             m.vertices.push_back(id);
             m.positions.push_back(readVec3(r_, "position"));
             m.normals.push_back(readVec3(r_, "normal"));
             for (std::uint32_t k = 0; k < h.maps; ++k) {
               const float u = r_.finiteF32("uv");
               m.uvSets[k].push_back({u, r_.finiteF32("uv")});
             }
           });
  }

  void readMorph(MorphTarget& m, const SubmeshHeader& h) {
    m.name = readString(r_, "name", ctx_.limits.maxStringLength);
    m.uvSets.resize(h.maps);
    const std::uint64_t blendBytes = 24 + 8ull * h.maps;
    if (layout_ == CmfLayout::CountPrefixed) {
      const std::uint32_t n = readCount(r_, "blendCount", h.vertices, 4 + blendBytes);
      for (std::uint32_t k = 0; k < n; ++k) {
        const std::size_t at = r_.offset();
        readBlendVertex(m, vertexId("vertexId", h.vertices), at, h);
      }
    } else {
      // §5: ids up to the first one ≥ vertexCount (the savers write vertexCount + 1).
      for (;;) {
        const std::size_t at = r_.offset();
        const std::int32_t id = r_.i32("vertexId");
        if (id < 0) r_.failAt(at, "vertexId", "is " + to_string(id) + ", a negative vertex id");
        if (static_cast<std::uint32_t>(id) >= h.vertices) break;
        readBlendVertex(m, static_cast<std::uint32_t>(id), at, h);
      }
    }
  }

  void charge(std::uint64_t bytes, std::string_view field, std::uint64_t at) {
    if (bytes > budget_)
      r_.failAt(at, field, "needs more memory than the limit for a file of this size");
    budget_ -= bytes;
  }

  ByteReader r_;
  const ReadContext& ctx_;
  const BoneMap& bones_;
  CmfLayout layout_;
  std::uint64_t budget_;
  int version_ = 0;
  Diagnostics diagnostics_;
};

}  // namespace

Result<MeshPart> readCmf(std::span<const std::byte> data, const ReadContext& ctx,
                         const BoneMap& bones) {
  std::int32_t version = 0;
  if (data.size() >= 8) std::memcpy(&version, data.data() + 4, 4);
  const CmfLayout first = cmfDefaultLayout(version);
  std::array<CmfLayout, 3> layouts{first, CmfLayout::Plain, CmfLayout::ColourSentinel};
  std::size_t k = 1;
  for (CmfLayout l : {CmfLayout::Plain, CmfLayout::ColourSentinel, CmfLayout::CountPrefixed})
    if (l != first) layouts[k++] = l;
  return firstExactLayout<MeshPart>(ctx, std::span<const CmfLayout>(layouts), [&](CmfLayout l) {
    return CmfParser(data, ctx, bones, l).parse();
  });
}

}  // namespace marrow::formats::cal3d
