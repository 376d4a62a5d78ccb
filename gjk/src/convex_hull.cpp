#include <glide/error.hpp>
#include <glide/gjk/convex_hull.hpp>

#include "quickhull.hpp"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace glide::gjk {

namespace {

void validate(std::span<const glm::vec3> points, const ConvexHullSettings& settings) {
  if (!(settings.tolerance >= 1e-9f && settings.tolerance <= 0.1f))
    throw Error("ConvexHullSettings::tolerance must be in [1e-9, 0.1], got " + std::to_string(settings.tolerance));
  if (points.empty()) throw Error("ConvexHull: no points given (need at least one)");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const glm::vec3& p = points[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw Error("ConvexHull: point " + std::to_string(i) + " is not finite (" + std::to_string(p.x) + ", " +
                  std::to_string(p.y) + ", " + std::to_string(p.z) + ")");
  }
}

} // namespace

// The origin kept past count_ gives support() (scan index 0) and vertex4() something to read.
ConvexHull::ConvexHull()
    : vertices_{glm::vec3(0.f)}, padded_{detail::load(glm::vec3(0.f))},
      scan_(detail::k_scan_block, 0.f), neighbor_begin_{0} {}

ConvexHull::ConvexHull(std::span<const glm::vec3> points, const ConvexHullSettings& settings) {
  validate(points, settings);
  const detail::QuickhullResult hull = detail::quickhull(points, settings.tolerance);
  dimension_ = hull.dimension;

  const std::size_t n = hull.vertices.size();
  glm::dvec3 center{0.0};
  for (std::uint32_t i : hull.vertices) {
    vertices_.push_back(points[i]);
    if (n <= 8) padded_.push_back(detail::load(points[i]));
    center += glm::dvec3(points[i]);
  }
  center /= static_cast<double>(n);
  count_ = static_cast<std::uint32_t>(n);
  bounds_min_ = bounds_max_ = vertices_[0];
  // Blocks of four vertices (x x x x y y y y z z z z); the last is padded with copies of
  // vertex 0, which only tie with it.
  scan_.assign((n + 3) / 4 * detail::k_scan_block, 0.f);
  for (std::size_t i = 0; i < (n + 3) / 4 * 4; ++i) {
    const glm::vec3& v = vertices_[i < n ? i : 0];
    const glm::dvec3 c = glm::dvec3(v) - center;
    float* block = scan_.data() + i / 4 * detail::k_scan_block + i % 4;
    block[0] = static_cast<float>(c.x);
    block[4] = static_cast<float>(c.y);
    block[8] = static_cast<float>(c.z);
    if (i < n) {
      climb_x_.push_back(block[0]);
      climb_y_.push_back(block[4]);
      climb_z_.push_back(block[8]);
    }
    bounds_min_ = glm::min(bounds_min_, v);
    bounds_max_ = glm::max(bounds_max_, v);
  }

  std::vector<glm::dvec3> normals;
  std::vector<std::uint32_t> corners;
  for (const detail::HullTriangle& t : hull.triangles) {
    faces_.push_back({t.vertices, glm::vec3(t.normal), static_cast<float>(t.offset)});
    normals.push_back(t.normal);
    corners.insert(corners.end(), t.vertices.begin(), t.vertices.end());
  }
  if (dimension_ == 3) planes_ = detail::make_hull_planes(vertices_, center, normals, corners);

  // Adjacency: every surface edge a -> b appears once per orientation, so each end gets the
  // other once. A flat hull links its polygon's sides only (its fans add diagonals).
  std::vector<std::vector<std::uint32_t>> adjacency(n);
  if (dimension_ == 3) {
    for (const HullFace& f : faces_)
      for (int e = 0; e < 3; ++e) adjacency[f.vertices[e]].push_back(f.vertices[(e + 1) % 3]);
  } else if (dimension_ == 2) {
    const std::size_t m = hull.polygon.size();
    for (std::size_t k = 0; k < m; ++k) {
      adjacency[hull.polygon[k]].push_back(hull.polygon[(k + 1) % m]);
      adjacency[hull.polygon[k]].push_back(hull.polygon[(k + m - 1) % m]);
    }
  } else if (dimension_ == 1) {
    adjacency[0] = {1};
    adjacency[1] = {0};
  }
  neighbor_begin_.push_back(0);
  for (const auto& list : adjacency) {
    neighbors_.insert(neighbors_.end(), list.begin(), list.end());
    neighbor_begin_.push_back(static_cast<std::uint32_t>(neighbors_.size()));
  }

  // The scan carries vertex indices as floats, exact below 2^24; larger hulls always climb.
  const bool huge = n >= (std::size_t{1} << 24);
  climb_cold_ = huge || n >= settings.hill_climb_min_vertices;
  climb_warm_ = huge || n >= settings.warm_hill_climb_min_vertices;
  // Cold climbs' starts (climb_from); hulls that scan never read them.
  for (std::uint32_t cell = 0; climb_cold_ && cell < k_start_cells; ++cell) {
    const glm::vec3 dir = detail::cube_cell_direction(cell);
    start_extreme_[cell] = dir == glm::vec3(0.f) ? 0u : detail::scan_support(scan_.data(), count_, glm::normalize(dir));
  }
}

std::uint32_t ConvexHull::climb_from(const glm::vec3& dir, std::uint32_t start) const {
  if (start < count_) return climb(dir, start);
  return climb(dir, start_extreme_[detail::nearest_cube_cell(dir)]);
}

// On a convex polytope a vertex no neighbour beats is a global maximum. Moving only on strict
// improvement ends on plateaus and cannot cycle (the dot product rises at every step).
std::uint32_t ConvexHull::climb(const glm::vec3& dir, std::uint32_t start) const {
  std::uint32_t v = start;
  float best = dot_at(dir, v);
  for (;;) {
    std::uint32_t next = v;
    for (std::uint32_t k = neighbor_begin_[v]; k < neighbor_begin_[v + 1]; ++k) {
      const std::uint32_t u = neighbors_[k];
      const float d = dot_at(dir, u);
      if (d > best) {
        best = d;
        next = u;
      }
    }
    if (next == v) return v;
    v = next;
  }
}

} // namespace glide::gjk
