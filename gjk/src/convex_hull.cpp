#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/error.hpp>

#include <cmath>
#include <string>

namespace glide::gjk {

ConvexHull::ConvexHull(std::span<const glm::vec3> points) {
  if (points.empty()) throw Error("ConvexHull: no points given (need at least one)");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const glm::vec3& p = points[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw Error("ConvexHull: point " + std::to_string(i) + " is not finite (" + std::to_string(p.x) + ", " +
                  std::to_string(p.y) + ", " + std::to_string(p.z) + ")");
  }
  vertices_.assign(points.begin(), points.end());
}

glm::vec3 ConvexHull::support(const glm::vec3& dir) const {
  std::size_t best = 0;
  float best_dot = glm::dot(dir, vertices_[0]);
  for (std::size_t i = 1; i < vertices_.size(); ++i) {
    const float d = glm::dot(dir, vertices_[i]);
    if (d > best_dot) {
      best_dot = d;
      best = i;
    }
  }
  return vertices_[best];
}

} // namespace glide::gjk
