// Binary skeleton .csf (§3): plain and lights layouts, bones reordered only when a parent does
// not precede its child.
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "formats/cal3d/binary_format.h"
#include "formats/cal3d/parts.h"

namespace marrow::formats::cal3d {
namespace {

using std::to_string;

// §8: name length + 3 + 4 + 3 + 4 floats + parentId + childCount; lights add type + colour.
constexpr std::uint64_t kMinBoneBytes = 68;
constexpr std::uint64_t kLightBytes = 16;

// A bone as stored, but for its name (names_: made unique all together).
struct FileBone {
  glm::vec3 translation{0.0f};
  std::array<float, 4> rotation{};
  glm::vec3 translationBoneSpace{0.0f};
  std::array<float, 4> rotationBoneSpace{};
  std::int32_t parent = -1;
  std::uint64_t parentAt = 0;
  std::int32_t lightType = 0;
  std::vector<std::int32_t> children;
};

class CsfParser {
 public:
  CsfParser(std::span<const std::byte> data, const ReadContext& ctx, bool lights)
      : r_(data, ctx.name), ctx_(ctx), lights_(lights) {}

  SkeletonPart parse() {
    version_ = readHeader(r_, std::string_view("CSF\0", 4));
    const std::size_t countAt = r_.offset();
    const std::int32_t n = r_.i32("boneCount");
    // §3: the official loaders need a bone (IMVU accepts none, but such a skeleton is of no use
    // and every mesh or animation bound to it would fail): rejected.
    if (n == 0) r_.failAt(countAt, "boneCount", "is 0; a skeleton has at least one bone");
    if (lights_) ambient_ = readVec3(r_, "sceneAmbient");
    const std::uint32_t count = checkedCount(r_, n, countAt, "boneCount", ctx_.limits.maxBones,
                                             kMinBoneBytes + (lights_ ? kLightBytes : 0));
    bones_.resize(count);
    names_.resize(count);
    for (std::uint32_t i = 0; i < count; ++i)
      within([i] { return label("bone", i); }, [&] { readBone(bones_[i], names_[i], count); });
    requireEnd(r_, "the last bone");
    return build();
  }

 private:
  void readBone(FileBone& b, std::string& name, std::uint32_t count) {
    name = readString(r_, "name", ctx_.limits.maxStringLength);
    b.translation = readVec3(r_, "translation");
    b.rotation = readFileQuat(r_, "rotation");
    b.translationBoneSpace = readVec3(r_, "translationBoneSpace");
    b.rotationBoneSpace = readFileQuat(r_, "rotationBoneSpace");
    b.parentAt = r_.offset();
    b.parent = r_.i32("parentId");
    if (b.parent < -1 || b.parent >= static_cast<std::int64_t>(count))
      r_.failAt(b.parentAt, "parentId",
                "is " + to_string(b.parent) + "; it must be -1 (a root) or one of the " +
                    to_string(count) + " bones");
    if (lights_) {
      b.lightType = r_.i32("lightType");
      readVec3(r_, "lightColor");
    }
    const std::uint32_t children = readCount(r_, "childCount", count, 4);
    b.children.resize(children);
    for (auto& c : b.children) c = r_.i32("childId");
  }

  // cal3d walks the child lists, IMVU ignores them (§3): the parent ids decide, the lists are
  // only checked.
  void checkChildLists() {
    const std::size_t n = bones_.size();
    std::vector<std::vector<std::int32_t>> expected(n);
    for (std::size_t i = 0; i < n; ++i)
      if (bones_[i].parent >= 0)
        expected[static_cast<std::size_t>(bones_[i].parent)].push_back(
            static_cast<std::int32_t>(i));
    std::size_t mismatched = 0, first = 0;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<std::int32_t> listed = bones_[i].children;
      std::sort(listed.begin(), listed.end());
      if (listed != expected[i] && mismatched++ == 0) first = i;
    }
    if (mismatched)
      diagnostics_.warn(ctx_.name, label("bone", first) + ": childIds", kNoOffset,
                        "the child lists of " + to_string(mismatched) +
                            " bone(s) disagree with the parent ids (this is the first); the "
                            "parent ids are used");
  }

  SkeletonPart build() {
    std::vector<std::int64_t> parents;
    parents.reserve(bones_.size());
    for (const FileBone& b : bones_) parents.push_back(b.parent);
    BoneOrder order = orderBones(parents, ctx_.limits.maxHierarchyDepth);
    if (order.fault != BoneOrder::Fault::None) {
      const std::size_t b = order.faultyBone;
      r_.failAt(bones_[b].parentAt,
                label("bone", b) + (order.fault == BoneOrder::Fault::Cycle ? ": parentId" : ""),
                order.message);
    }
    if (order.reordered)
      diagnostics_.info(ctx_.name, "parentId", kNoOffset,
                        "some parents follow their children in the file; the bones were "
                        "reordered so that parents come first");
    checkChildLists();
    if (const std::string renamed = makeBoneNamesUnique(names_); !renamed.empty())
      diagnostics_.warn(ctx_.name, "name", kNoOffset, renamed);

    SkeletonPart part;
    part.modelIndexOfFileBone = std::move(order.modelIndexOfFileBone);
    Skeleton& s = part.skeleton;
    s.bones.reserve(bones_.size());
    s.inverseBind.reserve(bones_.size());
    std::size_t lights = 0;
    for (std::uint32_t f : order.fileIndexAt) {
      FileBone& fb = bones_[f];
      Bone b;
      b.name = std::move(names_[f]);
      b.parent =
          fb.parent < 0 ? -1 : part.modelIndexOfFileBone[static_cast<std::size_t>(fb.parent)];
      b.translation = fb.translation;
      b.rotation = quatFromFile(fb.rotation[0], fb.rotation[1], fb.rotation[2], fb.rotation[3]);
      s.bones.push_back(std::move(b));
      s.inverseBind.push_back(inverseBindFromFile(fb.translationBoneSpace, fb.rotationBoneSpace));
      s.inverseBindParts.push_back(
          {fb.translationBoneSpace, quatFromFile(fb.rotationBoneSpace[0], fb.rotationBoneSpace[1],
                                                 fb.rotationBoneSpace[2], fb.rotationBoneSpace[3])});
      if (fb.lightType != 0) ++lights;
    }
    if (lights_ && (lights || ambient_ != glm::vec3(0.0f)))
      diagnostics_.info(ctx_.name, "sceneAmbient", kNoOffset,
                        "the scene ambient colour and " + to_string(lights) +
                            " bone light(s) are not kept (the model has no lights)");
    part.format = "cal3d CSF " + to_string(version_) + (lights_ ? " (lights)" : "");
    part.diagnostics = std::move(diagnostics_);
    return part;
  }

  ByteReader r_;
  const ReadContext& ctx_;
  bool lights_;
  int version_ = 0;
  glm::vec3 ambient_{0.0f};
  std::vector<FileBone> bones_;
  std::vector<std::string> names_;
  Diagnostics diagnostics_;
};

}  // namespace

Result<SkeletonPart> readCsf(std::span<const std::byte> data, const ReadContext& ctx) {
  // The layout is known only once the version is: peek at it (a bad header fails either way).
  std::int32_t version = 0;
  if (data.size() >= 8) std::memcpy(&version, data.data() + 4, 4);
  const bool byDefault = csfLightsByDefault(version);
  const std::array<bool, 2> layouts{byDefault, !byDefault};
  return firstExactLayout<SkeletonPart>(ctx, std::span<const bool>(layouts), [&](bool lights) {
    return CsfParser(data, ctx, lights).parse();
  });
}

}  // namespace marrow::formats::cal3d
