// A small hull's face planes (detail/hull_planes.hpp), which answer a segment's or a point's
// deep overlap with the hull before GJK: the planes themselves, and the answers against the
// double-precision oracle on random, boxy, flattened and far-away hulls at 1e-3 to 1e3 m.
#include "gjk_oracle.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace glide::gjk;
using glide::test::oracle_distance;
using glide::test::random_unit;

namespace {

struct KeptPlane {
  glm::dvec3 normal;
  double offset;
};

/// The planes a hull keeps (the padding of the last block left out).
std::vector<KeptPlane> kept_planes(const ConvexHull& hull) {
  std::vector<KeptPlane> out;
  for (const detail::PlaneBlock& b : hull.planes().blocks)
    for (int i = 0; i < 4; ++i)
      if (b.offset[i] != std::numeric_limits<float>::max()) out.push_back({{b.nx[i], b.ny[i], b.nz[i]}, b.offset[i]});
  return out;
}

glm::dvec3 center_of(const ConvexHull& hull) {
  const detail::F4 c = hull.planes().center;
  return {c[0], c[1], c[2]};
}

/// A planes' answer: an overlap found before GJK's first iteration.
bool answered_by_planes(const DistanceResult& r) { return r.overlapping() && r.iterations == 0; }

} // namespace

TEST_CASE("a box keeps its six face planes; every vertex of a random hull is inside its planes") {
  const ConvexHull box = ConvexHull::box({1.f, 2.f, 3.f});
  const std::vector<KeptPlane> planes = kept_planes(box);
  REQUIRE(planes.size() == 6);
  for (const KeptPlane& p : planes) {
    const glm::dvec3 a = glm::abs(p.normal);
    CHECK(std::max(a.x, std::max(a.y, a.z)) == 1.0);
    CHECK(p.offset == doctest::Approx(glm::dot(a, glm::dvec3(1.0, 2.0, 3.0))).epsilon(1e-7));
  }
  CHECK(box.planes().margin == doctest::Approx(1e-5 * std::sqrt(14.0)).epsilon(1e-6));

  std::mt19937 rng(11);
  for (int h = 0; h < 200; ++h) {
    std::vector<glm::vec3> points;
    const int n = 4 + h % 21;
    for (int i = 0; i < n; ++i)
      points.push_back(random_unit(rng) * glm::vec3(1.f, 0.5f, 2.f) + glm::vec3(5e3f, 0.f, 1.f));
    const ConvexHull hull(points);
    const std::vector<KeptPlane> kept = kept_planes(hull);
    REQUIRE(!kept.empty());
    CHECK(kept.size() <= hull.faces().size());
    for (const KeptPlane& p : kept) {
      CHECK(glm::length(p.normal) == doctest::Approx(1.0).epsilon(1e-6));
      for (const glm::vec3& v : hull.vertices()) CHECK(glm::dot(p.normal, glm::dvec3(v) - center_of(hull)) <= p.offset);
    }
  }
}

TEST_CASE("flat hulls keep no planes nor balls; hulls of more than 64 planes keep their balls only") {
  const std::vector<glm::vec3> square{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  const ConvexHull flat(square);
  CHECK(flat.planes().blocks.empty());
  CHECK(flat.planes().inner2 < 0.f);
  CHECK(flat.planes().near2 < 0.f);
  CHECK(distance(Segment{{0.5f, 0.5f, -1.f}, {0.5f, 0.5f, 1.f}}, flat).iterations > 0);
  std::mt19937 rng(5);
  std::vector<glm::vec3> sphere;
  for (int i = 0; i < 64; ++i) sphere.push_back(random_unit(rng));
  const ConvexHull round(sphere);
  CHECK(round.faces().size() > 64);
  CHECK(round.planes().blocks.empty());
  CHECK(round.planes().inner2 > 0.5f);
  // Through the middle: the inner ball's, with no GJK iteration; off the middle, GJK's.
  const DistanceResult middle = distance(Segment{{-2.f, 0.f, 0.f}, {2.f, 0.f, 0.f}}, round);
  CHECK(answered_by_planes(middle));
  CHECK(middle.point_a == middle.point_b);
  CHECK(middle.point_a.y == 0.f);
  CHECK(middle.point_a.z == 0.f);
  CHECK(std::abs(middle.point_a.x) < 0.5f); // the segment's point nearest the vertices' centroid
  const DistanceResult off = distance(Segment{{-2.f, 0.f, 0.9f}, {2.f, 0.f, 0.9f}}, round);
  CHECK(off.overlapping());
  CHECK(off.iterations > 0);
}

TEST_CASE("hulls too small or too large for float's squares keep no balls, and GJK answers them") {
  for (const float size : {1e-17f, 1e17f}) {
    std::mt19937 rng(3);
    std::vector<glm::vec3> points;
    for (int i = 0; i < 100; ++i) points.push_back(random_unit(rng) * size);
    const ConvexHull hull(points);
    REQUIRE(hull.planes().blocks.empty());
    CHECK(hull.planes().inner2 < 0.f);
    CHECK(hull.planes().outer2 < 0.f);
    CHECK(hull.planes().near2 < 0.f);
    const Segment through{glm::vec3(-2.f * size, 0.f, 0.f), glm::vec3(2.f * size, 0.f, 0.f)};
    const DistanceResult r = distance(through, hull);
    CHECK(r.iterations > 0);
    CHECK(r.status == Status::converged);
    // The tiny one within absolute_tolerance (1e-9 m by default), which dwarfs it.
    CHECK(r.distance <= (size < 1.f ? DistanceSettings{}.absolute_tolerance : 0.f));
  }
}

TEST_CASE("a box's balls: its smallest half extent inside, its corners' distance around, each by the margin") {
  const ConvexHull box = ConvexHull::box({1.f, 2.f, 3.f});
  const detail::HullPlanes& p = box.planes();
  const double margin = p.margin;
  CHECK(p.inner2 == doctest::Approx((1.0 - margin) * (1.0 - margin)).epsilon(2e-6));
  CHECK(p.inner2 < (1.0 - margin) * (1.0 - margin));
  CHECK(p.outer2 == doctest::Approx((std::sqrt(14.0) + margin) * (std::sqrt(14.0) + margin)).epsilon(2e-6));
  CHECK(p.outer2 > (std::sqrt(14.0) + margin) * (std::sqrt(14.0) + margin));
  CHECK(p.near2 == doctest::Approx(64.0 * 14.0).epsilon(1e-6));
}

TEST_CASE("a segment or point through a box: a common point, with no GJK iteration") {
  const ConvexHull box = ConvexHull::box({1.f, 1.f, 1.f});
  const DistanceResult through = distance(Segment{{-3.f, 0.2f, 0.1f}, {3.f, 0.2f, 0.1f}}, box);
  CHECK(answered_by_planes(through));
  CHECK(through.point_a == through.point_b);
  CHECK(through.point_a.y == 0.2f);
  CHECK(std::abs(through.point_a.x) < 1.f);
  CHECK(through.normal == glm::vec3(0.f));
  CHECK(answered_by_planes(distance(Point{{0.3f, -0.9f, 0.5f}}, box)));
  CHECK(answered_by_planes(distance(Capsule{{{0.f, -0.5f, 0.f}, {0.f, 0.5f, 0.f}}, 0.4f}, box)));

  // Less than the margin (1e-5 of the radius) inside: GJK decides, and finds the overlap.
  const DistanceResult shallow = distance(Segment{{1.f - 1e-6f, -3.f, 0.f}, {1.f - 1e-6f, 3.f, 0.f}}, box);
  CHECK(shallow.overlapping());
  CHECK(shallow.iterations > 0);
  // Outside: not the planes' to answer for distance; intersect's "apart".
  const Segment outside{{1.5f, -3.f, 0.f}, {1.5f, 3.f, 0.f}};
  CHECK(distance(outside, box).distance == doctest::Approx(0.5f));
  CHECK(!intersect(outside, box));
  CHECK(intersect(Segment{{0.5f, -3.f, 0.f}, {0.5f, 3.f, 0.f}}, box));
  CHECK(intersect(Segment{{1.f + 1e-6f, -3.f, 0.f}, {1.f + 1e-6f, 3.f, 0.f}}, box) ==
        distance(Segment{{1.f + 1e-6f, -3.f, 0.f}, {1.f + 1e-6f, 3.f, 0.f}}, box).overlapping());

  // Non-finite input stays GJK's to refuse.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(distance(Segment{{nan, 0.f, 0.f}, {0.f, 0.f, 0.f}}, box).status == Status::invalid_input);
  CHECK(distance(Segment{{1e30f, 0.f, 0.f}, {-1e30f, 0.f, 0.f}}, box).status == Status::invalid_input);
}

TEST_CASE("a capsule over a box's top face: the exact pair, with no GJK iteration; near the rim, GJK") {
  const ConvexHull box = ConvexHull::box({4.f, 0.5f, 4.f});
  const Capsule standing{{{1.25f, 0.9f, -2.f}, {1.25f, 1.9f, -2.f}}, 0.4f};
  const DistanceResult r = distance(standing, box);
  CHECK(r.iterations == 0);
  CHECK(r.normal == glm::vec3(0.f, 1.f, 0.f));
  CHECK(r.distance == doctest::Approx(0.f).scale(1.f).epsilon(1e-6));
  const DistanceResult gap = distance(Segment{{1.25f, 0.9f, -2.f}, {1.5f, 1.9f, -2.f}}, box);
  CHECK(gap.iterations == 0);
  CHECK(gap.distance == 0.9f - 0.5f); // exact: 0.9f is 0.89999998 m
  CHECK(gap.point_a == glm::vec3(1.25f, 0.9f, -2.f));
  CHECK(gap.point_b == glm::vec3(1.25f, 0.5f, -2.f));
  // Its lower end over the rim (within the margin of the edge x = 4): GJK's.
  const DistanceResult rim = distance(Segment{{4.f, 0.9f, 0.f}, {4.f, 1.9f, 0.f}}, box);
  CHECK(rim.iterations > 0);
  CHECK(rim.distance == doctest::Approx(0.4f));
}

TEST_CASE("queries with a cache run GJK, which keeps the cache") {
  const ConvexHull box = ConvexHull::box({1.f, 1.f, 1.f});
  const Segment through{{-3.f, 0.f, 0.f}, {3.f, 0.f, 0.f}};
  CHECK(answered_by_planes(distance(through, box)));
  SimplexCache cache;
  const DistanceResult cold = distance(through, box, {}, &cache);
  CHECK(cold.overlapping());
  CHECK(cold.iterations > 0);
  CHECK(cache.valid);
  const DistanceResult over = distance(Segment{{0.f, 2.f, 0.f}, {0.f, 3.f, 0.f}}, box, {}, &cache);
  CHECK(over.iterations > 0);
  CHECK(over.distance == 1.f);
  CHECK(cache.valid);
}

TEST_CASE("overlaps by planes against the oracle: random, boxy, flattened and far hulls, grazing segments") {
  // Distance and intersect both; the common points of the planes' answers checked too.
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  int by_planes = 0, over_face = 0, wrong = 0;
  constexpr int k_cases = 4000;
  for (int c = 0; c < k_cases; ++c) {
    const float scale = std::pow(10.f, -3.f + 6.f * u(rng));
    const glm::vec3 origin = c % 4 == 0 ? random_unit(rng) * 1e4f : random_unit(rng) * scale;
    std::vector<glm::vec3> points;
    const int n = 4 + static_cast<int>(rng() % 21);
    const int family = c % 4;
    glm::vec3 stretch{1.f};
    if (family == 1) stretch = {1.f, 1.f, 1e-3f}; // a thin slab
    if (family == 2) stretch = {1.f, 0.2f + u(rng), 3.f * u(rng) + 0.1f};
    for (int i = 0; i < n; ++i) {
      glm::vec3 p = random_unit(rng) * stretch;
      if (family == 3 && i % 3 == 0)
        p = points.empty() ? p : (points.back() - origin) / scale + 1e-7f * random_unit(rng);
      points.push_back(origin + p * scale);
    }
    const ConvexHull hull(points);
    if (hull.dimension() < 3) continue;
    const std::vector<glm::dvec3> vertices = glide::test::to_double(hull.vertices());

    // Through a random interior point, or placed across the surface by -1e-3 .. +1e-3 of the scale.
    glm::dvec3 inner(0.0);
    double total = 0.0;
    for (const glm::dvec3& v : vertices) {
      const double w = u(rng);
      inner += w * v;
      total += w;
    }
    const glm::vec3 mid(inner / total);
    const glm::vec3 half = random_unit(rng) * (scale * (c % 7 == 0 ? 0.f : 2.f * u(rng)));
    Segment s{mid - half, mid + half};
    if (c % 3 != 2) { // across the surface, or (one in two) apart by 1e-3 to 2 of the scale
      const glide::test::OracleResult o =
          oracle_distance(std::vector<glm::dvec3>{glm::dvec3(s.a) + glm::dvec3(0, 0, 4.0 * scale),
                                                  glm::dvec3(s.b) + glm::dvec3(0, 0, 4.0 * scale)},
                          vertices);
      const double target = c % 3 == 0 ? scale * std::pow(10.0, -6.0 + 3.0 * u(rng)) * (rng() % 2 ? 1.0 : -1.0)
                                       : scale * std::pow(10.0, -3.0 + 3.3 * u(rng));
      const glm::vec3 shift = glm::vec3(glm::dvec3(0, 0, 4.0 * scale) + o.normal * (target - o.distance));
      s = {s.a + shift, s.b + shift};
    }
    const DistanceResult r = distance(s, hull);
    const glide::test::OracleResult truth =
        oracle_distance(std::vector<glm::dvec3>{glm::dvec3(s.a), glm::dvec3(s.b)}, vertices);
    const double hull_scale = [&] {
      glm::dvec3 centroid(0.0);
      for (const glm::dvec3& v : vertices) centroid += v;
      centroid /= double(vertices.size());
      double r2 = 0.0;
      for (const glm::dvec3& v : vertices) r2 = std::max(r2, glm::length(v - centroid));
      return std::max(r2, 0.5 * glm::length(glm::dvec3(s.b) - glm::dvec3(s.a)));
    }();
    // Distance and the boolean query (which the planes also answer when both ends lie beyond
    // one plane) against the truth, outside the contract's 1e-5 × scale band.
    const bool touching = intersect(s, hull);
    if (truth.distance >= 1e-5 * hull_scale && (r.overlapping() || touching)) ++wrong;
    if (truth.distance == 0.0 && truth.overlap_depth > 1e-5 * hull_scale && !(r.overlapping() && touching)) ++wrong;
    // What the planes answer (GJK, started from a plane's triangle, may end without an
    // iteration too).
    detail::PlaneAnswer planes_answer;
    if (detail::segment_against_hull<detail::PlaneQuery::distance>(hull.planes(), s.a, s.b, planes_answer) ==
        detail::PlaneVerdict::unknown)
      continue;
    CHECK(r.iterations == 0);
    const double spacing = 4e-7 * (std::abs(origin.x) + std::abs(origin.y) + std::abs(origin.z) + scale);
    const glm::dvec3 pa(r.point_a), pb(r.point_b);
    if (r.overlapping()) {
      // The common point: the same on both, on the segment and in the hull, up to the float
      // spacing of the coordinates.
      ++by_planes;
      CHECK(r.point_a == r.point_b);
      CHECK(glide::test::point_segment_distance(pa, glm::dvec3(s.a), glm::dvec3(s.b)) <= spacing);
      CHECK(oracle_distance(std::vector<glm::dvec3>{pa}, vertices).distance <= 1e-6 * hull_scale + spacing);
      CHECK(truth.distance <= 1e-6 * hull_scale);
      continue;
    }
    // Over a face: the distance within the contract, an end of the segment and its projection
    // onto the hull, the face's unit normal.
    ++over_face;
    CHECK(r.distance >= truth.distance - 1e-6 * hull_scale);
    CHECK(r.distance <= truth.distance + 2e-6 * hull_scale + 1e-6 * truth.distance);
    CHECK(std::abs(glm::length(pa - pb) - r.distance) <= 2e-6 * hull_scale + 1e-6 * r.distance + spacing);
    CHECK((r.point_a == s.a || r.point_a == s.b));
    CHECK(oracle_distance(std::vector<glm::dvec3>{pb}, vertices).distance <= 1e-6 * hull_scale + spacing);
    CHECK(glm::length(r.normal) == doctest::Approx(1.f).epsilon(1e-6));
  }
  CHECK(wrong == 0);
  CHECK(by_planes > k_cases / 6); // both paths are exercised
  CHECK(over_face > k_cases / 50);
}

TEST_CASE("large hulls' balls against the oracle: round, slab, cube-cloud and near-duplicate hulls, far ones") {
  // Hulls of 40 to 160 points (most with more than 64 planes: only the balls answer before
  // GJK). Segments pass 0 to 2 inner radii from the centre, some with both ends at one point,
  // or graze the outer ball from 1e-3 inside to 1e-3 outside. Every verdict, of distance,
  // intersect and the balls themselves, against the truth outside the 1e-5 × scale band.
  std::mt19937 rng(4242);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  int by_ball = 0, apart = 0, wrong = 0, ball_wrong = 0;
  constexpr int k_cases = 2000;
  for (int c = 0; c < k_cases; ++c) {
    const float scale = std::pow(10.f, -3.f + 6.f * u(rng));
    const glm::vec3 origin = c % 4 == 0 ? random_unit(rng) * 1e4f : random_unit(rng) * scale;
    const int n = 40 + static_cast<int>(rng() % 121);
    const int family = c % 4;
    std::vector<glm::vec3> points;
    for (int i = 0; i < n; ++i) {
      glm::vec3 p = random_unit(rng);
      if (family == 1) p *= glm::vec3(1.f, 1.f, 1e-3f); // a thin slab: a tiny inner ball
      if (family == 2) p = glm::vec3(u(rng), u(rng), u(rng)) * 2.f - 1.f;
      if (family == 3 && i % 3 == 0 && !points.empty()) p = (points.back() - origin) / scale + 1e-7f * random_unit(rng);
      points.push_back(origin + p * scale);
    }
    const ConvexHull hull(points);
    if (hull.dimension() < 3) continue;
    const detail::HullPlanes& balls = hull.planes();
    REQUIRE(balls.outer2 > 0.f);
    const std::vector<glm::dvec3> vertices = glide::test::to_double(hull.vertices());
    const glm::dvec3 center = center_of(hull);
    const double inner = balls.inner2 > 0.f ? std::sqrt(double(balls.inner2)) : 1e-3 * scale;
    const double outer = std::sqrt(double(balls.outer2));

    const glm::dvec3 dir(random_unit(rng));
    Segment s;
    if (c % 5 == 4) { // tangent to the outer ball, from 1e-3 inside to 1e-3 outside of it
      const glm::dvec3 side = glm::normalize(glm::cross(dir, glm::dvec3(random_unit(rng))));
      const glm::dvec3 at = center + side * (outer * (1.0 + 1e-3 * (2.0 * u(rng) - 1.0)));
      s = {glm::vec3(at - dir * (outer * u(rng))), glm::vec3(at + dir * (outer * u(rng)))};
    } else { // passing 0 to 2 inner radii from the centre; one in eight a point
      const glm::dvec3 side = glm::normalize(glm::cross(dir, glm::dvec3(random_unit(rng))));
      const glm::dvec3 at = center + side * (2.0 * inner * u(rng));
      const double half = c % 8 == 0 ? 0.0 : 3.0 * outer * u(rng);
      s = {glm::vec3(at - dir * half), glm::vec3(at + dir * half)};
    }
    const glide::test::OracleResult truth =
        oracle_distance(std::vector<glm::dvec3>{glm::dvec3(s.a), glm::dvec3(s.b)}, vertices);
    const double hull_scale = std::max(outer, 0.5 * glm::length(glm::dvec3(s.b) - glm::dvec3(s.a)));
    const bool apart_truly = truth.distance >= 1e-5 * hull_scale;
    const bool inside_truly = truth.distance == 0.0 && truth.overlap_depth > 1e-5 * hull_scale;

    const DistanceResult r = distance(s, hull);
    const bool touching = intersect(s, hull);
    if (apart_truly && (r.overlapping() || touching)) ++wrong;
    if (inside_truly && !(r.overlapping() && touching)) ++wrong;

    detail::PlaneAnswer answer;
    const detail::PlaneVerdict verdict =
        detail::segment_against_balls(balls, s.a, s.b, detail::PlaneQuery::boolean, answer);
    if (verdict == detail::PlaneVerdict::apart) {
      ++apart;
      if (!(truth.distance > 0.0)) ++ball_wrong;
    }
    if (verdict != detail::PlaneVerdict::inside) continue;
    ++by_ball;
    if (truth.distance > 1e-6 * hull_scale) ++ball_wrong;
    // The common point: on the segment and in the hull, up to the float spacing there.
    const double spacing = 4e-7 * (std::abs(origin.x) + std::abs(origin.y) + std::abs(origin.z) + scale);
    const glm::dvec3 p(answer.point_a);
    CHECK(answer.point_a == answer.point_b);
    CHECK(glide::test::point_segment_distance(p, glm::dvec3(s.a), glm::dvec3(s.b)) <= spacing);
    CHECK(oracle_distance(std::vector<glm::dvec3>{p}, vertices).distance <= spacing);
    if (balls.blocks.empty()) {
      CHECK(r.iterations == 0); // distance took the balls' answer
      CHECK(r.point_a == answer.point_a);
    }
  }
  CHECK(wrong == 0);
  CHECK(ball_wrong == 0);
  CHECK(by_ball > k_cases / 5); // both verdicts are exercised
  CHECK(apart > k_cases / 50);
}

TEST_CASE("a segment in front of a small hull starts GJK from the plane it faces and ends in about one iteration") {
  // Hulls of 8 and 16 points on ellipsoids, segments 0.5 to 1.5 m long 1e-4 to 1 m away: GJK
  // starts from the nearer end against a triangle of the plane the segment is farthest in
  // front of. Started from one support pair toward the centre it took 2.1 to 3.1 iterations
  // on average on such queries; every answer within the contract of the oracle's.
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (const int n : {8, 16}) {
    int queries = 0, iterations = 0, wrong = 0;
    for (int c = 0; c < 1000; ++c) {
      const glm::vec3 axes{0.5f + u(rng), 0.5f + u(rng), 0.5f + u(rng)};
      std::vector<glm::vec3> points;
      for (int i = 0; i < n; ++i) points.push_back(random_unit(rng) * axes);
      const ConvexHull hull(points);
      const std::vector<glm::dvec3> vertices = glide::test::to_double(hull.vertices());
      const glm::vec3 half = random_unit(rng) * (0.25f + 0.5f * u(rng));
      const glm::vec3 center = random_unit(rng) * 3.f;
      Segment s{center - half, center + half};
      const glide::test::OracleResult far =
          oracle_distance(std::vector<glm::dvec3>{glm::dvec3(s.a), glm::dvec3(s.b)}, vertices);
      const double target = c % 2 ? 1e-4 : 0.05 + 0.95 * u(rng);
      const glm::vec3 shift(far.normal * (target - far.distance));
      s = {s.a + shift, s.b + shift};
      const glide::test::OracleResult truth =
          oracle_distance(std::vector<glm::dvec3>{glm::dvec3(s.a), glm::dvec3(s.b)}, vertices);
      const DistanceResult r = distance(s, hull);
      const double scale = 3.0;
      if (r.distance < truth.distance - 1e-6 * scale ||
          r.distance > truth.distance + 2e-6 * scale + 1e-6 * truth.distance)
        ++wrong;
      ++queries;
      iterations += r.iterations;
    }
    CHECK(wrong == 0);
    const double mean = double(iterations) / queries;
    MESSAGE(n << " vertices: " << mean << " iterations on average");
    CHECK(mean < 1.6);
  }
}

TEST_CASE("GJK's start from a plane's triangle: the nearest point of its rim, as brute force in double finds it") {
  // Random, sliver and needle triangles, near and far from the origin, with the origin's
  // projection inside them too: the nearest point of the three edges, its distance within
  // float rounding of the exact one, and its weights giving the point.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const auto nearest_on_edge = [](const glm::dvec3& a, const glm::dvec3& b) {
    const glm::dvec3 d = b - a;
    const double dd = glm::dot(d, d);
    const double t = dd > 0.0 ? std::clamp(-glm::dot(a, d) / dd, 0.0, 1.0) : 0.0;
    return glm::length(a + t * d);
  };
  int wrong = 0;
  for (int c = 0; c < 10000; ++c) {
    const float scale = std::pow(10.f, 3.f * u(rng));
    const glm::vec3 offset = c % 4 == 0 ? glm::vec3(u(rng), u(rng), u(rng)) * 1e3f : glm::vec3(0.f);
    glm::vec3 p[3];
    for (glm::vec3& q : p) q = glm::vec3(u(rng), u(rng), u(rng)) * scale + offset;
    if (c % 3 == 1) p[2] = p[0] + (p[1] - p[0]) * (0.5f + 0.5f * u(rng)) + glm::vec3(u(rng)) * (1e-4f * scale);
    if (c % 5 == 2) p[1] = p[0] + glm::vec3(u(rng), u(rng), u(rng)) * (1e-5f * scale); // needle
    const detail::F4 q[3] = {detail::load(p[0]), detail::load(p[1]), detail::load(p[2])};
    const detail::Closest4 out = detail::closest_on_triangle_rim(q);
    const glm::dvec3 d0(p[0]), d1(p[1]), d2(p[2]);
    const double exact = std::min({nearest_on_edge(d0, d1), nearest_on_edge(d1, d2), nearest_on_edge(d2, d0)});
    const double size = std::max({glm::length(d0), glm::length(d1), glm::length(d2)});
    glm::dvec3 combined(0.0);
    for (int i = 0; i < 3; ++i)
      if (out.mask & (1u << i)) combined += double(out.weights[static_cast<std::size_t>(i)]) * glm::dvec3(p[i]);
    const double tolerance = 8.0 * std::numeric_limits<float>::epsilon() * size;
    if (std::abs(std::sqrt(double(out.distance_squared)) - exact) > tolerance ||
        glm::length(combined - glm::dvec3(detail::to_vec3(out.point))) > tolerance || out.mask == 0)
      ++wrong;
  }
  CHECK(wrong == 0);
}
