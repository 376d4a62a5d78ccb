// Boolean GJK: analytic verdicts, touching, rounded shapes, bad input, and agreement with
// distance GJK on random shapes away from contact.
#include "approx.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <random>
#include <vector>

using namespace glide::gjk;

TEST_CASE("intersect: analytic verdicts") {
  const Box box{{1, 1, 1}};
  CHECK_FALSE(intersect(Segment{{2, 0, 0}, {3, 0, 0}}, box));
  CHECK_FALSE(intersect(Segment{{-0.5f, 3.5f, -0.6f}, {3.5f, -0.5f, 0.6f}}, box)); // passes an edge at 0.71
  CHECK(intersect(Segment{{-3, 0.2f, 0.1f}, {3, -0.2f, 0.3f}}, box));              // crosses
  CHECK(intersect(Segment{{-0.5f, 0.1f, 0}, {0.5f, 0.2f, 0.1f}}, box));            // inside
  CHECK(intersect(Point{{0.9f, -0.9f, 0.9f}}, box));
  CHECK_FALSE(intersect(Point{{1.1f, -0.9f, 0.9f}}, box));
  CHECK(intersect(Triangle{{0.5f, 0, 0}, {5, -3, 1}, {5, 3, -1}}, box));
  CHECK_FALSE(intersect(Triangle{{2, 0, 0}, {5, -3, 1}, {5, 3, -1}}, box));
  CHECK(intersect(box, Transformed{box, Transform{glm::angleAxis(0.7f, glm::vec3(0, 1, 0)), {2.2f, 0, 0}}}));
  CHECK_FALSE(intersect(box, Transformed{box, Transform{glm::angleAxis(0.7f, glm::vec3(0, 1, 0)), {2.5f, 0, 0}}}));
}

TEST_CASE("intersect: touching counts, on a vertex, an edge and a face") {
  const Box box{{1, 1, 1}};
  CHECK(intersect(Point{{1, 1, 1}}, box));
  CHECK(intersect(Point{{1, 1, 0.3f}}, box));
  CHECK(intersect(Point{{1, 0.2f, 0.3f}}, box));
  CHECK(intersect(Segment{{1, -0.5f, 0.2f}, {1, 0.5f, 0.2f}}, box));
  CHECK(intersect(box, Transformed{box, Transform{{1, 0, 0, 0}, {2, 0, 0}}}));
}

TEST_CASE("intersect: rounded shapes use their radius") {
  const Box box{{1, 1, 1}};
  CHECK(intersect(Sphere{{1.4f, 0, 0}, 0.5f}, box));
  CHECK_FALSE(intersect(Sphere{{1.6f, 0, 0}, 0.5f}, box));
  CHECK(intersect(Capsule{{{-1, 1.3f, 0}, {1, 1.3f, 0}}, 0.4f}, box));
  CHECK_FALSE(intersect(Capsule{{{-1, 1.5f, 0}, {1, 1.5f, 0}}, 0.4f}, box));
  CHECK(intersect(Sphere{{0, 0, 0}, 1}, Sphere{{1.9f, 0, 0}, 1}));
}

TEST_CASE("intersect: non-finite input is false, never a hang") {
  const Box box{{1, 1, 1}};
  CHECK_FALSE(intersect(Point{{std::nanf(""), 0, 0}}, box));
  CHECK_FALSE(intersect(Triangle{{0, 0, 0}, {1, 0, 0}, {0, INFINITY, 0}}, box));
  CHECK_FALSE(intersect(Sphere{{0, 0, 0}, std::nanf("")}, box));
}

TEST_CASE("intersect agrees with distance on random boxes, hulls and segments away from contact") {
  std::mt19937 rng(777);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  int checked = 0, hits = 0;
  for (int i = 0; i < 4000; ++i) {
    std::vector<glm::vec3> points(4 + i % 13);
    for (glm::vec3& p : points) p = {u(rng), u(rng), u(rng)};
    const ConvexHull hull(points);
    const glm::quat q = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng) + 1e-3f));
    const Transformed box{Box{{0.2f + std::abs(u(rng)), 0.2f + std::abs(u(rng)), 0.2f + std::abs(u(rng)) * 0.1f}},
                          Transform{q, 2.f * glm::vec3(u(rng), u(rng), u(rng))}};
    const glm::vec3 c = 2.f * glm::vec3(u(rng), u(rng), u(rng));
    const glm::vec3 h = glm::vec3(u(rng), u(rng), u(rng));
    const Segment seg{c - h, c + h};
    const DistanceResult d1 = distance(hull, box);
    const DistanceResult d2 = distance(seg, box);
    const DistanceResult d3 = distance(seg, hull);
    // Away from contact (1e-5 of the shapes' size of ~1) the verdicts must agree exactly.
    if (std::abs(d1.distance) >= 1e-5f || d1.distance == 0.f) {
      CHECK(intersect(hull, box) == d1.overlapping());
      ++checked;
      hits += d1.overlapping();
    }
    if (d2.distance >= 1e-5f || d2.distance == 0.f) CHECK(intersect(seg, box) == d2.overlapping());
    if (d3.distance >= 1e-5f || d3.distance == 0.f) CHECK(intersect(seg, hull) == d3.overlapping());
  }
  CHECK(checked > 3900);
  CHECK(hits > 500);
  CHECK(hits < checked - 500);
}
