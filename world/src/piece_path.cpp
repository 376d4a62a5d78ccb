#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/piece_path.hpp>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace glide {

namespace {

using limits::finite;

// The path's own time for a time t along it, after repeats.
float path_time(const PiecePath& path, float t) {
  const float length = path.duration();
  if (path.repeat == PiecePath::Repeat::none || !(length > 0.f) || t <= length) return t;
  if (path.repeat == PiecePath::Repeat::loop) return std::fmod(t, length);
  const float phase = std::fmod(t, 2.f * length); // ping-pong
  return phase <= length ? phase : 2.f * length - phase;
}

} // namespace

void validate(const PiecePath& path) {
  if (path.keys.empty()) throw Error("PiecePath: no keys");
  if (!finite(path.pivot)) throw Error("PiecePath: pivot is not finite");
  float previous = 0.f;
  for (std::size_t i = 0; i < path.keys.size(); ++i) {
    const PiecePath::Key& k = path.keys[i];
    const std::string where = "PiecePath: key " + std::to_string(i) + ": ";
    if (!std::isfinite(k.time) || k.time < previous)
      throw Error(where + "time " + std::to_string(k.time) + " must be finite, >= 0 and not before the key before");
    if (!finite(k.offset) || !std::isfinite(k.yaw)) throw Error(where + "offset or yaw is not finite");
    previous = k.time;
  }
}

gjk::Transform PiecePath::pose_at(const gjk::Transform& rest, float t) const {
  if (keys.empty()) return rest;
  const float s = path_time(*this, t);
  const auto after = std::upper_bound(keys.begin(), keys.end(), s, [](float v, const Key& k) { return v < k.time; });
  Key key = after == keys.begin() ? keys.front() : *(after - 1);
  if (after != keys.begin() && after != keys.end()) {
    const Key& a = *(after - 1);
    const Key& b = *after;
    const float w = b.time > a.time ? (s - a.time) / (b.time - a.time) : 1.f;
    key.offset = a.offset + (b.offset - a.offset) * w;
    key.yaw = a.yaw + (b.yaw - a.yaw) * w;
  }
  const glm::quat turn = glm::angleAxis(key.yaw, glm::vec3(0.f, 1.f, 0.f));
  return {glm::normalize(turn * rest.rotation), pivot + turn * (rest.translation - pivot) + key.offset};
}

} // namespace glide
