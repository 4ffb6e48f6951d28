// Orbit camera in display space (Y-up, right-handed): orbit, pan, zoom, frame-all.
#pragma once

#include "formats/model/glm.h"

namespace marrow::render {

class Camera {
 public:
  // Looks at a sphere so that it fills the view, keeping the current direction.
  void frame(const glm::vec3& center, float radius);
  void orbit(float dxPixels, float dyPixels);
  void pan(float dxPixels, float dyPixels, int viewportHeight);
  void zoom(float steps);  // positive: closer
  void setAngles(float yawDegrees, float pitchDegrees);

  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  glm::vec3 eye() const;
  const glm::vec3& target() const { return target_; }
  float distance() const { return distance_; }
  float yaw() const { return yaw_; }
  float pitch() const { return pitch_; }

 private:
  glm::vec3 target_{0.0f, 1.0f, 0.0f};
  float distance_ = 4.0f;
  float yaw_ = 25.0f;    // degrees about +Y; 0 looks along -Z (from the +Z side)
  float pitch_ = 12.0f;  // degrees above the horizon
  float radius_ = 1.0f;  // size of what was framed: sets the clip planes
  float fovY_ = 35.0f;
};

}  // namespace marrow::render
