// A segment against a sliver triangle of the Minkowski difference (two long, nearly parallel
// edges): the triangle's float normal is off by about FLT_EPSILON / sin of its small angle,
// and projecting the origin with it once reported a distance 1.3e-5 below the true one.
#include "gjk_oracle.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>

#include <doctest/doctest.h>

#include <vector>

using namespace glide::gjk;

namespace {

const std::vector<glm::vec3> k_triangle{{-0.285578042f, -0.20931977f, -0.130955204f},
                                        {-0.246830791f, -0.271265566f, -0.0894896612f},
                                        {0.273806393f, -0.0722579956f, -0.249655157f}};

double exact(const Segment& s) {
  return glide::test::oracle_distance(std::vector<glm::dvec3>{glm::dvec3(s.a), glm::dvec3(s.b)},
                                      glide::test::to_double(k_triangle))
      .distance;
}

void check(const Segment& s, double truth) {
  const Triangle triangle{k_triangle[0], k_triangle[1], k_triangle[2]};
  const ConvexHull hull(k_triangle);
  for (const DistanceResult& r : {distance(s, triangle), distance(s, hull)}) {
    CHECK(r.status == Status::converged);
    CHECK(std::abs(double(r.distance) - truth) <= 1e-6);
    CHECK(std::abs(double(glm::length(r.point_a - r.point_b)) - truth) <= 1e-6);
  }
  CHECK_FALSE(intersect(s, triangle));
  CHECK_FALSE(intersect(s, hull));
}

} // namespace

TEST_CASE("sliver Minkowski triangle: segment against a triangle at 0.425 m") {
  const Segment s{{-0.158899844f, -1.2117492f, 0.339494109f}, {-0.690282345f, -0.351562351f, -0.272469819f}};
  const double truth = exact(s);
  CHECK(std::abs(truth - 0.425473871) <= 1e-8); // the oracle agrees with exact arithmetic
  check(s, truth);
}

TEST_CASE("sliver Minkowski triangle: the same pair moved to 1e-4 m") {
  // The segment above shifted along the normal to a true distance of about 1e-4 m (rounded
  // to float); the error was 13 % of the distance there.
  const Segment s{{0.1779356f, -0.959498882f, 0.40157944f}, {-0.353446901f, -0.0993120074f, -0.210384503f}};
  const double truth = exact(s);
  CHECK(std::abs(truth - 1e-4) <= 1e-8);
  check(s, truth);
}
