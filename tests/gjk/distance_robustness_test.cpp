// Distance GJK on degenerate hulls (coplanar, collinear, duplicate, single point), on
// non-finite input, and on a large stream of random queries that must never hit the
// iteration cap unreported, return NaN or hang.
#include "approx.hpp"
#include "gjk_oracle.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>
#include <glide/limits.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace glide::gjk;
using glide::test::oracle_distance;

namespace {

using glide::limits::finite;
bool finite(const DistanceResult& r) {
  return std::isfinite(r.distance) && finite(r.point_a) && finite(r.point_b) && finite(r.normal);
}

/// A shape whose support turns non-finite after `good_calls` calls.
struct Poisoned {
  Box box{{1, 1, 1}};
  float poison = std::numeric_limits<float>::quiet_NaN();
  int good_calls = 0;
  mutable int calls = 0;
  glm::vec3 support(const glm::vec3& d) const {
    return calls++ < good_calls ? box.support(d) : glm::vec3(0.f, poison, 0.f);
  }
};

// Sanitizers and debug builds are ~10x slower: the stream is shorter there.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
constexpr int k_stream = 1'000'000;
#else
constexpr int k_stream = 100'000;
#endif

} // namespace

TEST_CASE("degenerate hulls: coplanar, collinear, duplicate and single-point clouds match the oracle") {
  std::mt19937 rng(4242);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  int flat_answers = 0;
  for (int i = 0; i < 4000; ++i) {
    const int kind = i % 4;
    std::vector<glm::vec3> points;
    const glm::vec3 e1{u(rng), u(rng), u(rng)}, e2{u(rng), u(rng), u(rng)}, o{u(rng), u(rng), u(rng)};
    const int n = 1 + static_cast<int>(rng() % 24);
    for (int k = 0; k < n; ++k) {
      switch (kind) {
      case 0:
        points.push_back(o + u(rng) * e1 + u(rng) * e2);
        break; // coplanar
      case 1:
        points.push_back(o + u(rng) * e1);
        break; // collinear
      case 2:
        points.push_back(k % 2 ? o + e1 : o + (k % 3 ? e2 : glm::vec3(0))); // duplicates
        break;
      default:
        points.push_back(o);
        break; // one point, repeated
      }
    }
    const ConvexHull hull(points);
    const glm::vec3 c{2 * u(rng), 2 * u(rng), 2 * u(rng)};
    const glm::vec3 h = 0.7f * glm::vec3{u(rng), u(rng), u(rng)};
    const Segment seg{c - h, c + h};
    const DistanceResult r = distance(seg, hull);
    const std::vector<glm::dvec3> seg_d{glm::dvec3(seg.a), glm::dvec3(seg.b)};
    const glide::test::OracleResult truth = oracle_distance(seg_d, glide::test::to_double(points));
    INFO("case ", i, " kind ", kind, " oracle ", truth.distance, " glide ", r.distance);
    REQUIRE(finite(r));
    CHECK((r.status == Status::converged || r.status == Status::degenerate));
    CHECK(std::abs(double(r.distance) - truth.distance) <= 4e-6);
    CHECK(glide::test::point_segment_distance(glm::dvec3(r.point_a), seg_d[0], seg_d[1]) <= 4e-6);
    const std::vector<glm::dvec3> pb{glm::dvec3(r.point_b)};
    CHECK(oracle_distance(pb, glide::test::to_double(points)).distance <= 4e-6);
    if (truth.distance >= 1e-5) CHECK(intersect(seg, hull) == false);
    flat_answers += truth.distance > 0.0;
  }
  CHECK(flat_answers > 3000);
}

TEST_CASE("non-finite support points at any iteration give invalid_input with finite output") {
  for (const float poison : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity()}) {
    for (int good = 0; good < 8; ++good) {
      Poisoned shape;
      shape.poison = poison;
      shape.good_calls = good;
      SimplexCache cache;
      const DistanceResult r = distance(Segment{{3, -1, 0.5f}, {2.5f, 1, -0.5f}}, shape, {}, &cache);
      CHECK(finite(r));
      // Either the query ended before the poisoned call or it reports it.
      CHECK((r.status == Status::invalid_input || shape.calls <= good));
      if (r.status == Status::invalid_input) CHECK_FALSE(cache.valid);
      shape.calls = 0;
      CHECK_FALSE((intersect(Segment{{3, -1, 0.5f}, {2.5f, 1, -0.5f}}, shape) && shape.calls > good));
    }
  }
}

TEST_CASE("a long stream of random queries: statuses honest, output finite, cap never hit silently") {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  // 64 random 8-point hulls reused across the stream (the cost is in the queries).
  std::vector<ConvexHull> hulls;
  for (int i = 0; i < 64; ++i) {
    std::vector<glm::vec3> p(8);
    for (glm::vec3& q : p) q = {u(rng), u(rng), u(rng)};
    hulls.emplace_back(p);
  }
  int bad_status = 0, not_finite = 0, negative = 0, inconsistent = 0, degenerate = 0, iterations_max = 0;
  for (int i = 0; i < k_stream; ++i) {
    const ConvexHull& hull = hulls[i & 63];
    const glm::vec3 c = 2.5f * glm::vec3{u(rng), u(rng), u(rng)};
    const glm::vec3 h = glm::vec3{u(rng), u(rng), u(rng)};
    const DistanceResult r = distance(Segment{c - h, c + h}, hull);
    bad_status += r.status == Status::max_iterations || r.status == Status::invalid_input ||
                  (r.iterations >= DistanceSettings{}.max_iterations) != (r.status == Status::max_iterations);
    not_finite += !finite(r);
    negative += !(r.distance >= 0.f);
    inconsistent += r.distance > 0.f && std::abs(glm::length(r.point_a - r.point_b) - r.distance) > 1e-5f;
    degenerate += r.status == Status::degenerate;
    iterations_max = std::max(iterations_max, r.iterations);
  }
  MESSAGE(k_stream, " queries: most iterations ", iterations_max, ", degenerate ", degenerate);
  CHECK(bad_status == 0);
  CHECK(not_finite == 0);
  CHECK(negative == 0);
  CHECK(inconsistent == 0);
  CHECK(iterations_max < DistanceSettings{}.max_iterations);
}

TEST_CASE("huge hulls (1e13 to 1e18 m): the stopping test's squares do not overflow into a false stop") {
  // In float both sides of gap^2 <= tolerance^2 |v|^2 overflowed to infinity at 1e17 m, which
  // stopped GJK at its first vertex: a segment through the hull was reported 2.4e17 m away.
  std::mt19937 rng(17);
  for (const float size : {1e13f, 1e15f, 1e17f, 1e18f}) {
    for (const int n : {8, 100}) {
      std::vector<glm::vec3> points;
      for (int i = 0; i < n; ++i) points.push_back(glide::test::random_unit(rng) * size);
      const ConvexHull hull(points);
      const std::vector<glm::dvec3> vertices = glide::test::to_double(hull.vertices());
      for (int k = 0; k < 20; ++k) {
        const glm::vec3 dir = glide::test::random_unit(rng), side = glide::test::random_unit(rng);
        const glm::vec3 at = side * (size * 0.05f * static_cast<float>(k)); // through, then beside
        const Segment s{at - 2.f * size * dir, at + 2.f * size * dir};
        const glide::test::OracleResult truth =
            oracle_distance(std::vector<glm::dvec3>{glm::dvec3(s.a), glm::dvec3(s.b)}, vertices);
        // A cache too: it forces GJK where a small hull's planes would answer.
        SimplexCache cache;
        for (const DistanceResult& r : {distance(s, hull), distance(s, hull, {}, &cache)}) {
          CHECK(r.status == Status::converged);
          CHECK(r.distance >= truth.distance - 1e-6 * size);
          CHECK(r.distance <= truth.distance + 2e-6 * size + 1e-6 * truth.distance);
        }
        CHECK(intersect(s, hull) == (truth.distance < 1e-6 * size));
      }
    }
  }
}
