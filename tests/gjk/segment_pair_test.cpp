// Segment-pair closest points and capsule-pair time of impact against double-precision brute
// force: the distance over one segment's parameter, minimised by ternary search (the distance
// is convex in it), the other exactly.
#include <doctest/doctest.h>
#include <glide/gjk/segment_pair.hpp>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

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
    const bool left = f(m1) <= f(m2);
    (left ? hi : lo) = left ? m2 : m1;
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

TEST_CASE("a segment pair's normal is of unit length and the way apart, far from the origin too") {
  // The normal of a character contact: taken from the points rounded to float, 5 km out its
  // length was off by up to 1e-3 and a saved ground normal failed its restore.
  std::mt19937 rng(20261203);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (const float offset : {0.f, 300.f, 5000.f, 20000.f}) {
    double worst_length = 0.0, worst_slope = 0.0;
    int meeting = 0;
    for (int i = 0; i < 4000; ++i) {
      const glm::vec3 base(offset + u(rng), 0.5f * offset, -offset);
      // Capsules' inner segments, upright or leaning, side by side, one above the other, or
      // meeting at an end (every 8th).
      const glm::vec3 a = base + glm::vec3(u(rng), u(rng), u(rng));
      const Segment s1{a, a + glm::vec3(0.4f * u(rng), 1.2f, 0.4f * u(rng))};
      const glm::vec3 b = i % 8 == 0 ? a : a + 0.8f * glm::vec3(u(rng), 2.f * u(rng), u(rng));
      const Segment s2{b, b + glm::vec3(0.4f * u(rng), 1.2f, 0.4f * u(rng))};
      const glide::gjk::SegmentPairClosest c = glide::gjk::closest_points(s1, s2);
      if (!(c.distance > 0.f)) {
        CHECK(c.normal == glm::vec3(0.f));
        ++meeting;
        continue;
      }
      const double length = glm::length(D3(c.normal));
      REQUIRE(std::abs(length - 1.0) <= 1e-6);
      worst_length = std::max(worst_length, std::abs(length - 1.0));
      // Along the normal the distance grows as fast as anywhere: by the step itself.
      if (c.distance < 0.05f) continue;
      const double step = 0.01;
      const double slope = (oracle_distance(s1, s2, D3(c.normal) * step) - oracle_distance(s1, s2)) / step;
      REQUIRE(slope >= 1.0 - 2e-3);
      worst_slope = std::max(worst_slope, 1.0 - slope);
    }
    MESSAGE("at " << offset << " m: worst | |n| - 1 | " << worst_length << ", worst 1 - slope " << worst_slope << ", "
                  << meeting << " meeting");
    CHECK(meeting == 500);
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

TEST_CASE("capsule pair time of impact: a motion just short of closing the gap misses, just long enough hits") {
  // Head-on along the closest points' direction the gap falls by the motion's length, so a
  // motion of gap - x * tolerance ends x tolerances apart: a hit for x < 1, a miss above.
  // Around the quick rejection of pairs farther apart than the motion is long.
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u(-1.f, 1.f), spread(0.01f, 1.f);
  const float tolerance = 1e-4f;
  int hits = 0, misses = 0;
  for (int i = 0; i < 3000; ++i) {
    const Family family{"", i % 2 == 0 ? 1.f : 0.05f, i % 3 == 0 ? 1e4f : 0.f, i % 4 == 1 ? 1 : 0};
    const glm::vec3 base(family.offset, 0.f, -family.offset);
    const Segment s1 = random_pair_member(rng, family, base);
    Segment s2 = random_pair_member(rng, family, base);
    if (family.kind == 1) s2 = {s1.a + glm::vec3(0.f, 1.f, 0.f), s1.b + glm::vec3(0.f, 1.f, 1e-4f)}; // near-parallel
    const Capsule moving{s1, 0.1f + 0.3f * spread(rng)}, still{s2, 0.1f + 0.3f * spread(rng)};
    const glide::gjk::SegmentPairClosest c = glide::gjk::closest_points(moving.segment, still.segment);
    const double reach = double(moving.radius) + double(still.radius);
    const double gap = oracle_distance(moving.segment, still.segment) - reach;
    if (!(gap > 100.0 * tolerance) || !(c.distance > 0.f)) continue;
    const glm::vec3 toward = glm::normalize(c.point_b - c.point_a);
    for (const double x : {0.5, 0.9, 0.95, 1.05, 1.1, 2.0, 10.0, 1000.0}) {
      const double length = gap - x * tolerance;
      if (!(length > 0.0)) continue;
      const glm::vec3 motion = toward * static_cast<float>(length);
      const glide::gjk::CapsulePairHit r = glide::gjk::time_of_impact(moving, motion, still, tolerance);
      CAPTURE(i);
      CAPTURE(x);
      CHECK(r.hit == (x < 1.0));
      if (r.hit) {
        ++hits;
        const double at = oracle_distance(moving.segment, still.segment, D3(motion) * double(r.t)) - reach;
        CHECK(at <= tolerance + 4e-6 * (std::abs(family.offset) + 2.0));
      } else {
        ++misses;
      }
    }
  }
  CHECK(hits > 2000);
  CHECK(misses > 4000);
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

TEST_CASE("capsules whose inner segments cross are flagged, and on one line leave across it") {
  // A short capsule inside a tall one on the same axis, at several offsets along it and far
  // from the origin: the shortest way out is across the axis (the sum of the radii), where
  // away from the other's centre, along the axis, is the longest.
  for (const float far_out : {0.f, 300.f, 5000.f}) {
    for (const float lift : {0.f, 0.3f, -0.7f, 1.1f}) {
      CAPTURE(far_out);
      CAPTURE(lift);
      const glm::vec3 at(far_out, 0.f, -far_out);
      const Capsule tall{{at + glm::vec3(0, 0.3f, 0), at + glm::vec3(0, 2.5f, 0)}, 0.3f};
      const Capsule short_one{{at + glm::vec3(0, 0.5f + lift, 0), at + glm::vec3(0, 1.f + lift, 0)}, 0.4f};
      for (const glm::vec3& motion : {glm::vec3(0.f), glm::vec3(0.2f, 0.f, 0.1f), glm::vec3(0.f, -1.f, 0.f)}) {
        const glide::gjk::CapsulePairHit r = glide::gjk::time_of_impact(short_one, motion, tall, 1e-4f);
        REQUIRE(r.hit);
        CHECK(r.t == 0.f);
        CHECK(r.crossing);
        CHECK(std::abs(r.normal.y) < 1e-6f);
        CHECK(glm::length(r.normal) == doctest::Approx(1.f).epsilon(1e-6));
        // Not into the motion's way back: a push along it does not walk into the motion.
        CHECK(glm::dot(r.normal, motion) <= 0.f);
      }
    }
  }
  // On a tilted line (points on it exact in float), far out too: across it.
  const glm::vec3 step(0.5f, 1.f, 0.f), axis = glm::normalize(step);
  for (const float far_out : {0.f, 5000.f}) {
    const glm::vec3 at(far_out, 7.f, far_out);
    const Capsule longer{{at, at + 2.f * step}, 0.3f}, shorter{{at + 0.5f * step, at + step}, 0.4f};
    const glide::gjk::CapsulePairHit r = glide::gjk::time_of_impact(shorter, {}, longer, 1e-4f);
    CAPTURE(far_out);
    REQUIRE(r.hit);
    CHECK(r.crossing);
    CHECK(std::abs(glm::dot(r.normal, axis)) < 1e-6f);
  }
  // A sphere on a tall capsule's axis: across it too.
  const Capsule ball{{{0, 1.f, 0}, {0, 1.f, 0}}, 0.4f};
  const Capsule tall{{{0, 0.3f, 0}, {0, 2.5f, 0}}, 0.3f};
  const glide::gjk::CapsulePairHit ball_hit = glide::gjk::time_of_impact(ball, {}, tall, 1e-4f);
  REQUIRE(ball_hit.hit);
  CHECK(ball_hit.crossing);
  CHECK(std::abs(ball_hit.normal.y) < 1e-6f);
  // Crossing segments that are not parallel: away from the other's centre, as before.
  const Capsule lying{{{-1, 1, 0}, {1, 1, 0}}, 0.3f};
  const Capsule standing{{{0, 0.5f, 0}, {0, 2.5f, 0}}, 0.3f};
  const glide::gjk::CapsulePairHit across = glide::gjk::time_of_impact(lying, {}, standing, 1e-4f);
  REQUIRE(across.hit);
  CHECK(across.crossing);
  CHECK(across.normal.y == doctest::Approx(-1.f));
  // Apart by a hair: the contact's own normal, not flagged.
  const Capsule beside{{{1e-4f, 0.5f, 0}, {1e-4f, 1.f, 0}}, 0.4f};
  const glide::gjk::CapsulePairHit near = glide::gjk::time_of_impact(beside, {}, standing, 1e-4f);
  REQUIRE(near.hit);
  CHECK_FALSE(near.crossing);
  CHECK(near.normal.x == doctest::Approx(1.f));
}

namespace {

// Brute force in double: the gap along a translation is convex in t, so a ternary search finds
// its least value and a bisection before it the first time it falls to a level (2 if never).
struct FirstTimes {
  double at_tolerance; ///< first time the gap is the tolerance
  double contact;      ///< first time it is 0
  double least;        ///< its least value along the motion (m)
};
FirstTimes first_times(const Capsule& moving, const glm::vec3& motion, const Capsule& still, double tolerance) {
  const double reach = double(moving.radius) + double(still.radius);
  const auto gap = [&](double t) { return oracle_distance(moving.segment, still.segment, D3(motion) * t) - reach; };
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 80; ++i) {
    const double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
    const bool left = gap(m1) <= gap(m2);
    (left ? hi : lo) = left ? m2 : m1;
  }
  double nearest = 0.5 * (lo + hi);
  for (const double t : {0.0, 1.0})
    if (gap(t) < gap(nearest)) nearest = t;
  const double least = gap(nearest), at_start = gap(0.0);
  const auto first_at = [&](double level) {
    if (at_start <= level) return 0.0;
    if (least > level) return 2.0;
    double before = 0.0, after = nearest;
    for (int i = 0; i < 60; ++i) {
      const double mid = 0.5 * (before + after);
      (gap(mid) > level ? before : after) = mid;
    }
    return after;
  };
  return {first_at(tolerance), first_at(0.0), least};
}

struct SweepFamily {
  const char* name;
  int kind;     // 0 general, 1 parallel, 2 anti-parallel, 3 points, 4 grazing, 5 touching, 6 separating, 7 ray
  float offset; // distance of the scene from the origin (m)
};

} // namespace

TEST_CASE("capsule pair time of impact matches a fine-step oracle on parallel, grazing and degenerate families") {
  const SweepFamily families[] = {{"general", 0, 0.f},       {"parallel", 1, 0.f},    {"anti-parallel", 2, 0.f},
                                  {"points", 3, 0.f},        {"grazing", 4, 0.f},     {"touching", 5, 0.f},
                                  {"separating", 6, 0.f},    {"ray", 7, 0.f},         {"far general", 0, 1e4f},
                                  {"far parallel", 1, 1e4f}, {"far grazing", 4, 1e4f}};
  const float tolerance = 1e-4f;
  std::mt19937 rng(20261126);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (const SweepFamily& f : families) {
    int hits = 0;
    double worst_early = 0.0;
    for (int i = 0; i < 400; ++i) {
      const glm::vec3 base(f.offset + u(rng), 0.5f * f.offset, -f.offset);
      const glm::vec3 up =
          f.kind == 1 || f.kind == 2 || f.kind == 4 ? glm::vec3(0.f, 1.f, 0.f) : glm::vec3(u(rng), u(rng), u(rng));
      const float h1 = 0.2f + 0.8f * (u(rng) + 1.f), h2 = 0.2f + 0.8f * (u(rng) + 1.f);
      const glm::vec3 a2 = base + glm::vec3(u(rng), u(rng), u(rng));
      Capsule still{{a2, a2 + h2 * up}, 0.1f + 0.2f * (u(rng) + 1.f)};
      const glm::vec3 a1 = base + 2.5f * glm::vec3(u(rng), 0.3f * u(rng), u(rng));
      glm::vec3 up1 = f.kind == 0 || f.kind >= 5 ? glm::vec3(u(rng), u(rng), u(rng)) : up;
      if (f.kind == 2) up1 = -up;
      Capsule moving{{a1, a1 + h1 * up1}, 0.1f + 0.2f * (u(rng) + 1.f)};
      if (f.kind == 3) {
        still.segment.b = still.segment.a;
        moving.segment.b = moving.segment.a;
      } else if (f.kind == 7) {
        moving = Capsule{{a1, a1}, 0.f};
      }
      const float reach = moving.radius + still.radius;
      const glm::vec3 centre = 0.5f * (still.segment.a + still.segment.b);
      const glm::vec3 from = 0.5f * (moving.segment.a + moving.segment.b);
      glm::vec3 motion = (centre - from + reach * glm::vec3(u(rng), 0.2f * u(rng), u(rng))) * (1.2f + 0.8f * u(rng));
      if (f.kind == 4) {
        // Side by side, passing at a closest gap within a few tolerances of touching.
        glm::vec3 dir = glm::normalize(glm::vec3(u(rng), 0.f, u(rng)) + glm::vec3(1e-3f, 0.f, 0.f));
        const glm::vec3 side = glm::normalize(glm::cross(dir, up));
        const float pass = reach + tolerance * 3.f * u(rng);
        const glm::vec3 start = centre - 2.f * dir + pass * side;
        moving.segment = {start + glm::vec3(0.f, 0.5f * u(rng), 0.f), start + glm::vec3(0.f, 0.5f * u(rng) + h1, 0.f)};
        motion = 4.f * dir;
      } else if (f.kind == 5) {
        // Touching (or within the tolerance) at the start, moving anywhere.
        const glm::vec3 n = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.f, 0.f, 1e-3f));
        const glide::gjk::SegmentPairClosest c0 = glide::gjk::closest_points(moving.segment, still.segment);
        const glm::vec3 away = c0.distance > 1e-3f ? (c0.point_a - c0.point_b) / c0.distance : n;
        const glm::vec3 shift = c0.point_b + away * (reach + 0.5f * tolerance * (u(rng) + 1.f)) - c0.point_a;
        moving.segment.a += shift;
        moving.segment.b += shift;
        motion = glm::vec3(u(rng), u(rng), u(rng));
      } else if (f.kind == 6) {
        // Apart (pushed clear along the closest points) and moving apart.
        const glide::gjk::SegmentPairClosest c0 = glide::gjk::closest_points(moving.segment, still.segment);
        if (c0.distance < reach + 0.01f) {
          const glm::vec3 away = c0.distance > 1e-3f ? (c0.point_a - c0.point_b) / c0.distance : glm::vec3(1, 0, 0);
          const glm::vec3 shift = away * (reach + 0.01f - c0.distance);
          moving.segment.a += shift;
          moving.segment.b += shift;
        }
        const glide::gjk::SegmentPairClosest c1 = glide::gjk::closest_points(moving.segment, still.segment);
        motion = glm::dot(motion, c1.point_a - c1.point_b) < 0.f ? -motion : motion;
      }
      const glide::gjk::CapsulePairHit r = glide::gjk::time_of_impact(moving, motion, still, tolerance);
      const double extent = std::abs(f.offset) + 8.0;
      const double rounding = 4e-6 * extent;
      const double length = std::max(1e-9, double(glm::length(motion)));
      // The first times the gap falls to the tolerance and to zero (true contact).
      const auto [at_tolerance, contact, least] = first_times(moving, motion, still, tolerance);
      INFO(std::string(f.name) << " case " << i);
      if (r.hit) {
        ++hits;
        // Never after the true first contact, never before the gap is within the tolerance.
        CHECK(double(r.t) <= contact + rounding / length);
        CHECK(double(r.t) >= at_tolerance - rounding / length);
        CHECK(std::abs(glm::length(r.normal) - 1.f) <= 1e-5f);
        if (contact <= 1.0) worst_early = std::max(worst_early, (contact - double(r.t)) * length);
      } else {
        // A miss: the gap stays above the tolerance (up to rounding) all along the motion.
        CHECK(contact > 1.0);
        CHECK(least >= tolerance - rounding);
      }
      if (f.kind == 5) CHECK((r.hit && r.t == 0.f));
      if (f.kind == 6) CHECK_FALSE(r.hit);
    }
    MESSAGE(std::string(f.name) << ": hits " << hits << ", earliest report before contact " << worst_early << " m");
    if (f.kind != 6) CHECK(hits > 0);
  }
}

TEST_CASE("capsule pair time of impact: head-on, side by side and end to end in closed form") {
  const float tolerance = 1e-4f;
  // Each is reported between the first time the gap is the tolerance and the contact (along
  // the motion, in m), up to float rounding.
  const auto between = [&](const glide::gjk::CapsulePairHit& r, double length, double at_tolerance, double contact) {
    REQUIRE(r.hit);
    CHECK(double(r.t) * length >= at_tolerance - 1e-6);
    CHECK(double(r.t) * length <= contact + 1e-6);
  };
  const Capsule a{{{0, 0, 0}, {0, 1.2f, 0}}, 0.3f};
  // Head-on along x: contact when the axes are 0.6 apart.
  const Capsule b{{{2, 0.5f, 0}, {2, 1.7f, 0}}, 0.3f};
  const glide::gjk::CapsulePairHit head_on = glide::gjk::time_of_impact(a, {2, 0, 0}, b, tolerance);
  between(head_on, 2.0, 1.4 - 1e-4, 1.4);
  CHECK(head_on.normal.x == doctest::Approx(-1.f));
  // Anti-parallel and offset in z by 0.3: contact when the axes are 0.6 apart, 0.52 along x.
  const Capsule c{{{2, 1.7f, 0.3f}, {2, 0.5f, 0.3f}}, 0.3f};
  const glide::gjk::CapsulePairHit skew = glide::gjk::time_of_impact(a, {2, 0, 0}, c, tolerance);
  between(skew, 2.0, 2.0 - std::sqrt(0.6001 * 0.6001 - 0.09), 2.0 - std::sqrt(0.36 - 0.09));
  // End to end: rising into the one above.
  const Capsule top{{{0, 3, 0}, {0, 4, 0}}, 0.3f};
  const glide::gjk::CapsulePairHit stack = glide::gjk::time_of_impact(a, {0, 3, 0}, top, tolerance);
  between(stack, 3.0, 3.0 - 1.2 - 0.6001, 3.0 - 1.2 - 0.6);
  CHECK(stack.normal.y == doctest::Approx(-1.f));
  // Crossing at right angles, falling onto the other's middle: the face of the swept set.
  const Capsule bar{{{-1, 2, 1}, {1, 2, 1}}, 0.3f};
  const Capsule pole{{{0, 0, -1}, {0, 0, 3}}, 0.3f};
  const glide::gjk::CapsulePairHit cross = glide::gjk::time_of_impact(bar, {0, -3, 0}, pole, tolerance);
  between(cross, 3.0, 2.0 - 0.6001, 2.0 - 0.6);
  CHECK(cross.normal.y == doctest::Approx(1.f));
  // Grazing side by side, the closest gap half the tolerance: a hit near the nearest approach.
  const Capsule beside{{{0, 0, 0.60005f}, {0, 1.2f, 0.60005f}}, 0.3f};
  const Capsule from{{{-3, 0, 0}, {-3, 1.2f, 0}}, 0.3f};
  const glide::gjk::CapsulePairHit graze = glide::gjk::time_of_impact(from, {6, 0, 0}, beside, tolerance);
  REQUIRE(graze.hit);
  CHECK(std::abs(double(graze.t) * 6.0 - 3.0) <= std::sqrt(0.6001 * 0.6001 - 0.60005 * 0.60005) + 1e-5);
  // Passing at twice the tolerance: a miss.
  const Capsule clear{{{0, 0, 0.6002f}, {0, 1.2f, 0.6002f}}, 0.3f};
  CHECK_FALSE(glide::gjk::time_of_impact(from, {6, 0, 0}, clear, tolerance).hit);
}

TEST_CASE("a segment pair's float lower bound is never above the distance, and tight for upright capsules") {
  // The families above and upright segments side by side (characters), 1e-4 to 2 m apart with
  // overlapping heights: the bound never exceeds the oracle's distance nor closest_points';
  // for upright pairs it is within 3e-5 of the distance. A capsule gap said to exceed a limit
  // set at the true gap, a little below or above, exceeds it in closest_points' answer too;
  // an upright pair's gap (of 1 cm or more) is said to exceed a limit 1e-4 m below it.
  const Family families[] = {{"random", 1.f, 0.f, 0},  {"degenerate", 1.f, 0.f, 2},  {"crossing", 1.f, 0.f, 3},
                             {"tiny", 1e-3f, 0.f, 0},  {"huge", 1e3f, 0.f, 0},       {"far", 1.f, 1e4f, 0},
                             {"upright", 1.f, 0.f, 4}, {"far upright", 1.f, 1e4f, 4}};
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  int above = 0, loose = 0, wrong_verdict = 0, upright_kept = 0;
  for (const Family& f : families) {
    for (int i = 0; i < 2000; ++i) {
      const glm::vec3 base(f.offset + u(rng), f.offset * 0.5f, -f.offset);
      Segment s1 = random_pair_member(rng, f, base), s2 = random_pair_member(rng, f, base);
      if (f.kind == 2) {
        s1.b = s1.a;
      } else if (f.kind == 3) {
        const glm::vec3 p = s1.a + (s1.b - s1.a) * (0.5f + 0.4f * u(rng));
        s2 = {p - glm::vec3(u(rng), u(rng), u(rng)), p + glm::vec3(u(rng), u(rng), u(rng))};
      } else if (f.kind == 4) {
        const glm::vec3 side = glm::normalize(glm::vec3(u(rng), 0.f, u(rng)) + glm::vec3(1e-3f, 0.f, 0.f));
        const float gap = std::pow(10.f, -4.f + 2.15f * (0.5f + 0.5f * u(rng)));
        s1 = {base, base + glm::vec3(0.f, 1.f + 0.2f * u(rng), 0.f)};
        const glm::vec3 foot = base + side * gap + glm::vec3(0.f, 0.5f * u(rng), 0.f);
        s2 = {foot, foot + glm::vec3(0.f, 1.f, 0.f)};
      }
      const float lower = glide::gjk::segment_distance_lower_bound(s1, s2);
      const glide::gjk::SegmentPairClosest c = glide::gjk::closest_points(s1, s2);
      const double truth = oracle_distance(s1, s2);
      const double extent = std::abs(f.offset) + 1.0 + 4.0 * f.scale;
      if (double(lower) > truth + 1e-12 * extent || lower > c.distance) ++above;
      if (f.kind == 4 && double(lower) < (1.0 - 3e-5) * truth) ++loose;
      const Capsule a{s1, 0.3f}, b{s2, 0.25f};
      const float actual = c.distance - a.radius - b.radius;
      for (const float limit : {actual, actual - 1e-4f, actual + 1e-4f, actual - 0.5f}) {
        const bool exceeds = glide::gjk::capsule_gap_surely_exceeds(a, b, limit);
        if (exceeds && !(actual > limit)) ++wrong_verdict;
        if (f.kind == 4 && c.distance > 0.01f && limit == actual - 1e-4f && !exceeds) ++upright_kept;
      }
    }
  }
  CHECK(above == 0);
  CHECK(loose == 0);
  CHECK(wrong_verdict == 0);
  CHECK(upright_kept == 0);
}

TEST_CASE("upright segments side by side meet along a level normal") {
  // The ground probe leaves out characters standing upright beside the one probing: when both
  // inner segments lie exactly along a coordinate axis `up` (either sign), at least 1e-4 m apart
  // across it, and the first not wholly above the second along it, their closest points lie
  // level to within rounding, so the contact normal's part along `up` stays far below the 1e-3
  // a ground needs. Slivers to 10 m segments, points, touching ends, far from the origin.
  std::mt19937 rng(20261130);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  int checked = 0, steep = 0;
  float worst = 0.f;
  for (int i = 0; i < 24000; ++i) {
    const int axis = i % 3;
    const float sign = (i / 3) % 2 == 0 ? 1.f : -1.f;
    const float offset = (i / 6) % 4 == 0 ? 0.f : std::pow(10.f, static_cast<float>((i / 6) % 4 + 1)); // to 1e4 m
    const int across_u = (axis + 1) % 3, across_v = (axis + 2) % 3;
    const float lengths[] = {0.f, 1e-3f, 1.2f, 10.f};
    const float length1 = lengths[(i / 24) % 4] * (0.5f + 0.5f * std::abs(u(rng)));
    const float length2 = lengths[(i / 96) % 4] * (0.5f + 0.5f * std::abs(u(rng)));
    glm::vec3 foot1(offset + 3.f * u(rng), offset * 0.5f + 3.f * u(rng), -offset + 3.f * u(rng));
    const float gap = std::pow(10.f, -4.f + 4.3f * (0.5f + 0.5f * u(rng))); // 1e-4 to 2 m across
    const float turn = 3.14159265f * u(rng);
    glm::vec3 foot2 = foot1;
    foot2[across_u] += gap * std::cos(turn);
    foot2[across_v] += gap * std::sin(turn);
    // The second's extent along `up` reaches at least the first's lowest point; ends touching
    // exactly in a quarter of the cases.
    const float low1 = sign * foot1[axis];
    const float high2 = (i / 384) % 4 == 0 ? low1 : low1 + (length1 + length2 + 0.5f) * std::abs(u(rng));
    foot2[axis] = sign * (high2 - length2);
    glm::vec3 head1 = foot1, head2 = foot2;
    head1[axis] += sign * length1;
    head2[axis] = sign * high2;
    Segment s1{foot1, head1}, s2{foot2, head2};
    if (i % 2 == 1) std::swap(s1.a, s1.b); // either end first
    // As the probe tests it: exactly along the axis, apart across it, the first not above.
    const float du = s1.a[across_u] - s2.a[across_u], dv = s1.a[across_v] - s2.a[across_v];
    const float first_low = std::min(sign * s1.a[axis], sign * s1.b[axis]);
    const float second_high = std::max(sign * s2.a[axis], sign * s2.b[axis]);
    if (s1.a[across_u] != s1.b[across_u] || s1.a[across_v] != s1.b[across_v] || s2.a[across_u] != s2.b[across_u] ||
        s2.a[across_v] != s2.b[across_v] || !(du * du + dv * dv >= 1e-8f) || first_low > second_high)
      continue;
    ++checked;
    const glide::gjk::SegmentPairClosest c = glide::gjk::closest_points(s1, s2);
    REQUIRE(c.distance > 0.f);
    const float along_up = sign * (c.point_a[axis] - c.point_b[axis]) / c.distance;
    worst = std::max(worst, along_up);
    if (along_up > 1e-3f) ++steep;
  }
  INFO("worst part along up: " << worst);
  CHECK(checked > 20000);
  CHECK(steep == 0);
  CHECK(worst < 1e-5f);
}

TEST_CASE("upright capsule pairs: the level solution agrees with the pair turned off the vertical and the oracle") {
  // Both segments exactly along y (characters standing with the default up) take a solution of
  // their own. Side by side, stacked, partly overlapping in height, end to end, pressed, points
  // and rays, near the origin and 1e4 m out. Near the origin the same pair turned 0.3 rad about
  // a slanted axis (the general solution) must agree: the same verdict but where the gap passes
  // within rounding of the tolerance, both times between the oracle's first times at the
  // tolerance and at contact, and the normal turned alike where the two times coincide.
  const float tolerance = 1e-4f;
  const glm::dquat turn = glm::angleAxis(0.3, glm::normalize(glm::dvec3(0.3, 0.8, -0.5)));
  std::mt19937 rng(20261203);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  int hits = 0, compared = 0, mismatched = 0;
  for (int i = 0; i < 4000; ++i) {
    const int kind = i % 5; // 0 side by side, 1 stacked, 2 partly level, 3 points, 4 pressed
    const float offset = i % 4 == 3 ? 1e4f : 0.f;
    const glm::vec3 base(offset + u(rng), 0.5f * offset + u(rng), -offset + u(rng));
    const float h1 = kind == 3 ? 0.f : 0.5f + std::abs(u(rng)), h2 = kind == 3 ? 0.f : 0.5f + std::abs(u(rng));
    const float r1 = 0.2f + 0.2f * std::abs(u(rng)), r2 = i % 7 == 0 ? 0.f : 0.2f + 0.2f * std::abs(u(rng));
    const glm::vec3 foot2 = base;
    glm::vec3 foot1 = base + glm::vec3(2.f * u(rng), 0.f, 2.f * u(rng));
    if (kind == 1) foot1 = base + glm::vec3(0.3f * u(rng), h2 + r1 + r2 + std::abs(u(rng)), 0.3f * u(rng));
    if (kind == 2) foot1.y += (h2 + 0.5f) * u(rng);
    Capsule still{{foot2, foot2 + glm::vec3(0.f, h2, 0.f)}, r2};
    Capsule moving{{foot1, foot1 + glm::vec3(0.f, h1, 0.f)}, r1};
    if (i % 2 == 1) std::swap(moving.segment.a, moving.segment.b);
    const glm::vec3 aim = 0.5f * (still.segment.a + still.segment.b) - 0.5f * (moving.segment.a + moving.segment.b);
    glm::vec3 motion = (aim + (r1 + r2) * glm::vec3(u(rng), 0.5f * u(rng), u(rng))) * (0.6f + 0.6f * std::abs(u(rng)));
    if (kind == 4) {
      // Within the tolerance of touching across, moving anywhere.
      const glm::vec3 across = glm::normalize(glm::vec3(u(rng), 0.f, u(rng)) + glm::vec3(1e-3f, 0.f, 0.f));
      const glm::vec3 shift = foot2 + across * (r1 + r2 + 0.5f * tolerance * (u(rng) + 1.f)) - foot1;
      moving.segment.a += glm::vec3(shift.x, 0.f, shift.z);
      moving.segment.b += glm::vec3(shift.x, 0.f, shift.z);
      moving.segment.a.y = foot2.y + 0.1f;
      moving.segment.b.y = foot2.y + 0.1f + h1;
      motion = glm::vec3(u(rng), u(rng), u(rng));
    }
    const glide::gjk::CapsulePairHit r = glide::gjk::time_of_impact(moving, motion, still, tolerance);
    const auto [at_tolerance, contact, least] = first_times(moving, motion, still, tolerance);
    const double extent = std::abs(offset) + 8.0, rounding = 4e-6 * extent;
    const double length = std::max(1e-9, double(glm::length(motion)));
    INFO("case " << i << " kind " << kind);
    if (r.hit) {
      ++hits;
      CHECK(double(r.t) <= contact + rounding / length);
      CHECK(double(r.t) >= at_tolerance - rounding / length);
      CHECK(std::abs(glm::length(r.normal) - 1.f) <= 1e-5f);
    } else {
      CHECK(contact > 1.0);
      CHECK(least >= tolerance - rounding);
    }
    if (kind == 4 && offset == 0.f) CHECK((r.hit && r.t == 0.f)); // 1e4 m out, floats space 1e-3 m apart
    const glide::gjk::SegmentPairClosest c = glide::gjk::closest_points(moving.segment, still.segment);
    CHECK(std::abs(double(c.distance) - oracle_distance(moving.segment, still.segment)) <= rounding);
    CHECK(glm::length(moving.segment.a + c.s * (moving.segment.b - moving.segment.a) - c.point_a) <= rounding);
    CHECK(glm::length(still.segment.a + c.t * (still.segment.b - still.segment.a) - c.point_b) <= rounding);
    if (offset != 0.f) continue;
    // The same pair turned about the still capsule's foot: no longer along y.
    const auto turned = [&](const glm::vec3& p) { return glm::vec3(D3(foot2) + turn * (D3(p) - D3(foot2))); };
    const Capsule moving_t{{turned(moving.segment.a), turned(moving.segment.b)}, moving.radius};
    const Capsule still_t{{turned(still.segment.a), turned(still.segment.b)}, still.radius};
    const glm::vec3 motion_t(turn * D3(motion));
    const glide::gjk::CapsulePairHit rt = glide::gjk::time_of_impact(moving_t, motion_t, still_t, tolerance);
    if (std::abs(least - tolerance) <= 2.0 * rounding) continue; // either verdict is right
    ++compared;
    if (r.hit != rt.hit) {
      ++mismatched;
      continue;
    }
    if (!r.hit) continue;
    // Both between the first times the gap is the tolerance and zero (turning keeps distances).
    CHECK(double(rt.t) <= contact + rounding / length);
    CHECK(double(rt.t) >= at_tolerance - rounding / length);
    if (r.t > 0.f && rt.t > 0.f && std::abs(r.t - rt.t) * length <= 1e-4)
      CHECK(glm::length(glm::vec3(turn * D3(r.normal)) - rt.normal) <= 1e-3f);
  }
  MESSAGE("hits " << hits << ", compared with the turned pair " << compared);
  CHECK(hits > 1000);
  CHECK(compared > 2000);
  CHECK(mismatched == 0);
}
