#pragma once

// Expanding polytope algorithm on the Minkowski difference A - B, in double precision.
//
// The polytope starts as a tetrahedron built from support points along fixed and derived
// directions (not from the GJK simplex), so it never depends on how GJK ended. It only has
// to lie inside A - B: when the origin is outside it, the face nearest the origin has a
// negative offset and is expanded first like any other. Flat or thin differences (segment
// in a triangle's plane, point vs segment) have no tetrahedron; they are inflated by a
// small ball and the inflation is subtracted from the depth afterwards.

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/vec4.hpp>
#include <glide/gjk/status.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

/// A vertex of A - B (possibly inflated) with the shape points that produced it.
struct MinkowskiVertex {
  glm::dvec3 w{0.0}; ///< a - b (+ inflation) (m)
  glm::vec3 a{0.f};  ///< support point of A (m)
  glm::vec3 b{0.f};  ///< support point of B (m)
};

template <class A, class B>
MinkowskiVertex minkowski_support(const A& a, const B& b, const glm::dvec3& dir, double inflation) {
  const glm::vec3 d(dir);
  MinkowskiVertex v;
  v.a = a.support(d);
  v.b = b.support(-d);
  v.w = glm::dvec3(v.a) - glm::dvec3(v.b);
  const double len = glm::length(dir);
  if (inflation > 0.0 && len > 0.0) v.w += dir * (inflation / len);
  return v;
}

inline bool is_finite(const glm::dvec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Convex polytope grown one support point at a time; faces keep outward normals.
class Polytope {
public:
  struct Face {
    std::array<int, 3> v{};
    glm::dvec3 n{0.0}; ///< outward unit normal
    double d = 0.0;    ///< signed offset of the plane from the origin along n (m)
    bool alive = true;
  };

  std::vector<MinkowskiVertex> vertices;
  std::vector<Face> faces;

  /// Starts from four affinely independent vertices.
  bool init(const std::array<MinkowskiVertex, 4>& tetra) {
    vertices.reserve(32);
    faces.reserve(64);
    vertices.assign(tetra.begin(), tetra.end());
    interior_ = (tetra[0].w + tetra[1].w + tetra[2].w + tetra[3].w) * 0.25;
    faces.clear();
    const std::array<std::array<int, 3>, 4> ids{{{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}}};
    for (auto id : ids) {
      Face f;
      if (!make_face(id[0], id[1], id[2], f)) {
        std::swap(id[1], id[2]);
        if (!make_face(id[0], id[1], id[2], f)) return false;
      }
      faces.push_back(f);
    }
    return true;
  }

  /// Index of the live face nearest the origin (smallest offset).
  int closest_face() const {
    int best = -1;
    for (int i = 0; i < static_cast<int>(faces.size()); ++i)
      if (faces[i].alive && (best < 0 || faces[i].d < faces[best].d)) best = i;
    return best;
  }

  /// Adds a vertex outside the polytope, replacing the faces it sees. Leaves the polytope
  /// unchanged and returns false when the point is not outside or a new face would be
  /// degenerate (rounding): the caller stops there.
  bool add(const MinkowskiVertex& p, double visible_eps) {
    horizon_.clear();
    visible_.clear();
    for (int i = 0; i < static_cast<int>(faces.size()); ++i) {
      const Face& f = faces[i];
      if (!f.alive || glm::dot(f.n, p.w) - f.d <= visible_eps) continue;
      visible_.push_back(i);
      for (int e = 0; e < 3; ++e) toggle_edge(f.v[e], f.v[(e + 1) % 3]);
    }
    if (visible_.empty() || horizon_.size() < 3) return false;
    const int index = static_cast<int>(vertices.size());
    vertices.push_back(p);
    new_faces_.clear();
    for (const auto& [i, j] : horizon_) {
      Face f;
      if (!make_face(i, j, index, f)) {
        vertices.pop_back();
        return false;
      }
      new_faces_.push_back(f);
    }
    // Drop the replaced faces right away so every scan only sees the live surface.
    for (int i : visible_) faces[i].alive = false;
    std::erase_if(faces, [](const Face& f) { return !f.alive; });
    faces.insert(faces.end(), new_faces_.begin(), new_faces_.end());
    return true;
  }

private:
  // An edge shared by two visible faces appears once in each direction and cancels; the
  // edges left form the horizon, oriented as in their visible face.
  void toggle_edge(int i, int j) {
    for (std::size_t k = 0; k < horizon_.size(); ++k) {
      if (horizon_[k].first == j && horizon_[k].second == i) {
        horizon_[k] = horizon_.back();
        horizon_.pop_back();
        return;
      }
    }
    horizon_.emplace_back(i, j);
  }

  // The interior point stays inside because the polytope only grows; a face whose normal
  // does not point away from it is inverted or too thin to trust.
  bool make_face(int i, int j, int k, Face& f) const {
    const glm::dvec3& a = vertices[i].w;
    const glm::dvec3 e1 = vertices[j].w - a, e2 = vertices[k].w - a;
    const glm::dvec3 c = glm::cross(e1, e2);
    const double len = glm::length(c);
    if (!(len > 1e-14 * glm::length(e1) * glm::length(e2)) || !(len > 0.0)) return false;
    f.v = {i, j, k};
    f.n = c / len;
    if (!(glm::dot(f.n, interior_ - a) < 0.0)) return false;
    f.d = glm::dot(f.n, a);
    f.alive = true;
    return is_finite(f.n) && std::isfinite(f.d);
  }

  glm::dvec3 interior_{0.0};
  std::vector<std::pair<int, int>> horizon_;
  std::vector<int> visible_;
  std::vector<Face> new_faces_;
};

/// Barycentric coordinates of p (in the face's plane) over the face's vertices.
inline std::array<double, 3> barycentric(const Polytope& poly, const Polytope::Face& f, const glm::dvec3& p) {
  const glm::dvec3 &a = poly.vertices[f.v[0]].w, &b = poly.vertices[f.v[1]].w, &c = poly.vertices[f.v[2]].w;
  const double area = glm::dot(glm::cross(b - a, c - a), f.n);
  if (!(area > 0.0)) return {1.0, 0.0, 0.0};
  const double la = glm::dot(glm::cross(b - p, c - p), f.n) / area;
  const double lb = glm::dot(glm::cross(c - p, a - p), f.n) / area;
  return {la, lb, 1.0 - la - lb};
}

/// EPA outcome in terms of the Minkowski difference.
struct EpaResult {
  double depth = 0.0;              ///< distance from the origin to the boundary of A - B (m, >= 0)
  glm::dvec3 face_normal{0, 1, 0}; ///< outward normal of A - B there: A moves along -face_normal to separate
  glm::vec3 point_a{0.f};          ///< deepest point of A (m)
  glm::vec3 point_b{0.f};          ///< deepest point of B (m)
  int iterations = 0;
  Status status = Status::converged;
};

/// Unit directions probed for the initial polytope: the axes and the cube diagonals.
inline const std::array<glm::dvec3, 14>& probe_directions() {
  static constexpr double k = 0.57735026918962576;
  static const std::array<glm::dvec3, 14> dirs{{{1, 0, 0},
                                                {-1, 0, 0},
                                                {0, 1, 0},
                                                {0, -1, 0},
                                                {0, 0, 1},
                                                {0, 0, -1},
                                                {k, k, k},
                                                {-k, -k, -k},
                                                {k, -k, k},
                                                {-k, k, -k},
                                                {k, k, -k},
                                                {-k, -k, k},
                                                {-k, k, k},
                                                {k, -k, -k}}};
  return dirs;
}

using Probes = std::array<MinkowskiVertex, 14>;

/// Four affinely independent support points of A - B (inflated), or false when the
/// difference is flatter than `flat_eps` in some direction. `probes` are the support points
/// along probe_directions() without inflation; a ball adds inflation * direction to each.
template <class A, class B>
bool initial_tetrahedron(const A& a, const B& b, Probes probes, double inflation, double flat_eps, Polytope& poly) {
  for (std::size_t i = 0; i < probes.size(); ++i) probes[i].w += probe_directions()[i] * inflation;

  // Farthest pair, then farthest from their line, then farthest from their plane.
  std::size_t i0 = 0, i1 = 0;
  double best = -1.0;
  for (std::size_t i = 0; i < probes.size(); ++i)
    for (std::size_t j = i + 1; j < probes.size(); ++j) {
      const glm::dvec3 e = probes[j].w - probes[i].w;
      if (glm::dot(e, e) > best) best = glm::dot(e, e), i0 = i, i1 = j;
    }
  if (!(std::sqrt(best) > flat_eps)) return false;
  const glm::dvec3 p0 = probes[i0].w, axis = normalized(probes[i1].w - p0);
  auto line_distance = [&](const glm::dvec3& p) { return glm::length(glm::cross(p - p0, axis)); };
  MinkowskiVertex v2 = probes[0];
  best = -1.0;
  for (const auto& v : probes)
    if (line_distance(v.w) > best) best = line_distance(v.w), v2 = v;
  if (!(best > flat_eps)) {
    const glm::dvec3 u =
        normalized(glm::cross(axis, std::abs(axis.x) < 0.6 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0)));
    const glm::dvec3 v = glm::cross(axis, u);
    for (const glm::dvec3& d : {u, -u, v, -v}) {
      const MinkowskiVertex s = minkowski_support(a, b, d, inflation);
      if (line_distance(s.w) > best) best = line_distance(s.w), v2 = s;
    }
    if (!(best > flat_eps)) return false;
  }
  const glm::dvec3 n = normalized(glm::cross(probes[i1].w - p0, v2.w - p0));
  MinkowskiVertex v3 = probes[0];
  best = -1.0;
  for (const glm::dvec3& d : {n, -n}) {
    const MinkowskiVertex s = minkowski_support(a, b, d, inflation);
    const double h = std::abs(glm::dot(s.w - p0, n));
    if (h > best) best = h, v3 = s;
  }
  if (!(best > flat_eps)) return false;
  return poly.init({probes[i0], probes[i1], v2, v3});
}

/// Penetration of A - B when the origin is (believed) inside it. `inflation` > 0 inflates A
/// by a ball of that radius; the returned depth has it subtracted already.
template <class A, class B>
EpaResult run_epa(const A& a, const B& b, double inflation, int max_iterations, double tolerance) {
  EpaResult out;
  // Scratch reused by every call on this thread: the polytope's arrays keep their capacity,
  // so a query allocates nothing once the first few have run (init() resets the contents).
  static thread_local Polytope poly;
  Probes probes;
  // The probes also give the size of the difference, for the flatness and rounding thresholds.
  double scale = 0.0;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    probes[i] = minkowski_support(a, b, probe_directions()[i], 0.0);
    scale = std::max(scale, glm::length(probes[i].w));
  }
  if (!std::isfinite(scale)) {
    out.status = Status::invalid_input;
    return out;
  }
  const double flat_eps = 1e-6 * scale + 1e-12;
  if (inflation <= 0.0 && !initial_tetrahedron(a, b, probes, 0.0, flat_eps, poly)) inflation = 1e-4 * scale + 1e-6;
  if (inflation > 0.0 && !initial_tetrahedron(a, b, probes, inflation, 0.1 * inflation, poly)) {
    // Nothing to expand (rounding at extreme scales): report touching.
    out.status = Status::degenerate;
    return out;
  }
  const double visible_eps = 1e-10 * (scale + inflation);

  tolerance = std::max(tolerance, 1e-7 * scale);
  int face = poly.closest_face();
  out.status = Status::max_iterations;
  for (out.iterations = 0; out.iterations < max_iterations; ++out.iterations) {
    const auto& f = poly.faces[face];
    const MinkowskiVertex w = minkowski_support(a, b, f.n, inflation);
    if (!is_finite(w.w)) return EpaResult{.status = Status::invalid_input};
    if (glm::dot(f.n, w.w) - f.d <= tolerance) {
      out.status = Status::converged;
      break;
    }
    if (!poly.add(w, visible_eps)) {
      out.status = Status::degenerate;
      break;
    }
    face = poly.closest_face();
  }

  // Witness points from the origin's projection on the nearest face, in barycentric form.
  // A flat facet of A - B is split into coplanar triangles and the nearest one (by rounding)
  // need not hold the projection: then take the coplanar neighbour that holds it best. Depth
  // and normal stay those of the nearest face (a tilted neighbour would tilt the normal).
  const int nearest = face;
  const auto& near_face = poly.faces[nearest];
  const double depth_bound = near_face.d;
  std::array<double, 3> lambda = barycentric(poly, near_face, near_face.n * near_face.d);
  double best_inside = std::min({lambda[0], lambda[1], lambda[2]});
  if (!(best_inside >= -1e-9)) {
    for (int i = 0; i < static_cast<int>(poly.faces.size()); ++i) {
      const auto& g = poly.faces[i];
      if (!g.alive || g.d > depth_bound + tolerance || glm::dot(g.n, near_face.n) < 1.0 - 1e-9) continue;
      const std::array<double, 3> l = barycentric(poly, g, g.n * g.d);
      const double inside = std::min({l[0], l[1], l[2]});
      if (inside > best_inside) best_inside = inside, lambda = l, face = i;
    }
  }
  const auto& f = poly.faces[face];
  // Inside the face up to rounding; clamping keeps the witnesses on the shapes.
  for (double& l : lambda) l = std::isfinite(l) ? std::max(l, 0.0) : 0.0;
  const double sum = lambda[0] + lambda[1] + lambda[2];
  if (sum > 0.0)
    for (double& l : lambda) l /= sum;
  else
    lambda = {1.0, 0.0, 0.0};
  glm::dvec3 pa(0.0), pb(0.0);
  for (int i = 0; i < 3; ++i) {
    pa += lambda[i] * glm::dvec3(poly.vertices[f.v[i]].a);
    pb += lambda[i] * glm::dvec3(poly.vertices[f.v[i]].b);
  }
  out.depth = std::max(0.0, depth_bound - inflation);
  out.face_normal = near_face.n; // depth and normal from the nearest face; witnesses from `f`
  out.point_a = glm::vec3(pa);
  out.point_b = glm::vec3(pb);
  if (!is_finite(pa) || !is_finite(pb) || !std::isfinite(out.depth)) return EpaResult{.status = Status::degenerate};
  return out;
}

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
