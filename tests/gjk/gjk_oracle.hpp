#pragma once

// Reference distance between the convex hulls of two point sets, in double, written
// independently of glide's GJK for the tests: GJK whose sub-algorithm is an exhaustive
// search over every sub-simplex (solve the affine projection of the origin by least
// squares, keep it if its barycentric weights are >= 0, take the nearest), and a duality
// certificate that proves each answer: the points lie on their sets and the planes through
// them along the normal bound both sets, so no pair can be closer.

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <vector>

namespace glide::test {

struct OracleResult {
  double distance = 0.0;
  glm::dvec3 point_a{0.0}, point_b{0.0}; ///< closest points on conv(A) and conv(B)
  glm::dvec3 normal{0.0};                ///< unit from B toward A; zero when overlapping
  double certificate_gap = 0.0;          ///< upper bound − lower bound proven by the separating planes
  /// Overlapping: the origin's distance to the faces of the tetrahedron of A − B that holds
  /// it, a lower bound on the penetration depth (0 when only touching is known).
  double overlap_depth = 0.0;
};

namespace oracle_detail {

inline glm::dvec3 support(std::span<const glm::dvec3> points, const glm::dvec3& d) {
  std::size_t best = 0;
  double best_dot = glm::dot(points[0], d);
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double t = glm::dot(points[i], d);
    if (t > best_dot) best_dot = t, best = i;
  }
  return points[best];
}

/// Solves the m×m system g·x = r by Gaussian elimination with partial pivoting; false when singular.
inline bool solve(int m, double g[3][3], double r[3], double x[3]) {
  double scale = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) scale = std::max(scale, std::abs(g[i][j]));
  for (int c = 0; c < m; ++c) {
    int pivot = c;
    for (int i = c + 1; i < m; ++i)
      if (std::abs(g[i][c]) > std::abs(g[pivot][c])) pivot = i;
    if (!(std::abs(g[pivot][c]) > 1e-10 * scale)) return false; // ill-conditioned: its faces cover it
    std::swap(g[c], g[pivot]);
    std::swap(r[c], r[pivot]);
    for (int i = c + 1; i < m; ++i) {
      const double f = g[i][c] / g[c][c];
      for (int j = c; j < m; ++j) g[i][j] -= f * g[c][j];
      r[i] -= f * r[c];
    }
  }
  for (int c = m - 1; c >= 0; --c) {
    double s = r[c];
    for (int j = c + 1; j < m; ++j) s -= g[c][j] * x[j];
    x[c] = s / g[c][c];
  }
  return true;
}

struct Vertex {
  glm::dvec3 w, a, b;
};

/// Nearest point to the origin of conv(simplex), by trying every subset.
inline void closest_subset(const std::vector<Vertex>& s, std::vector<Vertex>& best_set, std::vector<double>& best_w,
                           glm::dvec3& best_point) {
  double best_d2 = INFINITY;
  const int n = static_cast<int>(s.size());
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    int idx[4] = {0, 0, 0, 0}, m = 0;
    for (int i = 0; i < n; ++i)
      if (mask & (1u << i)) idx[m++] = i;
    double lambda[4] = {1.0, 0.0, 0.0, 0.0};
    if (m == 4) {
      // Containment from the signs of the signed volumes: the normal equations of a nearly
      // flat tetrahedron are too ill-conditioned to decide it.
      const glm::dvec3 &p0 = s[idx[0]].w, &p1 = s[idx[1]].w, &p2 = s[idx[2]].w, &p3 = s[idx[3]].w;
      const glm::dvec3 e1 = p1 - p0, e2 = p2 - p0, e3 = p3 - p0;
      const double volume = glm::dot(e1, glm::cross(e2, e3));
      const double c[4] = {glm::dot(p1, glm::cross(p2 - p1, p3 - p1)), -glm::dot(p0, glm::cross(e2, e3)),
                           -glm::dot(p0, glm::cross(e3, e1)), -glm::dot(p0, glm::cross(e1, e2))};
      if (!(volume != 0.0)) continue;
      bool inside = true;
      for (double ci : c) inside = inside && !(volume > 0.0 ? ci < 0.0 : ci > 0.0);
      if (!inside) continue;
      const double sum = c[0] + c[1] + c[2] + c[3];
      for (int i = 0; i < 4; ++i) lambda[i] = c[i] / sum;
    } else if (m > 1) {
      // x = q0 + Σ μ_i (q_i − q0), minimise |x|^2: E^T E μ = −E^T q0.
      double g[3][3], r[3], mu[3];
      const glm::dvec3 q0 = s[idx[0]].w;
      for (int i = 1; i < m; ++i) {
        const glm::dvec3 ei = s[idx[i]].w - q0;
        for (int j = 1; j < m; ++j) g[i - 1][j - 1] = glm::dot(ei, s[idx[j]].w - q0);
        r[i - 1] = -glm::dot(ei, q0);
      }
      if (!solve(m - 1, g, r, mu)) continue;
      lambda[0] = 1.0;
      for (int i = 1; i < m; ++i) lambda[i] = mu[i - 1], lambda[0] -= mu[i - 1];
    }
    bool ok = true;
    for (int i = 0; i < m; ++i) ok = ok && lambda[i] >= -1e-12;
    if (!ok) continue;
    glm::dvec3 x(0.0);
    for (int i = 0; i < m; ++i) x += lambda[i] * s[idx[i]].w;
    const double d2 = glm::dot(x, x);
    if (d2 < best_d2) {
      best_d2 = d2;
      best_point = x;
      best_set.clear();
      best_w.clear();
      for (int i = 0; i < m; ++i) best_set.push_back(s[idx[i]]), best_w.push_back(std::max(0.0, lambda[i]));
    }
  }
}

} // namespace oracle_detail

/// Distance between conv(a) and conv(b) (both non-empty).
inline OracleResult oracle_distance(std::span<const glm::dvec3> a, std::span<const glm::dvec3> b) {
  using namespace oracle_detail;
  std::vector<Vertex> simplex{{a[0] - b[0], a[0], b[0]}}, kept;
  std::vector<double> weights{1.0}, kept_weights;
  glm::dvec3 v = simplex[0].w;
  bool overlap = false;
  double max_w2 = glm::dot(v, v);
  for (int it = 0; it < 1000; ++it) {
    const double vv = glm::dot(v, v);
    // The origin on the simplex up to double rounding (1e-13 of the size of A − B): touching.
    if (simplex.size() == 4 || vv <= 1e-26 * max_w2) {
      overlap = true;
      break;
    }
    const glm::dvec3 sa = support(a, -v), sb = support(b, v);
    const Vertex w{sa - sb, sa, sb};
    max_w2 = std::max(max_w2, glm::dot(w.w, w.w));
    if (vv - glm::dot(v, w.w) <= 1e-15 * vv) break;
    bool seen = false;
    for (const Vertex& s : simplex) seen = seen || s.w == w.w;
    if (seen) break;
    std::vector<Vertex> candidate = simplex;
    candidate.push_back(w);
    glm::dvec3 next;
    closest_subset(candidate, kept, kept_weights, next);
    if (!(glm::dot(next, next) < vv)) break; // rounding: no progress, keep the previous simplex
    simplex = kept;
    weights = kept_weights;
    v = next;
  }
  OracleResult r;
  for (std::size_t i = 0; i < simplex.size(); ++i) {
    r.point_a += weights[i] * simplex[i].a;
    r.point_b += weights[i] * simplex[i].b;
  }
  if (overlap) {
    if (simplex.size() == 4) {
      double depth = INFINITY;
      for (int f = 0; f < 4; ++f) {
        const glm::dvec3 &p = simplex[(f + 1) % 4].w, &q = simplex[(f + 2) % 4].w, &s = simplex[(f + 3) % 4].w;
        const glm::dvec3 n = glm::cross(q - p, s - p);
        const double len = glm::length(n);
        depth = std::min(depth, len > 0.0 ? std::abs(glm::dot(n, p)) / len : 0.0);
      }
      r.overlap_depth = depth;
    }
    return r;
  }
  r.distance = glm::length(v);
  r.normal = v / r.distance;
  // Certificate: along n every point of A is at least min_A n·x and every point of B at most
  // max_B n·x, so their difference bounds the distance from below.
  const double lower = glm::dot(r.normal, support(a, -r.normal)) - glm::dot(r.normal, support(b, r.normal));
  r.certificate_gap = glm::length(r.point_a - r.point_b) - lower;
  return r;
}

inline std::vector<glm::dvec3> to_double(std::span<const glm::vec3> points) { return {points.begin(), points.end()}; }

/// Distance from a point to the segment [a, b], in double.
inline double point_segment_distance(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b) {
  const glm::dvec3 d = b - a;
  const double dd = glm::dot(d, d);
  const double t = dd > 0.0 ? std::clamp(glm::dot(p - a, d) / dd, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * d));
}

/// A uniformly random unit direction, for the randomized tests' case generators.
inline glm::vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<float> g;
  for (;;) {
    const glm::vec3 d{g(rng), g(rng), g(rng)};
    const float len = glm::length(d);
    if (len > 1e-3f) return d / len;
  }
}

} // namespace glide::test
