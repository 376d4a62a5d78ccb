#pragma once

// Closest point of a simplex (point, segment, triangle, tetrahedron) to the origin, by the
// signed-volumes method (Montanari, Petrinic, Barbieri 2017): barycentric coordinates come
// from signed lengths, areas and volumes, the origin's projection is tested against each
// sub-simplex and only the faces it lies outside of are searched. Degenerate simplices
// (coincident points, collinear triangle, coplanar tetrahedron) fall back to searching all
// of their faces, so the answer is always a point of the simplex and never NaN.

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cmath>

namespace glide::gjk {

/// The point of a simplex nearest the origin, as barycentric weights over its vertices.
struct SimplexClosest {
  glm::vec3 point{0.f};           ///< nearest point (same frame as the vertices)
  float distance_squared = 0.f;   ///< |point|^2
  std::array<float, 4> weights{}; ///< per input vertex; 0 for vertices not in `mask`
  unsigned mask = 0;              ///< bit i set: vertex i carries weight (the support sub-simplex)
  bool contains_origin = false;   ///< a tetrahedron that holds the origin (weights all > 0 or on its boundary)
};

namespace detail {

inline bool same_sign(float a, float b) { return (a > 0.f && b > 0.f) || (a < 0.f && b < 0.f); }

inline void set_vertex(SimplexClosest& out, const glm::vec3* p, int i) {
  out = SimplexClosest{};
  out.point = p[i];
  out.distance_squared = glm::dot(p[i], p[i]);
  out.weights[i] = 1.f;
  out.mask = 1u << i;
}

/// Segment p[i]–p[j].
inline void closest_on_segment(const glm::vec3* p, int i, int j, SimplexClosest& out) {
  const glm::vec3 d = p[j] - p[i];
  const float dd = glm::dot(d, d);
  const float t = -glm::dot(p[i], d); // weight of p[j] times dd
  if (t <= 0.f || !(dd > 0.f)) return set_vertex(out, p, i);
  if (t >= dd) return set_vertex(out, p, j);
  const float lj = t / dd;
  out = SimplexClosest{};
  out.point = p[i] + lj * d;
  out.distance_squared = glm::dot(out.point, out.point);
  out.weights[i] = 1.f - lj;
  out.weights[j] = lj;
  out.mask = (1u << i) | (1u << j);
}

inline void keep_best(SimplexClosest& best, const SimplexClosest& candidate, bool& have) {
  if (!have || candidate.distance_squared < best.distance_squared) best = candidate;
  have = true;
}

/// Triangle p[i], p[j], p[k].
inline void closest_on_triangle(const glm::vec3* p, int i, int j, int k, SimplexClosest& out) {
  const int idx[3] = {i, j, k};
  const glm::vec3 n = glm::cross(p[j] - p[i], p[k] - p[i]);
  const float nn = glm::dot(n, n);
  float c[3] = {0.f, 0.f, 0.f};
  float area = 0.f;
  glm::vec3 q{0.f};
  if (nn > 0.f && std::isfinite(nn)) {
    // Project the origin onto the plane first, so the signed areas below are taken between
    // points near the triangle rather than near the (possibly far) origin: the weights stay
    // accurate when the triangle is far from the origin relative to its size.
    q = n * (glm::dot(n, p[i]) / nn);
    // Signed areas in the axis plane where the triangle's shadow is largest.
    const glm::vec3 an = glm::abs(n);
    const int ax = an.x >= an.y && an.x >= an.z ? 0 : (an.y >= an.z ? 1 : 2);
    const int u = (ax + 1) % 3, v = (ax + 2) % 3; // cyclic, so the 2D cross is n[ax]'s sign
    area = n[ax];
    for (int e = 0; e < 3; ++e) {
      const glm::vec3 s = p[idx[(e + 1) % 3]] - q, t = p[idx[(e + 2) % 3]] - q;
      c[e] = s[u] * t[v] - s[v] * t[u];
    }
  }
  const bool degenerate = area == 0.f;
  if (!degenerate && !same_sign(-area, c[0]) && !same_sign(-area, c[1]) && !same_sign(-area, c[2])) {
    const float sum = c[0] + c[1] + c[2];
    if (sum != 0.f) {
      out = SimplexClosest{};
      out.point = q;
      out.distance_squared = glm::dot(q, q);
      for (int e = 0; e < 3; ++e) out.weights[idx[e]] = c[e] / sum;
      out.mask = (1u << i) | (1u << j) | (1u << k);
      return;
    }
  }
  // The projection is outside: the nearest point lies on an edge that the projection is
  // beyond. A degenerate (collinear) triangle searches all three edges.
  bool have = false;
  SimplexClosest edge;
  for (int e = 0; e < 3; ++e) {
    if (!degenerate && !same_sign(-area, c[e])) continue;
    closest_on_segment(p, idx[(e + 1) % 3], idx[(e + 2) % 3], edge);
    keep_best(out, edge, have);
  }
  if (!have) set_vertex(out, p, i);
}

/// Tetrahedron p[0..3].
inline void closest_on_tetrahedron(const glm::vec3* p, SimplexClosest& out) {
  // Cofactors: the signed volume with the origin in place of vertex e, written as a face
  // normal (from edges, accurate) dotted with a vertex, which keeps the rounding error
  // proportional to |p| rather than |p|^3 when the tetrahedron is far from the origin.
  const glm::vec3 e1 = p[1] - p[0], e2 = p[2] - p[0], e3 = p[3] - p[0];
  const glm::vec3 n23 = glm::cross(e2, e3);
  float c[4];
  c[0] = glm::dot(p[1], glm::cross(p[2] - p[1], p[3] - p[1]));
  c[1] = -glm::dot(p[0], n23);
  c[2] = -glm::dot(p[0], glm::cross(e3, e1));
  c[3] = -glm::dot(p[0], glm::cross(e1, e2));
  const float volume = glm::dot(e1, n23);
  const bool flat = !(volume != 0.f) || !std::isfinite(volume);
  if (!flat && !same_sign(-volume, c[0]) && !same_sign(-volume, c[1]) && !same_sign(-volume, c[2]) &&
      !same_sign(-volume, c[3])) {
    const float sum = c[0] + c[1] + c[2] + c[3];
    out = SimplexClosest{};
    for (int e = 0; e < 4; ++e) out.weights[e] = sum != 0.f ? c[e] / sum : 0.25f;
    out.mask = 0xFu;
    out.contains_origin = true;
    return;
  }
  static constexpr int face[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  bool have = false;
  SimplexClosest candidate;
  for (int e = 0; e < 4; ++e) {
    if (!flat && !same_sign(-volume, c[e])) continue; // the origin is on the inner side of this face
    closest_on_triangle(p, face[e][0], face[e][1], face[e][2], candidate);
    keep_best(out, candidate, have);
  }
  if (!have) set_vertex(out, p, 0);
}

} // namespace detail

/// Closest point to the origin of the simplex p[0..count-1] (count 1 to 4).
inline SimplexClosest closest_to_origin(const glm::vec3* p, int count) {
  SimplexClosest out;
  switch (count) {
  case 1:
    detail::set_vertex(out, p, 0);
    break;
  case 2:
    detail::closest_on_segment(p, 0, 1, out);
    break;
  case 3:
    detail::closest_on_triangle(p, 0, 1, 2, out);
    break;
  default:
    detail::closest_on_tetrahedron(p, out);
    break;
  }
  return out;
}

} // namespace glide::gjk
