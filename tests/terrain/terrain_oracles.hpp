#pragma once
// Test helpers for the terrain suites: fields built from formulas, and brute-force oracles in
// double that know nothing of the heightfield's cell walk.

#include <glide/terrain/heightfield.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <vector>

namespace glide::test {

using dvec3 = glm::dvec3;

/// Field whose sample (r, c) is f(x, z) at the sample's world x, z (origin.y = 0).
template <class F>
Heightfield field_from(int rows, int columns, glm::vec2 cell, glm::vec3 origin, F&& f) {
  std::vector<float> heights;
  heights.reserve(static_cast<std::size_t>(rows) * columns);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      heights.push_back(static_cast<float>(f(origin.x + c * cell.x, origin.z + r * cell.y)));
  return Heightfield({.rows = rows,
                      .columns = columns,
                      .heights = std::move(heights),
                      .cell_size = cell,
                      .origin = {origin.x, 0.f, origin.z}});
}

/// Random hills: heights uniformly in [0, amplitude] (fixed seed).
inline Heightfield bumpy_field(int rows, int columns, glm::vec2 cell, glm::vec3 origin, float amplitude,
                               unsigned seed = 12345) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> h(0.f, amplitude);
  std::vector<float> heights(static_cast<std::size_t>(rows) * columns);
  for (float& v : heights) v = h(rng);
  return Heightfield(
      {.rows = rows, .columns = columns, .heights = std::move(heights), .cell_size = cell, .origin = origin});
}

/// First front-face hit (triangle normal against the ray) of origin + t dir, t in [0, max_t],
/// over every triangle of the field, Möller-Trumbore in double with closed triangles.
struct OracleHit {
  double t = 0;
  dvec3 normal{0};
  double edge_distance = 0; ///< smallest barycentric coordinate at the hit (0 on an edge)
};
inline std::optional<OracleHit> oracle_raycast(const Heightfield& field, dvec3 o, dvec3 d, double max_t) {
  std::optional<OracleHit> best;
  for (int r = 0; r + 1 < field.rows(); ++r)
    for (int c = 0; c + 1 < field.columns(); ++c) {
      if (field.is_hole(r, c)) continue;
      for (const gjk::Triangle& t : field.cell_triangles(r, c)) {
        const dvec3 a(t.a), b(t.b), cc(t.c);
        const dvec3 e1 = b - a, e2 = cc - a, n = glm::cross(e1, e2);
        if (glm::dot(n, d) >= 0) continue; // back face or parallel
        const dvec3 p = glm::cross(d, e2);
        const double det = glm::dot(e1, p);
        const dvec3 s = o - a;
        const double u = glm::dot(s, p) / det;
        const dvec3 q = glm::cross(s, e1);
        const double v = glm::dot(d, q) / det;
        const double tt = glm::dot(e2, q) / det;
        const double w = 1 - u - v;
        if (u < 0 || v < 0 || w < 0 || tt < 0 || tt > max_t) continue;
        if (!best || tt < best->t) best = OracleHit{tt, glm::normalize(n), std::min({u, v, w})};
      }
    }
  return best;
}

/// Exact triangle / box overlap by the separating axis theorem (13 axes), in double.
inline bool oracle_overlaps(const gjk::Triangle& tri, const gjk::Aabb& box) {
  const dvec3 center = (dvec3(box.min) + dvec3(box.max)) * 0.5, half = (dvec3(box.max) - dvec3(box.min)) * 0.5;
  const std::array<dvec3, 3> v{dvec3(tri.a) - center, dvec3(tri.b) - center, dvec3(tri.c) - center};
  const std::array<dvec3, 3> e{v[1] - v[0], v[2] - v[1], v[0] - v[2]};
  const auto separated = [&](const dvec3& axis) {
    const double p0 = glm::dot(v[0], axis), p1 = glm::dot(v[1], axis), p2 = glm::dot(v[2], axis);
    const double rad = half.x * std::abs(axis.x) + half.y * std::abs(axis.y) + half.z * std::abs(axis.z);
    return std::min({p0, p1, p2}) > rad || std::max({p0, p1, p2}) < -rad;
  };
  const std::array<dvec3, 3> box_axes{dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(0, 0, 1)};
  for (const dvec3& a : box_axes)
    if (separated(a)) return false;
  if (separated(glm::cross(e[0], e[1]))) return false;
  for (const dvec3& a : box_axes)
    for (const dvec3& edge : e)
      if (separated(glm::cross(a, edge))) return false;
  return true;
}

/// Distance between segment [p, q] and a triangle, in double, by sampling-free exact cases:
/// the minimum over the segment against the triangle's plane region and its three edges.
inline double closest_on_segment_param(dvec3 p, dvec3 q, dvec3 x) {
  const dvec3 d = q - p;
  const double len2 = glm::dot(d, d);
  return len2 > 0 ? std::clamp(glm::dot(x - p, d) / len2, 0.0, 1.0) : 0.0;
}
inline double point_triangle_distance(dvec3 x, dvec3 a, dvec3 b, dvec3 c) {
  const dvec3 n = glm::normalize(glm::cross(b - a, c - a));
  const dvec3 proj = x - n * glm::dot(x - a, n);
  const auto inside = [&](dvec3 p0, dvec3 p1) { return glm::dot(glm::cross(p1 - p0, proj - p0), n) >= 0; };
  if (inside(a, b) && inside(b, c) && inside(c, a)) return std::abs(glm::dot(x - a, n));
  double best = 1e300;
  for (const auto& [p0, p1] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}})
    best = std::min(best, glm::length(x - (p0 + (p1 - p0) * closest_on_segment_param(p0, p1, x))));
  return best;
}
/// Closest distance between segments [p0, p1] and [q0, q1] (clamped closed form).
inline double segment_segment_distance(dvec3 p0, dvec3 p1, dvec3 q0, dvec3 q1) {
  const dvec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  double s = 0, t = 0;
  if (a <= 0 && e <= 0) return glm::length(r);
  if (a <= 0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = glm::dot(d1, r);
    if (e <= 0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = glm::dot(d1, d2), denom = a * e - b * b;
      s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return glm::length(p0 + d1 * s - (q0 + d2 * t));
}
/// Segment / triangle distance: 0 when the segment crosses the triangle, else the minimum of
/// the segment ends against the triangle and the segment against the triangle's edges.
inline double segment_triangle_distance(dvec3 p, dvec3 q, const gjk::Triangle& tri) {
  const dvec3 a(tri.a), b(tri.b), c(tri.c);
  const dvec3 n = glm::cross(b - a, c - a);
  const double sp = glm::dot(p - a, n), sq = glm::dot(q - a, n);
  if ((sp <= 0 && sq >= 0) || (sp >= 0 && sq <= 0)) {
    if (sp != sq) {
      const dvec3 x = p + (q - p) * (sp / (sp - sq));
      if (point_triangle_distance(x, a, b, c) <= 1e-12) return 0;
    }
  }
  return std::min({point_triangle_distance(p, a, b, c), point_triangle_distance(q, a, b, c),
                   segment_segment_distance(p, q, a, b), segment_segment_distance(p, q, b, c),
                   segment_segment_distance(p, q, c, a)});
}

} // namespace glide::test
