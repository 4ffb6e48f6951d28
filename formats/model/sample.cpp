#include "formats/model/sample.h"

#include <algorithm>
#include <cmath>

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

std::int32_t frameAt(float seconds, float fps) {
  const double f = std::round(static_cast<double>(seconds) * fps);
  return static_cast<std::int32_t>(std::isfinite(f) ? std::clamp(f, 0.0, static_cast<double>(1 << 30)) : 0.0);
}

bool keysOnFrames(std::span<const float> times, float fps, std::int32_t last) {
  std::int32_t previous = -1;
  for (float t : times) {
    const double f = static_cast<double>(t) * fps;
    const std::int32_t k = frameAt(t, fps);
    if (!(std::abs(f - std::round(f)) <= std::max(1e-3, std::abs(f) * 4e-7)) || k <= previous || k > last) return false;
    previous = k;
  }
  return true;
}

std::vector<std::int32_t> sampleFrames(std::int32_t last) {
  constexpr std::int32_t kMost = 216000;
  const std::int32_t step = last > kMost ? (last + kMost - 1) / kMost : 1;
  std::vector<std::int32_t> out;
  out.reserve(static_cast<std::size_t>(last / step) + 2);
  for (std::int32_t f = 0; f < last; f += step) out.push_back(f);
  out.push_back(std::max(last, 0));
  return out;
}
glm::quat sampleAt(const Channel<glm::quat>& channel, float time) { return sample(channel, time); }

}  // namespace marrow::formats
