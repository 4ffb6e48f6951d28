// The bone-space pair a writer stores for an inverse bind matrix (common.h boneSpaceFor).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>

#include <glm/gtc/quaternion.hpp>

#include "formats/cal3d/common.h"

namespace marrow::formats::cal3d {
namespace {

// ---- bone space that survives a round trip ----
// The reader turns a stored bone-space rotation into a float matrix (inverseBindFromFile), which
// loses bits: reading back a file and writing it again must still give the same bytes. So the
// rotation written for a matrix M is, where one can be found, a stored value that the reader
// turns into M exactly ("exact" below, a function of M alone): reading it back gives M, and
// writing that again finds the same value.
//
// Finding one costs about a thousand reader matrices (0.2 ms) for a matrix the reader did not
// make, and a few times that in rare cases, for every bone on every write. It is bounded:
// - at most kMaxEvaluations reader matrices per bone (about 1 ms; 99 % of bones of a random
//   skeleton need fewer);
// - skeletons of more than kMaxSearchedBones bones are not searched at all.
// Past those bounds the nearest value is written. Reading that back stores it as the file's own
// (Skeleton::inverseBindParts), so a re-written file still keeps its bytes; only a scene that
// loses those parts on the way (another format in between) may then differ in the last bits.
constexpr std::size_t kMaxEvaluations = 4096;
constexpr std::size_t kMaxSearchedBones = 256;

// The reader's matrices a search may still ask for.
class Budget {
 public:
  explicit Budget(std::size_t evaluations) : left_(evaluations) {}
  // The reader's matrix for `b`; nothing once the budget is spent.
  std::optional<glm::mat4> matrix(const BoneSpace& b) {
    if (left_ == 0) return std::nullopt;
    --left_;
    return inverseBindFromFile(b.translation, b.rotation);
  }
  bool spent() const { return left_ == 0; }

 private:
  std::size_t left_;
};

float stepUlps(float x, int k) {
  for (; k > 0; --k) x = std::nextafter(x, 2.0f);
  for (; k < 0; ++k) x = std::nextafter(x, -2.0f);
  return x;
}

// The rotation of M in double precision, as the file stores it.
BoneSpace nearestBoneSpace(const glm::mat4& m) {
  BoneSpace b;
  b.translation = glm::vec3(m[3]);
  glm::dmat3 r{glm::mat3(m)};
  for (int c = 0; c < 3; ++c) {
    const double len = glm::length(r[c]);
    if (len > 0.0) r[c] /= len;
  }
  const glm::dquat q = glm::normalize(glm::quat_cast(r));
  b.rotation = {static_cast<float>(-q.x), static_cast<float>(-q.y), static_cast<float>(-q.z),
                static_cast<float>(q.w)};
  return b;
}

// How far (in units in the last place, summed over the rotation entries) the reader's matrix `g`
// is from `m`.
double ulpDistance(const glm::mat4& g, const glm::mat4& m) {
  double d = 0.0;
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k) {
      const float want = m[c][k];
      if (g[c][k] == want) continue;
      const double ulp =
          std::abs(static_cast<double>(std::nextafter(want, 2.0f * want + 1.0f)) - want);
      d += std::abs(static_cast<double>(g[c][k]) - want) / std::max(ulp, 1e-45);
    }
  return d;
}

// Each of the 625 stored values within two units in the last place of `start`, nearest first,
// until `fn` returns true (then true) or the budget is spent.
template <class Fn>
bool forNeighbours(const BoneSpace& start, const Budget& budget, Fn&& fn) {
  static constexpr int kOrder[] = {0, -1, 1, -2, 2};
  for (int n = 0; n < 625 && !budget.spent(); ++n) {
    BoneSpace c = start;
    int code = n;
    for (std::size_t i = 0; i < 4; ++i, code /= 5)
      c.rotation[i] = stepUlps(start.rotation[i], kOrder[code % 5]);
    if (fn(c)) return true;
  }
  return false;
}

std::optional<BoneSpace> exactBoneSpace(const glm::mat4& m, Budget& budget) {
  const BoneSpace start = nearestBoneSpace(m);
  std::optional<BoneSpace> found;
  if (forNeighbours(start, budget, [&](const BoneSpace& c) {
        const auto g = budget.matrix(c);
        if (!g || *g != m) return false;
        found = c;
        return true;
      }))
    return found;
  // Small components are pinned by the matrix far less finely than their own precision: walk
  // towards M in steps of growing size.
  BoneSpace c = start;
  const auto first = budget.matrix(c);
  if (!first) return std::nullopt;
  double d = ulpDistance(*first, m);
  for (int round = 0; round < 200 && d > 0.0; ++round) {
    BoneSpace best = c;
    double bestD = d;
    for (std::size_t i = 0; i < 4; ++i)
      for (int sign : {1, -1})
        for (int k = 1; k <= 1024; k *= 4) {
          BoneSpace t = c;
          t.rotation[i] = stepUlps(c.rotation[i], sign * k);
          const auto g = budget.matrix(t);
          if (!g) return std::nullopt;
          const double td = ulpDistance(*g, m);
          if (td < bestD) {
            bestD = td;
            best = t;
          }
        }
    if (bestD >= d) break;
    c = best;
    d = bestD;
  }
  if (d == 0.0) return c;
  return std::nullopt;
}

// A matrix the reader made is matched exactly. Any other is first moved to a nearby one the
// reader makes and can be matched (in the rare case none is found within the budget, the nearest
// value is written and a second write may differ in the last bits).
BoneSpace stableBoneSpace(const glm::mat4& inverseBind, std::size_t evaluations) {
  Budget budget(evaluations);
  if (auto exact = exactBoneSpace(inverseBind, budget)) return *exact;
  const BoneSpace start = nearestBoneSpace(inverseBind);
  std::optional<BoneSpace> found;
  if (forNeighbours(start, budget, [&](const BoneSpace& c) {
        const auto g = budget.matrix(c);
        if (g) found = exactBoneSpace(*g, budget);
        return found.has_value();
      }))
    return *found;
  return start;
}

}  // namespace

BoneSpace boneSpaceFor(const Skeleton& skeleton, std::size_t bone, const glm::mat4& inverseBind) {
  // The file's own values, while they still give the matrix: a re-written file keeps them.
  if (skeleton.inverseBindParts.size() == skeleton.bones.size() && bone < skeleton.bones.size()) {
    const RigidParts& p = skeleton.inverseBindParts[bone];
    const std::array<float, 4> r = quatToFile(p.rotation);
    if (inverseBindFromFile(p.translation, r) == inverseBind) return BoneSpace{p.translation, r};
  }
  if (skeleton.bones.size() > kMaxSearchedBones) return nearestBoneSpace(inverseBind);
  return stableBoneSpace(inverseBind, kMaxEvaluations);
}

}  // namespace marrow::formats::cal3d
