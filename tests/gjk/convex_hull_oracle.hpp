#pragma once

// Brute-force oracles for the ConvexHull suite, all in double: facet enumeration, extreme
// points, rise above the hull of the others, and the structural/support checks.

#include "approx.hpp"

#include <glide/gjk/convex_hull.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <span>
#include <vector>

namespace hull_oracle {

using glide::gjk::ConvexHull;
using glm::dvec3;

// ---- brute-force oracles, all in double ----

inline dvec3 d3(const glm::vec3& v) { return dvec3(v); }

struct Cloud {
  std::vector<glm::vec3> points;
  double radius = 0.0; ///< largest distance from the centroid
  dvec3 centroid{0.0};
};

inline Cloud measure(std::vector<glm::vec3> points) {
  Cloud c;
  for (const auto& p : points) c.centroid += d3(p);
  c.centroid /= static_cast<double>(points.size());
  for (const auto& p : points) c.radius = std::max(c.radius, glm::length(d3(p) - c.centroid));
  c.points = std::move(points);
  return c;
}

inline double brute_max_dot(const std::vector<glm::vec3>& points, const dvec3& dir) {
  double best = -INFINITY;
  for (const auto& p : points) best = std::max(best, glm::dot(dir, d3(p)));
  return best;
}

struct Plane {
  dvec3 normal; ///< unit
  dvec3 point;
};

/// Every supporting plane through three of the points (all others on one side within `tol`),
/// normal pointing away from them. O(n^4): small clouds only.
inline std::vector<Plane> brute_facets(const std::vector<dvec3>& p, double tol, std::size_t skip = SIZE_MAX) {
  std::vector<Plane> planes;
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        if (i == skip || j == skip || k == skip) continue;
        const dvec3 c = glm::cross(p[j] - p[i], p[k] - p[i]);
        const double length = glm::length(c);
        if (!(length > 1e-12 * glm::dot(p[j] - p[i], p[j] - p[i]))) continue;
        const dvec3 nrm = c / length;
        bool above = false, below = false;
        for (std::size_t q = 0; q < n && !(above && below); ++q) {
          if (q == skip) continue;
          const double d = glm::dot(nrm, p[q] - p[i]);
          above |= d > tol;
          below |= d < -tol;
        }
        if (above && below) continue;
        planes.push_back({above ? -nrm : nrm, p[i]});
      }
  return planes;
}

/// Positions (deduplicated) of the extreme points of a full-dimensional cloud: on the
/// boundary, a point is a vertex iff the facet planes through it have normals of rank 3.
inline std::set<std::array<float, 3>> brute_vertices(const std::vector<glm::vec3>& cloud, double tol) {
  std::vector<dvec3> p;
  for (const auto& q : cloud) p.push_back(d3(q));
  const std::vector<Plane> planes = brute_facets(p, tol);
  std::set<std::array<float, 3>> out;
  for (std::size_t q = 0; q < p.size(); ++q) {
    // Normals parallel to one already listed (the same facet plane met through other points)
    // change no determinant below by more than 1e-12: a flat cloud gives thousands of them,
    // and the triple loop would take minutes.
    std::vector<dvec3> normals;
    for (const Plane& pl : planes) {
      if (std::abs(glm::dot(pl.normal, p[q] - pl.point)) > tol) continue;
      const bool parallel = std::any_of(normals.begin(), normals.end(),
                                        [&](const dvec3& n) { return glm::length(glm::cross(n, pl.normal)) <= 1e-12; });
      if (!parallel) normals.push_back(pl.normal);
    }
    bool rank3 = false;
    for (std::size_t a = 0; a < normals.size() && !rank3; ++a)
      for (std::size_t b = a + 1; b < normals.size() && !rank3; ++b)
        for (std::size_t c = b + 1; c < normals.size() && !rank3; ++c)
          rank3 = std::abs(glm::dot(normals[a], glm::cross(normals[b], normals[c]))) > 1e-9;
    if (rank3) out.insert({cloud[q].x, cloud[q].y, cloud[q].z});
  }
  return out;
}

/// How far point `q` lies outside the hull of the other points (largest facet-plane distance).
inline double brute_rise_above_others(const std::vector<glm::vec3>& cloud, std::size_t q, double tol) {
  std::vector<dvec3> p;
  for (const auto& v : cloud) p.push_back(d3(v));
  // Drop exact copies of q too: they are the same point.
  std::vector<dvec3> others;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] != p[q]) others.push_back(p[i]);
  double rise = -INFINITY;
  for (const Plane& pl : brute_facets(others, tol)) rise = std::max(rise, glm::dot(pl.normal, p[q] - pl.point));
  return rise;
}

inline std::set<std::array<float, 3>> positions(std::span<const glm::vec3> v) {
  std::set<std::array<float, 3>> out;
  for (const auto& q : v) out.insert({q.x, q.y, q.z});
  return out;
}

inline dvec3 face_normal(const ConvexHull& hull, const glide::gjk::HullFace& f) {
  const auto v = hull.vertices();
  const dvec3 a = d3(v[f.vertices[0]]), b = d3(v[f.vertices[1]]), c = d3(v[f.vertices[2]]);
  return glm::normalize(glm::cross(b - a, c - a));
}

/// Structural and geometric checks of a solid hull against its input cloud:
/// closed consistently oriented surface (V - E + F = 2), stored planes agree with the
/// vertices, every input point inside every face plane within `tol`, and every vertex
/// certified extreme: along the sum of its incident normals it beats every input point
/// that is not a copy of it.
inline void check_solid_hull(const ConvexHull& hull, const Cloud& cloud, double tol) {
  REQUIRE(hull.dimension() == 3);
  const auto v = hull.vertices();
  const auto faces = hull.faces();
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  std::vector<dvec3> normal_sum(v.size(), dvec3(0.0));
  for (const auto& f : faces)
    for (int e = 0; e < 3; ++e) {
      ++edges[{f.vertices[e], f.vertices[(e + 1) % 3]}];
      normal_sum[f.vertices[e]] += face_normal(hull, f);
    }
  bool manifold = true;
  for (const auto& [edge, count] : edges) manifold &= count == 1 && edges.count({edge.second, edge.first}) == 1;
  CHECK(manifold);
  CHECK(static_cast<long>(v.size()) - static_cast<long>(edges.size() / 2) + static_cast<long>(faces.size()) == 2);

  double worst_outside = 0.0, worst_normal = 0.0;
  for (const auto& f : faces) {
    const dvec3 n = face_normal(hull, f);
    worst_normal = std::max(worst_normal, glm::length(n - d3(f.normal)));
    const dvec3 a = d3(v[f.vertices[0]]);
    for (const auto& p : cloud.points) worst_outside = std::max(worst_outside, glm::dot(n, d3(p) - a));
  }
  CHECK(worst_normal < 1e-5);
  CHECK_MESSAGE(worst_outside <= tol, "a point lies " << worst_outside << " outside a face (tol " << tol << ")");

  int uncertified = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const dvec3 dir = glm::normalize(normal_sum[i]);
    const dvec3 vi = d3(v[i]);
    for (const auto& p : cloud.points)
      if (d3(p) != vi && glm::dot(dir, vi - d3(p)) <= 1e-12 * cloud.radius) {
        ++uncertified;
        break;
      }
  }
  CHECK(uncertified == 0);
}

/// support() along random directions against the brute-force maximum over the input points:
/// cold, and warm-started with a hint along a slowly turning direction.
inline void check_support(const ConvexHull& hull, const Cloud& cloud, std::mt19937& rng, int directions, double tol) {
  std::normal_distribution<float> g;
  for (int k = 0; k < directions; ++k) {
    const glm::vec3 dir{g(rng), g(rng), g(rng)};
    const double expected = brute_max_dot(cloud.points, d3(dir));
    const double got = glm::dot(d3(dir), d3(hull.support(dir)));
    CHECK_MESSAGE(std::abs(got - expected) <= tol * glm::length(d3(dir)), "support off by " << got - expected);
  }
  int hint = -1;
  glm::vec3 dir{g(rng), g(rng), g(rng)};
  for (int k = 0; k < directions; ++k) {
    dir = glm::normalize(dir + 0.2f * glm::vec3{g(rng), g(rng), g(rng)});
    const double expected = brute_max_dot(cloud.points, d3(dir));
    const glm::vec3 s = hull.support(dir, hint);
    CHECK(s == hull.vertices()[static_cast<std::size_t>(hint)]);
    CHECK(std::abs(glm::dot(d3(dir), d3(s)) - expected) <= tol);
  }
}

} // namespace hull_oracle
