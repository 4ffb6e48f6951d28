// ANI reader and writer (../shared/specs/dragonnest.md §5).
#include "formats/dragonnest/ani.h"

#include <cmath>

#include "formats/dragonnest/dragonnest_internal.h"

namespace marrow::formats::dragonnest {

using detail::kBlock;
using detail::kName;
using std::to_string;

namespace {

constexpr float kShortScale = 32767.0f;  // §5.2: component = int16 / 32767 [ENGINE]

std::string at(std::string_view what, std::size_t i, std::string_view field) {
  return std::string(what) + " " + to_string(i) + ": " + std::string(field);
}

class AniReader {
 public:
  AniReader(std::span<const std::byte> data, const ReadContext& ctx)
      : r_(data, ctx.name), limits_(ctx.limits) {}

  Ani read() {
    if (r_.size() < kBlock || !detail::startsWith(r_.data(), kAniMagic))
      r_.failAt(0, "magic", "is not \"Eternity Engine Ani File\" (or the 1024-byte header is cut)");
    a_.magic = r_.fixedString(kName, "magic");
    const std::uint64_t vAt = r_.offset();
    a_.version = r_.i32("version");
    if (a_.version < 10 || a_.version > 11)
      r_.failAt(vAt, "version", "is " + to_string(a_.version) + "; ANI versions are 10 and 11");
    r_.seek(260, "header");
    const std::uint64_t bAt = r_.offset();
    const std::int32_t bones = r_.i32("bone count");
    const std::uint64_t nAt = r_.offset();
    const std::int32_t anims = r_.i32("animation count");
    r_.seek(kBlock, "header");
    const std::uint64_t body = r_.remaining();
    if (anims < 0 || static_cast<std::uint64_t>(anims) > limits_.maxClips ||
        static_cast<std::uint64_t>(anims) > body / (kName + 4))
      r_.failAt(nAt, "animation count",
                "is " + to_string(anims) + " but the file holds at most " +
                    to_string(body / (kName + 4)));
    const auto na = static_cast<std::size_t>(anims);
    // A bone is its 1024-byte header and, per animation, 40 base bytes and three counts.
    const std::uint64_t perBone = kBlock + 52ull * na;
    if (bones < 0 || static_cast<std::uint64_t>(bones) > limits_.maxBones ||
        static_cast<std::uint64_t>(bones) > (body - 260ull * na) / perBone)
      r_.failAt(bAt, "bone count",
                "is " + to_string(bones) + " but bones of " + to_string(perBone) +
                    " bytes or more do not fit in the file");
    for (std::size_t i = 0; i < na; ++i)
      a_.names.push_back(r_.fixedString(kName, "animation name"));
    for (std::size_t i = 0; i < na; ++i) {
      const std::uint64_t lAt = r_.offset();
      a_.lengths.push_back(r_.i32("animation length"));
      if (a_.lengths.back() < 0)
        r_.failAt(lAt, at("animation", i, "length"),
                  "is " + to_string(a_.lengths.back()) + ", negative");
    }
    for (std::size_t b = 0; b < static_cast<std::size_t>(bones); ++b) readBone(b, na);
    if (!r_.atEnd())
      r_.fail("end of file", to_string(r_.remaining()) + " bytes follow the last bone");
    return std::move(a_);
  }

 private:
  void readBone(std::size_t b, std::size_t animations) {
    const std::size_t start = r_.offset();
    r_.require(kBlock, at("bone", b, "header"));
    AniBone bone;
    bone.name = r_.fixedString(kName, at("bone", b, "name"));
    bone.parent = r_.fixedString(kName, at("bone", b, "parent"));
    r_.seek(start + kBlock, at("bone", b, "header"));
    const bool v11 = a_.version >= 11;
    for (std::size_t a = 0; a < animations; ++a) {
      const std::string f = "bone '" + bone.name + "' animation " + to_string(a);
      AniTrack t;
      t.basePosition = detail::vec3(r_, f + ": base position");
      t.baseRotation = detail::quatXyzw(r_, f + ": base rotation");
      t.baseScale = detail::vec3(r_, f + ": base scale");
      const std::uint32_t np = keyCount(f + ": position key count", v11 ? 14 : 16);
      t.positions.resize(np);
      for (auto& k : t.positions) {
        k.frame = frame(v11, f + ": position key frame");
        k.value = detail::vec3(r_, f + ": position key");
      }
      const std::uint32_t nr = keyCount(f + ": rotation key count", v11 ? 10 : 20);
      t.rotations.resize(nr);
      for (auto& k : t.rotations) {
        k.frame = frame(v11, f + ": rotation key frame");
        if (v11) {
          float c[4];
          for (float& x : c)
            x = static_cast<float>(detail::i16(r_, f + ": rotation key")) / kShortScale;
          k.value = glm::quat(c[3], c[0], c[1], c[2]);
        } else {
          k.value = detail::quatXyzw(r_, f + ": rotation key");
        }
      }
      const std::uint32_t ns = keyCount(f + ": scale key count", v11 ? 14 : 16);
      t.scales.resize(ns);
      for (auto& k : t.scales) {
        k.frame = frame(v11, f + ": scale key frame");
        k.value = detail::vec3(r_, f + ": scale key");
      }
      bone.tracks.push_back(std::move(t));
    }
    a_.bones.push_back(std::move(bone));
  }

  std::uint32_t keyCount(const std::string& field, std::uint64_t keyBytes) {
    const std::uint32_t n = detail::count(r_, field, limits_.maxKeys, keyBytes);
    keys_ += n;
    if (keys_ > limits_.maxKeys) r_.fail(field, "brings the keys over the limit");
    return n;
  }

  std::int32_t frame(bool v11, const std::string& field) {
    return v11 ? detail::i16(r_, field) : r_.i32(field);
  }

  ByteReader r_;
  const Limits& limits_;
  Ani a_;
  std::uint64_t keys_ = 0;
};

std::int16_t quantise(float c) {
  return static_cast<std::int16_t>(std::lround(std::clamp(c, -1.0f, 1.0f) * kShortScale));
}

}  // namespace

bool isAniList(std::span<const std::byte> data) {
  return data.size() < kBlock || !detail::startsWith(data, kAniMagic);
}

std::vector<std::string> aniListNames(std::span<const std::byte> data) {
  std::vector<std::string> names;
  std::string line;
  auto flush = [&] {
    const auto b = line.find_first_not_of(" \t");
    const auto e = line.find_last_not_of(" \t");
    if (b != std::string::npos) names.push_back(line.substr(b, e - b + 1));
    line.clear();
  };
  for (std::byte c : data) {
    const char ch = static_cast<char>(c);
    if (ch == '\r' || ch == '\n' || ch == '\0')
      flush();
    else
      line += ch;
  }
  flush();
  return names;
}

Result<Ani> parseAni(std::span<const std::byte> data, const ReadContext& ctx) {
  return detail::guarded<Ani>(ctx, [&] { return AniReader(data, ctx).read(); });
}

Result<std::vector<std::byte>> writeAni(const Ani& ani) {
  auto fail = [](std::string field, std::string message) {
    return FormatError{"", std::move(field), kNoOffset, std::move(message)};
  };
  if (ani.version != 10 && ani.version != 11)
    return fail("version", "is " + to_string(ani.version) + "; ANI versions are 10 and 11");
  if (ani.lengths.size() != ani.names.size())
    return fail("animation lengths", "need one per animation name");
  const bool v11 = ani.version == 11;
  for (const auto& b : ani.bones) {
    if (b.tracks.size() != ani.names.size())
      return fail("bone '" + b.name + "'", "needs one track per animation");
    for (const auto& t : b.tracks) {
      auto fits = [&](const auto& keys) {
        for (const auto& k : keys)
          if (v11 ? (k.frame < -32768 || k.frame > 32767) : false) return false;
        return true;
      };
      if (!fits(t.positions) || !fits(t.rotations) || !fits(t.scales))
        return fail("bone '" + b.name + "'", "has a key frame outside int16, which v11 stores");
    }
  }
  ByteWriter w;
  w.fixedString(ani.magic.empty() ? "Eternity Engine Ani File 0.1" : ani.magic, kName);
  w.i32(ani.version);
  w.i32(static_cast<std::int32_t>(ani.bones.size()));
  w.i32(static_cast<std::int32_t>(ani.names.size()));
  detail::padBlock(w, 0);
  for (const auto& n : ani.names) w.fixedString(n, kName);
  for (std::int32_t l : ani.lengths) w.i32(l);
  auto putFrame = [&](std::int32_t f) {
    if (v11)
      detail::i16(w, static_cast<std::int16_t>(f));
    else
      w.i32(f);
  };
  for (const auto& b : ani.bones) {
    const std::size_t start = w.offset();
    w.fixedString(b.name, kName);
    w.fixedString(b.parent.empty() ? detail::kSceneRoot : b.parent, kName);
    detail::padBlock(w, start);
    for (const auto& t : b.tracks) {
      detail::putVec3(w, t.basePosition);
      detail::putQuatXyzw(w, t.baseRotation);  // floats in both versions (§5.2)
      detail::putVec3(w, t.baseScale);
      w.i32(static_cast<std::int32_t>(t.positions.size()));
      for (const auto& k : t.positions) {
        putFrame(k.frame);
        detail::putVec3(w, k.value);
      }
      w.i32(static_cast<std::int32_t>(t.rotations.size()));
      for (const auto& k : t.rotations) {
        putFrame(k.frame);
        if (v11) {
          for (float c : {k.value.x, k.value.y, k.value.z, k.value.w}) detail::i16(w, quantise(c));
        } else {
          detail::putQuatXyzw(w, k.value);
        }
      }
      w.i32(static_cast<std::int32_t>(t.scales.size()));
      for (const auto& k : t.scales) {
        putFrame(k.frame);
        detail::putVec3(w, k.value);
      }
    }
  }
  return w.take();
}

}  // namespace marrow::formats::dragonnest
