#pragma once

// Closest point of a simplex (point, segment, triangle, tetrahedron) to the origin, by the
// signed-volumes method (Montanari, Petrinic, Barbieri 2017): barycentric coordinates come
// from signed lengths, areas and volumes, the origin's projection is tested against each
// sub-simplex and only the faces it lies outside of are searched. Degenerate simplices
// (coincident points, collinear triangle, coplanar tetrahedron) fall back to searching all
// of their faces, so the answer is always a point of the simplex and never NaN.

#include <glide/gjk/detail/select.hpp>
#include <glide/gjk/detail/vec4.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cmath>

namespace glide::gjk {

/// The point of a simplex nearest the origin, as barycentric weights over its vertices.
struct SimplexClosest {
  glm::vec3 point{0.f};           ///< nearest point (same frame as the vertices)
  float distance_squared = 0.f;   ///< |point|^2
  std::array<float, 4> weights{}; ///< per input vertex; only those in `mask` are meaningful
  unsigned mask = 0;              ///< bit i set: vertex i carries weight (the support sub-simplex)
  bool contains_origin = false;   ///< a tetrahedron that holds the origin (inside or on its boundary)
};

namespace detail {

/// SimplexClosest with the point in a vector register, as GJK's loop keeps it.
struct Closest4 {
  F4 point{};
  float distance_squared = 0.f;
  std::array<float, 4> weights{};
  unsigned mask = 0;
  bool contains_origin = false;
};

/// True when a and b are both strictly positive or both strictly negative (bitwise, so
/// that the data-dependent answer is not a branch).
inline bool same_sign(float a, float b) { return ((a > 0.f) & (b > 0.f)) | ((a < 0.f) & (b < 0.f)); }

inline void closest_is_vertex(const F4* p, int i, Closest4& out) {
  out.point = p[i];
  out.distance_squared = dot(p[i], p[i]);
  out.weights[i] = 1.f;
  out.mask = 1u << i;
  out.contains_origin = false;
}

/// The nearest point of segment p[i]–p[j], kept light so that a triangle can compare its
/// edges before writing the winner out.
struct EdgeCandidate {
  F4 point{};
  float distance_squared = 0.f;
  float lj = 0.f; ///< weight of p[j]
  int i = 0, j = 0;
};

inline EdgeCandidate edge_candidate(F4 pi, F4 pj, int i, int j) {
  const F4 d = pj - pi;
  const float dd = dot(d, d);
  const float t = -dot(pi, d); // weight of p[j] times dd
  const float lj = clamp01(dd > 0.f ? t / dd : 0.f);
  EdgeCandidate c;
  c.point = splat(1.f - lj) * pi + splat(lj) * pj; // exactly p[i] or p[j] at the ends
  c.distance_squared = dot(c.point, c.point);
  c.lj = lj;
  c.i = i;
  c.j = j;
  return c;
}

inline void write_edge(const EdgeCandidate& c, Closest4& out) {
  out.point = c.point;
  out.distance_squared = c.distance_squared;
  out.weights[c.i] = 1.f - c.lj;
  out.weights[c.j] = c.lj;
  out.mask = (c.lj < 1.f ? 1u << c.i : 0u) | (c.lj > 0.f ? 1u << c.j : 0u);
  out.contains_origin = false;
}

/// Segment p[i]–p[j]. Branch-free (the region is data-dependent and mispredicts badly):
/// the weight is clamped and the support mask follows from it.
inline void closest_on_segment(const F4* p, int i, int j, Closest4& out) {
  write_edge(edge_candidate(p[i], p[j], i, j), out);
}

/// Triangle p[i], p[j], p[k]. When `k_newest` is set, p[k] was just added by GJK to a simplex
/// whose nearest point was on p[i]p[j], so the answer involves p[k] and the edge p[i]p[j]
/// need not be searched (it still is if rounding leaves no other candidate).
inline void closest_on_triangle(const F4* p, int i, int j, int k, Closest4& out, bool k_newest = false) {
  const F4 pi = p[i], pj = p[j], pk = p[k];
  const F4 eij = pj - pi, eik = pk - pi;
  const F4 n = cross(eij, eik);
  const float nn = dot(n, n);
  bool out_i = true, out_j = true, out_k = true; // degenerate: search every edge
  if (nn > 0.f && std::isfinite(nn)) {
    // Signed areas of the sub-triangles q p_j p_k, q p_k p_i, q p_i p_j along n (times |n|),
    // q the origin's projection onto the plane: each is a vertex of the edge dotted with the
    // edge's in-plane normal (edge × n), as q itself is orthogonal to those normals. The
    // rounding error is then that of the normals times |q|, as if the areas were taken
    // around q, without computing q or dividing first.
    const F4 mij = cross(eij, n), mik = cross(eik, n);
    const float ci = dot(pj, mik - mij); // weight of p[i] times nn; mik - mij = (p_k - p_j) × n
    const float cj = -dot(pk, mik);
    const float ck = dot(pi, mij);
    out_i = ci < 0.f;
    out_j = cj < 0.f;
    out_k = ck < 0.f;
    const float sum = ci + cj + ck;
    if (!out_i && !out_j && !out_k) {
      if (sum > 0.f) {
        const float inv = 1.f / sum;
        const F4 q = n * splat(dot(n, pi) / nn);
        out.point = q;
        out.distance_squared = dot(q, q);
        out.weights[i] = ci * inv;
        out.weights[j] = cj * inv;
        out.weights[k] = ck * inv;
        out.mask = (1u << i) | (1u << j) | (1u << k);
        out.contains_origin = false;
        return;
      }
      out_i = out_j = out_k = true;
    }
  }
  // The projection is outside: the nearest point lies on an edge that it is beyond.
  EdgeCandidate best;
  bool have = false;
  const auto consider = [&](F4 px, F4 py, int x, int y) {
    const EdgeCandidate c = edge_candidate(px, py, x, y);
    if (!have || c.distance_squared < best.distance_squared) best = c;
    have = true;
  };
  if (out_i) consider(pj, pk, j, k);
  if (out_j) consider(pk, pi, k, i);
  if (out_k && (!k_newest || !have)) consider(pi, pj, i, j);
  if (!have) consider(pi, pj, i, j);
  write_edge(best, out);
}

inline void closest_on_triangle_if_better(const F4* p, int i, int j, int k, Closest4& best, bool& have, bool k_newest) {
  if (!have) {
    closest_on_triangle(p, i, j, k, best, k_newest);
    have = true;
    return;
  }
  Closest4 candidate;
  closest_on_triangle(p, i, j, k, candidate, k_newest);
  if (candidate.distance_squared < best.distance_squared) best = candidate;
}

/// Tetrahedron p[0..3]. With `newest`, p[3] was just added by GJK to the triangle p[0..2]
/// and the answer involves it: the face p[0]p[1]p[2] is searched only as a last resort.
inline void closest_on_tetrahedron(const F4* p, Closest4& out, bool newest = false) {
  // Cofactors: the signed volume with the origin in place of vertex e, written as a face
  // normal (from edges, accurate) dotted with a vertex, which keeps the rounding error
  // proportional to |p| rather than |p|^3 when the tetrahedron is far from the origin.
  const F4 p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
  const F4 e1 = p1 - p0, e2 = p2 - p0, e3 = p3 - p0;
  const F4 n23 = cross(e2, e3);
  const float c0 = dot(p1, cross(p2 - p1, p3 - p1));
  const float c1 = -dot(p0, n23);
  const float c2 = -dot(p0, cross(e3, e1));
  const float c3 = -dot(p0, cross(e1, e2));
  const float volume = dot(e1, n23);
  bool out0 = true, out1 = true, out2 = true, out3 = true; // flat: search every face
  if (volume != 0.f && std::isfinite(volume)) {
    out0 = same_sign(-volume, c0);
    out1 = same_sign(-volume, c1);
    out2 = same_sign(-volume, c2);
    out3 = same_sign(-volume, c3);
    if (!out0 && !out1 && !out2 && !out3) {
      const float sum = c0 + c1 + c2 + c3;
      const float inv = sum != 0.f ? 1.f / sum : 0.f;
      out.point = F4{};
      out.distance_squared = 0.f;
      out.weights = {c0 * inv, c1 * inv, c2 * inv, c3 * inv};
      if (sum == 0.f) out.weights = {0.25f, 0.25f, 0.25f, 0.25f};
      out.mask = 0xFu;
      out.contains_origin = true;
      return;
    }
  }
  // Faces through p[3] list it last, so their search can prune the edge opposite it.
  bool have = false;
  if (out0) closest_on_triangle_if_better(p, 1, 2, 3, out, have, newest);
  if (out1) closest_on_triangle_if_better(p, 2, 0, 3, out, have, newest);
  if (out2) closest_on_triangle_if_better(p, 0, 1, 3, out, have, newest);
  if (out3 && (!newest || !have)) closest_on_triangle_if_better(p, 0, 2, 1, out, have, false);
  if (!have) closest_on_triangle_if_better(p, 0, 1, 2, out, have, false);
}

/// Closest point to the origin of the simplex p[0..count-1] (count 1 to 4); see
/// closest_to_origin below.
inline Closest4 closest_to_origin(const F4* p, int count, bool last_is_newest = false) {
  Closest4 out;
  switch (count) {
  case 1:
    closest_is_vertex(p, 0, out);
    break;
  case 2:
    closest_on_segment(p, 0, 1, out);
    break;
  case 3:
    closest_on_triangle(p, 0, 1, 2, out, last_is_newest);
    break;
  default:
    closest_on_tetrahedron(p, out, last_is_newest);
    break;
  }
  return out;
}

} // namespace detail

/// Closest point to the origin of the simplex p[0..count-1] (count 1 to 4). With
/// `last_is_newest`, the caller (GJK) guarantees that the last vertex was just added to a
/// simplex whose nearest point lay on the others, which lets the search skip the face
/// opposite it (GJK's classic pruning; the full search still runs if rounding requires).
inline SimplexClosest closest_to_origin(const glm::vec3* p, int count, bool last_is_newest = false) {
  detail::F4 q[4]{};
  for (int i = 0; i < count && i < 4; ++i) q[i] = detail::load(p[i]);
  const detail::Closest4 c = detail::closest_to_origin(q, count, last_is_newest);
  return {detail::to_vec3(c.point), c.distance_squared, c.weights, c.mask, c.contains_origin};
}

} // namespace glide::gjk
