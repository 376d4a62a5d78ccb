#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/error.hpp>

#include "quickhull.hpp"

#include <glm/common.hpp>

#include <cmath>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
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

ConvexHull::ConvexHull(std::span<const glm::vec3> points, const ConvexHullSettings& settings) {
  validate(points, settings);
  const detail::QuickhullResult hull = detail::quickhull(points, settings.tolerance);
  dimension_ = hull.dimension;

  const std::size_t n = hull.vertices.size();
  glm::dvec3 center{0.0};
  for (std::uint32_t i : hull.vertices) {
    vertices_.push_back(points[i]);
    center += glm::dvec3(points[i]);
  }
  center /= static_cast<double>(n);
  bounds_min_ = bounds_max_ = vertices_[0];
  for (const glm::vec3& v : vertices_) {
    const glm::dvec3 c = glm::dvec3(v) - center;
    centered_x_.push_back(static_cast<float>(c.x));
    centered_y_.push_back(static_cast<float>(c.y));
    centered_z_.push_back(static_cast<float>(c.z));
    bounds_min_ = glm::min(bounds_min_, v);
    bounds_max_ = glm::max(bounds_max_, v);
  }
  // Pad to whole SIMD blocks with copies of vertex 0: a copy only ties, never wins.
  while (centered_x_.size() % 4 != 0) {
    centered_x_.push_back(centered_x_[0]);
    centered_y_.push_back(centered_y_[0]);
    centered_z_.push_back(centered_z_[0]);
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

  for (int axis = 0; axis < 3; ++axis) {
    glm::vec3 dir{0.f};
    dir[axis] = 1.f;
    axis_extreme_[2 * axis] = scan(dir);
    axis_extreme_[2 * axis + 1] = scan(-dir);
  }
  climb_cold_ = n >= settings.hill_climb_min_vertices;
  climb_warm_ = n >= settings.warm_hill_climb_min_vertices;
}

std::uint32_t ConvexHull::support_index(const glm::vec3& dir, std::uint32_t start) const {
  if (start < vertices_.size()) return climb_warm_ ? climb(dir, start) : scan(dir);
  if (!climb_cold_) return scan(dir);
  // Start at the vertex extreme along the direction's dominant axis.
  const glm::vec3 a = glm::abs(dir);
  const int axis = a.x >= a.y && a.x >= a.z ? 0 : (a.y >= a.z ? 1 : 2);
  return climb(dir, axis_extreme_[2 * axis + (dir[axis] < 0.f ? 1 : 0)]);
}

// First vertex with the largest dot product. The SSE2 path computes the same products in
// the same order as dot_at (no contraction), so both paths and climb() agree bit for bit.
std::uint32_t ConvexHull::scan(const glm::vec3& dir) const {
  const std::uint32_t n = static_cast<std::uint32_t>(vertices_.size());
#if defined(__SSE2__)
  const __m128 dx = _mm_set1_ps(dir.x), dy = _mm_set1_ps(dir.y), dz = _mm_set1_ps(dir.z);
  __m128 best = _mm_set1_ps(-INFINITY);
  __m128i best_index = _mm_setzero_si128();
  __m128i index = _mm_setr_epi32(0, 1, 2, 3);
  const __m128i step = _mm_set1_epi32(4);
  for (std::uint32_t i = 0; i < n; i += 4) {
    const __m128 d = _mm_add_ps(
        _mm_add_ps(_mm_mul_ps(dx, _mm_loadu_ps(&centered_x_[i])), _mm_mul_ps(dy, _mm_loadu_ps(&centered_y_[i]))),
        _mm_mul_ps(dz, _mm_loadu_ps(&centered_z_[i])));
    const __m128 better = _mm_cmpgt_ps(d, best);
    best = _mm_or_ps(_mm_and_ps(better, d), _mm_andnot_ps(better, best));
    const __m128i take = _mm_castps_si128(better);
    best_index = _mm_or_si128(_mm_and_si128(take, index), _mm_andnot_si128(take, best_index));
    index = _mm_add_epi32(index, step);
  }
  alignas(16) float lane_best[4];
  alignas(16) std::int32_t lane_index[4];
  _mm_store_ps(lane_best, best);
  _mm_store_si128(reinterpret_cast<__m128i*>(lane_index), best_index);
  std::uint32_t pick = 0;
  float pick_dot = -INFINITY;
  for (int lane = 0; lane < 4; ++lane) {
    const std::uint32_t i = static_cast<std::uint32_t>(lane_index[lane]);
    if (lane_best[lane] > pick_dot || (lane_best[lane] == pick_dot && i < pick)) {
      pick_dot = lane_best[lane];
      pick = i;
    }
  }
  return pick < n ? pick : 0; // a padding copy of vertex 0 won a tie
#else
  std::uint32_t pick = 0;
  float pick_dot = dot_at(dir, 0);
  for (std::uint32_t i = 1; i < n; ++i) {
    const float d = dot_at(dir, i);
    if (d > pick_dot) {
      pick_dot = d;
      pick = i;
    }
  }
  return pick;
#endif
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
