// XML mesh .xmf (§7.3): the submeshes of a .cmf (§5) as elements. Unlike the binary loader, the
// XML loaders never flip the winding (§5, §7.3): faces are taken as they are.
#include <algorithm>
#include <limits>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/cal3d/xml_common.h"

namespace marrow::formats::cal3d {
namespace {

using xml::Children;
using xml::step;

// More uv sets than any exporter writes: a cap so that a hostile vertex cannot multiply memory.
constexpr std::size_t kMaxUvSets = 32;

class XmfReader {
 public:
  XmfReader(std::span<const std::byte> data, const ReadContext& ctx, const BoneMap& bones)
      : ctx_(ctx), bones_(bones), doc_(data, ctx, part_.diagnostics) {}

  MeshPart read() {
    const pugi::xml_node mesh = doc_.open("XMF", "MESH");
    part_.format = doc_.format("XMF");
    const std::size_t n = xml::countChildren(mesh, "SUBMESH");
    doc_.checkLimit(n, ctx_.limits.maxMeshes, mesh, "MESH", "SUBMESH elements");
    doc_.checkDeclaredCount(mesh, "NUMSUBMESH", "MESH", n, "SUBMESH elements");
    doc_.charge(n * (sizeof(Mesh) + sizeof(int)), mesh, "MESH");
    part_.meshes.reserve(n);
    part_.materialThreads.reserve(n);
    const std::string stem = fileStem(ctx_.name);
    Children children(mesh);
    for (std::size_t i = 0; !children.atEnd(); ++i) {
      const pugi::xml_node node = children.take();
      if (!xml::namesEqual(node.name(), "SUBMESH"))
        doc_.fail(node, node.name(), "is out of place: only SUBMESH elements belong in MESH");
      readSubmesh(node, step("", "SUBMESH", i), submeshName(stem, i, n));
    }
    doc_.flushRepeated();
    dropPlaceholderColours(part_.meshes, ctx_.name, part_.diagnostics);
    return std::move(part_);
  }

 private:
  struct Submesh {
    Mesh mesh;
    std::size_t vertices = 0;  // VERTEX elements, counted before reading them
    std::vector<std::int32_t> collapseTo, faceCollapseCount;
    std::vector<bool> hasColor, hasPhysique;
    bool anyColor = false, anyPhysique = false, anyLod = false, anyInfluence = false;
    std::vector<Influence> influences;
    std::vector<std::uint32_t> influenceStart{0};
    std::int64_t declaredUvSets = -1;
  };

  void readSubmesh(pugi::xml_node node, const xml::Path& path, std::string name) {
    Submesh s;
    s.mesh.name = std::move(name);
    const std::int64_t thread = doc_.intAttribute(node, "MATERIAL", path, -1);
    if (!doc_.hasAttribute(node, "MATERIAL"))
      doc_.warnRepeated("material", node, path, "has no MATERIAL; it is drawn untextured");
    if (thread < -1 || thread > std::numeric_limits<int>::max())
      doc_.warnRepeated("badMaterial", node, step(path, "MATERIAL"),
                        "is " + std::to_string(thread) + ", not a material thread; none is used");
    const std::int64_t lod = doc_.intAttribute(node, "NUMLODSTEPS", path, 0);
    s.declaredUvSets = doc_.intAttribute(node, "NUMTEXCOORDS", path, -1);

    s.vertices = xml::countChildren(node, "VERTEX");
    const std::size_t faces = xml::countChildren(node, "FACE");
    const std::size_t springs = xml::countChildren(node, "SPRING");
    const std::size_t morphs = xml::countChildren(node, "MORPH");
    doc_.checkDeclaredCount(node, "NUMVERTICES", path, s.vertices, "VERTEX elements");
    doc_.checkDeclaredCount(node, "NUMFACES", path, faces, "FACE elements");
    doc_.checkDeclaredCount(node, "NUMSPRINGS", path, springs, "SPRING elements");
    doc_.checkDeclaredCount(node, "NUMMORPHS", path, morphs, "MORPH elements");
    vertices_ += s.vertices;
    triangles_ += faces;
    doc_.checkLimit(vertices_, ctx_.limits.maxVertices, node, path, "vertices in the file");
    doc_.checkLimit(triangles_, ctx_.limits.maxTriangles, node, path, "faces in the file");
    // Positions, normals, LOD, colour and physique flags, one influence row; faces and springs.
    doc_.charge(s.vertices * (2 * sizeof(glm::vec3) + 2 * sizeof(std::int32_t) + sizeof(float) +
                              sizeof(std::uint32_t) + 2) +
                    faces * 3 * sizeof(std::uint32_t) + springs * sizeof(Spring) +
                    morphs * sizeof(MorphTarget),
                node, path);
    Mesh& m = s.mesh;
    m.positions.reserve(s.vertices);
    m.normals.reserve(s.vertices);
    s.collapseTo.reserve(s.vertices);
    s.faceCollapseCount.reserve(s.vertices);
    m.physicalWeights.reserve(s.vertices);

    Children c(node);
    for (std::size_t v = 0; c.nextIs("VERTEX"); ++v)
      readVertex(s, c.take(), step(path, "VERTEX", v));
    for (std::size_t k = 0; c.nextIs("SPRING"); ++k)
      readSpring(s, c.take(), step(path, "SPRING", k));
    for (std::size_t k = 0; c.nextIs("MORPH"); ++k) readMorph(s, c.take(), step(path, "MORPH", k));
    m.indices.reserve(faces * 3);
    for (std::size_t k = 0; c.nextIs("FACE"); ++k) readFace(s, c.take(), step(path, "FACE", k));
    doc_.expectEnd(c, path, "VERTEX, SPRING, MORPH and FACE elements, in this order,");
    finish(s, node, path, lod);
    part_.materialThreads.push_back(
        thread < -1 || thread > std::numeric_limits<int>::max() ? -1 : static_cast<int>(thread));
    part_.meshes.push_back(std::move(s.mesh));
  }

  void readVertex(Submesh& s, pugi::xml_node node, const xml::Path& path) {
    Mesh& m = s.mesh;
    const std::size_t v = m.positions.size();
    Children c(node);
    const auto p = doc_.floats<3>(doc_.expect(c, "POS", node, path), step(path, "POS"));
    const auto nrm = doc_.floats<3>(doc_.expect(c, "NORM", node, path), step(path, "NORM"));
    m.positions.emplace_back(p[0], p[1], p[2]);
    m.normals.emplace_back(nrm[0], nrm[1], nrm[2]);

    // §7.3: COLOR (IMVU, 1300) holds RGB in 0…1; a fourth number is taken as alpha.
    glm::vec4 color(1.0f);
    const bool hasColor = c.nextIs("COLOR");
    if (hasColor) {
      float rgba[4] = {1.0f, 1.0f, 1.0f, 1.0f};
      doc_.floatsUpTo(c.take(), step(path, "COLOR"), rgba, 3);
      color = glm::vec4(rgba[0], rgba[1], rgba[2], rgba[3]);
      if (!s.anyColor) m.colors.assign(v, glm::vec4(1.0f));
      s.anyColor = true;
    }
    if (s.anyColor) m.colors.push_back(color);
    s.hasColor.push_back(hasColor);

    // §7.3: COLLAPSEID and COLLAPSECOUNT come together or not at all (absent: -1, 0).
    std::int64_t collapse = -1, count = 0;
    if (c.nextIs("COLLAPSEID")) {
      const pugi::xml_node id = c.take();
      collapse = doc_.integer(id, step(path, "COLLAPSEID"));
      if (collapse < -1 || collapse >= static_cast<std::int64_t>(s.vertices))
        doc_.fail(id, step(path, "COLLAPSEID"),
                  "is " + std::to_string(collapse) + ", not -1 or one of the " +
                      std::to_string(s.vertices) + " vertices");
      const pugi::xml_node cc = doc_.expect(c, "COLLAPSECOUNT", node, path);
      count = doc_.integer(cc, step(path, "COLLAPSECOUNT"));
      if (count < 0 || count > std::numeric_limits<std::int32_t>::max())
        doc_.fail(cc, step(path, "COLLAPSECOUNT"),
                  "is " + std::to_string(count) + ", not a face count");
      s.anyLod = s.anyLod || collapse != -1 || count != 0;
    }
    s.collapseTo.push_back(static_cast<std::int32_t>(collapse));
    s.faceCollapseCount.push_back(static_cast<std::int32_t>(count));

    std::size_t uvs = 0;
    for (; c.nextIs("TEXCOORD"); ++uvs) {
      const pugi::xml_node t = c.take();
      const auto uv = doc_.floats<2>(t, step(path, "TEXCOORD"));
      if (uvs == m.uvSets.size()) addUvSet(s, t, path);
      m.uvSets[uvs].emplace_back(uv[0], uv[1]);
    }
    for (std::size_t k = uvs; k < m.uvSets.size(); ++k) m.uvSets[k].emplace_back(0.0f, 0.0f);
    if (s.declaredUvSets >= 0 && static_cast<std::size_t>(s.declaredUvSets) != uvs)
      doc_.warnRepeated("uvCount", node, path,
                        "has " + std::to_string(uvs) +
                            " TEXCOORD elements but its SUBMESH declares "
                            "NUMTEXCOORDS=" +
                            std::to_string(s.declaredUvSets) + "; missing ones read as (0, 0)");
    else if (uvs < m.uvSets.size())
      doc_.warnRepeated(
          "uvFewer", node, path,
          "has fewer TEXCOORD elements than other vertices; missing ones read as (0, 0)");

    const std::size_t rowStart = s.influences.size();
    std::size_t influences = 0;
    for (; c.nextIs("INFLUENCE"); ++influences) readInfluence(s, c.take(), step(path, "INFLUENCE"));
    if (influences > ctx_.limits.maxInfluencesPerVertex)
      doc_.fail(node, path,
                "has " + std::to_string(influences) + " influences, over the limit of " +
                    std::to_string(ctx_.limits.maxInfluencesPerVertex));
    if (const auto declared = doc_.attribute(node, "NUMINFLUENCES"); declared.empty())
      doc_.warnRepeated("noInfluenceCount", node, path, "has no NUMINFLUENCES attribute");
    else
      doc_.checkDeclaredCount(node, "NUMINFLUENCES", path, influences, "INFLUENCE elements");
    s.anyInfluence = s.anyInfluence || s.influences.size() > rowStart;
    s.influenceStart.push_back(static_cast<std::uint32_t>(s.influences.size()));

    // §7.3: PHYSIQUE exists iff the submesh has springs; read whenever it is there.
    const bool hasPhysique = c.nextIs("PHYSIQUE");
    m.physicalWeights.push_back(hasPhysique ? doc_.floats<1>(c.take(), step(path, "PHYSIQUE"))[0]
                                            : 0.0f);
    s.hasPhysique.push_back(hasPhysique);
    s.anyPhysique = s.anyPhysique || hasPhysique;
    doc_.expectEnd(c, path,
                   "POS, NORM, COLOR, COLLAPSEID, COLLAPSECOUNT, TEXCOORD, INFLUENCE and PHYSIQUE, "
                   "in this order,");
  }

  // A vertex with more TEXCOORD elements than those before it opens a new uv set.
  void addUvSet(Submesh& s, pugi::xml_node at, const xml::Path& path) {
    Mesh& m = s.mesh;
    if (m.uvSets.size() == kMaxUvSets)
      doc_.fail(at, step(path, "TEXCOORD"),
                "is uv set " + std::to_string(kMaxUvSets + 1) + ", over the limit of " +
                    std::to_string(kMaxUvSets));
    doc_.charge(s.vertices * sizeof(glm::vec2), at, step(path, "TEXCOORD"));
    const std::size_t v = m.positions.size() - 1;
    if (v > 0)
      doc_.warnRepeated(
          "uvMore", at, path,
          "has more TEXCOORD elements than the vertices before it; theirs read as (0, 0)");
    m.uvSets.emplace_back();
    m.uvSets.back().reserve(s.vertices);
    m.uvSets.back().assign(v, glm::vec2(0.0f));
  }

  void readInfluence(Submesh& s, pugi::xml_node node, const xml::Path& path) {
    const std::int64_t id = doc_.requiredInt(node, "ID", path);
    const float weight = doc_.floats<1>(node, path)[0];
    // Without a skeleton the file's bone ids are kept: readModel stands in placeholder bones.
    const bool mapped = bones_.skeleton != nullptr;
    const std::int64_t bone = mapped ? bones_.find(id) : id;
    if (bone < 0 || (!mapped && id >= static_cast<std::int64_t>(doc_.context().limits.maxBones)))
      doc_.fail(node, step(path, "ID"),
                "is " + std::to_string(id) +
                    (mapped ? ", not a bone of the skeleton (" +
                                  std::to_string(xml::boneCount(bones_)) +
                                  " bones); the mesh belongs to another one"
                            : std::string(", not a bone id")));
    doc_.charge(sizeof(Influence), node, path);
    s.influences.push_back({static_cast<std::uint32_t>(bone), weight});
  }

  void readSpring(Submesh& s, pugi::xml_node node, const xml::Path& path) {
    const std::size_t n = s.mesh.positions.size();
    std::int64_t ids[2] = {0, 0};
    doc_.intList(node, "VERTEXID", path, ids);
    for (std::int64_t id : ids)
      if (id < 0 || id >= static_cast<std::int64_t>(n))
        doc_.fail(node, step(path, "VERTEXID"),
                  "names vertex " + std::to_string(id) + ", past the " + std::to_string(n) +
                      " vertices of the submesh");
    Spring spring;
    spring.a = static_cast<std::uint32_t>(ids[0]);
    spring.b = static_cast<std::uint32_t>(ids[1]);
    spring.coefficient = doc_.requiredFloat(node, "COEF", path);
    spring.idleLength = doc_.requiredFloat(node, "LENGTH", path);
    s.mesh.springs.push_back(spring);
  }

  // §7.3: a morph target's blend vertices are absolute, with increasing vertex ids.
  void readMorph(Submesh& s, pugi::xml_node node, const xml::Path& path) {
    const Mesh& m = s.mesh;
    MorphTarget target;
    target.name = doc_.stringAttribute(node, "NAME", path);
    const std::size_t n = xml::countChildren(node, "BLENDVERTEX");
    doc_.charge(
        n * (sizeof(std::uint32_t) + 2 * sizeof(glm::vec3) + m.uvSets.size() * sizeof(glm::vec2)),
        node, path);
    target.vertices.reserve(n);
    target.positions.reserve(n);
    target.normals.reserve(n);
    target.uvSets.resize(m.uvSets.size());
    Children c(node);
    for (std::size_t k = 0; !c.atEnd(); ++k) {
      const pugi::xml_node b = c.take();
      const xml::Path bpath = step(path, "BLENDVERTEX", k);
      if (!xml::namesEqual(b.name(), "BLENDVERTEX"))
        doc_.fail(b, step(path, b.name()),
                  "is out of place: only BLENDVERTEX elements belong in MORPH");
      const std::int64_t id = doc_.requiredInt(b, "VERTEXID", bpath);
      if (id < 0 || id >= static_cast<std::int64_t>(m.positions.size()) ||
          (!target.vertices.empty() && id <= static_cast<std::int64_t>(target.vertices.back())))
        doc_.fail(b, step(bpath, "VERTEXID"),
                  "is " + std::to_string(id) + "; ids must increase and name one of the " +
                      std::to_string(m.positions.size()) + " vertices");
      Children bc(b);
      const auto p = doc_.floats<3>(doc_.expect(bc, "POSITION", b, bpath), step(bpath, "POSITION"));
      const auto nn = doc_.floats<3>(doc_.expect(bc, "NORMAL", b, bpath), step(bpath, "NORMAL"));
      target.vertices.push_back(static_cast<std::uint32_t>(id));
      target.positions.emplace_back(p[0], p[1], p[2]);
      target.normals.emplace_back(nn[0], nn[1], nn[2]);
      std::size_t uvs = 0;
      for (; bc.nextIs("TEXCOORD"); ++uvs) {
        const pugi::xml_node t = bc.take();
        const auto uv = doc_.floats<2>(t, step(bpath, "TEXCOORD"));
        if (uvs < target.uvSets.size()) target.uvSets[uvs].emplace_back(uv[0], uv[1]);
      }
      if (uvs != target.uvSets.size())
        doc_.warnRepeated("blendUv", b, bpath,
                          "has " + std::to_string(uvs) + " TEXCOORD elements for the mesh's " +
                              std::to_string(target.uvSets.size()) +
                              " uv sets; missing ones keep the base vertex's");
      for (std::size_t k2 = uvs; k2 < target.uvSets.size(); ++k2)
        target.uvSets[k2].push_back(m.uvSets[k2][static_cast<std::size_t>(id)]);
      doc_.expectEnd(bc, bpath, "POSITION, NORMAL and TEXCOORD, in this order,");
    }
    s.mesh.morphs.push_back(std::move(target));
  }

  void readFace(Submesh& s, pugi::xml_node node, const xml::Path& path) {
    const std::size_t n = s.mesh.positions.size();
    std::int64_t ids[3] = {0, 0, 0};
    doc_.intList(node, "VERTEXID", path, ids);
    for (std::int64_t id : ids) {
      if (id < 0 || id >= static_cast<std::int64_t>(n))
        doc_.fail(node, step(path, "VERTEXID"),
                  "names vertex " + std::to_string(id) + ", past the " + std::to_string(n) +
                      " vertices of the submesh");
      s.mesh.indices.push_back(static_cast<std::uint32_t>(id));
    }
  }

  // Per-vertex data that is all or nothing in the model, once every vertex has been read.
  void finish(Submesh& s, pugi::xml_node node, const xml::Path& path, std::int64_t lod) {
    Mesh& m = s.mesh;
    const std::size_t n = m.positions.size();
    if (s.anyColor && std::find(s.hasColor.begin(), s.hasColor.end(), false) != s.hasColor.end())
      doc_.warnRepeated("color", node, path,
                        "has vertices without COLOR among ones with; white is used");
    if (lod < 0 || lod > static_cast<std::int64_t>(n)) {
      doc_.warnRepeated("lod", node, step(path, "NUMLODSTEPS"),
                        "is " + std::to_string(lod) + ", not between 0 and the " +
                            std::to_string(n) + " vertices; it is clamped");
      lod = std::clamp<std::int64_t>(lod, 0, static_cast<std::int64_t>(n));
    }
    // Level of detail is kept when it says anything: collapsible vertices or collapse data.
    if (lod > 0 || s.anyLod) {
      m.lod.collapsible = static_cast<std::uint32_t>(lod);
      m.lod.collapseTo = std::move(s.collapseTo);
      m.lod.faceCollapseCount = std::move(s.faceCollapseCount);
    }
    if (s.anyInfluence) {
      m.influenceStart = std::move(s.influenceStart);
      m.influences = std::move(s.influences);
    }
    if (!m.springs.empty() || s.anyPhysique) {
      if (!m.springs.empty() &&
          std::find(s.hasPhysique.begin(), s.hasPhysique.end(), false) != s.hasPhysique.end())
        doc_.warnRepeated("physique", node, path,
                          "has springs but vertices without PHYSIQUE; those are rigid (weight 0)");
    } else {
      m.physicalWeights.clear();
    }
  }

  const ReadContext& ctx_;
  const BoneMap& bones_;
  MeshPart part_;
  xml::Document doc_;
  std::uint64_t vertices_ = 0, triangles_ = 0;
};

}  // namespace

Result<MeshPart> readXmf(std::span<const std::byte> data, const ReadContext& ctx,
                         const BoneMap& bones) {
  return guarded<MeshPart>(ctx, [&] { return XmfReader(data, ctx, bones).read(); });
}

}  // namespace marrow::formats::cal3d
