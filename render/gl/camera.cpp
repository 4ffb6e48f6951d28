#include "render/gl/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace marrow::render {

void Camera::frame(const glm::vec3& center, float radius) {
  radius_ = std::max(radius, 1e-4f);
  target_ = center;
  const float half = glm::radians(fovY_) * 0.5f;
  distance_ = radius_ / std::sin(half) * 1.05f;
}

void Camera::orbit(float dx, float dy) {
  yaw_ = std::fmod(yaw_ - dx * 0.4f, 360.0f);
  pitch_ = std::clamp(pitch_ + dy * 0.4f, -89.0f, 89.0f);
}

void Camera::pan(float dx, float dy, int viewportHeight) {
  const float unitsPerPixel =
      2.0f * distance_ * std::tan(glm::radians(fovY_) * 0.5f) / std::max(viewportHeight, 1);
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  target_ += (-dx * right + dy * up) * unitsPerPixel;
}

void Camera::zoom(float steps) {
  distance_ = std::clamp(distance_ * std::pow(0.85f, steps), radius_ * 0.01f, radius_ * 100.0f);
}

void Camera::setAngles(float yawDegrees, float pitchDegrees) {
  yaw_ = yawDegrees;
  pitch_ = std::clamp(pitchDegrees, -89.0f, 89.0f);
}

glm::vec3 Camera::eye() const {
  const float y = glm::radians(yaw_);
  const float p = glm::radians(pitch_);
  const glm::vec3 dir(std::sin(y) * std::cos(p), std::sin(p), std::cos(y) * std::cos(p));
  return target_ + dir * distance_;
}

glm::mat4 Camera::view() const { return glm::lookAt(eye(), target_, glm::vec3(0, 1, 0)); }

glm::mat4 Camera::projection(float aspect) const {
  const float nearPlane = std::max(distance_ - radius_ * 4.0f, distance_ * 0.01f);
  const float farPlane = distance_ + radius_ * 20.0f;
  return glm::perspective(glm::radians(fovY_), std::max(aspect, 1e-3f), nearPlane, farPlane);
}

}  // namespace marrow::render
