#pragma once

// Closest point of a simplex (point, segment, triangle, tetrahedron) to the origin, by the
// signed-volumes method (Montanari, Petrinic, Barbieri 2017): barycentric coordinates come
// from signed lengths, areas and volumes, the origin's projection is tested against each
// sub-simplex and only the faces it lies outside of are searched. Degenerate simplices
// (coincident points, collinear triangle, coplanar tetrahedron) fall back to searching all
// of their faces, so the answer is always a point of the simplex and never NaN.

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/select.hpp>
#include <glide/gjk/detail/vec4.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cmath>
#include <limits>

GLIDE_GJK_FP_EXACT_BEGIN

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

/// The nearest point of the edges of triangle p[i] p[j] p[k] that the origin's projection is
/// beyond (out_x: beyond the edge opposite p[x]). See closest_on_triangle.
inline void closest_on_triangle_edges(const F4* p, int i, int j, int k, bool out_i, bool out_j, bool out_k,
                                      bool k_newest, Closest4& out) {
  EdgeCandidate best;
  bool have = false;
  const auto consider = [&](F4 px, F4 py, int x, int y) {
    const EdgeCandidate c = edge_candidate(px, py, x, y);
    if (!have || c.distance_squared < best.distance_squared) best = c;
    have = true;
  };
  if (out_i) consider(p[j], p[k], j, k);
  if (out_j) consider(p[k], p[i], k, i);
  if (out_k && (!k_newest || !have)) consider(p[i], p[j], i, j);
  if (!have) consider(p[i], p[j], i, j);
  write_edge(best, out);
}

/// The nearest point of the rim of triangle p[0] p[1] p[2] (its three edges), for a triangle
/// the origin almost always lies beyond (GJK's start from a hull's plane): no normal, no areas,
/// and no branch on the region, which mispredicts. Measured on the mixed 8-vertex stream:
/// closest_on_triangle_edges with every edge searched (it branches on each choice), 2 to 3 %
/// slower; inlined into GJK, 2 %; the three edges side by side in vector lanes, 2 to 8 %.
[[gnu::noinline]] inline Closest4 closest_on_triangle_rim(const F4* p) {
  const EdgeCandidate c01 = edge_candidate(p[0], p[1], 0, 1);
  const EdgeCandidate c12 = edge_candidate(p[1], p[2], 1, 2);
  const EdgeCandidate c20 = edge_candidate(p[2], p[0], 2, 0);
  const EdgeCandidate& nearer = c12.distance_squared < c01.distance_squared ? c12 : c01;
  Closest4 out;
  write_edge(c20.distance_squared < nearer.distance_squared ? c20 : nearer, out);
  return out;
}

/// sin² of the angle between two edges below which their float cross product is not trusted
/// as the normal. Its error is about FLT_EPSILON · |e1| |e2| per component, so its direction
/// is off by about FLT_EPSILON / sin: the projection's distance by that times the triangle's
/// size. A sliver of the Minkowski difference (two long, nearly parallel edges) once gave a
/// distance below the true one. The normal is taken at the largest angle, so only a nearly
/// flat triangle (that angle within 14° of 180°) is solved in double.
inline constexpr float k_triangle_sin2 = 1.f / 16.f;

/// Largest |Σ λ_i p_i − v| accepted from float weights λ and closest point v, relative to
/// max|p|: a few ulps, the rounding of the sum itself.
inline constexpr float k_weights_residual = 4.f * std::numeric_limits<float>::epsilon();

/// closest_on_triangle in double, for triangles whose float normal is not trusted: the
/// edges of float points are exact in double and the cross product nearly so, so the normal
/// keeps its direction down to angles of about 1e-8 rad. Out of line: it is rare.
[[gnu::noinline, gnu::cold]] inline void closest_on_triangle_precise(const F4* p, int i, int j, int k, Closest4& out,
                                                                     bool k_newest) {
  const auto d3 = [](F4 v) { return glm::dvec3(v[0], v[1], v[2]); };
  const glm::dvec3 pi = d3(p[i]), pj = d3(p[j]), pk = d3(p[k]);
  const glm::dvec3 n = glm::cross(pj - pi, pk - pi);
  const double nn = glm::dot(n, n);
  bool out_i = true, out_j = true, out_k = true; // collinear: search every edge
  if (nn > 0.0 && std::isfinite(nn)) {
    const double ci = glm::dot(pj, glm::cross(pk - pj, n));
    const double cj = glm::dot(pk, glm::cross(pi - pk, n));
    const double ck = glm::dot(pi, glm::cross(pj - pi, n));
    out_i = ci < 0.0;
    out_j = cj < 0.0;
    out_k = ck < 0.0;
    const double sum = ci + cj + ck;
    if (!out_i && !out_j && !out_k) {
      if (sum > 0.0) {
        const glm::dvec3 q = n * (glm::dot(n, pi) / nn);
        out.point = F4{static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z), 0.f};
        out.distance_squared = static_cast<float>(glm::dot(q, q));
        out.weights[i] = static_cast<float>(ci / sum);
        out.weights[j] = static_cast<float>(cj / sum);
        out.weights[k] = static_cast<float>(ck / sum);
        out.mask = (1u << i) | (1u << j) | (1u << k);
        out.contains_origin = false;
        return;
      }
      out_i = out_j = out_k = true;
    }
  }
  closest_on_triangle_edges(p, i, j, k, out_i, out_j, out_k, k_newest, out);
}

/// Triangle p[i], p[j], p[k]. When `k_newest` is set, p[k] was just added by GJK to a simplex
/// whose nearest point was on p[i]p[j], so the answer involves p[k] and the edge p[i]p[j]
/// need not be searched (it still is if rounding leaves no other candidate).
[[gnu::always_inline]] inline void closest_on_triangle_inline(const F4* p, int i, int j, int k, Closest4& out,
                                                              bool k_newest) {
  const F4 pi = p[i], pj = p[j], pk = p[k];
  const F4 eij = pj - pi, eik = pk - pi, ejk = pk - pj;
  // The normal from the two edges at the largest angle (those other than the longest edge):
  // its sine is the largest of the three, so that normal is the most accurate in float.
  // eij × eik = eij × ejk = eik × ejk.
  // All three products are formed and one selected, so that the choice (the edge lengths)
  // runs alongside them rather than before a single product on the path to the next support.
  const float lij = dot(eij, eij), lik = dot(eik, eik), ljk = dot(ejk, ejk);
  const bool jk_longest = ljk >= lij && ljk >= lik, ij_longest = !jk_longest && lij > lik;
  const F4 n = select(jk_longest, cross(eij, eik), select(ij_longest, cross(eik, ejk), cross(eij, ejk)));
  const float nn = dot(n, n);
  const float shorter_two = min_of(min_of(lij * lik, lij * ljk), lik * ljk); // |edge|² · |edge|² for n
  // Also false for a collinear triangle (nn = 0) and for non-finite input.
  if (!(nn >= k_triangle_sin2 * shorter_two)) {
    closest_on_triangle_precise(p, i, j, k, out, k_newest);
    return;
  }
  // Signed areas of the sub-triangles q p_j p_k, q p_k p_i, q p_i p_j along n (times |n|),
  // q the origin's projection onto the plane: each is a vertex of the edge dotted with the
  // edge's in-plane normal (edge × n), as q itself is orthogonal to those normals. The
  // rounding error is then that of the normals times |q|, as if the areas were taken
  // around q, without computing q or dividing first.
  const F4 mij = cross(eij, n), mik = cross(eik, n);
  const float ci = dot(pj, mik - mij); // weight of p[i] times nn; mik - mij = (p_k - p_j) × n
  const float cj = -dot(pk, mik);
  const float ck = dot(pi, mij);
  bool out_i = ci < 0.f, out_j = cj < 0.f, out_k = ck < 0.f;
  const float sum = ci + cj + ck;
  if (!out_i && !out_j && !out_k) {
    if (sum > 0.f) {
      const float inv = 1.f / sum;
      const F4 q = n * splat(dot(n, pi) / nn);
      const float wi = ci * inv, wj = cj * inv, wk = ck * inv;
      // q comes from the normal, the weights (hence the closest points) from the areas: they
      // must agree. They do not when the normal is tilted (q leaves the plane) or the weights
      // are off (a needle: its long edges amplify an error across it); then solve in double.
      const F4 residual = splat(wi) * pi + splat(wj) * pj + splat(wk) * pk - q;
      const float pp = max_of(max_of(dot(pi, pi), dot(pj, pj)), dot(pk, pk));
      if (!(dot(residual, residual) <= k_weights_residual * k_weights_residual * pp)) {
        closest_on_triangle_precise(p, i, j, k, out, k_newest);
        return;
      }
      out.point = q;
      out.distance_squared = dot(q, q);
      out.weights[i] = wi;
      out.weights[j] = wj;
      out.weights[k] = wk;
      out.mask = (1u << i) | (1u << j) | (1u << k);
      out.contains_origin = false;
      return;
    }
    out_i = out_j = out_k = true;
  }
  // The projection is outside: the nearest point lies on an edge that it is beyond.
  closest_on_triangle_edges(p, i, j, k, out_i, out_j, out_k, k_newest, out);
}

/// closest_on_triangle_inline, for the tetrahedron's faces, where inlining is not worth its size.
inline void closest_on_triangle(const F4* p, int i, int j, int k, Closest4& out, bool k_newest = false) {
  closest_on_triangle_inline(p, i, j, k, out, k_newest);
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

/// Bound on the rounding error of the float cofactors below, as a multiple of FLT_EPSILON ·
/// max|p| · max|e|² (e: the edges from p[0]; the other edges are at most twice as long).
inline constexpr float k_cofactor_error = 20.f * std::numeric_limits<float>::epsilon();

/// Signed volumes in double: the sides of the origin when a float one was too close to zero
/// to trust (a needle or sliver tetrahedron, or the origin near a face). Out of line: rare.
[[gnu::noinline, gnu::cold]] inline void tetrahedron_sides_precise(const F4* p, bool& out0, bool& out1, bool& out2,
                                                                   bool& out3, float& c0f, float& c1f, float& c2f,
                                                                   float& c3f) {
  const auto d3 = [](F4 v) { return glm::dvec3(v[0], v[1], v[2]); };
  const glm::dvec3 p0 = d3(p[0]), p1 = d3(p[1]), p2 = d3(p[2]), p3 = d3(p[3]);
  const glm::dvec3 e1 = p1 - p0, e2 = p2 - p0, e3 = p3 - p0;
  const glm::dvec3 n23 = glm::cross(e2, e3);
  const double c0 = glm::dot(p1, glm::cross(p2 - p1, p3 - p1));
  const double c1 = -glm::dot(p0, n23);
  const double c2 = -glm::dot(p0, glm::cross(e3, e1));
  const double c3 = -glm::dot(p0, glm::cross(e1, e2));
  const double volume = glm::dot(e1, n23);
  const auto outside = [volume](double c) { return (volume > 0.0 && c < 0.0) || (volume < 0.0 && c > 0.0); };
  const bool flat = !(volume != 0.0 && std::isfinite(volume));
  out0 = flat || outside(c0);
  out1 = flat || outside(c1);
  out2 = flat || outside(c2);
  out3 = flat || outside(c3);
  // Weights for a contained origin: ratios of the double cofactors.
  const double sum = c0 + c1 + c2 + c3;
  const double inv = sum != 0.0 ? 1.0 / sum : 0.0;
  c0f = static_cast<float>(c0 * inv);
  c1f = static_cast<float>(c1 * inv);
  c2f = static_cast<float>(c2 * inv);
  c3f = static_cast<float>(c3 * inv);
}

/// Whether the tetrahedron p[0..3] holds the origin (inside or on its boundary), with the
/// signs certain: float cofactors when they are clear of their rounding error, double
/// otherwise. A flat tetrahedron holds nothing.
inline bool tetrahedron_holds_origin(const F4* p) {
  const F4 p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
  const F4 e1 = p1 - p0, e2 = p2 - p0, e3 = p3 - p0;
  const F4 n23 = cross(e2, e3);
  float c0 = dot(p1, cross(p2 - p1, p3 - p1)), c1 = -dot(p0, n23), c2 = -dot(p0, cross(e3, e1)),
        c3 = -dot(p0, cross(e1, e2));
  const float volume = dot(e1, n23);
  const float pp = max_of(max_of(dot(p0, p0), dot(p1, p1)), max_of(dot(p2, p2), dot(p3, p3)));
  const float ee = max_of(max_of(dot(e1, e1), dot(e2, e2)), dot(e3, e3));
  const float c_err2 = k_cofactor_error * k_cofactor_error * pp * (ee * ee);
  const float v_err2 = k_cofactor_error * k_cofactor_error * ee * (ee * ee);
  const float c_min2 = min_of(min_of(c0 * c0, c1 * c1), min_of(c2 * c2, c3 * c3));
  bool out0, out1, out2, out3;
  if (c_min2 > c_err2 && volume * volume > v_err2) {
    out0 = same_sign(-volume, c0);
    out1 = same_sign(-volume, c1);
    out2 = same_sign(-volume, c2);
    out3 = same_sign(-volume, c3);
  } else {
    tetrahedron_sides_precise(p, out0, out1, out2, out3, c0, c1, c2, c3);
  }
  return !out0 && !out1 && !out2 && !out3;
}

/// Tetrahedron p[0..3]. With `newest`, p[3] was just added by GJK to the triangle p[0..2]
/// and the answer involves it: the face p[0]p[1]p[2] is searched only as a last resort.
[[gnu::aligned(64)]] inline void closest_on_tetrahedron(const F4* p, Closest4& out, bool newest = false) {
  // Cofactors: the signed volume with the origin in place of vertex e, written as a face
  // normal (from edges, accurate) dotted with a vertex, which keeps the rounding error
  // proportional to |p| rather than |p|^3 when the tetrahedron is far from the origin.
  const F4 p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
  const F4 e1 = p1 - p0, e2 = p2 - p0, e3 = p3 - p0;
  const F4 n23 = cross(e2, e3);
  float c0 = dot(p1, cross(p2 - p1, p3 - p1));
  float c1 = -dot(p0, n23);
  float c2 = -dot(p0, cross(e3, e1));
  float c3 = -dot(p0, cross(e1, e2));
  float volume = dot(e1, n23);
  bool out0, out1, out2, out3;
  // A cofactor or the volume within its rounding error of zero has no trusted sign: a
  // wrong one would report a false overlap or skip the face nearest the origin. Decided in
  // double then (rare: a needle or sliver, or the origin within ~1e-5 of the size of a face).
  const float pp = max_of(max_of(dot(p0, p0), dot(p1, p1)), max_of(dot(p2, p2), dot(p3, p3)));
  const float ee = max_of(max_of(dot(e1, e1), dot(e2, e2)), dot(e3, e3));
  const float c_err2 = k_cofactor_error * k_cofactor_error * pp * (ee * ee);
  const float v_err2 = k_cofactor_error * k_cofactor_error * ee * (ee * ee);
  const float c_min2 = min_of(min_of(c0 * c0, c1 * c1), min_of(c2 * c2, c3 * c3));
  if (!(c_min2 > c_err2 && volume * volume > v_err2)) { // also for non-finite input
    tetrahedron_sides_precise(p, out0, out1, out2, out3, c0, c1, c2, c3);
    if (!out0 && !out1 && !out2 && !out3) {
      out.point = F4{};
      out.distance_squared = 0.f;
      out.weights = {c0, c1, c2, c3};
      out.mask = 0xFu;
      out.contains_origin = true;
      return;
    }
  } else {
    out0 = same_sign(-volume, c0);
    out1 = same_sign(-volume, c1);
    out2 = same_sign(-volume, c2);
    out3 = same_sign(-volume, c3);
    if (!out0 && !out1 && !out2 && !out3) {
      const float inv = 1.f / (c0 + c1 + c2 + c3);
      out.point = F4{};
      out.distance_squared = 0.f;
      out.weights = {c0 * inv, c1 * inv, c2 * inv, c3 * inv};
      out.mask = 0xFu;
      out.contains_origin = true;
      // The weights give the closest points (a common point of the shapes): their
      // combination of the vertices must be the origin. A flat tetrahedron's float weights
      // can miss it by far more than rounding; then they are taken in double.
      const F4 residual = splat(out.weights[0]) * p0 + splat(out.weights[1]) * p1 + splat(out.weights[2]) * p2 +
                          splat(out.weights[3]) * p3;
      if (dot(residual, residual) > k_weights_residual * k_weights_residual * pp) {
        bool o0, o1, o2, o3;
        tetrahedron_sides_precise(p, o0, o1, o2, o3, out.weights[0], out.weights[1], out.weights[2], out.weights[3]);
      }
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
/// closest_to_origin below. One call from GJK's loop, the triangle (its commonest case)
/// inlined here and the tetrahedron a call of its own: measured on the mixed 8-vertex stream,
/// about 15 % faster than with this dispatch inlined into the loop, whose code then grows.
[[gnu::noinline, gnu::aligned(64)]] inline Closest4 closest_to_origin(const F4* p, int count,
                                                                      bool last_is_newest = false) {
  Closest4 out;
  switch (count) {
  case 1:
    closest_is_vertex(p, 0, out);
    break;
  case 2:
    closest_on_segment(p, 0, 1, out);
    break;
  case 3:
    closest_on_triangle_inline(p, 0, 1, 2, out, last_is_newest);
    break;
  default:
    closest_on_tetrahedron(p, out, last_is_newest);
    break;
  }
  return out;
}

/// closest_to_origin for GJK's loop, which just added p[count - 1] (count 2 to 4, last
/// newest): that vertex also comes in a register and the nearest point goes back in one, the
/// rest through `out`. Through memory, each way added a store-to-load forwarding to the
/// chain from one support call to the next. Same arithmetic, same bits.
[[gnu::noinline, gnu::aligned(64)]] inline F4 closest_with_newest(const F4* p, F4 newest, int count, Closest4& out) {
  switch (count) {
  case 2: {
    const F4 q[2] = {p[0], newest};
    closest_on_segment(q, 0, 1, out);
    break;
  }
  case 3: {
    const F4 q[3] = {p[0], p[1], newest};
    closest_on_triangle_inline(q, 0, 1, 2, out, true);
    break;
  }
  default:
    closest_on_tetrahedron(p, out, true);
    break;
  }
  return out.point;
}

} // namespace detail

/// Closest point to the origin of the simplex p[0..count-1] (count 1 to 4). With
/// `last_is_newest`, the caller (GJK) guarantees that the last vertex was just added to a
/// simplex whose nearest point lay on the others, which lets the search skip the face
/// opposite it (GJK's classic pruning; the full search still runs if rounding requires).
/// Compiled in the library, so it rounds alike whatever the caller's flags.
SimplexClosest closest_to_origin(const glm::vec3* p, int count, bool last_is_newest = false);

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
