// SKN reader and writer (../shared/specs/dragonnest.md §4).
#include "formats/dragonnest/skn.h"

#include <array>

#include "formats/dragonnest/dragonnest_internal.h"

namespace marrow::formats::dragonnest {

using detail::kBlock;
using detail::kName;
using std::to_string;

namespace {

// §4.4: for each fragment order, the logical fragment stored 1st, 2nd, … 5th. [TOOLS S5, S8]
constexpr std::array<std::array<int, 5>, 5> kStoredOrder = {{
    {2, 3, 0, 4, 1},
    {1, 0, 4, 2, 3},
    {4, 3, 0, 1, 2},
    {3, 2, 1, 4, 0},
    {3, 2, 4, 0, 1},
}};

// Logical fragment sizes: four of (size / 5) rounded down to even, the rest last.
std::array<std::size_t, 5> fragmentSizes(std::size_t size) {
  const std::size_t f = size / 5 / 2 * 2;
  return {f, f, f, f, size - 4 * f};
}

std::array<std::size_t, 5> logicalStarts(const std::array<std::size_t, 5>& sizes) {
  std::array<std::size_t, 5> starts{};
  for (std::size_t k = 1; k < 5; ++k) starts[k] = starts[k - 1] + sizes[k - 1];
  return starts;
}

std::string at(std::string_view what, std::size_t i, std::string_view field) {
  return std::string(what) + " " + to_string(i) + ": " + std::string(field);
}

// int32 length (the NUL included) and the bytes (§4.2).
std::string lengthString(ByteReader& r, std::string_view field, const Limits& limits) {
  const std::uint32_t n = detail::count(r, field, limits.maxStringLength, 1);
  auto b = r.bytes(n, field);
  const char* p = reinterpret_cast<const char*>(b.data());
  return std::string(p, strnlen(p, n));
}

void putLengthString(ByteWriter& w, const std::string& s) {
  w.i32(static_cast<std::int32_t>(s.size() + 1));
  w.raw(std::as_bytes(std::span(s.data(), s.size())));
  w.u8(0);
}

SknMaterial readMaterial(ByteReader& r, std::size_t i, const Limits& limits) {
  const std::size_t start = r.offset();
  r.require(kBlock, at("material", i, "header"));
  SknMaterial m;
  m.name = r.fixedString(kName, at("material", i, "name"));
  m.effect = r.fixedString(kName, at("material", i, "effect"));
  m.alpha = r.finiteF32(at("material", i, "alpha"));
  m.alphaBlend = r.u8(at("material", i, "alpha blend"));
  r.seek(start + kBlock, at("material", i, "header"));
  // Each parameter is at least a name length, a type and a 4-byte value.
  const std::uint32_t n = detail::count(r, at("material", i, "parameter count"), 1u << 16, 12);
  for (std::uint32_t k = 0; k < n; ++k) {
    SknParameter p;
    p.name = lengthString(r, at("material", i, "parameter name"), limits);
    const std::uint64_t tAt = r.offset();
    p.type = r.i32(at("material", i, "parameter type"));
    const std::string value = at("material", i, "parameter '" + p.name + "' value");
    switch (p.type) {
      case SknParameter::Int: p.intValue = r.i32(value); break;
      case SknParameter::Float: p.floatValue = r.finiteF32(value); break;
      case SknParameter::Vector:
        p.vector.x = r.finiteF32(value);
        p.vector.y = r.finiteF32(value);
        p.vector.z = r.finiteF32(value);
        p.vector.w = r.finiteF32(value);
        break;
      case SknParameter::Texture: p.texture = lengthString(r, value, limits); break;
      default:
        // Types 4–9 are in the engine's enum but never in files; S5/S8 read them as no value.
        if (p.type < 0 || p.type > 9)
          r.failAt(tAt, at("material", i, "parameter type"),
                   "is " + to_string(p.type) + "; parameter types are 0 to 9");
    }
    m.parameters.push_back(std::move(p));
  }
  return m;
}

Skn readSkn(std::span<const std::byte> data, const ReadContext& ctx,
            std::vector<std::byte>& plain) {
  ByteReader r(data, ctx.name);
  if (data.size() < kBlock || !detail::startsWith(data, kSkinMagic))
    r.failAt(0, "magic", "is not \"Eternity Engine Skin File\" (or the 1024-byte header is cut)");
  Skn s;
  s.magic = r.fixedString(kName, "magic");
  s.mesh = r.fixedString(kName, "mesh file name");
  const std::uint64_t vAt = r.offset();
  s.version = r.i32("version");
  if (s.version != 10 && s.version != 11)
    r.failAt(vAt, "version", "is " + to_string(s.version) + "; SKN versions are 10 and 11");
  const std::uint64_t mAt = r.offset();
  const std::int32_t materials = r.i32("material count");
  const std::uint64_t sAt = r.offset();
  const std::int32_t bodySize = r.i32("body size");
  const std::uint64_t oAt = r.offset();
  s.fragmentOrder = r.i32("fragment order");
  if (materials < 0 ||
      static_cast<std::uint64_t>(materials) > (data.size() - kBlock) / (kBlock + 4))
    r.failAt(mAt, "material count",
             "is " + to_string(materials) + " but the file holds at most " +
                 to_string((data.size() - kBlock) / (kBlock + 4)) + " materials");
  std::span<const std::byte> body = data.subspan(kBlock);
  if (s.version == 11) {  // §4.4 [TOOLS, not verified on real files]
    if (bodySize < 0 || static_cast<std::size_t>(bodySize) > body.size())
      r.failAt(sAt, "body size",
               "is " + to_string(bodySize) + " but " + to_string(body.size()) +
                   " bytes follow the header");
    if (s.fragmentOrder < 0 || s.fragmentOrder > 4)
      r.failAt(oAt, "fragment order", "is " + to_string(s.fragmentOrder) + ", not 0–4");
    plain = unscrambleSknBody(body.first(static_cast<std::size_t>(bodySize)), s.fragmentOrder);
    body = plain;
  } else {
    s.fragmentOrder = 0;
  }
  // Offsets inside a v11 body are those of the unscrambled body, past the 1024-byte header.
  ByteReader b(body, s.version == 11 ? ctx.name + " (unscrambled body)" : ctx.name);
  for (std::int32_t i = 0; i < materials; ++i)
    s.materials.push_back(readMaterial(b, static_cast<std::size_t>(i), ctx.limits));
  if (!b.atEnd())
    b.fail("end of file", to_string(b.remaining()) + " bytes follow the last material");
  return s;
}

}  // namespace

std::vector<std::byte> unscrambleSknBody(std::span<const std::byte> stored, int order) {
  if (order < 0 || order > 4) return {};
  const auto sizes = fragmentSizes(stored.size());
  const auto starts = logicalStarts(sizes);
  std::vector<std::byte> out(stored.size());
  std::size_t from = 0;
  for (int logical : kStoredOrder[static_cast<std::size_t>(order)]) {
    const auto k = static_cast<std::size_t>(logical);
    std::copy_n(stored.begin() + static_cast<long>(from), sizes[k],
                out.begin() + static_cast<long>(starts[k]));
    from += sizes[k];
  }
  return out;
}

std::vector<std::byte> scrambleSknBody(std::span<const std::byte> logical, int order) {
  if (order < 0 || order > 4) return {};
  const auto sizes = fragmentSizes(logical.size());
  const auto starts = logicalStarts(sizes);
  std::vector<std::byte> out;
  out.reserve(logical.size());
  for (int k : kStoredOrder[static_cast<std::size_t>(order)]) {
    const auto f =
        logical.subspan(starts[static_cast<std::size_t>(k)], sizes[static_cast<std::size_t>(k)]);
    out.insert(out.end(), f.begin(), f.end());
  }
  return out;
}

Result<Skn> parseSkn(std::span<const std::byte> data, const ReadContext& ctx) {
  return detail::guarded<Skn>(ctx, [&] {
    std::vector<std::byte> plain;
    return readSkn(data, ctx, plain);
  });
}

Result<std::vector<std::byte>> writeSkn(const Skn& skn) {
  if (skn.version != 10 && skn.version != 11)
    return FormatError{"", "version", kNoOffset,
                       "is " + to_string(skn.version) + "; SKN versions are 10 and 11"};
  if (skn.version == 11 && (skn.fragmentOrder < 0 || skn.fragmentOrder > 4))
    return FormatError{"", "fragment order", kNoOffset, "must be 0–4"};
  ByteWriter body;
  for (const auto& m : skn.materials) {
    const std::size_t start = body.offset();
    body.fixedString(m.name, kName);
    body.fixedString(m.effect, kName);
    body.f32(m.alpha);
    body.u8(m.alphaBlend);
    detail::padBlock(body, start);
    body.i32(static_cast<std::int32_t>(m.parameters.size()));
    for (const auto& p : m.parameters) {
      putLengthString(body, p.name);
      body.i32(p.type);
      switch (p.type) {
        case SknParameter::Int: body.i32(p.intValue); break;
        case SknParameter::Float: body.f32(p.floatValue); break;
        case SknParameter::Vector:
          for (int c = 0; c < 4; ++c) body.f32(p.vector[c]);
          break;
        case SknParameter::Texture: putLengthString(body, p.texture); break;
        default: break;
      }
    }
  }
  ByteWriter w;
  w.fixedString(skn.magic.empty() ? "Eternity Engine Skin File 0.1" : skn.magic, kName);
  w.fixedString(skn.mesh, kName);
  w.i32(skn.version);
  w.i32(static_cast<std::int32_t>(skn.materials.size()));
  if (skn.version == 11) {
    w.i32(static_cast<std::int32_t>(body.offset()));
    w.i32(skn.fragmentOrder);
  }
  detail::padBlock(w, 0);
  w.raw(skn.version == 11 ? scrambleSknBody(body.bytes(), skn.fragmentOrder) : body.take());
  return w.take();
}

}  // namespace marrow::formats::dragonnest
