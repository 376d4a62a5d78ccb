// Segment-pair closest points and capsule-pair time of impact against double-precision brute
// force: the distance over one segment's parameter, minimised by ternary search (the distance
// is convex in it), the other exactly.
#include <doctest/doctest.h>
#include <glide/gjk/segment_pair.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace {

using glide::gjk::Capsule;
using glide::gjk::Segment;
using D3 = glm::dvec3;

double point_segment(const D3& p, const D3& a, const D3& b) {
  const D3 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + ab * t));
}

double oracle_distance(const Segment& s1, const Segment& s2, const D3& shift = D3(0.0)) {
  const D3 a(s1.a), b(s1.b), c(s2.a), d(s2.b);
  const auto f = [&](double s) { return point_segment(a + (b - a) * s + shift, c, d); };
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 70; ++i) { // (2/3)^70 of the range: far below float rounding
    const double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
    (f(m1) <= f(m2) ? hi : lo) = (f(m1) <= f(m2) ? m2 : m1);
  }
  return std::min({f(0.0), f(1.0), f(0.5 * (lo + hi))});
}

struct Family {
  const char* name;
  float scale;  // segment length scale (m)
  float offset; // distance of the scene from the origin (m)
  int kind;     // 0 random, 1 near-parallel, 2 degenerate (points), 3 crossing
};

Segment random_pair_member(std::mt19937& rng, const Family& f, const glm::vec3& base) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const glm::vec3 a = base + f.scale * glm::vec3(u(rng), u(rng), u(rng));
  return {a, a + f.scale * glm::vec3(u(rng), u(rng), u(rng))};
}

} // namespace

TEST_CASE("segment pair closest points match a brute-force oracle on hard families") {
  const Family families[] = {{"random", 1.f, 0.f, 0},     {"near-parallel", 1.f, 0.f, 1},
                             {"degenerate", 1.f, 0.f, 2}, {"crossing", 1.f, 0.f, 3},
                             {"tiny", 1e-3f, 0.f, 0},     {"huge", 1e3f, 0.f, 0},
                             {"far", 1.f, 1e4f, 0},       {"far near-parallel", 1.f, 1e4f, 1}};
  std::mt19937 rng(20261125);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (const Family& f : families) {
    double worst = 0.0;
    for (int i = 0; i < 1000; ++i) {
      const glm::vec3 base(f.offset + u(rng), f.offset * 0.5f, -f.offset);
      Segment s1 = random_pair_member(rng, f, base), s2 = random_pair_member(rng, f, base);
      if (f.kind == 1) { // nearly parallel: the second is the first shifted, turned by ~1e-4
        const glm::vec3 d = s1.b - s1.a;
        const glm::vec3 side = f.scale * 0.3f * glm::vec3(u(rng), u(rng), u(rng));
        s2 = {s1.a + side + d * 0.4f * u(rng), s1.b + side + f.scale * 1e-4f * glm::vec3(u(rng), u(rng), u(rng))};
      } else if (f.kind == 2) {
        s1.b = s1.a;
        if (i % 2 == 0) s2.b = s2.a;
      } else if (f.kind == 3) { // the second passes through a point of the first
        const glm::vec3 p = s1.a + (s1.b - s1.a) * (0.5f + 0.4f * u(rng));
        const glm::vec3 d = f.scale * glm::vec3(u(rng), u(rng), u(rng));
        s2 = {p - d, p + d};
      }
      const glide::gjk::SegmentPairClosest c = glide::gjk::closest_points(s1, s2);
      const double truth = oracle_distance(s1, s2);
      // The points lie on their segments, and their distance is the true one: float rounding
      // of coordinates of size `extent`.
      const double extent = std::abs(f.offset) + 1.0 + 4.0 * f.scale;
      const double tolerance = 2e-6 * extent;
      REQUIRE(std::abs(double(c.distance) - truth) <= tolerance);
      REQUIRE(point_segment(D3(c.point_a), D3(s1.a), D3(s1.b)) <= tolerance);
      REQUIRE(point_segment(D3(c.point_b), D3(s2.a), D3(s2.b)) <= tolerance);
      REQUIRE(std::abs(glm::length(D3(c.point_a) - D3(c.point_b)) - truth) <= 2.0 * tolerance);
      worst = std::max(worst, std::abs(double(c.distance) - truth) / extent);
    }
    MESSAGE(std::string(f.name) << ": worst distance error " << worst << " x extent");
  }
}

TEST_CASE("capsule pair time of impact is never after the first contact and never misses one") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const float tolerance = 1e-4f;
  int hits = 0, grazes = 0;
  for (int i = 0; i < 1500; ++i) {
    const float offset = i % 3 == 2 ? 1e4f : 0.f;
    const glm::vec3 base(offset, 0.f, offset);
    const Capsule still{{base + glm::vec3(u(rng), u(rng), u(rng)), base + glm::vec3(u(rng), u(rng), u(rng))},
                        0.1f + 0.4f * (u(rng) + 1.f)};
    Capsule moving{{base + glm::vec3(u(rng), u(rng), u(rng)) * 3.f, {}}, 0.1f + 0.3f * (u(rng) + 1.f)};
    moving.segment.b = moving.segment.a + glm::vec3(u(rng), u(rng), u(rng));
    // Aim at the other's centre, off by up to the sum of radii and more: hits, grazes, misses.
    const glm::vec3 centre = 0.5f * (still.segment.a + still.segment.b);
    const glm::vec3 aim = centre + 1.2f * (still.radius + moving.radius) * glm::vec3(u(rng), u(rng), u(rng));
    const glm::vec3 motion = (aim - moving.segment.a) * (1.f + u(rng));
    const glide::gjk::CapsulePairHit r = glide::gjk::time_of_impact(moving, motion, still, tolerance);

    const double reach = double(moving.radius) + double(still.radius);
    const auto gap = [&](double t) { return oracle_distance(moving.segment, still.segment, D3(motion) * t) - reach; };
    // Brute force: the first sampled time at which the capsules touch.
    constexpr int k_samples = 400;
    double first = 2.0;
    for (int k = 0; k <= k_samples; ++k) {
      const double t = double(k) / k_samples;
      if (gap(t) <= 0.0) {
        first = t;
        break;
      }
    }
    const double extent = std::abs(offset) + 8.0;
    const double slack = tolerance + 4e-6 * extent; // the gap at the reported time may read this high
    const double length = glm::length(D3(motion));
    if (r.hit) {
      ++hits;
      // At the reported time the capsules are within the tolerance, and no earlier contact exists.
      CHECK(gap(r.t) <= slack);
      CHECK(first >= double(r.t) - 1.0 / k_samples);
      CHECK(std::abs(glm::length(r.normal) - 1.f) <= 1e-5f);
    } else {
      // A miss: nowhere along the motion do they come within touching (sampled, with the
      // distance the sampling step may hide).
      CHECK(first > 1.0);
      if (first > 1.0) {
        double least = 1e9;
        for (int k = 0; k <= k_samples; ++k) least = std::min(least, gap(double(k) / k_samples));
        CHECK(least >= -length / k_samples - 4e-6 * extent);
        if (least < 1e-3) ++grazes;
      }
    }
  }
  MESSAGE("hits " << hits << ", near misses " << grazes);
  CHECK(hits > 300);
}

TEST_CASE("capsules already touching hit at the start; parallel capsules meet along their length") {
  const Capsule a{{{0, 0, 0}, {0, 1, 0}}, 0.5f};
  const Capsule b{{{0.95f, 0, 0}, {0.95f, 1, 0}}, 0.5f};
  const glide::gjk::CapsulePairHit start = glide::gjk::time_of_impact(a, {1, 0, 0}, b, 1e-4f);
  CHECK(start.hit);
  CHECK(start.t == 0.f);
  CHECK(start.normal.x == doctest::Approx(-1.f));

  const Capsule far{{{3, 0, 0}, {3, 1, 0}}, 0.5f};
  const glide::gjk::CapsulePairHit meet = glide::gjk::time_of_impact(a, {4, 0, 0}, far, 1e-4f);
  REQUIRE(meet.hit);
  CHECK(meet.t * 4.f == doctest::Approx(2.f).epsilon(1e-4)); // centres 3 apart, radii 1
  CHECK(meet.point.x == doctest::Approx(2.5f).epsilon(1e-4));
  CHECK_FALSE(glide::gjk::time_of_impact(a, {0, 0, 4}, far, 1e-4f).hit);
}
