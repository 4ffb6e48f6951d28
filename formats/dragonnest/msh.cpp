// MSH reader (../shared/specs/dragonnest.md §3): fixed 1024-byte headers, then tightly packed
// streams. Every count is checked against the bytes left before anything is allocated.
#include "formats/dragonnest/msh.h"

#include "formats/dragonnest/dragonnest_internal.h"

namespace marrow::formats::dragonnest {

using detail::count;
using detail::kBlock;
using detail::kName;
using std::to_string;

D3dMatrix identityMatrix() {
  D3dMatrix m{};
  m[0] = m[5] = m[10] = m[15] = 1.0f;
  return m;
}

// D3D's row-major row-vector matrix is, float for float, glm's column-major column-vector one.
glm::mat4 toGlm(const D3dMatrix& m) {
  glm::mat4 out;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) out[c][r] = m[static_cast<std::size_t>(4 * c + r)];
  return out;
}

D3dMatrix fromGlm(const glm::mat4& m) {
  D3dMatrix out;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) out[static_cast<std::size_t>(4 * c + r)] = m[c][r];
  return out;
}

std::vector<std::uint32_t> triangleList(const MshSubmesh& s) {
  std::vector<std::uint32_t> out;
  if (!s.strip) {
    const std::size_t n = s.indices.size() / 3 * 3;
    out.assign(s.indices.begin(), s.indices.begin() + static_cast<long>(n));
    return out;
  }
  for (std::size_t k = 0; k + 2 < s.indices.size(); ++k) {
    // Parity over all positions, degenerate ones included (§3.3).
    std::uint32_t a = s.indices[k], b = s.indices[k + 1];
    const std::uint32_t c = s.indices[k + 2];
    if (k % 2 == 1) std::swap(a, b);
    if (a == b || b == c || a == c) continue;
    out.insert(out.end(), {a, b, c});
  }
  return out;
}

namespace {

std::string at(std::string_view what, std::size_t i, std::string_view field) {
  return std::string(what) + " " + to_string(i) + ": " + std::string(field);
}

class MshReader {
 public:
  MshReader(std::span<const std::byte> data, const ReadContext& ctx)
      : r_(data, ctx.name), limits_(ctx.limits) {}

  Msh read() {
    readHeader();
    for (std::size_t i = 0; i < bones_; ++i) {
      MshBone b;
      b.name = r_.fixedString(kName, at("bone", i, "name"));
      b.inverseBind = matrix(at("bone", i, "matrix"));
      m_.bones.push_back(std::move(b));
    }
    for (std::size_t i = 0; i < submeshes_; ++i) m_.submeshes.push_back(readSubmesh(i));
    for (std::size_t i = 0; i < collisions_; ++i) m_.collisions.push_back(readCollision(i));
    for (std::size_t i = 0; i < dummies_; ++i) m_.dummies.push_back(readDummy(i));
    if (!r_.atEnd())
      r_.fail("end of file", to_string(r_.remaining()) + " bytes follow the last dummy");
    return std::move(m_);
  }

 private:
  void readHeader() {
    if (r_.size() < kBlock || !detail::startsWith(r_.data(), kMeshMagic))
      r_.failAt(0, "magic",
                "is not \"Eternity Engine Mesh File\" (or the 1024-byte header is cut)");
    m_.magic = r_.fixedString(kName, "magic");
    const std::uint64_t vAt = r_.offset();
    m_.version = r_.i32("version");
    if (m_.version < 10 || m_.version > 13)
      r_.failAt(vAt, "version", "is " + to_string(m_.version) + "; MSH versions are 10 to 13");
    const std::uint64_t body = r_.size() - kBlock;
    submeshes_ = countIn(body, "submesh count", limits_.maxMeshes, kBlock);
    m_.lodCount = r_.i32("LOD count");
    m_.uvAnimation = r_.u8("UV animation flag");
    r_.skip(3, "padding");
    m_.boundsMax = detail::vec3(r_, "bounding box max");
    m_.boundsMin = detail::vec3(r_, "bounding box min");
    bones_ = countIn(body, "bone count", limits_.maxBones, kName + 64);
    collisions_ = countIn(body, "collision count", limits_.maxMeshes, 4 + 16);
    dummies_ = countIn(body, "dummy count", limits_.maxMeshes, kName + 12);
    r_.seek(kBlock, "header");
  }

  // A header count: checked against the bytes after the header (the cursor is still in it).
  std::uint32_t countIn(std::uint64_t body, std::string_view field, std::uint64_t max,
                        std::uint64_t minBytesEach) {
    const std::uint64_t here = r_.offset();
    const std::int32_t n = r_.i32(field);
    if (n < 0) r_.failAt(here, field, "is " + to_string(n) + ", a negative count");
    if (static_cast<std::uint64_t>(n) > max || static_cast<std::uint64_t>(n) > body / minBytesEach)
      r_.failAt(here, field,
                "is " + to_string(n) + " but the " + to_string(body) +
                    " bytes after the header hold at most " + to_string(body / minBytesEach));
    return static_cast<std::uint32_t>(n);
  }

  D3dMatrix matrix(std::string_view field) {
    D3dMatrix m;
    for (float& f : m) f = r_.finiteF32(field);
    return m;
  }

  MshSubmesh readSubmesh(std::size_t i) {
    const std::size_t start = r_.offset();
    r_.require(kBlock, at("submesh", i, "header"));
    MshSubmesh s;
    s.parent = r_.fixedString(kName, at("submesh", i, "parent name"));
    s.name = r_.fixedString(kName, at("submesh", i, "name"));
    const std::uint64_t vAt = r_.offset();
    const std::int32_t v = r_.i32(at("submesh", i, "vertex count"));
    const std::uint64_t iAt = r_.offset();
    const std::int32_t n = r_.i32(at("submesh", i, "index count"));
    const std::uint64_t cAt = r_.offset();
    const std::int32_t c = r_.i32(at("submesh", i, "UV channel count"));
    s.strip = r_.u8(at("submesh", i, "strip flag")) != 0;
    s.skinned = r_.u8(at("submesh", i, "skinned flag")) != 0;
    s.hasColors = r_.u8(at("submesh", i, "vertex colour flag")) != 0;
    r_.seek(start + kBlock, at("submesh", i, "header"));
    if (v < 0 || v > 65535)
      r_.failAt(vAt, at("submesh", i, "vertex count"), "is " + to_string(v) + ", not 0–65535");
    if (n < 0) r_.failAt(iAt, at("submesh", i, "index count"), "is " + to_string(n) + ", negative");
    if (c < 0 || c > 8)
      r_.failAt(cAt, at("submesh", i, "UV channel count"), "is " + to_string(c) + ", not 0–8");
    const auto nv = static_cast<std::size_t>(v), ni = static_cast<std::size_t>(n);
    const std::uint64_t perVertex =
        24 + 8ull * static_cast<std::uint64_t>(c) + (s.hasColors ? 4 : 0) + (s.skinned ? 24 : 0);
    // Both streams must fit before either is allocated.
    if (2 * static_cast<std::uint64_t>(ni) + perVertex * nv > r_.remaining())
      r_.failAt(iAt, at("submesh", i, "index count"),
                to_string(ni) + " indices and " + to_string(nv) + " vertices of " +
                    to_string(perVertex) + " bytes do not fit in the " + to_string(r_.remaining()) +
                    " bytes left");
    if (ni / 3 > limits_.maxTriangles)
      r_.failAt(iAt, at("submesh", i, "index count"), "is over the triangle limit");
    s.indices.resize(ni);
    for (std::size_t k = 0; k < ni; ++k) {
      const std::uint64_t here = r_.offset();
      s.indices[k] = r_.u16(at("submesh", i, "index"));
      if (s.indices[k] >= nv)
        r_.failAt(here, at("submesh", i, "index " + to_string(k)),
                  "is " + to_string(s.indices[k]) + ", past the " + to_string(nv) + " vertices");
    }
    if (!s.strip && ni % 3 != 0)
      r_.failAt(iAt, at("submesh", i, "index count"),
                "is " + to_string(ni) + ", not a whole number of list triangles");
    s.positions.resize(nv);
    for (auto& p : s.positions) p = detail::vec3(r_, at("submesh", i, "position"));
    s.normals.resize(nv);
    for (auto& p : s.normals) p = detail::vec3(r_, at("submesh", i, "normal"));
    s.uvSets.resize(static_cast<std::size_t>(c));
    for (auto& set : s.uvSets) {
      set.resize(nv);
      for (auto& uv : set) {
        uv.x = r_.finiteF32(at("submesh", i, "uv"));
        uv.y = r_.finiteF32(at("submesh", i, "uv"));
      }
    }
    if (s.hasColors) {
      s.colors.resize(nv);
      for (auto& col : s.colors) col = r_.u32(at("submesh", i, "vertex colour"));
    }
    if (s.skinned) readSkin(s, i, nv);
    return s;
  }

  void readSkin(MshSubmesh& s, std::size_t i, std::size_t nv) {
    s.boneIndices.resize(nv);
    std::vector<std::uint64_t> indexAt(nv);
    for (std::size_t v = 0; v < nv; ++v) {
      indexAt[v] = r_.offset();
      for (auto& b : s.boneIndices[v]) b = detail::i16(r_, at("submesh", i, "bone index"));
    }
    s.weights.resize(nv);
    for (auto& w : s.weights)
      for (float& f : w) f = r_.finiteF32(at("submesh", i, "weight"));
    const std::uint32_t p = count(r_, at("submesh", i, "palette size"), limits_.maxBones, kName);
    s.palette.reserve(p);
    for (std::uint32_t k = 0; k < p; ++k)
      s.palette.push_back(r_.fixedString(kName, at("submesh", i, "palette name")));
    // A slot with weight names a palette entry; unused slots hold 0 with weight 0 (§3.3).
    for (std::size_t v = 0; v < nv; ++v)
      for (std::size_t k = 0; k < 4; ++k)
        if (s.weights[v][k] != 0.0f &&
            (s.boneIndices[v][k] < 0 || static_cast<std::uint32_t>(s.boneIndices[v][k]) >= p))
          r_.failAt(indexAt[v] + 2 * k, at("submesh", i, "bone index of vertex " + to_string(v)),
                    "is " + to_string(s.boneIndices[v][k]) + ", outside the palette of " +
                        to_string(p) + " bones");
  }

  std::string parentName(std::string_view field) {
    const std::uint32_t n = count(r_, field, limits_.maxStringLength, 1);
    auto b = r_.bytes(n, field);
    const char* p = reinterpret_cast<const char*>(b.data());
    std::string s(p, strnlen(p, n));  // the length counts the NUL (§3.4)
    return s == detail::kSceneRoot ? std::string() : s;
  }

  MshCollision readCollision(std::size_t i) {
    MshCollision c;
    const std::uint64_t tAt = r_.offset();
    c.type = r_.i32(at("collision", i, "type"));
    if (m_.version > 10) c.parent = parentName(at("collision", i, "parent name"));
    const std::string f = at("collision", i, "shape");
    switch (c.type) {
      case MshCollision::Box:
        c.centre = detail::vec3(r_, f);
        for (auto& a : c.axes) a = detail::vec3(r_, f);
        c.extent = detail::vec3(r_, f);
        break;
      case MshCollision::Sphere:
        c.centre = detail::vec3(r_, f);
        c.radius = r_.finiteF32(f);
        break;
      case MshCollision::Capsule:
        c.centre = detail::vec3(r_, f);
        c.segment = detail::vec3(r_, f);
        c.radius = r_.finiteF32(f);
        break;
      case MshCollision::Triangles:
      case MshCollision::TriangleList: {
        const std::uint32_t n =
            count(r_, at("collision", i, "triangle count"), limits_.maxTriangles, 36);
        c.triangles.resize(n);
        for (auto& t : c.triangles)
          for (auto& p : t) p = detail::vec3(r_, f);
        break;
      }
      default:
        r_.failAt(tAt, at("collision", i, "type"),
                  "is " + to_string(c.type) + "; known types are 0 (box) to 4 (triangles)");
    }
    return c;
  }

  MshDummy readDummy(std::size_t i) {
    MshDummy d;
    d.name = r_.fixedString(kName, at("dummy", i, "name"));
    if (m_.version >= 13) {
      d.parent = r_.fixedString(kName, at("dummy", i, "parent name"));
      d.matrix = matrix(at("dummy", i, "matrix"));
    } else {
      const glm::vec3 p = detail::vec3(r_, at("dummy", i, "position"));
      d.matrix[12] = p.x;
      d.matrix[13] = p.y;
      d.matrix[14] = p.z;
      if (!d.name.empty() && d.name[0] == 'L') {  // §3.5: 'L' marks a dummy with a parent
        d.name.erase(0, 1);
        d.parent = r_.fixedString(kName, at("dummy", i, "parent name"));
      }
    }
    if (d.parent == detail::kSceneRoot) d.parent.clear();
    return d;
  }

  ByteReader r_;
  const Limits& limits_;
  Msh m_;
  std::uint32_t submeshes_ = 0, bones_ = 0, collisions_ = 0, dummies_ = 0;
};

}  // namespace

Result<Msh> parseMsh(std::span<const std::byte> data, const ReadContext& ctx) {
  return detail::guarded<Msh>(ctx, [&] { return MshReader(data, ctx).read(); });
}

}  // namespace marrow::formats::dragonnest
