#pragma once

// Private: convex hull of a point cloud in double precision, relative to the cloud's centroid.

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace glide::gjk::detail {

struct HullTriangle {
  std::array<std::uint32_t, 3> vertices{}; ///< indices into QuickhullResult::vertices, counter-clockwise from outside
  glm::dvec3 normal{0.0};                  ///< outward unit normal
  double offset = 0.0;                     ///< plane dot(normal, x) = offset, x in input coordinates
};

struct QuickhullResult {
  int dimension = 0;                   ///< 0 point, 1 segment, 2 polygon, 3 solid
  std::vector<std::uint32_t> vertices; ///< input indices of the hull's vertices, ascending
  std::vector<HullTriangle> triangles; ///< dimension 3: the surface; 2: both fans of the polygon
  std::vector<std::uint32_t> polygon;  ///< dimension 2: the polygon's corners in order (indices into vertices)
};

/// `points` must be finite and non-empty. `relative_tolerance` scales with the cloud's radius
/// about its centroid (see ConvexHullSettings::tolerance).
QuickhullResult quickhull(std::span<const glm::vec3> points, double relative_tolerance);

} // namespace glide::gjk::detail
