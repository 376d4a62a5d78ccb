#pragma once

// Adversarial distance queries for the GJK tests and the stress program: inputs that make
// float GJK ill-conditioned (sliver triangles and needle tetrahedra in the Minkowski
// difference, segments nearly parallel to a face or an edge, nearly coplanar faces,
// duplicate vertices, tiny and huge scales, poses far from the origin, degenerate segments),
// each judged against the double-precision oracle (gjk_oracle.hpp) on the very float points
// glide sees. One generator and one checker, shared, so both runs test the same thing.

#include "gjk_oracle.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>
#include <glide/gjk/toi.hpp>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace glide::test::adversarial {

enum Family {
  sliver_triangle,    ///< a triangle with two long, nearly parallel edges
  parallel_face,      ///< a segment nearly parallel to a face (the reproduction's kind)
  parallel_edge,      ///< a segment nearly parallel to an edge of a hull or box
  needle_tetrahedron, ///< a hull of four points: a needle or a nearly flat tetrahedron
  coplanar_faces,     ///< hulls with nearly coplanar faces (thin slabs, boxes with face points)
  duplicates,         ///< hulls with duplicate and near-duplicate vertices
  scales,             ///< sizes from 1e-3 to 1e3 m
  far_away,           ///< both shapes 1e4 m from the origin
  degenerate_segment, ///< a segment with a = b
  triangle_pairs,     ///< triangle against triangle or box, slivers included
  big_hulls,          ///< hulls of 256 to 1000 vertices
  k_family_count
};

inline const char* family_name(int f) {
  static constexpr const char* names[] = {"sliver_triangle",    "parallel_face",  "parallel_edge", "needle_tetrahedron",
                                          "coplanar_faces",     "duplicates",     "scales",        "far_away",
                                          "degenerate_segment", "triangle_pairs", "big_hulls"};
  return names[f];
}

enum class ShapeKind { point, segment, triangle, box, hull };

/// A shape as glide sees it, with the float points the oracle judges it by.
struct Shape {
  ShapeKind kind = ShapeKind::point;
  std::vector<glm::vec3> points; ///< point, segment ends, triangle corners, or the hull's input cloud
  glm::vec3 half_extents{0.f};   ///< box (centred on the origin, axis-aligned)
  gjk::ConvexHull hull;          ///< hull, built once the points are final

  void finish() {
    if (kind == ShapeKind::hull) hull = gjk::ConvexHull(points);
  }
  /// The vertices GJK runs on (the hull's kept vertices, a box's corners).
  std::vector<glm::vec3> vertices() const {
    if (kind == ShapeKind::hull) return {hull.vertices().begin(), hull.vertices().end()};
    if (kind == ShapeKind::box) {
      std::vector<glm::vec3> c;
      for (int s = 0; s < 8; ++s)
        c.push_back({s & 1 ? half_extents.x : -half_extents.x, s & 2 ? half_extents.y : -half_extents.y,
                     s & 4 ? half_extents.z : -half_extents.z});
      return c;
    }
    return points;
  }
  void translate(const glm::vec3& t) {
    for (glm::vec3& p : points) p += t;
  }
};

/// Calls f with the glide shape.
template <class F>
auto visit(const Shape& s, F&& f) {
  switch (s.kind) {
  case ShapeKind::point:
    return f(gjk::Point{s.points[0]});
  case ShapeKind::segment:
    return f(gjk::Segment{s.points[0], s.points[1]});
  case ShapeKind::triangle:
    return f(gjk::Triangle{s.points[0], s.points[1], s.points[2]});
  case ShapeKind::box:
    return f(gjk::Box{s.half_extents});
  default:
    return f(s.hull);
  }
}

struct Case {
  int family = 0;
  Shape a, b;              ///< b stays put; a is moved to set the gap
  double scale = 1.0;      ///< the shapes' size: the larger radius about their centroids (m)
  double coordinate = 0.0; ///< largest |coordinate| of any point (for the float spacing of the points)
};

inline glm::vec3 unit(std::mt19937& rng) { return random_unit(rng); }

inline float uniform(std::mt19937& rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(rng);
}
inline float log_uniform(std::mt19937& rng, float lo_exp, float hi_exp) {
  return std::pow(10.f, uniform(rng, lo_exp, hi_exp));
}

/// A unit vector at angle `angle` (rad) from the unit vector d.
inline glm::vec3 tilt(std::mt19937& rng, const glm::vec3& d, float angle) {
  glm::vec3 perp = glm::cross(d, unit(rng));
  while (glm::length(perp) < 1e-3f) perp = glm::cross(d, unit(rng));
  perp = glm::normalize(perp);
  return glm::normalize(std::cos(angle) * d + std::sin(angle) * perp);
}

inline Shape segment(const glm::vec3& c, const glm::vec3& half) {
  return {ShapeKind::segment, {c - half, c + half}, {}, {}};
}

/// A triangle with two edges of length ~L at angle `angle` apart (a sliver for small angles).
inline Shape sliver(std::mt19937& rng, const glm::vec3& c, float length, float angle) {
  const glm::vec3 d = unit(rng);
  const glm::vec3 e = tilt(rng, d, angle);
  const glm::vec3 p0 = c - 0.5f * length * d;
  return {ShapeKind::triangle, {p0, p0 + length * d, p0 + length * uniform(rng, 0.5f, 1.5f) * e}, {}, {}};
}

inline Shape random_hull(std::mt19937& rng, int n, float size, const glm::vec3& c = glm::vec3(0.f)) {
  Shape s{ShapeKind::hull, {}, {}, {}};
  const glm::vec3 axes{uniform(rng, 0.3f, 1.f), uniform(rng, 0.3f, 1.f), uniform(rng, 0.3f, 1.f)};
  for (int i = 0; i < n; ++i) s.points.push_back(c + unit(rng) * axes * size);
  return s;
}

inline Shape random_triangle(std::mt19937& rng, float size) {
  return {ShapeKind::triangle, {unit(rng) * size, unit(rng) * size, unit(rng) * size}, {}, {}};
}

/// Shape B of a family, around the origin with size ~`size`.
inline Shape make_b(std::mt19937& rng, int family, float size) {
  switch (family) {
  case sliver_triangle:
    return sliver(rng, glm::vec3(0.f), size, log_uniform(rng, -4.f, -2.f));
  case parallel_face:
  case triangle_pairs:
    if (rng() % 3 == 0)
      return {ShapeKind::box,
              {},
              glm::vec3(uniform(rng, 0.2f, 1.f), uniform(rng, 0.2f, 1.f), uniform(rng, 0.2f, 1.f)) * size,
              {}};
    return rng() % 2 ? random_triangle(rng, size) : sliver(rng, glm::vec3(0.f), size, log_uniform(rng, -3.f, -1.f));
  case parallel_edge:
    if (rng() % 2)
      return {ShapeKind::box,
              {},
              glm::vec3(uniform(rng, 0.2f, 1.f), uniform(rng, 0.2f, 1.f), uniform(rng, 0.2f, 1.f)) * size,
              {}};
    return random_hull(rng, 4 + static_cast<int>(rng() % 13), size);
  case needle_tetrahedron: {
    Shape s{ShapeKind::hull, {}, {}, {}};
    const float eps = log_uniform(rng, -4.f, -2.f) * size;
    const glm::vec3 c = unit(rng) * (0.2f * size);
    if (rng() % 2) { // needle: three points close together, one far
      for (int i = 0; i < 3; ++i) s.points.push_back(c + unit(rng) * eps);
      s.points.push_back(c + unit(rng) * size);
    } else { // nearly flat: four points within eps of a plane
      const glm::vec3 n = unit(rng);
      for (int i = 0; i < 4; ++i) {
        const glm::vec3 r = unit(rng);
        s.points.push_back(c + (r - glm::dot(r, n) * n) * size + n * (eps * uniform(rng, -1.f, 1.f)));
      }
    }
    return s;
  }
  case coplanar_faces: {
    Shape s{ShapeKind::hull, {}, {}, {}};
    if (rng() % 2) { // a slab thinner than it is wide by 1e-6 to 1e-3
      const float thick = log_uniform(rng, -6.f, -3.f);
      const int n = 6 + static_cast<int>(rng() % 40);
      for (int i = 0; i < n; ++i) {
        glm::vec3 p = unit(rng);
        p.z *= thick;
        s.points.push_back(p * size);
      }
    } else { // a box with points on its faces, off them by up to 1e-7 to 1e-5 of its size
      const glm::vec3 h = glm::vec3(uniform(rng, 0.3f, 1.f), uniform(rng, 0.3f, 1.f), uniform(rng, 0.3f, 1.f)) * size;
      for (int k = 0; k < 8; ++k) s.points.push_back({k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z});
      const float off = log_uniform(rng, -7.f, -5.f) * size;
      for (int i = 0; i < 24; ++i) {
        const int axis = static_cast<int>(rng() % 3);
        glm::vec3 p{uniform(rng, -1.f, 1.f) * h.x, uniform(rng, -1.f, 1.f) * h.y, uniform(rng, -1.f, 1.f) * h.z};
        p[axis] = (rng() % 2 ? h[axis] : -h[axis]) + uniform(rng, -1.f, 1.f) * off;
        s.points.push_back(p);
      }
      const glm::quat q = glm::angleAxis(uniform(rng, 0.f, 6.2832f), unit(rng));
      for (glm::vec3& p : s.points) p = q * p;
    }
    return s;
  }
  case duplicates: {
    Shape s = random_hull(rng, 4 + static_cast<int>(rng() % 12), size);
    const std::size_t n = s.points.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (rng() % 2) s.points.push_back(s.points[i]);
      if (rng() % 2) s.points.push_back(s.points[i] + unit(rng) * (log_uniform(rng, -8.f, -5.f) * size));
    }
    return s;
  }
  case big_hulls:
    return random_hull(rng, 256 + static_cast<int>(rng() % 745), size);
  default: { // scales, far_away, degenerate_segment
    const int kind = static_cast<int>(rng() % 3);
    if (kind == 0) return random_triangle(rng, size);
    if (kind == 1)
      return {ShapeKind::box,
              {},
              glm::vec3(uniform(rng, 0.2f, 1.f), uniform(rng, 0.2f, 1.f), uniform(rng, 0.2f, 1.f)) * size,
              {}};
    return random_hull(rng, 4 + static_cast<int>(rng() % 60), size);
  }
  }
}

/// A direction along an edge (family parallel_edge) or in a face plane (parallel_face) of b.
inline glm::vec3 feature_direction(std::mt19937& rng, const Shape& b, bool face) {
  const std::vector<glm::vec3> v = b.kind == ShapeKind::hull ? std::vector<glm::vec3>(b.points) : b.vertices();
  if (b.kind == ShapeKind::box) {
    const int axis = static_cast<int>(rng() % 3);
    glm::vec3 d(0.f);
    d[axis] = 1.f;
    if (!face) return d;
    glm::vec3 e(0.f);
    e[(axis + 1) % 3] = 1.f;
    const float t = uniform(rng, 0.f, 6.2832f);
    return std::cos(t) * d + std::sin(t) * e;
  }
  const std::size_t i = rng() % v.size();
  std::size_t j = rng() % v.size();
  if (j == i) j = (i + 1) % v.size();
  glm::vec3 d = v[j] - v[i];
  if (face && v.size() >= 3) {
    std::size_t k = rng() % v.size();
    if (k == i || k == j) k = (j + 1) % v.size();
    const float t = uniform(rng, 0.f, 1.f);
    d = t * d + (1.f - t) * (v[k] - v[i]);
  }
  return glm::length(d) > 0.f ? glm::normalize(d) : unit(rng);
}

/// Shape A of a family, at a random place around b (moved to its gap later).
inline Shape make_a(std::mt19937& rng, int family, const Shape& b, float size) {
  const glm::vec3 c = unit(rng) * (2.f * size);
  const float length = size * uniform(rng, 0.2f, 2.f);
  switch (family) {
  case parallel_face:
  case parallel_edge: {
    const glm::vec3 d = tilt(rng, feature_direction(rng, b, family == parallel_face), log_uniform(rng, -6.f, -2.f));
    return segment(c, 0.5f * length * d);
  }
  case sliver_triangle: {
    if (rng() % 2 == 0) return segment(c, 0.5f * length * unit(rng));
    const glm::vec3 d = tilt(rng, glm::normalize(b.points[1] - b.points[0]), log_uniform(rng, -5.f, -2.f));
    return segment(c, 0.5f * length * d);
  }
  case needle_tetrahedron:
    if (rng() % 3 == 0) return {ShapeKind::point, {c}, {}, {}};
    return segment(c, 0.5f * length * unit(rng));
  case degenerate_segment:
    return {ShapeKind::segment, {c, c}, {}, {}};
  case triangle_pairs: {
    Shape s = rng() % 2 ? sliver(rng, c, length, log_uniform(rng, -4.f, -1.f)) : random_triangle(rng, 0.5f * length);
    if (s.points[0] == glm::vec3(0.f) || rng() % 2 == 0)
      for (glm::vec3& p : s.points) p += c;
    return s;
  }
  default: {
    const int kind = static_cast<int>(rng() % 6);
    if (kind == 0) return {ShapeKind::point, {c}, {}, {}};
    if (kind == 1) {
      Shape s = random_triangle(rng, 0.5f * length);
      s.translate(c);
      return s;
    }
    if (kind == 2) return random_hull(rng, 4 + static_cast<int>(rng() % 12), 0.5f * length, c);
    return segment(c, 0.5f * length * unit(rng));
  }
  }
}

inline double radius_of_points(const std::vector<glm::vec3>& p) {
  glm::dvec3 c(0.0);
  for (const glm::vec3& x : p) c += glm::dvec3(x);
  c /= static_cast<double>(p.size());
  double r = 0.0;
  for (const glm::vec3& x : p) r = std::max(r, glm::length(glm::dvec3(x) - c));
  return r;
}

/// Case `index` of the stream seeded with `seed` (the family cycles with the index).
inline Case make_case(std::uint32_t seed, std::uint32_t index) {
  std::mt19937 rng(seed * 2654435761u + index);
  Case c;
  c.family = static_cast<int>(index % k_family_count);
  const float size = c.family == scales ? log_uniform(rng, -3.f, 3.f) : uniform(rng, 0.3f, 3.f);
  c.b = make_b(rng, c.family, size);
  c.a = make_a(rng, c.family, c.b, size);
  if (c.a.kind == ShapeKind::hull) c.a.finish();
  c.b.finish();

  // The gap: separated, near-touching at 1e-4 … 1e-6 of the size, or overlapping.
  const std::vector<glm::dvec3> bv = to_double(c.b.vertices());
  const OracleResult first = oracle_distance(to_double(c.a.vertices()), bv);
  const int gap_kind = static_cast<int>(rng() % 6);
  double target;
  switch (gap_kind) {
  case 0:
    target = size * log_uniform(rng, -3.f, 0.f);
    break;
  case 1:
    target = size * 1e-4;
    break;
  case 2:
    target = size * 1e-5;
    break;
  case 3:
    target = size * 1e-6;
    break;
  case 4:
    target = -size * log_uniform(rng, -4.f, -1.f);
    break;
  default:
    target = -size * log_uniform(rng, -2.f, -0.5f);
    break;
  }
  if (first.distance > 0.0) {
    const glm::vec3 shift = glm::vec3(first.normal * (target - first.distance));
    c.a.translate(shift);
  }
  // Far away: both shapes 1e4 m out, rounded to float there (the box becomes a hull).
  if (c.family == far_away) {
    const glm::vec3 offset = unit(rng) * 1e4f;
    if (c.b.kind == ShapeKind::box) {
      c.b.points = c.b.vertices();
      c.b.kind = ShapeKind::hull;
    }
    c.a.translate(offset);
    c.b.translate(offset);
    c.b.finish();
  }
  if (c.a.kind == ShapeKind::hull) c.a.finish();
  c.scale = std::max(radius_of_points(c.a.vertices()), radius_of_points(c.b.vertices()));
  for (const Shape* s : {&c.a, &c.b})
    for (const glm::vec3& p : s->vertices())
      c.coordinate = std::max({c.coordinate, double(std::abs(p.x)), double(std::abs(p.y)), double(std::abs(p.z))});
  return c;
}

/// Errors of one case, as multiples of the documented tolerances (pass: every one <= 1).
struct Errors {
  double below = 0.0;           ///< (true − reported) / (1e-6 · scale)
  double above = 0.0;           ///< (reported − true) / (2e-6 · scale + 1e-6 · distance)
  double points = 0.0;          ///< ||pa − pb| − reported| / the same tolerance (+ the points' float spacing)
  bool wrong_verdict = false;   ///< distance() overlap verdict wrong by more than 1e-5 · scale
  bool wrong_intersect = false; ///< intersect() verdict wrong by more than 1e-5 · scale
  bool not_converged = false;   ///< a status other than converged
  bool toi_late = false;        ///< TOI after the true first contact by more than its tolerance
  double distance = 0.0;        ///< the oracle's distance (m)
  double reported = 0.0;        ///< glide's distance (m)
  bool overlap = false;         ///< the oracle found them overlapping
  bool checked_toi = false;
  bool unproven = false; ///< the oracle's separating-plane certificate failed: not judged
  double toi_t = 0.0, toi_slack = 0.0, toi_distance_before = 0.0; ///< for reports
  double worst() const { return std::max({below, above, points}); }
  /// Within every bound (an unproven case is not judged: see `unproven`).
  bool ok() const { return worst() <= 1.0 && !wrong_verdict && !wrong_intersect && !not_converged && !toi_late; }
};

/// Oracle distance with `a` moved by t · motion (double arithmetic on the float points).
inline OracleResult oracle_moved(const std::vector<glm::dvec3>& a, const std::vector<glm::dvec3>& b,
                                 const glm::dvec3& move) {
  std::vector<glm::dvec3> moved = a;
  for (glm::dvec3& p : moved) p += move;
  return oracle_distance(moved, b);
}

/// The overlap depth the oracle can prove: the origin's distance to the faces of the
/// oracle's enclosing tetrahedron (a lower bound on the penetration depth), 0 if unproven.
inline double proven_depth(const std::vector<glm::dvec3>& a, const std::vector<glm::dvec3>& b) {
  return oracle_distance(a, b).overlap_depth;
}

inline Errors check(const Case& c, bool with_toi) {
  Errors e;
  const std::vector<glm::dvec3> av = to_double(c.a.vertices()), bv = to_double(c.b.vertices());
  const OracleResult truth = oracle_distance(av, bv);
  e.distance = truth.distance;
  e.overlap = truth.distance <= 0.0;
  // The oracle must prove its distance to 1e-7 of the scale (a tenth of the tolerance).
  if (!e.overlap && !(truth.certificate_gap <= 1e-7 * c.scale)) {
    e.unproven = true;
    return e;
  }
  const double scale = c.scale;
  const gjk::DistanceResult r =
      visit(c.a, [&](const auto& sa) { return visit(c.b, [&](const auto& sb) { return gjk::distance(sa, sb); }); });
  const bool hit =
      visit(c.a, [&](const auto& sa) { return visit(c.b, [&](const auto& sb) { return gjk::intersect(sa, sb); }); });
  e.reported = r.distance;
  e.not_converged = r.status != gjk::Status::converged;
  const double lo_tol = 1e-6 * scale, hi_tol = 2e-6 * scale + 1e-6 * truth.distance;
  const double verdict_tol = 1e-5 * scale;
  // Far from the origin the points are float coordinates there: their spacing adds to |pa − pb|.
  const double spacing = 2.0 * c.coordinate * 1.2e-7;
  e.below = std::max(0.0, (truth.distance - r.distance) / lo_tol);
  e.above = std::max(0.0, (r.distance - truth.distance) / hi_tol);
  e.points =
      std::abs(double(glm::length(glm::dvec3(r.point_a) - glm::dvec3(r.point_b))) - r.distance) / (hi_tol + spacing);
  if (r.overlapping() && truth.distance >= verdict_tol) e.wrong_verdict = true;
  if (!r.overlapping() && e.overlap && truth.overlap_depth >= verdict_tol) e.wrong_verdict = true;
  if (hit && truth.distance >= verdict_tol) e.wrong_intersect = true;
  if (!hit && e.overlap && truth.overlap_depth >= verdict_tol) e.wrong_intersect = true;

  // Time of impact of a capsule (a segment or a point with radius r = 1e-3 · scale) moved
  // through b: its closest point travels 1.5 times the way to b's centroid, so it crosses b
  // and must hit. Late means that just before the reported time (by the TOI tolerance along
  // the motion, plus the float spacing of the moved coordinates) the oracle finds the core
  // closer than r by more than GJK's accuracy: on a grazing path the time itself is not
  // defined better than that accuracy divided by the closing speed.
  const double radius = 1e-3 * scale;
  if (with_toi && (c.a.kind == ShapeKind::segment || c.a.kind == ShapeKind::point) && truth.distance > 2.0 * radius) {
    e.checked_toi = true;
    const gjk::Segment seg{c.a.points[0], c.a.points.size() > 1 ? c.a.points[1] : c.a.points[0]};
    glm::dvec3 centroid(0.0);
    for (const glm::dvec3& p : bv) centroid += p;
    centroid /= static_cast<double>(bv.size());
    const glm::vec3 motion = glm::vec3(1.5 * (centroid - truth.point_a));
    const gjk::ToiSettings settings;
    const gjk::ToiResult toi = visit(c.b, [&](const auto& sb) {
      return gjk::toi_conservative_advancement(seg, static_cast<float>(radius), motion, sb, settings);
    });
    const glm::dvec3 m(motion);
    const double slack = (double(settings.tolerance) + 2.4e-7 * c.coordinate) / glm::length(m);
    if (!toi.hit) {
      e.toi_late = true; // it passes through b
    } else {
      e.toi_t = toi.t;
      e.toi_slack = slack;
      const double before = std::max(0.0, double(toi.t) - slack);
      if (before > 0.0) {
        e.toi_distance_before = oracle_moved(av, bv, m * before).distance;
        // The moved core's coordinates are rounded to float by the TOI: far from the origin
        // (1e4 m) that alone moves it by up to ~1e-3 m.
        const double rounding = 2e-6 * scale + 4.2e-7 * c.coordinate;
        e.toi_late = e.toi_distance_before < radius - rounding;
      }
    }
  }
  return e;
}

} // namespace glide::test::adversarial
