// Attachment points (Scene::attachments, Dragon Nest dummies) as the renderer draws them: a small
// axis cross each (x red, y green, z blue) at the point's place in the current pose.
#pragma once

#include <span>
#include <vector>

#include "formats/model/glm.h"
#include "formats/model/scene.h"
#include "render/anim/pose.h"
#include "render/gl/bodies.h"

namespace marrow::render {

// Where an attachment is in model space at `pose`: its parent bone's model matrix times its own
// matrix (relative to that bone); the matrix alone when the parent is empty or not a bone.
glm::mat4 attachmentModel(const formats::Attachment& attachment, const formats::Skeleton& skeleton,
                          const anim::Pose& pose);

// Three GL_LINES segments per attachment, each `size` long from the point along one of its own
// axes (scale removed), in display space (`display`: formats::toDisplay of the scene's basis).
std::vector<ColoredVertex> attachmentCrosses(std::span<const formats::Attachment> attachments,
                                             const formats::Skeleton& skeleton,
                                             const anim::Pose& pose, const glm::mat4& display,
                                             float size);

// The length of a cross's arms for a model of this bounding radius.
inline float attachmentCrossSize(float radius) {
  return radius * 0.08f;
}

}  // namespace marrow::render
