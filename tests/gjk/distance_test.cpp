// Distance GJK against analytic answers: every Voronoi region of a box, parallel and
// touching configurations, overlaps, every shape type, statuses and the warm start.
#include "approx.hpp"
#include "gjk_oracle.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>

#include <glm/gtc/constants.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using namespace glide::gjk;

namespace {

const Box unit_box{{1, 1, 1}};
constexpr float k_tol = 2e-6f; // rounding on shapes of size ~1

/// Distance from p to the box [-h, h] (0 inside).
float box_distance(const glm::vec3& p, const glm::vec3& h) {
  return glm::length(glm::max(glm::abs(p) - h, glm::vec3(0.f)));
}

float segment_distance(const glm::vec3& p, const Segment& s) {
  return float(glide::test::point_segment_distance(glm::dvec3(p), glm::dvec3(s.a), glm::dvec3(s.b)));
}

/// Any correct pair passes: the distance, each point on its shape, the points that far apart
/// and the normal along them.
void check_segment_box(const Segment& s, const DistanceResult& r, float expected) {
  CHECK(r.status == Status::converged);
  CHECK_APPROX(r.distance, expected, k_tol);
  CHECK(segment_distance(r.point_a, s) <= k_tol);
  CHECK(box_distance(r.point_b, unit_box.half_extents) <= k_tol);
  CHECK_APPROX(glm::length(r.point_a - r.point_b), expected, k_tol);
  if (expected > 0.f) CHECK_APPROX(r.normal, (r.point_a - r.point_b) / expected, 1e-5f);
}

} // namespace

TEST_CASE("segment against a box: face, edge and vertex regions") {
  SUBCASE("endpoint over a face") {
    const Segment s{{2, 0.1f, 0.2f}, {4, 0.3f, 0.1f}};
    const DistanceResult r = distance(s, unit_box);
    check_segment_box(s, r, 1.f);
    CHECK_APPROX(r.point_a, glm::vec3(2, 0.1f, 0.2f), k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(1, 0.1f, 0.2f), k_tol);
    CHECK_APPROX(r.normal, glm::vec3(1, 0, 0), k_tol);
  }
  SUBCASE("segment leaving the face region: nearest point inside the segment, over an edge") {
    // Points (x, 2.5 - x/4, 0.5): squared distance (x - 1)^2 + (1.5 - x/4)^2, least at x = 22/17.
    const Segment s{{-2, 3, 0.5f}, {2, 2, 0.5f}};
    const DistanceResult r = distance(s, unit_box);
    const float x = 22.f / 17.f;
    check_segment_box(s, r, std::hypot(x - 1, 1.5f - x / 4));
    CHECK_APPROX(r.point_a, glm::vec3(x, 2.5f - x / 4, 0.5f), k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(1, 1, 0.5f), k_tol);
  }
  SUBCASE("endpoint over an edge") {
    const Segment s{{2, 2, 0.3f}, {3, 4, 0.3f}};
    const DistanceResult r = distance(s, unit_box);
    check_segment_box(s, r, std::sqrt(2.f));
    CHECK_APPROX(r.point_b, glm::vec3(1, 1, 0.3f), k_tol);
  }
  SUBCASE("segment crossing an edge (edge-edge)") {
    // Points (1.5 + t, 1.5 - t, 0.3 t): nearest the box edge x = y = 1 at t = 0.
    const Segment s{{-0.5f, 3.5f, -0.6f}, {3.5f, -0.5f, 0.6f}};
    const DistanceResult r = distance(s, unit_box);
    check_segment_box(s, r, std::sqrt(0.5f));
    CHECK_APPROX(r.point_a, glm::vec3(1.5f, 1.5f, 0), k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(1, 1, 0), k_tol);
    CHECK_APPROX(r.normal, glm::normalize(glm::vec3(1, 1, 0)), 1e-6f);
  }
  SUBCASE("endpoint over a vertex") {
    const Segment s{{2, 3, 4}, {3, 4, 5}};
    const DistanceResult r = distance(s, unit_box);
    check_segment_box(s, r, std::sqrt(14.f));
    CHECK_APPROX(r.point_b, glm::vec3(1, 1, 1), k_tol);
  }
  SUBCASE("segment passing by a vertex") {
    // Points (2 + t, 2 - t, 2): squared distance 3 + 2t^2 to the vertex (1, 1, 1).
    const Segment s{{1, 3, 2}, {3, 1, 2}};
    const DistanceResult r = distance(s, unit_box);
    check_segment_box(s, r, std::sqrt(3.f));
    CHECK_APPROX(r.point_a, glm::vec3(2, 2, 2), k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(1, 1, 1), k_tol);
  }
}

TEST_CASE("segment parallel to a face or an edge: any nearest pair at the right distance") {
  const Segment face{{3, -0.5f, 0.2f}, {3, 0.5f, -0.2f}};
  check_segment_box(face, distance(face, unit_box), 2.f);
  const Segment edge{{2, 2, -3}, {2, 2, 3}};
  check_segment_box(edge, distance(edge, unit_box), std::sqrt(2.f));
  const Segment long_face{{-10, 1.5f, 0}, {10, 1.5f, 0}};
  check_segment_box(long_face, distance(long_face, unit_box), 0.5f);
}

TEST_CASE("touching, overlapping, inside and zero-length segments") {
  SUBCASE("endpoint on a face: distance 0") {
    const Segment s{{1, 0.2f, 0.1f}, {2, 0.5f, 0}};
    const DistanceResult r = distance(s, unit_box);
    CHECK(r.distance <= k_tol);
    CHECK(r.overlapping() == (r.distance == 0.f));
    CHECK(segment_distance(r.point_a, s) <= k_tol);
    CHECK(box_distance(r.point_b, unit_box.half_extents) <= k_tol);
  }
  SUBCASE("lying on a face") {
    const Segment s{{1, -0.5f, 0.3f}, {1, 0.5f, -0.3f}};
    const DistanceResult r = distance(s, unit_box);
    CHECK(r.distance <= k_tol);
  }
  SUBCASE("crossing the box") {
    const Segment s{{-3, 0.2f, 0.1f}, {3, -0.2f, 0.3f}};
    const DistanceResult r = distance(s, unit_box);
    CHECK(r.status == Status::converged);
    CHECK(r.distance == 0.f);
    CHECK(r.overlapping());
    CHECK(r.normal == glm::vec3(0.f));
    // A common point: on the segment and in the box.
    CHECK(segment_distance(r.point_a, s) <= k_tol);
    CHECK(box_distance(r.point_a, unit_box.half_extents) <= k_tol);
    CHECK_APPROX(r.point_a, r.point_b, k_tol);
  }
  SUBCASE("inside the box") {
    const Segment s{{-0.5f, 0.1f, 0}, {0.5f, 0.2f, 0.1f}};
    const DistanceResult r = distance(s, unit_box);
    CHECK(r.overlapping());
    CHECK(box_distance(r.point_a, unit_box.half_extents) <= k_tol);
  }
  SUBCASE("zero-length segment") {
    const Segment s{{3, 0.5f, 0.5f}, {3, 0.5f, 0.5f}};
    const DistanceResult r = distance(s, unit_box);
    check_segment_box(s, r, 2.f);
    CHECK_APPROX(r.point_b, glm::vec3(1, 0.5f, 0.5f), k_tol);
  }
}

TEST_CASE("every shape type against an analytic answer") {
  SUBCASE("Point - Point") {
    const DistanceResult r = distance(Point{{1, 2, 3}}, Point{{1, 2, 5}});
    CHECK_APPROX(r.distance, 2.f, 0);
    CHECK_APPROX(r.normal, glm::vec3(0, 0, -1), 0);
  }
  SUBCASE("Point - Triangle interior, edge and vertex") {
    const Triangle t{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
    DistanceResult r = distance(Point{{1, 1, 3}}, t);
    CHECK_APPROX(r.distance, 3.f, k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(1, 1, 0), k_tol);
    r = distance(Point{{3, 3, 0}}, t); // beyond the hypotenuse, in the plane
    CHECK_APPROX(r.distance, std::sqrt(2.f), k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(2, 2, 0), k_tol);
    r = distance(Point{{-1, -2, 2}}, t);
    CHECK_APPROX(r.distance, 3.f, k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(0, 0, 0), k_tol);
  }
  SUBCASE("Triangle - Box") {
    const Triangle t{{2, 0, 0}, {5, -3, 1}, {5, 3, -1}};
    const DistanceResult r = distance(t, unit_box);
    CHECK_APPROX(r.distance, 1.f, k_tol);
    CHECK_APPROX(r.normal, glm::vec3(1, 0, 0), 1e-6f);
  }
  SUBCASE("Sphere - Sphere") {
    const DistanceResult r = distance(Sphere{{0, 0, 0}, 1}, Sphere{{3, 4, 0}, 2});
    CHECK_APPROX(r.distance, 2.f, k_tol);
    CHECK_APPROX(r.point_a, glm::vec3(0.6f, 0.8f, 0), k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(1.8f, 2.4f, 0), k_tol);
    CHECK_APPROX(r.normal, glm::vec3(-0.6f, -0.8f, 0), k_tol);
  }
  SUBCASE("Sphere - Sphere with only the radii overlapping") {
    const DistanceResult r = distance(Sphere{{0, 0, 0}, 1}, Sphere{{3, 0, 0}, 2.5f});
    CHECK(r.distance == 0.f);
    CHECK(r.overlapping());
    CHECK_APPROX(r.normal, glm::vec3(-1, 0, 0), k_tol);    // still the direction between cores
    CHECK_APPROX(r.point_a, glm::vec3(1, 0, 0), k_tol);    // A's deepest point along the normal
    CHECK_APPROX(r.point_b, glm::vec3(0.5f, 0, 0), k_tol); // B's
  }
  SUBCASE("Capsule - Box, parallel above a face") {
    const Capsule c{{{-0.5f, 3, 0}, {0.5f, 3, 0}}, 0.5f};
    const DistanceResult r = distance(c, unit_box);
    CHECK_APPROX(r.distance, 1.5f, k_tol);
    CHECK_APPROX(r.point_a.y, 2.5f, k_tol);
    CHECK_APPROX(r.point_b.y, 1.f, k_tol);
    CHECK(std::abs(r.point_a.x) <= 0.5f + k_tol);
  }
  SUBCASE("Capsule - Sphere") {
    const Capsule c{{{0, 0, 0}, {0, 2, 0}}, 0.25f};
    const DistanceResult r = distance(c, Sphere{{3, 1, 0}, 0.75f});
    CHECK_APPROX(r.distance, 2.f, k_tol);
    CHECK_APPROX(r.point_a, glm::vec3(0.25f, 1, 0), k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(2.25f, 1, 0), k_tol);
  }
  SUBCASE("Cylinder - Point beside the side and above the cap") {
    const Cylinder cyl{1, 0.5f};
    DistanceResult r = distance(Point{{2, 0.25f, 1}}, cyl);
    CHECK_APPROX(r.distance, std::sqrt(5.f) - 0.5f, 1e-5f);
    r = distance(Point{{0.1f, 3, 0.2f}}, cyl);
    CHECK_APPROX(r.distance, 2.f, 1e-5f);
  }
  SUBCASE("Cone - Point above the apex and below the base") {
    const Cone cone{1, 1};
    DistanceResult r = distance(Point{{0, 3, 0}}, cone);
    CHECK_APPROX(r.distance, 2.f, 1e-5f);
    CHECK_APPROX(r.point_b, glm::vec3(0, 1, 0), 1e-5f);
    r = distance(Point{{0.2f, -2, 0}}, cone);
    CHECK_APPROX(r.distance, 1.f, 1e-5f);
    // Beside the slanted side, in the xy plane: the side is the line x + y/2 = 1/2 ... at
    // 45°/2 slope the distance from (2, 0) to the line through (0, 1) and (1, -1).
    r = distance(Point{{2, 0, 0}}, cone);
    CHECK_APPROX(r.distance, std::abs(2 * 2.f + 0.f - 1.f) / std::sqrt(5.f), 1e-5f);
  }
  SUBCASE("ConvexHull - Segment") {
    const std::vector<glm::vec3> cube{{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                      {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
    const ConvexHull hull(cube);
    const Segment s{{-0.5f, 3.5f, -0.6f}, {3.5f, -0.5f, 0.6f}};
    const DistanceResult r = distance(s, hull);
    CHECK_APPROX(r.distance, std::sqrt(0.5f), k_tol);
    CHECK_APPROX(r.point_b, glm::vec3(1, 1, 0), k_tol);
  }
  SUBCASE("Transformed box, rotated and far from the origin") {
    const glm::quat turn = glm::angleAxis(glm::quarter_pi<float>(), glm::vec3(0, 1, 0));
    const Transformed box{unit_box, Transform{turn, {1000, 0, 0}}};
    const DistanceResult r = distance(Point{{1003, 0.5f, 0}}, box);
    CHECK_APPROX(r.distance, 3.f - std::sqrt(2.f), 1e-4f); // corner toward +x at 1000 + √2
    CHECK_APPROX(r.point_b, glm::vec3(1000 + std::sqrt(2.f), 0.5f, 0), 1e-4f);
  }
  SUBCASE("Swept box and swept sphere") {
    const Swept box{unit_box, glm::vec3(5, 0, 0)};
    CHECK_APPROX(distance(Point{{8, 0.5f, 0}}, box).distance, 2.f, k_tol);
    CHECK_APPROX(distance(Point{{2.5f, 3, 0}}, box).distance, 2.f, k_tol);
    const Swept ball{Sphere{{0, 0, 0}, 1}, glm::vec3(0, 0, 4)};
    CHECK_APPROX(distance(Point{{3, 0, 2}}, ball).distance, 2.f, 1e-5f);
  }
}

TEST_CASE("statuses: iteration cap, invalid input, never NaN") {
  SUBCASE("the cap is reported only when it was hit") {
    const Segment s{{-0.5f, 3.5f, -0.6f}, {3.5f, -0.5f, 0.6f}};
    const DistanceResult r = distance(s, unit_box, DistanceSettings{.max_iterations = 1});
    CHECK(r.status == Status::max_iterations);
    CHECK(r.iterations == 1);
    CHECK(r.distance >= std::sqrt(0.5f) - k_tol); // an upper bound
    const DistanceResult full = distance(s, unit_box);
    CHECK(full.status == Status::converged);
    CHECK(full.iterations < DistanceSettings{}.max_iterations);
  }
  SUBCASE("bad settings") {
    const float nan = std::nanf("");
    for (const DistanceSettings& bad :
         {DistanceSettings{.max_iterations = 0}, DistanceSettings{.relative_tolerance = nan},
          DistanceSettings{.relative_tolerance = -1}, DistanceSettings{.absolute_tolerance = INFINITY}}) {
      const DistanceResult r = distance(Point{{1, 0, 0}}, unit_box, bad);
      CHECK(r.status == Status::invalid_input);
      CHECK_FALSE(r.overlapping());
      CHECK(r.distance == 0.f);
    }
  }
  SUBCASE("non-finite shapes") {
    const float nan = std::nanf("");
    const DistanceResult a = distance(Point{{nan, 0, 0}}, unit_box);
    CHECK(a.status == Status::invalid_input);
    CHECK(a.point_a == glm::vec3(0.f));
    const DistanceResult b = distance(Triangle{{0, 5, 0}, {1, 5, 0}, {0, INFINITY, 0}}, unit_box);
    CHECK(b.status == Status::invalid_input);
    const DistanceResult c = distance(Sphere{{0, 5, 0}, nan}, unit_box);
    CHECK(c.status == Status::invalid_input);
    const DistanceResult d = distance(Capsule{{{0, 5, 0}, {0, 6, 0}}, -1.f}, unit_box);
    CHECK(d.status == Status::invalid_input);
    const DistanceResult e = distance(Point{{3e38f, 0, 0}}, Point{{-3e38f, 0, 0}}); // a - b overflows
    CHECK(e.status == Status::invalid_input);
    const DistanceResult f = distance(Point{{1e20f, 0, 0}}, unit_box); // |w|^2 overflows
    CHECK(f.status == Status::invalid_input);
    CHECK_FALSE(f.overlapping());
  }
}

TEST_CASE("warm start: same answers as a cold start, fewer iterations on a moving segment") {
  const std::vector<glm::vec3> cube{{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                    {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
  const ConvexHull hull(cube);
  SimplexCache cache;
  int warm_iterations = 0, cold_iterations = 0;
  for (int frame = 0; frame < 400; ++frame) {
    // Circles the cube at 1 cm per frame, sometimes through it.
    const float angle = 0.01f * frame;
    const glm::vec3 c{2.2f * std::cos(angle), 0.3f * std::sin(3 * angle), 1.6f * std::sin(angle)};
    const Segment s{c - glm::vec3(0, 0.5f, 0.2f), c + glm::vec3(0, 0.5f, 0.2f)};
    SimplexCache none; // an empty cache: cold GJK (without one, a box's planes may answer first)
    const DistanceResult cold = distance(s, hull, {}, &none);
    const DistanceResult warm = distance(s, hull, {}, &cache);
    CHECK(cache.valid);
    CHECK(warm.status == Status::converged);
    CHECK_APPROX(warm.distance, cold.distance, k_tol);
    CHECK(warm.overlapping() == cold.overlapping());
    if (!cold.overlapping()) {
      CHECK_APPROX(warm.point_a - warm.point_b, cold.point_a - cold.point_b, 1e-5f);
    }
    warm_iterations += warm.iterations;
    cold_iterations += cold.iterations;
  }
  CHECK(warm_iterations * 2 < cold_iterations);
  SUBCASE("a cache filled with NaN is ignored") {
    cache.directions[0] = glm::vec3(std::nanf(""));
    cache.indexed = false;
    const DistanceResult r = distance(Segment{{3, 0, 0}, {3, 1, 0}}, hull, {}, &cache);
    CHECK(r.status == Status::converged);
    CHECK_APPROX(r.distance, 2.f, k_tol);
  }
  SUBCASE("repeated vertices in an indexed cache give the same answer") {
    // A zero-length segment makes (0, k) and (1, k) the same vertex of A - B, and a cache may
    // list a pair twice: the warm start does not test for repeats, the sub-algorithm treats
    // them as a degenerate simplex. Cube vertices 7 = (1, 1, 1), 5 = (1, -1, 1), 3 = (1, 1, -1).
    const glm::vec3 p{3.f, 0.5f, 0.2f};
    const Segment point_like{p, p};
    const Segment stick{{3.f, 0.5f, 0.2f}, {3.5f, 0.5f, 0.2f}};
    const std::array<std::array<std::uint32_t, 4>, 4> index_a{{{0, 1, 0, 1}, {0, 0, 1, 1}, {0, 0, 0, 0}, {1, 0, 1, 0}}};
    const std::array<std::array<std::uint32_t, 4>, 4> index_b{{{7, 7, 5, 5}, {7, 7, 3, 3}, {3, 3, 3, 3}, {5, 5, 7, 3}}};
    for (const Segment& s : {point_like, stick}) {
      for (std::size_t k = 0; k < index_a.size(); ++k) {
        for (int count = 2; count <= 4; ++count) {
          cache.index_a = index_a[k];
          cache.index_b = index_b[k];
          cache.count = count;
          cache.indexed = true;
          cache.valid = true;
          const DistanceResult r = distance(s, hull, {}, &cache);
          CHECK(r.status == Status::converged);
          CHECK_APPROX(r.distance, 2.f, k_tol);
          CHECK_APPROX(r.point_a, p, k_tol);
          CHECK_APPROX(r.point_b, glm::vec3(1.f, 0.5f, 0.2f), k_tol);
          CHECK_APPROX(r.normal, glm::vec3(1.f, 0.f, 0.f), k_tol);
          CHECK(cache.count >= 1);
        }
      }
    }
  }
  SUBCASE("vertex indices out of range are skipped") {
    CHECK(cache.indexed); // segment and hull both number their vertices
    cache.index_b = {7, 100, 8, 1u << 31};
    cache.index_a = {5, 0, 1, 0};
    cache.count = 4;
    const DistanceResult r = distance(Segment{{3, 0, 0}, {3, 1, 0}}, hull, {}, &cache);
    CHECK(r.status == Status::converged);
    CHECK_APPROX(r.distance, 2.f, k_tol);
  }
}

TEST_CASE("warm start by vertex index: a cache from another hull or another shape type is safe") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::vec3> big(64), small(8);
  for (glm::vec3& p : big) p = {u(rng), u(rng), u(rng)};
  for (glm::vec3& p : small) p = {u(rng), u(rng), u(rng)};
  const ConvexHull a(big), b(small);
  const Transformed<ConvexHull> moved{b, Transform{glm::quat(1.f, 0.f, 0.f, 0.f), glm::vec3(0.1f, 0.f, 0.f)}};
  SimplexCache cache;
  for (int i = 0; i < 200; ++i) {
    const glm::vec3 c = 2.5f * glm::vec3{u(rng), u(rng), u(rng)};
    const Segment s{c, c + glm::vec3{u(rng), u(rng), u(rng)}};
    // The same cache alternates between hulls of 64 and 8 vertices and a non-indexed shape.
    const DistanceResult cold_a = distance(s, a), warm_a = distance(s, a, {}, &cache);
    CHECK(cache.indexed);
    const DistanceResult cold_b = distance(s, b), warm_b = distance(s, b, {}, &cache);
    const DistanceResult cold_m = distance(s, moved), warm_m = distance(s, moved, {}, &cache);
    CHECK_FALSE(cache.indexed);
    for (const auto& [cold, warm] : {std::pair{cold_a, warm_a}, std::pair{cold_b, warm_b}, std::pair{cold_m, warm_m}}) {
      CHECK(warm.status == Status::converged);
      CHECK_APPROX(warm.distance, cold.distance, k_tol);
      CHECK(warm.overlapping() == cold.overlapping());
    }
  }
}
