#include "formats/model/sample.h"

#include <algorithm>

#include <glm/gtc/quaternion.hpp>

namespace marrow::formats {

namespace {

glm::vec3 blend(const glm::vec3& a, const glm::vec3& b, float u) { return glm::mix(a, b, u); }
glm::quat blend(const glm::quat& a, glm::quat b, float u) {
  if (glm::dot(a, b) < 0.0f) b = -b;  // the shorter way round
  return glm::normalize(glm::slerp(a, b, u));
}

template <class T>
T sample(const Channel<T>& c, float t) {
  const auto it = std::upper_bound(c.times.begin(), c.times.end(), t);
  if (it == c.times.begin()) return c.values.front();
  if (it == c.times.end()) return c.values.back();
  const std::size_t k = static_cast<std::size_t>(it - c.times.begin());
  if (c.interpolation == Interpolation::Step) return c.values[k - 1];
  const float span = c.times[k] - c.times[k - 1];
  const float u = span > 0.0f ? (t - c.times[k - 1]) / span : 0.0f;
  return blend(c.values[k - 1], c.values[k], u);
}

}  // namespace

glm::vec3 sampleAt(const Channel<glm::vec3>& channel, float time) { return sample(channel, time); }
glm::quat sampleAt(const Channel<glm::quat>& channel, float time) { return sample(channel, time); }

}  // namespace marrow::formats
