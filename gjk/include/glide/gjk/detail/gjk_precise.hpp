#pragma once

// GJK's loop in double precision, where float GJK stalls: the support along −v returns a
// vertex already in the simplex, or a new vertex does not bring the simplex closer, while
// the bounds are still apart. That happens on nearly flat Minkowski differences (a needle
// or sliver shape against a segment nearly parallel to it) with the origin close to them:
// the float v is off by a few ulps of the vertices, which tilts −v by more than the gap
// GJK must resolve. In double the vertices w = a − b of float support points are exact, v
// is exact to ~1e-16 of them, and the only rounding left is that of the support calls
// (float directions): the loop then ends within the documented bounds.

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/vec4.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cmath>
#include <cstdint>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

/// A simplex vertex in double with the float data GJK's float simplex keeps.
struct PreciseVertex {
  glm::dvec3 w{0.0}; ///< a − b, exact (m)
  F4 a{}, b{};       ///< support points (m)
  glm::vec3 direction{0.f};
  std::uint32_t index_a = 0, index_b = 0;
};

struct PreciseClosest {
  glm::dvec3 point{0.0};
  double distance_squared = 0.0;
  std::array<double, 4> weights{};
  unsigned mask = 0;
  bool contains_origin = false; ///< four vertices, the origin inside or on the boundary
};

inline glm::dvec3 to_dvec3(F4 v) { return {v[0], v[1], v[2]}; }

/// Nearest point to the origin of the simplex s[0..n-1], n = 1 to 4, by trying every
/// sub-simplex: the origin's projection on its affine hull (normal equations, Gaussian
/// elimination with pivoting), kept when its weights are >= 0. Singular sub-simplices are
/// skipped: their own faces cover them, and single vertices always qualify.
inline PreciseClosest precise_closest(const PreciseVertex* s, int n) {
  PreciseClosest best;
  best.distance_squared = INFINITY;
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    int idx[4] = {0, 0, 0, 0}, m = 0;
    for (int i = 0; i < n; ++i)
      if (mask & (1u << i)) idx[m++] = i;
    double lambda[4] = {1.0, 0.0, 0.0, 0.0};
    if (m == 4) {
      // Whether the tetrahedron holds the origin, from the signs of its signed volumes (the
      // normal equations of a nearly flat one are too ill-conditioned to decide that).
      const glm::dvec3 &p0 = s[0].w, &p1 = s[1].w, &p2 = s[2].w, &p3 = s[3].w;
      const glm::dvec3 e1 = p1 - p0, e2 = p2 - p0, e3 = p3 - p0;
      const double volume = glm::dot(e1, glm::cross(e2, e3));
      const double c[4] = {glm::dot(p1, glm::cross(p2 - p1, p3 - p1)), -glm::dot(p0, glm::cross(e2, e3)),
                           -glm::dot(p0, glm::cross(e3, e1)), -glm::dot(p0, glm::cross(e1, e2))};
      if (!(volume != 0.0 && std::isfinite(volume))) continue;
      bool inside = true;
      for (double ci : c) inside = inside && !(volume > 0.0 ? ci < 0.0 : ci > 0.0);
      if (!inside) continue;
      const double sum = c[0] + c[1] + c[2] + c[3];
      for (int i = 0; i < 4; ++i) lambda[i] = sum != 0.0 ? c[i] / sum : 0.25;
    } else if (m > 1) {
      // x = q0 + Σ μ_i (q_i − q0), minimise |x|²: (E^T E) μ = −E^T q0.
      double g[3][3], r[3], mu[3] = {0.0, 0.0, 0.0};
      const glm::dvec3 q0 = s[idx[0]].w;
      glm::dvec3 e[3];
      for (int i = 1; i < m; ++i) e[i - 1] = s[idx[i]].w - q0;
      double scale = 0.0;
      for (int i = 0; i < m - 1; ++i) {
        for (int j = 0; j < m - 1; ++j) g[i][j] = glm::dot(e[i], e[j]);
        r[i] = -glm::dot(e[i], q0);
        scale = std::max(scale, g[i][i]);
      }
      bool singular = false;
      const int k = m - 1;
      for (int c = 0; c < k && !singular; ++c) {
        int pivot = c;
        for (int i = c + 1; i < k; ++i)
          if (std::abs(g[i][c]) > std::abs(g[pivot][c])) pivot = i;
        if (!(std::abs(g[pivot][c]) > 1e-14 * scale)) {
          singular = true;
          break;
        }
        for (int j = 0; j < k; ++j) std::swap(g[c][j], g[pivot][j]);
        std::swap(r[c], r[pivot]);
        for (int i = c + 1; i < k; ++i) {
          const double f = g[i][c] / g[c][c];
          for (int j = c; j < k; ++j) g[i][j] -= f * g[c][j];
          r[i] -= f * r[c];
        }
      }
      if (singular) continue;
      for (int c = k - 1; c >= 0; --c) {
        double sum = r[c];
        for (int j = c + 1; j < k; ++j) sum -= g[c][j] * mu[j];
        mu[c] = sum / g[c][c];
      }
      for (int i = 1; i < m; ++i) lambda[i] = mu[i - 1], lambda[0] -= mu[i - 1];
    }
    bool inside = true;
    for (int i = 0; i < m; ++i) inside = inside && lambda[i] >= 0.0;
    if (!inside) continue;
    glm::dvec3 x(0.0);
    if (m == 4) {
      x = glm::dvec3(0.0); // the origin itself: the normal equations put it there
    } else {
      x = s[idx[0]].w;
      for (int i = 1; i < m; ++i) x += lambda[i] * (s[idx[i]].w - s[idx[0]].w);
    }
    const double d2 = glm::dot(x, x);
    if (d2 < best.distance_squared) {
      best.point = x;
      best.distance_squared = d2;
      best.weights = {};
      best.mask = mask;
      for (int i = 0; i < m; ++i) best.weights[static_cast<std::size_t>(idx[i])] = lambda[i];
      best.contains_origin = m == 4;
    }
  }
  return best;
}

/// Keeps the vertices of `c.mask` (with their weights) at the front of s; returns the count.
inline int keep_precise(PreciseVertex* s, int n, const PreciseClosest& c, std::array<double, 4>& weights) {
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    if (!(c.mask & (1u << i))) continue;
    weights[static_cast<std::size_t>(kept)] = c.weights[static_cast<std::size_t>(i)];
    s[kept++] = s[i];
  }
  return kept;
}

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
