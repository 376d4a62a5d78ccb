#include "approx.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/toi.hpp>

#include <glm/ext/vector_double3.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace glide::gjk;
using glm::dvec3;

namespace {

// ---- Oracle (double): distance between a segment and a convex polytope, and the time of
// impact from it. Under translation f(t) = distance(segment + t * motion, polytope) is convex
// in t, so a golden-section search finds its minimum and a bisection on the decreasing part
// finds the first t with f(t) <= r; both to ~1e-12 in t.

struct Polyhedron {
  std::vector<dvec3> vertices;
  std::vector<std::array<dvec3, 3>> triangles;  ///< boundary triangles (cover the surface)
  std::vector<std::pair<dvec3, double>> planes; ///< outward normal n, offset d: inside where n.x <= d
};

// Boundary by brute force: a vertex triple is on the boundary when every vertex lies on one
// side of its plane.
Polyhedron make_polyhedron(const std::vector<glm::vec3>& pts) {
  Polyhedron h;
  h.vertices.assign(pts.begin(), pts.end());
  const auto& v = h.vertices;
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = i + 1; j < v.size(); ++j)
      for (std::size_t k = j + 1; k < v.size(); ++k) {
        dvec3 n = glm::cross(v[j] - v[i], v[k] - v[i]);
        if (glm::length(n) < 1e-12) continue;
        n = glm::normalize(n);
        double above = 0.0, below = 0.0;
        for (const dvec3& p : v)
          above = std::max(above, glm::dot(n, p - v[i])), below = std::min(below, glm::dot(n, p - v[i]));
        if (above > 1e-9 && below < -1e-9) continue;
        if (above > 1e-9) n = -n;
        h.triangles.push_back({v[i], v[j], v[k]});
        h.planes.emplace_back(n, glm::dot(n, v[i]));
      }
  return h;
}

dvec3 closest_on_triangle(const dvec3& p, const dvec3& a, const dvec3& b, const dvec3& c) {
  const dvec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const dvec3 bp = p - b;
  const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const dvec3 cp = p - c;
  const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

double segment_segment_distance(const dvec3& p1, const dvec3& q1, const dvec3& p2, const dvec3& q2) {
  const dvec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  double s = 0.0, t = 0.0;
  if (a <= 1e-300 && e <= 1e-300) return glm::length(r);
  if (a <= 1e-300) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = glm::dot(d1, r);
    if (e <= 1e-300) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = glm::dot(d1, d2), denom = a * e - b * b;
      s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0)
        t = 0.0, s = std::clamp(-c / a, 0.0, 1.0);
      else if (t > 1.0)
        t = 1.0, s = std::clamp((b - c) / a, 0.0, 1.0);
    }
  }
  return glm::length((p1 + d1 * s) - (p2 + d2 * t));
}

double segment_polyhedron_distance(const dvec3& a, const dvec3& b, const Polyhedron& h) {
  // Clip the segment by every face plane: a non-empty remainder means they intersect.
  double t0 = 0.0, t1 = 1.0;
  for (const auto& [n, d] : h.planes) {
    const double da = glm::dot(n, a) - d, db = glm::dot(n, b) - d;
    if (da > 0 && db > 0) {
      t0 = 2.0;
      break;
    }
    if (da > 0) t0 = std::max(t0, da / (da - db));
    if (db > 0) t1 = std::min(t1, da / (da - db));
  }
  if (h.vertices.size() > 3 && t0 <= t1) return 0.0;
  // A single triangle has no inside: the segment meets it where it crosses its plane.
  if (h.vertices.size() == 3 && !h.planes.empty()) {
    const auto& [n, d] = h.planes.front();
    const double da = glm::dot(n, a) - d, db = glm::dot(n, b) - d;
    if (da * db <= 0.0 && da != db) {
      const dvec3 p = a + (b - a) * (da / (da - db));
      const auto& tri = h.triangles.front();
      if (glm::length(p - closest_on_triangle(p, tri[0], tri[1], tri[2])) <= 1e-12) return 0.0;
    }
  }
  double best = std::numeric_limits<double>::infinity();
  for (const auto& tri : h.triangles) {
    best = std::min(best, glm::length(a - closest_on_triangle(a, tri[0], tri[1], tri[2])));
    best = std::min(best, glm::length(b - closest_on_triangle(b, tri[0], tri[1], tri[2])));
    for (int e = 0; e < 3; ++e) best = std::min(best, segment_segment_distance(a, b, tri[e], tri[(e + 1) % 3]));
  }
  return best;
}

struct OracleToi {
  bool hit = false;
  double t = 1.0;
  double min_distance = 0.0; ///< minimum over the motion
};

OracleToi oracle_toi(const Segment& seg, double r, const glm::vec3& motion, const Polyhedron& h) {
  const dvec3 a(seg.a), b(seg.b), m(motion);
  auto f = [&](double t) { return segment_polyhedron_distance(a + t * m, b + t * m, h); };
  OracleToi out;
  if (f(0.0) <= r) return {true, 0.0, f(0.0)};
  const double phi = 0.5 * (std::sqrt(5.0) - 1.0);
  double lo = 0.0, hi = 1.0, x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo), f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 80; ++i) {
    if (f1 <= f2)
      hi = x2, x2 = x1, f2 = f1, x1 = hi - phi * (hi - lo), f1 = f(x1);
    else
      lo = x1, x1 = x2, f1 = f2, x2 = lo + phi * (hi - lo), f2 = f(x2);
  }
  double tmin = 0.5 * (lo + hi);
  out.min_distance = std::min({f(tmin), f(1.0), f(0.0)});
  if (f(1.0) <= f(tmin)) tmin = 1.0;
  if (out.min_distance > r) return out;
  double t0 = 0.0, t1 = tmin;
  for (int i = 0; i < 64; ++i) {
    const double mid = 0.5 * (t0 + t1);
    (f(mid) <= r ? t1 : t0) = mid;
  }
  out.hit = true;
  out.t = t1;
  return out;
}

std::vector<glm::vec3> box_points(const glm::vec3& half, const glm::vec3& center = glm::vec3(0.f)) {
  std::vector<glm::vec3> pts;
  for (int i = 0; i < 8; ++i)
    pts.push_back(center + glm::vec3(i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y, i & 4 ? half.z : -half.z));
  return pts;
}

float segment_distance(const Segment& s, const glm::vec3& motion, float t, const Polyhedron& h) {
  return static_cast<float>(
      segment_polyhedron_distance(dvec3(s.a) + double(t) * dvec3(motion), dvec3(s.b) + double(t) * dvec3(motion), h));
}

// Both methods, one check list: hit, t within [expected - tol/|m| - slack, expected + slack].
template <class Shape>
void check_both(const Segment& seg, float r, const glm::vec3& motion, const Shape& shape, double expected_t,
                const glm::vec3& expected_normal, double slack_m = 2e-5) {
  const ToiSettings settings;
  const double len = glm::length(dvec3(motion));
  for (const ToiResult& res : {toi_bisection(seg, r, motion, shape, settings),
                               toi_conservative_advancement(seg, r, motion, shape, settings)}) {
    REQUIRE(res.hit);
    CHECK(res.status == Status::converged);
    CHECK(res.t <= expected_t + slack_m / len);
    CHECK(res.t >= expected_t - (settings.tolerance + slack_m) / len);
    CHECK_APPROX(res.normal, expected_normal, 1e-3f);
  }
}

} // namespace

TEST_CASE("toi: head-on into a face, analytic t, every motion scale") {
  const Box box{{1, 1, 1}};
  const float r = 0.5f;
  for (const float len : {1e-4f, 1e-3f, 1e-2f, 0.1f, 1.f, 10.f, 100.f, 1000.f}) {
    // The capsule starts 0.4 * len + 1e-5 away from touching and moves len along +x.
    const float gap = 0.4f * len + 1e-5f;
    const Segment seg{{-1.f - r - gap, -0.5f, 0.2f}, {-1.f - r - gap, 0.5f, 0.2f}};
    const double expected = (double(-1.f - r) - double(seg.a.x)) / len;
    CAPTURE(len);
    check_both(seg, r, {len, 0, 0}, box, expected, {-1, 0, 0}, 2e-5 + 1e-7 * len);
    const ToiResult res = toi_conservative_advancement(seg, r, {len, 0, 0}, box);
    CHECK_APPROX(res.point.x, -1.f, 1e-4f + 1e-7f * len);
  }
}

TEST_CASE("toi: grazing an edge") {
  // A horizontal capsule (along z) at height 1.4 passes over the box's top edge x = 1, y = 1:
  // it touches when (x - 1)^2 + 0.4^2 = 0.5^2, at x = 1.3.
  const Box box{{1, 1, 1}};
  const Segment seg{{3, 1.4f, -0.5f}, {3, 1.4f, 0.5f}};
  check_both(seg, 0.5f, {-4, 0, 0}, box, (3.0 - 1.3) / 4.0, {0.6f, 0.8f, 0.f});
  const ToiResult res = toi_conservative_advancement(seg, 0.5f, {-4, 0, 0}, box);
  CHECK_APPROX(res.point.x, 1.f, 1e-4f);
  CHECK_APPROX(res.point.y, 1.f, 1e-4f);

  // Just above the edge (1.5 + 1e-3): the capsule slides past without touching.
  const Segment above{{3, 1.501f, -0.5f}, {3, 1.501f, 0.5f}};
  CHECK_FALSE(toi_bisection(above, 0.5f, {-6, 0, 0}, box).hit);
  CHECK_FALSE(toi_conservative_advancement(above, 0.5f, {-6, 0, 0}, box).hit);
}

TEST_CASE("toi: sliding parallel to a face just beyond the radius never hits") {
  const Box box{{1, 1, 1}};
  for (const float clearance : {1e-3f, 2e-4f}) {
    const Segment seg{{-3, 1.3f + clearance, -0.5f}, {-3, 1.3f + clearance, 0.5f}};
    for (const glm::vec3& motion : {glm::vec3(6, 0, 0), glm::vec3(6, 0, 0.3f), glm::vec3(600, 0, 0)}) {
      const ToiResult b = toi_bisection(seg, 0.3f, motion, box);
      const ToiResult c = toi_conservative_advancement(seg, 0.3f, motion, box);
      CHECK_FALSE(b.hit);
      CHECK_FALSE(c.hit);
      CHECK(b.t == 1.f);
      CHECK(c.t == 1.f);
    }
  }
  // Moving away from the face: no hit either.
  const Segment near{{0, 1.35f, 0}, {0, 1.35f, 0.5f}};
  CHECK_FALSE(toi_conservative_advancement(near, 0.3f, {0, 5, 0}, box).hit);
  CHECK_FALSE(toi_bisection(near, 0.3f, {0, 5, 0}, box).hit);
}

TEST_CASE("toi: starting in contact or overlapped gives t = 0 with a normal") {
  const Box box{{1, 1, 1}};
  // Within the radius of the top face, core outside.
  const Segment touching{{0, 1.2f, 0}, {0.5f, 1.2f, 0}};
  // Core inside the box, nearest face +x at 0.1.
  const Segment inside{{0.9f, 0, 0}, {0.9f, 0.5f, 0}};
  struct Start {
    Segment seg;
    glm::vec3 normal, point;
  };
  for (const auto& [seg, normal, point] :
       {Start{touching, {0, 1, 0}, {0.25f, 1, 0}}, Start{inside, {1, 0, 0}, {1, 0.25f, 0}}}) {
    for (const glm::vec3& motion : {glm::vec3(0, -1, 0), glm::vec3(1, 0, 0), glm::vec3(0.f)}) {
      for (const ToiResult& res :
           {toi_bisection(seg, 0.3f, motion, box), toi_conservative_advancement(seg, 0.3f, motion, box)}) {
        REQUIRE(res.hit);
        CHECK(res.t == 0.f);
        CHECK_APPROX(res.normal, normal, 1e-4f);
        // The closest/deepest point on the shape: on the face, within the segment's extent.
        CHECK(std::abs(glm::dot(res.point - point, normal)) <= 1e-4f);
        CHECK(std::abs(res.point.x - point.x) <= 0.3f);
        CHECK(std::abs(res.point.y - point.y) <= 0.3f);
      }
    }
  }
}

TEST_CASE("toi: zero motion and invalid input") {
  const Box box{{1, 1, 1}};
  const Segment far{{0, 2, 0}, {0, 3, 0}};
  CHECK_FALSE(toi_bisection(far, 0.3f, glm::vec3(0.f), box).hit);
  CHECK_FALSE(toi_conservative_advancement(far, 0.3f, glm::vec3(0.f), box).hit);

  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  ToiSettings bad_tolerance;
  bad_tolerance.tolerance = 0.f;
  ToiSettings bad_iterations;
  bad_iterations.max_iterations = 0;
  struct Case {
    Segment seg;
    float r;
    glm::vec3 motion;
    ToiSettings settings;
  };
  for (const Case& c :
       {Case{{{nan, 0, 0}, {0, 1, 0}}, 0.3f, {1, 0, 0}, {}}, Case{{{0, 2, 0}, {0, 3, 0}}, inf, {1, 0, 0}, {}},
        Case{{{0, 2, 0}, {0, 3, 0}}, -0.1f, {1, 0, 0}, {}}, Case{{{0, 2, 0}, {0, 3, 0}}, 0.3f, {0, -inf, 0}, {}},
        Case{{{0, 2, 0}, {0, 3, 0}}, 0.3f, {0, -1, 0}, bad_tolerance},
        Case{{{0, 2, 0}, {0, 3, 0}}, 0.3f, {0, -1, 0}, bad_iterations}}) {
    for (const ToiResult& res : {toi_bisection(c.seg, c.r, c.motion, box, c.settings),
                                 toi_conservative_advancement(c.seg, c.r, c.motion, box, c.settings)}) {
      CHECK(res.status == Status::invalid_input);
      CHECK_FALSE(res.hit);
      CHECK(
          std::isfinite(res.t + res.point.x + res.point.y + res.point.z + res.normal.x + res.normal.y + res.normal.z));
    }
  }
  // A shape whose support is NaN.
  const Transformed<Box> broken{Box{{nan, 1, 1}}, Transform{}};
  const ToiResult res = toi_conservative_advancement(far, 0.3f, {0, -3, 0}, broken);
  CHECK(res.status == Status::invalid_input);
  CHECK_FALSE(res.hit);
}

TEST_CASE("toi: no tunnelling through a 1 mm slab at any speed") {
  const std::vector<glm::vec3> pts = box_points({2.f, 5e-4f, 2.f});
  const ConvexHull slab(pts);
  const float r = 0.05f;
  for (const float speed : {0.01f, 1.f, 10.f, 100.f, 1000.f}) {
    // Start 0.5 * speed below the slab, move speed upward: contact at gap / speed.
    const float start = -0.5f * speed - 5e-4f - r - 1e-3f;
    const Segment seg{{-0.3f, start, 0.1f}, {0.3f, start, -0.1f}};
    const double expected = (double(-5e-4f) - r - double(start)) / speed;
    CAPTURE(speed);
    for (const ToiResult& res :
         {toi_bisection(seg, r, {0, speed, 0}, slab), toi_conservative_advancement(seg, r, {0, speed, 0}, slab)}) {
      REQUIRE(res.hit);
      CHECK(res.t <= expected + (2e-5 + 1e-7 * speed) / speed);
      CHECK(res.t >= expected - (1e-4 + 2e-5 + 1e-7 * speed) / speed);
      CHECK_APPROX(res.normal, glm::vec3(0, -1, 0), 1e-3f);
    }
  }
}

TEST_CASE("toi: random sweeps, both methods agree with each other and with the oracle") {
  std::mt19937 rng(4242);
  std::normal_distribution<float> g;
  std::uniform_real_distribution<float> u(0.f, 1.f);
  const ToiSettings settings;
  int hits = 0, misses = 0, compared = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    // Hull of 6 to 12 points on an ellipsoid around the origin.
    std::vector<glm::vec3> pts(6 + iter % 7);
    const glm::vec3 radii(0.3f + 1.5f * u(rng), 0.3f + 1.5f * u(rng), 0.3f + 1.5f * u(rng));
    for (auto& p : pts) p = glm::normalize(glm::vec3(g(rng), g(rng), g(rng)) + glm::vec3(1e-6f)) * radii;
    const ConvexHull hull(pts);
    const Polyhedron poly = make_polyhedron(pts);

    // Capsule starting 3-5 m away, aimed at a random point near the hull, moving 1-10 m.
    const glm::vec3 start = glm::normalize(glm::vec3(g(rng), g(rng), g(rng))) * (3.f + 2.f * u(rng));
    const glm::vec3 axis = glm::normalize(glm::vec3(g(rng), g(rng), g(rng))) * (0.1f + u(rng));
    const Segment seg{start - axis, start + axis};
    const float r = 0.05f + 0.45f * u(rng);
    const glm::vec3 target = glm::vec3(g(rng), g(rng), g(rng)) * 1.2f;
    const glm::vec3 motion = (target - start) * (0.3f + 2.f * u(rng));
    const double len = glm::length(dvec3(motion));

    const OracleToi oracle = oracle_toi(seg, r, motion, poly);
    const ToiResult bis = toi_bisection(seg, r, motion, hull, settings);
    const ToiResult ca = toi_conservative_advancement(seg, r, motion, hull, settings);
    CHECK(bis.status == Status::converged);
    CHECK(ca.status == Status::converged);
    // Never beyond contact: the distance at the reported t is at least r (minus GJK rounding).
    for (const ToiResult& res : {bis, ca}) {
      if (res.hit && res.t > 0.f) CHECK(segment_distance(seg, motion, res.t, poly) >= r - 2e-5f);
      CHECK(res.t >= 0.f);
      CHECK(res.t <= 1.f);
    }
    // Classification is only asserted away from grazing: a minimum distance within 1e-4 of r.
    if (std::abs(oracle.min_distance - r) < 1e-4) continue;
    ++compared;
    CHECK(bis.hit == oracle.hit);
    CHECK(ca.hit == oracle.hit);
    if (!oracle.hit) {
      ++misses;
      continue;
    }
    ++hits;
    const double slack = 2e-5 / len; // float rounding of positions and GJK accuracy (t units)
    const double tol = settings.tolerance / len;
    for (const ToiResult& res : {bis, ca}) {
      CHECK(res.t <= oracle.t + slack);
      CHECK(res.t >= oracle.t - tol - slack);
    }
    CHECK(std::abs(double(bis.t) - double(ca.t)) <= tol + 2 * slack);
    // Normals from the closest points at nearly the same t agree.
    CHECK_APPROX(bis.normal, ca.normal, 2e-2f);
  }
  CHECK(compared > 1900);
  CHECK(hits > 600);
  CHECK(misses > 600);
}

TEST_CASE("toi: onto a triangle (terrain), analytic and random against the oracle") {
  const Triangle tri{{-5, 0, -5}, {5, 0, -5}, {0, 0, 5}};
  // Falling obliquely: the core's lower end reaches y = 0.3 after dropping 0.7 of 2.
  check_both(Segment{{0, 1, 0}, {0, 2, 0}}, 0.3f, {0.5f, -2, 0}, tri, 0.35, {0, 1, 0});
  const ToiResult res = toi_conservative_advancement(Segment{{0, 1, 0}, {0, 2, 0}}, 0.3f, {0.5f, -2, 0}, tri);
  CHECK_APPROX(res.point, glm::vec3(0.175f, 0, 0), 1e-4f);
  // Passing under the triangle's edge z = -5 sideways: no hit.
  CHECK_FALSE(toi_conservative_advancement(Segment{{0, -1, -6}, {0, 1, -6}}, 0.3f, {1, 0, 0}, tri).hit);

  std::mt19937 rng(99);
  std::normal_distribution<float> g;
  std::uniform_real_distribution<float> u(0.f, 1.f);
  const ToiSettings settings;
  int compared = 0, hits = 0;
  for (int iter = 0; iter < 500; ++iter) {
    const std::vector<glm::vec3> pts{{g(rng), g(rng), g(rng)}, {g(rng), g(rng), g(rng)}, {g(rng), g(rng), g(rng)}};
    const Triangle shape{pts[0], pts[1], pts[2]};
    const Polyhedron poly = make_polyhedron(pts);
    if (poly.planes.empty()) continue; // collinear corners
    const glm::vec3 start = glm::normalize(glm::vec3(g(rng), g(rng), g(rng))) * (2.f + 2.f * u(rng));
    const glm::vec3 axis = glm::normalize(glm::vec3(g(rng), g(rng), g(rng))) * (0.1f + u(rng));
    const Segment seg{start - axis, start + axis};
    const float r = 0.05f + 0.45f * u(rng);
    const glm::vec3 motion = (glm::vec3(g(rng), g(rng), g(rng)) - start) * (0.5f + 1.5f * u(rng));
    const double len = glm::length(dvec3(motion));
    const OracleToi oracle = oracle_toi(seg, r, motion, poly);
    const ToiResult bis = toi_bisection(seg, r, motion, shape, settings);
    const ToiResult ca = toi_conservative_advancement(seg, r, motion, shape, settings);
    for (const ToiResult& res : {bis, ca})
      if (res.hit && res.t > 0.f) CHECK(segment_distance(seg, motion, res.t, poly) >= r - 2e-5f);
    if (std::abs(oracle.min_distance - r) < 1e-4) continue;
    ++compared;
    CHECK(bis.hit == oracle.hit);
    CHECK(ca.hit == oracle.hit);
    if (!oracle.hit) continue;
    ++hits;
    for (const ToiResult& res : {bis, ca}) {
      CHECK(res.t <= oracle.t + 2e-5 / len);
      CHECK(res.t >= oracle.t - (settings.tolerance + 2e-5) / len);
    }
  }
  CHECK(compared > 450);
  CHECK(hits > 100);
}

TEST_CASE("toi: other shapes (cylinder, sphere, rotated box) agree between the methods") {
  const Segment seg{{0, 1, 0}, {0, 2, 0}};
  // Cylinder top at y = 0.5: the core's lower end reaches 0.8 after dropping 0.2 of 2.
  check_both(seg, 0.3f, {0.5f, -2, 0}, Cylinder{0.5f, 1.f}, 0.1, {0, 1, 0});
  // Sphere: the lower end (x = 3t, y = 1 - 2t) reaches distance 0.8 from (1.5, 0, 0).
  const Sphere ball{{1.5f, 0, 0}, 0.5f};
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double t = 0.5 * (lo + hi), x = 3 * t - 1.5, y = 1 - 2 * t;
    (std::sqrt(x * x + y * y) <= 0.8 ? hi : lo) = t;
  }
  const glm::vec3 at(float(3 * hi - 1.5), float(1 - 2 * hi), 0.f);
  check_both(seg, 0.3f, {3, -2, 0}, ball, hi, glm::normalize(at));
  const Transformed<Box> box{Box{{1, 0.5f, 1}}, Transform{glm::angleAxis(0.3f, glm::vec3(0, 0, 1)), {0, -1, 0}}};
  const ToiResult b = toi_bisection(seg, 0.3f, {0, -3, 0}, box),
                  c = toi_conservative_advancement(seg, 0.3f, {0, -3, 0}, box);
  REQUIRE(b.hit);
  REQUIRE(c.hit);
  CHECK(std::abs(b.t - c.t) <= 1e-4f / 3.f + 1e-6f);
  CHECK_APPROX(b.normal, c.normal, 1e-3f);
}

TEST_CASE("toi: advancement out of steps falls back to bisection and stays conservative") {
  std::mt19937 rng(31337);
  std::normal_distribution<float> g;
  std::uniform_real_distribution<float> u(0.f, 1.f);
  ToiSettings few;
  few.max_iterations = 2;
  int fallbacks = 0;
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<glm::vec3> pts(8);
    for (auto& p : pts) p = glm::normalize(glm::vec3(g(rng), g(rng), g(rng)) + glm::vec3(1e-6f));
    const ConvexHull hull(pts);
    const Polyhedron poly = make_polyhedron(pts);
    const glm::vec3 start = glm::normalize(glm::vec3(g(rng), g(rng), g(rng))) * 3.f;
    const Segment seg{start, start + glm::vec3(0, 0.5f, 0)};
    const glm::vec3 motion = (glm::vec3(g(rng), g(rng), g(rng)) * 0.8f - start) * (1.f + u(rng));
    const OracleToi oracle = oracle_toi(seg, 0.3f, motion, poly);
    const ToiResult full = toi_conservative_advancement(seg, 0.3f, motion, hull);
    const ToiResult capped = toi_conservative_advancement(seg, 0.3f, motion, hull, few);
    const double len = glm::length(dvec3(motion));
    if (capped.hit) {
      // Never beyond contact even when the halvings run out too.
      CHECK(capped.t <= oracle.t + 2e-5 / len);
      CHECK(segment_distance(seg, motion, capped.t, poly) >= 0.3f - 2e-5f);
    }
    if (capped.status == Status::max_iterations) ++fallbacks;
    if (std::abs(oracle.min_distance - 0.3) < 1e-4) continue;
    CHECK(capped.hit == oracle.hit);
    CHECK(full.hit == oracle.hit);
    if (capped.status == Status::converged && capped.hit)
      CHECK(std::abs(double(capped.t) - double(full.t)) <= 1.1e-4 / len);
  }
  CHECK(fallbacks > 20);
}

TEST_CASE("toi: far from the world origin and huge motions end with finite output") {
  // 1 km away: still conservative, within the tolerance plus float rounding of positions.
  const glm::vec3 far(1000.f, -500.f, 800.f);
  const Transformed<Box> box{Box{{1, 1, 1}}, Transform{{1, 0, 0, 0}, far}};
  const Segment seg{far + glm::vec3(-3, -0.5f, 0), far + glm::vec3(-3, 0.5f, 0)};
  for (const ToiResult& res :
       {toi_bisection(seg, 0.5f, {4, 0, 0}, box), toi_conservative_advancement(seg, 0.5f, {4, 0, 0}, box)}) {
    REQUIRE(res.hit);
    CHECK(res.t <= 0.375f + 2e-4f / 4.f);
    CHECK(res.t >= 0.375f - 3e-4f / 4.f);
    CHECK_APPROX(res.normal, glm::vec3(-1, 0, 0), 1e-3f);
  }
  // Motions far beyond any level: no hang, finite output, whatever the verdict.
  for (const float scale : {1e6f, 1e20f, 1e37f}) {
    const glm::vec3 motion(scale, -scale, 0.5f * scale);
    for (const ToiResult& res : {toi_bisection(Segment{{0, 3, 0}, {0, 4, 0}}, 0.3f, motion, Box{}),
                                 toi_conservative_advancement(Segment{{0, 3, 0}, {0, 4, 0}}, 0.3f, motion, Box{})}) {
      CHECK(
          std::isfinite(res.t + res.normal.x + res.normal.y + res.normal.z + res.point.x + res.point.y + res.point.z));
      CHECK(res.iterations < 200);
    }
  }
}

TEST_CASE("toi: a point grazing a thin triangle 1e4 m out, driven through it, hits it") {
  // Regression (stress seed 7): the point starts 5.2e-4 m from the triangle, radius 2.5e-4 m,
  // and closes in slowly (true contact at t = 0.349). Its coordinates round by up to 5e-4 m
  // there: advancement jumped over the triangle between two queries, saw the slope rise and
  // reported a miss. Its jumps now allow for that rounding: a hit, never after the contact.
  const Triangle triangle{{1173.59338f, 2257.71973f, -9670.66113f},
                          {1173.31812f, 2257.49268f, -9670.59277f},
                          {1173.46387f, 2257.82178f, -9670.75977f}};
  const glm::vec3 point(1173.43542f, 2257.75757f, -9670.72656f);
  const glm::vec3 motion(0.0345458984f, -0.119262695f, 0.0830078125f);
  const float radius = 0.00024539177f;
  for (const ToiResult& res : {toi_conservative_advancement(Segment{point, point}, radius, motion, triangle),
                               toi_bisection(Segment{point, point}, radius, motion, triangle)}) {
    CHECK(res.hit);
    CHECK(res.t <= 0.3494f);
  }
}

TEST_CASE("toi: shallow approaches from far away stay conservative") {
  // Distances of ~100 m with closing speeds of 1e-3 of the motion: GJK's relative accuracy
  // on the far distance must not turn into a jump past the contact.
  const std::vector<glm::vec3> pts = box_points({1, 1, 1});
  const ConvexHull box(pts);
  const Polyhedron poly = make_polyhedron(pts);
  const Segment seg{{-100, 1.4f, -0.5f}, {-100, 1.4f, 0.5f}};
  int hits = 0;
  for (const float drop : {0.1005f, 0.15f, 0.2f, 0.4f, 1.f}) {
    const glm::vec3 motion(200.f, -drop, 0.f);
    const OracleToi oracle = oracle_toi(seg, 0.3f, motion, poly);
    const double len = glm::length(dvec3(motion));
    CAPTURE(drop);
    for (const ToiResult& res :
         {toi_bisection(seg, 0.3f, motion, box), toi_conservative_advancement(seg, 0.3f, motion, box)}) {
      REQUIRE(res.hit == oracle.hit);
      if (!oracle.hit) continue;
      ++hits;
      CHECK(res.t <= oracle.t + 2e-5 / len);
      CHECK(res.t >= oracle.t - (1e-4 + 2e-5) / len);
    }
  }
  CHECK(hits == 6); // three of the five drops reach the box, for both methods
}

TEST_CASE("toi: a bare segment (radius 0) against a box and a triangle") {
  const Segment seg{{-3, -0.5f, 0.2f}, {-3, 0.5f, 0.2f}};
  check_both(seg, 0.f, {4, 0, 0}, Box{{1, 1, 1}}, 0.5, {-1, 0, 0});
  // Through a triangle standing across the path (zero thickness): no tunnelling.
  const Triangle wall{{0, -2, -2}, {0, -2, 2}, {0, 2, 0}};
  check_both(seg, 0.f, {400, 0, 0}, wall, 3.0 / 400.0, {-1, 0, 0}, 2e-5 + 1e-7 * 400);
}
