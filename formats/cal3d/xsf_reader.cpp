// XML skeleton .xsf (§7.1): the same bones as a .csf (§3), as elements.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"
#include "formats/cal3d/xml_common.h"

namespace marrow::formats::cal3d {
namespace {

using xml::Children;
using xml::step;

// A bone as stored, but for its name (names_: made unique all together).
struct FileBone {
  Bone bone;
  glm::mat4 inverseBind{1.0f};
  RigidParts inverseBindParts;  // as stored, for writing back bit for bit
  std::int64_t parent = -1;
  std::vector<std::int64_t> children;
  pugi::xml_node node, parentNode;
  std::string path;
};

class XsfReader {
 public:
  XsfReader(std::span<const std::byte> data, const ReadContext& ctx)
      : ctx_(ctx), doc_(data, ctx, part_.diagnostics) {}

  SkeletonPart read() {
    const pugi::xml_node skeleton = doc_.open("XSF", "SKELETON");
    part_.format = doc_.format("XSF");
    const std::size_t n = xml::countChildren(skeleton, "BONE");
    doc_.checkLimit(n, ctx_.limits.maxBones, skeleton, "SKELETON", "BONE elements");
    if (n == 0) doc_.fail(skeleton, "SKELETON", "has no BONE elements");
    doc_.checkDeclaredCount(skeleton, "NUMBONES", "SKELETON", n, "BONE elements");
    doc_.charge(n * (sizeof(FileBone) + sizeof(glm::mat4) + sizeof(Bone) + sizeof(int)), skeleton,
                "SKELETON");
    lights_ = doc_.hasAttribute(skeleton, "SCENEAMBIENTCOLOR");
    bones_.reserve(n);
    names_.reserve(n);

    Children children(skeleton);
    for (std::size_t i = 0; !children.atEnd(); ++i) {
      const pugi::xml_node node = children.take();
      if (!xml::namesEqual(node.name(), "BONE"))
        doc_.fail(node, node.name(), "is out of place: only BONE elements belong in SKELETON");
      bones_.push_back(readBone(node, step("", "BONE", i), i));
    }
    checkHierarchy();
    if (const std::string renamed = makeBoneNamesUnique(names_); !renamed.empty())
      doc_.warn(skeleton, "SKELETON", renamed);
    build();
    if (lights_)
      doc_.info(skeleton, "SKELETON",
                "scene ambient and bone light colours (IMVU, §3) are not kept in the model");
    doc_.flushRepeated();
    return std::move(part_);
  }

 private:
  FileBone readBone(pugi::xml_node node, const xml::Path& path, std::size_t index) {
    FileBone b;
    b.node = node;
    b.path = path.str();
    if (!doc_.hasAttribute(node, "NAME"))
      doc_.warnRepeated("name", node, path, "has no NAME; the bone is left unnamed");
    names_.push_back(doc_.stringAttribute(node, "NAME", path));
    // §7: ID is informational, the index is the element order.
    if (const auto id = doc_.attribute(node, "ID");
        !id.empty() && std::string_view(id.value()) != std::to_string(index))
      doc_.warnRepeated("id", node, step(path, "ID"),
                        "is " + std::string(id.value()) +
                            " but bones are numbered by element order; it is ignored");
    lights_ =
        lights_ || doc_.hasAttribute(node, "LIGHTTYPE") || doc_.hasAttribute(node, "LIGHTCOLOR");

    Children c(node);
    const auto t =
        doc_.floats<3>(doc_.expect(c, "TRANSLATION", node, path), step(path, "TRANSLATION"));
    const auto r = doc_.quaternion(doc_.expect(c, "ROTATION", node, path), step(path, "ROTATION"));
    const auto bt = doc_.floats<3>(doc_.expect(c, "LOCALTRANSLATION", node, path),
                                   step(path, "LOCALTRANSLATION"));
    const auto br =
        doc_.quaternion(doc_.expect(c, "LOCALROTATION", node, path), step(path, "LOCALROTATION"));
    b.parentNode = doc_.expect(c, "PARENTID", node, path);
    b.parent = doc_.integer(b.parentNode, step(path, "PARENTID"));
    while (c.nextIs("CHILDID")) {
      const pugi::xml_node child = c.take();
      b.children.push_back(doc_.integer(child, step(path, "CHILDID")));
    }
    doc_.expectEnd(c, path, "CHILDID elements");
    const char* countName = doc_.hasAttribute(node, "NUMCHILDS") ? "NUMCHILDS" : "NUMCHILD";
    doc_.checkDeclaredCount(node, countName, path, b.children.size(), "CHILDID elements");

    b.bone.translation = glm::vec3(t[0], t[1], t[2]);
    b.bone.rotation = quatFromFile(r[0], r[1], r[2], r[3]);
    // §7.1: LOCALTRANSLATION / LOCALROTATION are the bone-space pair of §3 (inverse bind).
    b.inverseBind =
        inverseBindFromFile(glm::vec3(bt[0], bt[1], bt[2]), {br[0], br[1], br[2], br[3]});
    b.inverseBindParts = {glm::vec3(bt[0], bt[1], bt[2]), quatFromFile(br[0], br[1], br[2], br[3])};
    return b;
  }

  // Parent ids must name bones; child lists are redundant (§3) and only compared with them.
  void checkHierarchy() {
    const auto n = static_cast<std::int64_t>(bones_.size());
    for (std::int64_t i = 0; i < n; ++i) {
      const FileBone& b = bones_[static_cast<std::size_t>(i)];
      if (b.parent < -1 || b.parent >= n || b.parent == i)
        doc_.fail(b.parentNode, step(b.path, "PARENTID"),
                  "is " + std::to_string(b.parent) +
                      (b.parent == i ? ", the bone itself"
                                     : ", not -1 or one of the " + std::to_string(n) + " bones"));
      for (std::int64_t c : b.children) {
        if (c < 0 || c >= n || bones_[static_cast<std::size_t>(c)].parent != i)
          doc_.warnRepeated("child", b.node, step(b.path, "CHILDID"),
                            "lists bone " + std::to_string(c) +
                                ", whose PARENTID is not this bone; the parent ids are used");
      }
      if (b.parent >= 0) {
        const auto& siblings = bones_[static_cast<std::size_t>(b.parent)].children;
        if (std::find(siblings.begin(), siblings.end(), i) == siblings.end())
          doc_.warnRepeated("missingChild", b.node, b.path,
                            "is missing from its parent's CHILDID list; the parent ids are used");
      }
    }
  }

  void build() {
    std::vector<std::int64_t> parents;
    parents.reserve(bones_.size());
    for (const FileBone& b : bones_) parents.push_back(b.parent);
    BoneOrder order = orderBones(parents, ctx_.limits.maxHierarchyDepth);
    if (order.fault != BoneOrder::Fault::None) {
      const FileBone& b = bones_[order.faultyBone];
      if (order.fault == BoneOrder::Fault::Cycle)
        doc_.fail(b.parentNode, step(b.path, "PARENTID"), order.message);
      doc_.fail(b.node, b.path, order.message);
    }
    if (order.reordered)
      doc_.info(bones_[order.fileIndexAt.front()].node, "SKELETON",
                "bones were reordered so that every parent precedes its children");

    part_.modelIndexOfFileBone = std::move(order.modelIndexOfFileBone);
    Skeleton& s = part_.skeleton;
    s.bones.reserve(bones_.size());
    s.inverseBind.reserve(bones_.size());
    for (std::uint32_t f : order.fileIndexAt) {
      FileBone& b = bones_[f];
      b.bone.name = std::move(names_[f]);
      b.bone.parent =
          b.parent < 0 ? -1 : part_.modelIndexOfFileBone[static_cast<std::size_t>(b.parent)];
      s.bones.push_back(std::move(b.bone));
      s.inverseBind.push_back(b.inverseBind);
      s.inverseBindParts.push_back(b.inverseBindParts);
    }
  }

  const ReadContext& ctx_;
  SkeletonPart part_;
  xml::Document doc_;
  std::vector<FileBone> bones_;
  std::vector<std::string> names_;
  bool lights_ = false;
};

}  // namespace

Result<SkeletonPart> readXsf(std::span<const std::byte> data, const ReadContext& ctx) {
  return guarded<SkeletonPart>(ctx, [&] { return XsfReader(data, ctx).read(); });
}

}  // namespace marrow::formats::cal3d
