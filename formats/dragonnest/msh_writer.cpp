// MSH writer (../shared/specs/dragonnest.md §3): the reader's layout, in any version 10–13.
#include "formats/dragonnest/dragonnest_internal.h"
#include "formats/dragonnest/msh.h"

namespace marrow::formats::dragonnest {

using detail::kBlock;
using detail::kName;

namespace {

std::string magicFor(std::int32_t version) {
  // The suffix is not the version (§3.1), but these are what the engine's versions wrote.
  return version >= 13   ? "Eternity Engine Mesh File 0.13"
         : version == 12 ? "Eternity Engine Mesh File 0.12"
                         : "Eternity Engine Mesh File 0.1";
}

void putMatrix(ByteWriter& w, const D3dMatrix& m) {
  for (float f : m) w.f32(f);
}

FormatError fail(std::string field, std::string message) {
  return FormatError{"", std::move(field), kNoOffset, std::move(message)};
}

std::optional<FormatError> checkSubmesh(const MshSubmesh& s, std::size_t i) {
  const std::string what = "submesh " + std::to_string(i);
  const std::size_t v = s.positions.size();
  if (v > 65535) return fail(what, "has more than 65535 vertices");
  if (s.normals.size() != v) return fail(what, "needs one normal per vertex");
  for (const auto& set : s.uvSets)
    if (set.size() != v) return fail(what, "needs one uv per vertex in every channel");
  if (s.hasColors && s.colors.size() != v) return fail(what, "needs one colour per vertex");
  if (s.skinned && (s.boneIndices.size() != v || s.weights.size() != v))
    return fail(what, "needs bone indices and weights for every vertex");
  for (std::uint16_t index : s.indices)
    if (index >= v) return fail(what, "has an index past its vertices");
  if (!s.strip && s.indices.size() % 3 != 0) return fail(what, "list is not whole triangles");
  return std::nullopt;
}

void writeSubmesh(ByteWriter& w, const MshSubmesh& s) {
  const std::size_t start = w.offset();
  w.fixedString(s.parent.empty() ? detail::kSceneRoot : s.parent, kName);
  w.fixedString(s.name, kName);
  w.i32(static_cast<std::int32_t>(s.positions.size()));
  w.i32(static_cast<std::int32_t>(s.indices.size()));
  w.i32(static_cast<std::int32_t>(s.uvSets.size()));
  w.u8(s.strip ? 1 : 0);
  w.u8(s.skinned ? 1 : 0);
  w.u8(s.hasColors ? 1 : 0);
  detail::padBlock(w, start);
  for (std::uint16_t i : s.indices) w.u16(i);
  for (const auto& p : s.positions) detail::putVec3(w, p);
  for (const auto& n : s.normals) detail::putVec3(w, n);
  for (const auto& set : s.uvSets)
    for (const auto& uv : set) {
      w.f32(uv.x);
      w.f32(uv.y);
    }
  if (s.hasColors)
    for (std::uint32_t c : s.colors) w.u32(c);
  if (!s.skinned) return;
  for (const auto& b : s.boneIndices)
    for (std::int16_t i : b) detail::i16(w, i);
  for (const auto& wt : s.weights)
    for (float f : wt) w.f32(f);
  w.i32(static_cast<std::int32_t>(s.palette.size()));
  for (const auto& name : s.palette) w.fixedString(name, kName);
}

void writeCollision(ByteWriter& w, const MshCollision& c, std::int32_t version) {
  w.i32(c.type);
  if (version > 10) {  // §3.4: the length counts the NUL; 0 means none
    if (c.parent.empty()) {
      w.i32(0);
    } else {
      w.i32(static_cast<std::int32_t>(c.parent.size() + 1));
      w.raw(std::as_bytes(std::span(c.parent.data(), c.parent.size())));
      w.u8(0);
    }
  }
  switch (c.type) {
    case MshCollision::Box:
      detail::putVec3(w, c.centre);
      for (const auto& a : c.axes) detail::putVec3(w, a);
      detail::putVec3(w, c.extent);
      break;
    case MshCollision::Sphere:
      detail::putVec3(w, c.centre);
      w.f32(c.radius);
      break;
    case MshCollision::Capsule:
      detail::putVec3(w, c.centre);
      detail::putVec3(w, c.segment);
      w.f32(c.radius);
      break;
    default:
      w.i32(static_cast<std::int32_t>(c.triangles.size()));
      for (const auto& t : c.triangles)
        for (const auto& p : t) detail::putVec3(w, p);
  }
}

void writeDummy(ByteWriter& w, const MshDummy& d, std::int32_t version) {
  if (version >= 13) {
    w.fixedString(d.name, kName);
    w.fixedString(d.parent.empty() ? detail::kSceneRoot : d.parent, kName);
    putMatrix(w, d.matrix);
    return;
  }
  // §3.5: a leading 'L' marks a parent; a parentless name that starts with 'L' gets the parent
  // "Scene Root" (none) so that its first letter survives.
  const bool marked = !d.parent.empty() || (!d.name.empty() && d.name[0] == 'L');
  w.fixedString(marked ? "L" + d.name : d.name, kName);
  w.f32(d.matrix[12]);
  w.f32(d.matrix[13]);
  w.f32(d.matrix[14]);
  if (marked) w.fixedString(d.parent.empty() ? detail::kSceneRoot : d.parent, kName);
}

}  // namespace

Result<std::vector<std::byte>> writeMsh(const Msh& msh) {
  if (msh.version < 10 || msh.version > 13)
    return fail("version", "is " + std::to_string(msh.version) + "; MSH versions are 10 to 13");
  for (std::size_t i = 0; i < msh.submeshes.size(); ++i)
    if (auto e = checkSubmesh(msh.submeshes[i], i)) return *e;
  for (std::size_t i = 0; i < msh.collisions.size(); ++i)
    if (msh.collisions[i].type < 0 || msh.collisions[i].type > 4)
      return fail("collision " + std::to_string(i), "has an unknown type");
  ByteWriter w;
  w.fixedString(msh.magic.empty() ? magicFor(msh.version) : msh.magic, kName);
  w.i32(msh.version);
  w.i32(static_cast<std::int32_t>(msh.submeshes.size()));
  w.i32(msh.lodCount);
  w.u8(msh.uvAnimation);
  w.zeros(3);
  detail::putVec3(w, msh.boundsMax);
  detail::putVec3(w, msh.boundsMin);
  w.i32(static_cast<std::int32_t>(msh.bones.size()));
  w.i32(static_cast<std::int32_t>(msh.collisions.size()));
  w.i32(static_cast<std::int32_t>(msh.dummies.size()));
  detail::padBlock(w, 0);
  for (const auto& b : msh.bones) {
    w.fixedString(b.name, kName);
    putMatrix(w, b.inverseBind);
  }
  for (const auto& s : msh.submeshes) writeSubmesh(w, s);
  for (const auto& c : msh.collisions) writeCollision(w, c, msh.version);
  for (const auto& d : msh.dummies) writeDummy(w, d, msh.version);
  return w.take();
}

}  // namespace marrow::formats::dragonnest
