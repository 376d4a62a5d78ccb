#include "approx.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/penetration.hpp>

#include <glm/ext/vector_double3.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace glide::gjk;
using glm::dvec3;

namespace {

// Oracle (double): for convex A and B given by their vertices, h_M(u) = h_A(u) + h_B(-u) is
// the support function of M = A - B. When the origin is inside M the ball of radius `depth`
// around it is inside M, so h_M(u) >= depth for every unit u, with equality at the facet
// normal of M nearest the origin. The facet normals of M are among: normals of B's vertex
// triples (vertex of A, facet of B), cross products of A's edge with B's vertex pairs
// (edge-edge); A is a point or a segment here, so it has no facets. The minimum of h_M
// over that superset is therefore exactly the depth, and its sign tells overlap.
double support(const std::vector<dvec3>& pts, const dvec3& u) {
  double best = -std::numeric_limits<double>::infinity();
  for (const dvec3& p : pts) best = std::max(best, glm::dot(p, u));
  return best;
}

double minkowski_support(const std::vector<dvec3>& a, const std::vector<dvec3>& b, const dvec3& u) {
  return support(a, u) + support(b, -u);
}

double oracle_depth(const std::vector<dvec3>& a, const std::vector<dvec3>& b) {
  std::vector<dvec3> dirs;
  auto push = [&](const dvec3& n) {
    const double len = glm::length(n);
    if (len > 1e-12) dirs.push_back(n / len), dirs.push_back(-n / len);
  };
  const std::size_t n = b.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (a.size() == 2) push(glm::cross(a[1] - a[0], b[j] - b[i]));
      for (std::size_t k = j + 1; k < n; ++k) push(glm::cross(b[j] - b[i], b[k] - b[i]));
    }
  double depth = std::numeric_limits<double>::infinity();
  for (const dvec3& u : dirs) depth = std::min(depth, minkowski_support(a, b, u));
  return depth;
}

std::vector<dvec3> to_double(std::initializer_list<glm::vec3> pts) { return {pts.begin(), pts.end()}; }

std::vector<glm::vec3> random_hull_points(std::mt19937& rng) {
  std::normal_distribution<float> g;
  std::uniform_real_distribution<float> u(0.5f, 2.f);
  std::uniform_int_distribution<int> count(6, 16);
  const glm::vec3 radii(u(rng), u(rng), u(rng)), center(g(rng), g(rng), g(rng));
  std::vector<glm::vec3> pts(count(rng));
  for (auto& p : pts) {
    glm::vec3 d(g(rng), g(rng), g(rng));
    while (glm::length(d) < 1e-3f) d = {g(rng), g(rng), g(rng)};
    p = center + glm::normalize(d) * radii;
  }
  return pts;
}

glm::vec3 random_inside(const std::vector<glm::vec3>& pts, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0.f, 1.f);
  glm::vec3 sum(0.f);
  float total = 0.f;
  for (const auto& p : pts) {
    const float w = u(rng) * u(rng);
    sum += w * p;
    total += w;
  }
  return sum / total;
}

// Checks depth against the oracle and that the normal realises it (A moved by depth *
// normal touches B: the plane along -normal at the depth separates).
void check_against_oracle(const PenetrationResult& r, const std::vector<dvec3>& a, const std::vector<dvec3>& b,
                          double expected, double tol) {
  REQUIRE(r.overlapping);
  CHECK(r.status != Status::invalid_input);
  CHECK_APPROX(r.depth, static_cast<float>(expected), static_cast<float>(tol));
  CHECK_APPROX(glm::length(r.normal), 1.f, 1e-5f);
  CHECK(std::abs(minkowski_support(a, b, -dvec3(r.normal)) - expected) <= tol);
  // point_a - point_b = -depth * normal by construction of the witnesses.
  CHECK_APPROX(r.point_a - r.point_b, -r.depth * r.normal, static_cast<float>(10 * tol));
}

} // namespace

TEST_CASE("penetration: point inside a box leaves through the nearest face") {
  const Transformed<Box> box{Box{{1, 2, 3}}, Transform{{1, 0, 0, 0}, {0, 0, 0}}};
  const PenetrationResult r = penetration(Point{{0.7f, 0.5f, -0.2f}}, box);
  REQUIRE(r.overlapping);
  CHECK(r.status == Status::converged);
  CHECK_APPROX(r.depth, 0.3f, 1e-5f);
  CHECK_APPROX(r.normal, glm::vec3(1, 0, 0), 1e-5f);
  CHECK_APPROX(r.point_a, glm::vec3(0.7f, 0.5f, -0.2f), 1e-5f);
  CHECK_APPROX(r.point_b, glm::vec3(1.f, 0.5f, -0.2f), 1e-5f);

  // Rotated and moved box: the nearest face is -z in the box frame.
  const Transform xf{glm::angleAxis(0.6f, glm::normalize(glm::vec3(1, 2, 3))), {4, -1, 2}};
  const PenetrationResult q = penetration(Point{xf.apply({0.2f, -0.3f, -2.5f})}, Transformed<Box>{Box{{1, 2, 3}}, xf});
  CHECK_APPROX(q.depth, 0.5f, 1e-5f);
  CHECK_APPROX(q.normal, xf.rotation * glm::vec3(0, 0, -1), 1e-5f);
}

TEST_CASE("penetration: repeated queries give identical answers (the per-thread scratch keeps no state)") {
  // Alternate a small and a large polytope so the scratch arrays shrink and grow between calls.
  const Transformed<Box> box{Box{{1, 2, 3}}, Transform{glm::angleAxis(0.4f, glm::vec3(0, 1, 0)), {0.5f, 0, 0}}};
  const Cylinder cylinder{1.f, 0.8f};
  const Segment inside_box{{0.2f, -0.5f, 0.1f}, {0.9f, 0.5f, -0.4f}};
  const Segment inside_cylinder{{0.1f, -0.3f, 0.2f}, {-0.2f, 0.4f, 0.1f}};
  const PenetrationResult first_box = penetration(inside_box, box);
  const PenetrationResult first_cylinder = penetration(inside_cylinder, cylinder);
  REQUIRE(first_box.overlapping);
  REQUIRE(first_cylinder.overlapping);
  CHECK(first_cylinder.iterations > first_box.iterations);
  for (int k = 0; k < 3; ++k) {
    const PenetrationResult b = penetration(inside_box, box);
    const PenetrationResult c = penetration(inside_cylinder, cylinder);
    CHECK(b.depth == first_box.depth);
    CHECK(b.normal == first_box.normal);
    CHECK(b.point_a == first_box.point_a);
    CHECK(b.iterations == first_box.iterations);
    CHECK(c.depth == first_cylinder.depth);
    CHECK(c.point_b == first_cylinder.point_b);
    CHECK(c.iterations == first_cylinder.iterations);
  }
}

TEST_CASE("penetration: spheres") {
  const PenetrationResult r = penetration(Sphere{{0, 0, 0}, 1.f}, Sphere{{1.5f, 0, 0}, 1.f});
  REQUIRE(r.overlapping);
  CHECK_APPROX(r.depth, 0.5f, 1e-6f);
  CHECK_APPROX(r.normal, glm::vec3(-1, 0, 0), 1e-6f);
  CHECK_APPROX(r.point_a, glm::vec3(1, 0, 0), 1e-6f);
  CHECK_APPROX(r.point_b, glm::vec3(0.5f, 0, 0), 1e-6f);

  // Concentric: any direction; the depth is the sum of the radii.
  const PenetrationResult c = penetration(Sphere{{1, 2, 3}, 0.5f}, Sphere{{1, 2, 3}, 0.25f});
  REQUIRE(c.overlapping);
  CHECK_APPROX(c.depth, 0.75f, 1e-4f);
  CHECK_APPROX(glm::length(c.normal), 1.f, 1e-5f);

  const PenetrationResult apart = penetration(Sphere{{0, 0, 0}, 1.f}, Sphere{{2.5f, 0, 0}, 1.f});
  CHECK_FALSE(apart.overlapping);
  CHECK(apart.depth == 0.f);
}

TEST_CASE("penetration: capsule against a box, core inside and core outside within the radius") {
  const Box box{{1, 1, 1}};
  const PenetrationResult inside = penetration(Capsule{{{0, 0.8f, 0.2f}, {0, 2, 0.2f}}, 0.3f}, box);
  REQUIRE(inside.overlapping);
  CHECK_APPROX(inside.depth, 0.5f, 1e-5f);
  CHECK_APPROX(inside.normal, glm::vec3(0, 1, 0), 1e-5f);
  CHECK_APPROX(inside.point_a, glm::vec3(0, 0.5f, 0.2f), 1e-5f);
  CHECK_APPROX(inside.point_b, glm::vec3(0, 1.0f, 0.2f), 1e-5f);

  const PenetrationResult rim = penetration(Capsule{{{0, 1.1f, 0.2f}, {0, 2, 0.2f}}, 0.3f}, box);
  REQUIRE(rim.overlapping);
  CHECK(rim.iterations == 0);
  CHECK_APPROX(rim.depth, 0.2f, 1e-5f);
  CHECK_APPROX(rim.normal, glm::vec3(0, 1, 0), 1e-5f);
  CHECK_APPROX(rim.point_b, glm::vec3(0, 1.0f, 0.2f), 1e-5f);

  // Box as A, capsule as B: the normal flips.
  const PenetrationResult swapped = penetration(box, Capsule{{{0, 0.8f, 0.2f}, {0, 2, 0.2f}}, 0.3f});
  CHECK_APPROX(swapped.depth, 0.5f, 1e-5f);
  CHECK_APPROX(swapped.normal, glm::vec3(0, -1, 0), 1e-5f);

  CHECK_FALSE(penetration(Capsule{{{0, 1.31f, 0}, {0, 2, 0}}, 0.3f}, box).overlapping);
}

TEST_CASE("penetration: segment crossing a box") {
  const PenetrationResult r = penetration(Segment{{-2, 0.1f, 0.05f}, {2, 0.1f, 0.05f}}, Box{{1, 1, 1}});
  REQUIRE(r.overlapping);
  CHECK_APPROX(r.depth, 0.9f, 1e-5f);
  CHECK_APPROX(r.normal, glm::vec3(0, 1, 0), 1e-5f);
  // Diagonal through the box centre: out through an edge direction is not shorter than a face.
  const PenetrationResult diag = penetration(Segment{{-2, -2, 0.5f}, {2, 2, 0.5f}}, Box{{1, 1, 1}});
  const double expected = oracle_depth(
      to_double({{-2, -2, 0.5f}, {2, 2, 0.5f}}),
      to_double({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}}));
  CHECK_APPROX(diag.depth, static_cast<float>(expected), 1e-5f);
}

TEST_CASE("penetration: triangles (flat Minkowski differences)") {
  const Triangle tri{{-5, 0, -5}, {5, 0, -5}, {0, 0, 5}};
  const PenetrationResult r = penetration(Segment{{0, -0.2f, 0}, {0, 1, 0}}, tri);
  REQUIRE(r.overlapping);
  CHECK_APPROX(r.depth, 0.2f, 1e-5f);
  CHECK_APPROX(r.normal, glm::vec3(0, 1, 0), 1e-5f);
  CHECK_APPROX(r.point_a, glm::vec3(0, -0.2f, 0), 1e-5f);

  // A point in the triangle and a segment lying in its plane: zero depth along the plane
  // normal (either side), never NaN.
  for (const PenetrationResult& flat :
       {penetration(Point{{0.5f, 0, 0}}, tri), penetration(Segment{{-1, 0, 0}, {1, 0, 1}}, tri)}) {
    REQUIRE(flat.overlapping);
    CHECK(flat.depth <= 1e-4f);
    CHECK_APPROX(std::abs(flat.normal.y), 1.f, 1e-4f);
  }
  // Capsule lying on the triangle: depth = radius.
  const PenetrationResult lying = penetration(Capsule{{{-1, 0, 0}, {1, 0, 1}}, 0.3f}, tri);
  CHECK_APPROX(lying.depth, 0.3f, 1e-4f);

  // Two crossing triangles: one corner 0.3 below the big one, the rest 2 above.
  const Triangle t2{{0.f, -0.3f, 0.f}, {1.f, 2.f, 0.5f}, {-1.f, 2.f, 0.2f}};
  const PenetrationResult cross = penetration(t2, tri);
  REQUIRE(cross.overlapping);
  CHECK_APPROX(cross.depth, 0.3f, 1e-5f);
  CHECK_APPROX(cross.normal, glm::vec3(0, 1, 0), 1e-5f);
}

TEST_CASE("penetration: invalid input gives a status and finite output") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const PenetrationResult r = penetration(Point{{nan, 0, 0}}, Box{});
  CHECK(r.status == Status::invalid_input);
  CHECK_FALSE(r.overlapping);
  CHECK(std::isfinite(r.depth));
  const PenetrationResult s = penetration(Sphere{{0, 0, 0}, -1.f}, Box{});
  CHECK(s.status == Status::invalid_input);
  PenetrationSettings zero_tolerance;
  zero_tolerance.tolerance = 0.f;
  const PenetrationResult t = penetration(Point{}, Box{}, zero_tolerance);
  CHECK(t.status == Status::invalid_input);
  const float inf = std::numeric_limits<float>::infinity();
  const PenetrationResult u = penetration(Segment{{0, 0, 0}, {inf, 0, 0}}, Box{});
  CHECK(u.status == Status::invalid_input);
  CHECK(std::isfinite(u.normal.x + u.normal.y + u.normal.z + u.point_a.x + u.point_b.x));
}

TEST_CASE("penetration: random points and segments inside random hulls match the oracle") {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  int checked_points = 0, checked_segments = 0, checked_capsules = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    const std::vector<glm::vec3> pts = random_hull_points(rng);
    const ConvexHull hull(pts);
    const std::vector<dvec3> b(pts.begin(), pts.end());

    const glm::vec3 p = random_inside(pts, rng);
    const double point_depth = oracle_depth({dvec3(p)}, b);
    if (point_depth > 1e-3) {
      check_against_oracle(penetration(Point{p}, hull), {dvec3(p)}, b, point_depth, 1e-4);
      ++checked_points;
    }

    // One end inside, the other inside or far out (crossing the boundary).
    const glm::vec3 q = unit(rng) < 0.5f ? random_inside(pts, rng) : p + 3.f * (random_inside(pts, rng) - p);
    const std::vector<dvec3> a{dvec3(p), dvec3(q)};
    const double segment_depth = oracle_depth(a, b);
    if (segment_depth > 1e-3) {
      check_against_oracle(penetration(Segment{p, q}, hull), a, b, segment_depth, 1e-4);
      ++checked_segments;
      const PenetrationResult cap = penetration(Capsule{{p, q}, 0.25f}, hull);
      CHECK_APPROX(cap.depth, static_cast<float>(segment_depth + 0.25), 1e-4f);
      ++checked_capsules;
    } else if (segment_depth < -1e-3) {
      CHECK_FALSE(penetration(Segment{p, q}, hull).overlapping);
    }
  }
  CHECK(checked_points > 1200);
  CHECK(checked_segments > 1200);
  CHECK(checked_capsules > 1200);
}

TEST_CASE("penetration: random segments through random triangles match the oracle") {
  std::mt19937 rng(777);
  std::normal_distribution<float> g;
  int checked = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    const Triangle tri{{g(rng), g(rng), g(rng)}, {g(rng), g(rng), g(rng)}, {g(rng), g(rng), g(rng)}};
    // A segment through a random point of the triangle.
    std::uniform_real_distribution<float> u(0.f, 1.f);
    float s = u(rng), t = u(rng);
    if (s + t > 1.f) s = 1.f - s, t = 1.f - t;
    const glm::vec3 on = tri.a + s * (tri.b - tri.a) + t * (tri.c - tri.a);
    const glm::vec3 dir(g(rng), g(rng), g(rng));
    const Segment seg{on - u(rng) * dir, on + u(rng) * dir};
    const std::vector<dvec3> a{dvec3(seg.a), dvec3(seg.b)}, b{dvec3(tri.a), dvec3(tri.b), dvec3(tri.c)};
    const double depth = oracle_depth(a, b);
    if (depth < 1e-3) continue;
    check_against_oracle(penetration(seg, tri), a, b, depth, 1e-4);
    ++checked;
  }
  CHECK(checked > 1000);
}

TEST_CASE("penetration: curved shapes (cylinder exact caps and side, cone within a status)") {
  const Cylinder cyl{0.5f, 1.f};
  // Depth = min(radius - lateral distance, half height - |y|).
  for (const glm::vec3& p : {glm::vec3(0.3f, 0.f, 0.1f), glm::vec3(0.3f, 0.45f, 0.1f), glm::vec3(0.8f, 0.f, 0.1f)}) {
    const float lateral = std::sqrt(p.x * p.x + p.z * p.z);
    const float expected = std::min(1.f - lateral, 0.5f - std::abs(p.y));
    const PenetrationResult r = penetration(Point{p}, cyl);
    REQUIRE(r.overlapping);
    CAPTURE(p);
    // The side is curved: EPA refines a polygon inside it, so a looser bound there.
    CHECK(r.depth <= expected + 1e-5f);
    CHECK(r.depth >= expected - 2e-3f);
  }
  // Segment in a cone: 0.7 / sqrt(2) out through the slanted side from its lower end.
  const PenetrationResult r = penetration(Segment{{0.f, -0.2f, 0.f}, {0.2f, 0.3f, 0.f}}, Cone{0.5f, 1.f});
  REQUIRE(r.overlapping);
  CHECK(r.status != Status::invalid_input);
  CHECK(r.depth <= 0.7f / std::sqrt(2.f) + 1e-5f);
  CHECK(r.depth >= 0.7f / std::sqrt(2.f) - 1e-3f);
  CHECK_APPROX(glm::length(r.normal), 1.f, 1e-5f);
}

TEST_CASE("penetration: random degenerate pairs never give NaN") {
  std::mt19937 rng(5);
  std::normal_distribution<float> g;
  auto v = [&] { return glm::vec3(g(rng), g(rng), g(rng)) * 0.3f; };
  for (int iter = 0; iter < 500; ++iter) {
    const glm::vec3 p = v(), q = v();
    const PenetrationResult results[] = {
        penetration(Point{p}, Point{p}),
        penetration(Segment{p, q}, Segment{p, 2.f * q - p}),
        penetration(Segment{p, q}, Segment{0.5f * (p + q) + v(), 0.5f * (p + q) - v()}),
        penetration(Point{0.5f * (p + q)}, Segment{p, q}),
        penetration(Triangle{p, q, v()}, Triangle{p, q, v()}),
        penetration(Capsule{{p, q}, 0.2f}, Triangle{p, q, v()}),
        penetration(Sphere{p, 0.1f}, Capsule{{p, q}, 0.2f}),
    };
    for (const PenetrationResult& r : results) {
      CHECK(std::isfinite(r.depth));
      CHECK(r.depth >= 0.f);
      CHECK_APPROX(glm::length(r.normal), 1.f, 1e-4f);
      CHECK(std::isfinite(r.point_a.x + r.point_a.y + r.point_a.z + r.point_b.x + r.point_b.y + r.point_b.z));
    }
  }
}

TEST_CASE("penetration: segments almost in a triangle's plane (thin differences) match the oracle") {
  std::mt19937 rng(2024);
  std::normal_distribution<float> g;
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  int checked = 0;
  for (int iter = 0; iter < 400; ++iter) {
    const Triangle tri{{-2, 0, -2}, {2, 0, -2}, {0, 0, 2}};
    const float angle = std::pow(10.f, -1.f - 5.f * (0.5f + 0.5f * u(rng))); // 1e-1 .. 1e-6 rad
    const glm::vec3 along = glm::normalize(glm::vec3(u(rng), 0.f, u(rng)) + glm::vec3(1e-3f, 0, 0));
    const glm::vec3 dir = std::cos(angle) * along + std::sin(angle) * glm::vec3(0, 1, 0);
    const glm::vec3 mid(0.5f * u(rng), 0.f, 0.5f * u(rng) - 0.3f);
    const Segment seg{mid - 0.5f * dir, mid + (0.3f + 0.5f * (u(rng) + 1.f)) * dir};
    const std::vector<dvec3> a{dvec3(seg.a), dvec3(seg.b)}, b{dvec3(tri.a), dvec3(tri.b), dvec3(tri.c)};
    const double depth = oracle_depth(a, b);
    const PenetrationResult r = penetration(seg, tri);
    CHECK(std::isfinite(r.depth));
    if (depth <= 1e-6) continue;
    ++checked;
    REQUIRE(r.overlapping);
    CHECK_APPROX(r.depth, static_cast<float>(depth), 1e-4f);
    CAPTURE(angle);
    CAPTURE(r.depth);
    CAPTURE(depth);
    CAPTURE(r.iterations);
    CAPTURE(int(r.status));
    CAPTURE(r.normal);
    CHECK(std::abs(minkowski_support(a, b, -dvec3(r.normal)) - depth) <= 1e-4);
  }
  CHECK(checked > 300);
}
