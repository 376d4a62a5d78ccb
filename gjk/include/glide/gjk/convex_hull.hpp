#pragma once

#include <glide/gjk/shapes.hpp>

#include <span>
#include <vector>

namespace glide::gjk {

/// A convex polyhedron given as a point cloud. Construction validates the points (throws
/// glide::Error naming the first non-finite coordinate; at least one point).
// TODO(issue 3): robust quickhull keeping only hull vertices, and hill-climbing support
// over vertex adjacency for large hulls. Until then every point is kept and scanned.
class ConvexHull {
public:
  explicit ConvexHull(std::span<const glm::vec3> points);

  glm::vec3 support(const glm::vec3& dir) const;

  /// The points support() may return (m, local space).
  std::span<const glm::vec3> vertices() const { return vertices_; }

private:
  std::vector<glm::vec3> vertices_;
};

} // namespace glide::gjk
