// The one-line pieces: ConvexHull::box, wedge and cylinder.

#include <glide/error.hpp>
#include <glide/gjk/convex_hull.hpp>

#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace glide::gjk {

namespace {

void require_size(const char* where, const char* name, float value) {
  if (!(std::isfinite(value) && value > 0.f))
    throw Error(std::string("ConvexHull::") + where + ": " + name + " must be finite and > 0 (m), got " +
                std::to_string(value));
}

void require_half_extents(const char* where, const glm::vec3& half) {
  require_size(where, "half_extents.x", half.x);
  require_size(where, "half_extents.y", half.y);
  require_size(where, "half_extents.z", half.z);
}

} // namespace

ConvexHull ConvexHull::box(const glm::vec3& half_extents) {
  require_half_extents("box", half_extents);
  const glm::vec3& h = half_extents;
  std::array<glm::vec3, 8> corners;
  for (int i = 0; i < 8; ++i)
    corners[static_cast<std::size_t>(i)] = {(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z};
  return ConvexHull(corners);
}

ConvexHull ConvexHull::wedge(const glm::vec3& half_extents) {
  require_half_extents("wedge", half_extents);
  const glm::vec3& h = half_extents;
  const std::array<glm::vec3, 6> corners{
      {{-h.x, -h.y, -h.z}, {-h.x, -h.y, h.z}, {h.x, -h.y, -h.z}, {h.x, -h.y, h.z}, {h.x, h.y, -h.z}, {h.x, h.y, h.z}}};
  return ConvexHull(corners);
}

ConvexHull ConvexHull::cylinder(float radius, float half_height, int segments) {
  require_size("cylinder", "radius", radius);
  require_size("cylinder", "half_height", half_height);
  if (segments < k_min_cylinder_segments || segments > k_max_cylinder_segments)
    throw Error("ConvexHull::cylinder: segments must be in [" + std::to_string(k_min_cylinder_segments) + ", " +
                std::to_string(k_max_cylinder_segments) + "], got " + std::to_string(segments));
  // Angles in double: the quarter turns land on exactly ±radius.
  std::vector<glm::vec3> points;
  points.reserve(2 * static_cast<std::size_t>(segments));
  for (const float y : {-half_height, half_height})
    for (int k = 0; k < segments; ++k) {
      const double angle = 2.0 * std::numbers::pi * k / segments;
      points.push_back({static_cast<float>(radius * std::cos(angle)), y, static_cast<float>(radius * std::sin(angle))});
    }
  return ConvexHull(points);
}

} // namespace glide::gjk
