#include "render/gl/attachments.h"

namespace marrow::render {

glm::mat4 attachmentModel(const formats::Attachment& attachment, const formats::Skeleton& skeleton,
                          const anim::Pose& pose) {
  const int bone = attachment.parent.empty() ? -1 : skeleton.find(attachment.parent);
  if (bone < 0 || static_cast<std::size_t>(bone) >= pose.model.size()) return attachment.local;
  return pose.model[static_cast<std::size_t>(bone)] * attachment.local;
}

std::vector<ColoredVertex> attachmentCrosses(std::span<const formats::Attachment> attachments,
                                             const formats::Skeleton& skeleton,
                                             const anim::Pose& pose, const glm::mat4& display,
                                             float size) {
  static const glm::vec4 kAxisColor[3] = {
      {1.0f, 0.2f, 0.2f, 1.0f}, {0.2f, 1.0f, 0.2f, 1.0f}, {0.3f, 0.4f, 1.0f, 1.0f}};
  std::vector<ColoredVertex> lines;
  lines.reserve(attachments.size() * 6);
  for (const auto& a : attachments) {
    const glm::mat4 m = display * attachmentModel(a, skeleton, pose);
    const glm::vec3 origin(m[3]);
    for (int axis = 0; axis < 3; ++axis) {
      const glm::vec3 dir(m[axis]);
      const float len = glm::length(dir);
      if (!(len > 1e-12f)) continue;  // a degenerate matrix: no direction to show
      lines.push_back({origin, kAxisColor[axis]});
      lines.push_back({origin + dir * (size / len), kAxisColor[axis]});
    }
  }
  return lines;
}

}  // namespace marrow::render
