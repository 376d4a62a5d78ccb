#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/error.hpp>

#include "quickhull.hpp"

#include <glm/common.hpp>

#include <array>
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

// The 26 directions toward the faces, edges and corners of a cube, unit length, in the scan's
// block layout (padded to 28 with copies of the first). A cold climb starts at the hull's
// vertex extreme along the one nearest the query direction: at most about 35° off it, so the
// climb takes fewer steps than from the extreme along the dominant axis (up to 55° off).
struct StartDirections {
  std::array<float, 7 * detail::k_scan_block> blocks{};
  float dir[ConvexHull::k_start_directions][3]{};
  constexpr StartDirections() {
    constexpr float scale[4] = {0.f, 1.f, 0.70710678f, 0.57735027f}; // 1 / sqrt(nonzero components)
    std::uint32_t n = 0;
    for (int x = -1; x <= 1; ++x)
      for (int y = -1; y <= 1; ++y)
        for (int z = -1; z <= 1; ++z) {
          const int nonzero = (x != 0) + (y != 0) + (z != 0);
          if (nonzero == 0) continue;
          const float s = scale[nonzero];
          dir[n][0] = static_cast<float>(x) * s;
          dir[n][1] = static_cast<float>(y) * s;
          dir[n][2] = static_cast<float>(z) * s;
          ++n;
        }
    for (std::uint32_t i = 0; i < 28; ++i)
      for (int axis = 0; axis < 3; ++axis)
        blocks[i / 4 * detail::k_scan_block + i % 4 + 4 * static_cast<std::uint32_t>(axis)] = dir[i < n ? i : 0][axis];
  }
  glm::vec3 direction(std::uint32_t k) const { return {dir[k][0], dir[k][1], dir[k][2]}; }
};
// constexpr: ready before any static initialiser elsewhere builds a hull.
constexpr StartDirections k_start;

} // namespace

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

  for (const detail::HullTriangle& t : hull.triangles)
    faces_.push_back({t.vertices, glm::vec3(t.normal), static_cast<float>(t.offset)});

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

  for (std::uint32_t k = 0; k < k_start_directions; ++k)
    start_extreme_[k] = detail::scan_support(scan_.data(), count_, k_start.direction(k));
  // The scan carries vertex indices as floats, exact below 2^24; larger hulls always climb.
  const bool huge = n >= (std::size_t{1} << 24);
  climb_cold_ = huge || n >= settings.hill_climb_min_vertices;
  climb_warm_ = huge || n >= settings.warm_hill_climb_min_vertices;
}

std::uint32_t ConvexHull::climb_from(const glm::vec3& dir, std::uint32_t start) const {
  if (start < count_) return climb(dir, start);
  return climb(dir, start_extreme_[detail::scan_support(k_start.blocks.data(), k_start_directions, dir)]);
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
