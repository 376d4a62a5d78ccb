#include "approx.hpp"

#include <glide/error.hpp>
#include <glide/gjk/aabb.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/detail/gjk_support.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/shapes.hpp>

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

using namespace glide::gjk;

static_assert(SupportMapping<Point> && SupportMapping<Segment> && SupportMapping<Triangle> && SupportMapping<Box> &&
              SupportMapping<Sphere> && SupportMapping<Capsule> && SupportMapping<Cylinder> && SupportMapping<Cone> &&
              SupportMapping<Transformed<Box>> && SupportMapping<Swept<Segment>> && SupportMapping<PointCloud>);

TEST_CASE("support of the basic shapes is their farthest point") {
  CHECK_APPROX(Segment{{0, 0, 0}, {0, 2, 0}}.support({0.1f, 1, 0}), glm::vec3(0, 2, 0), 0);
  CHECK_APPROX(Segment{{0, 0, 0}, {0, 2, 0}}.support({0.1f, -1, 0}), glm::vec3(0, 0, 0), 0);
  CHECK_APPROX(Triangle{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}.support({-1, 0, 2}), glm::vec3(0, 0, 1), 0);
  CHECK_APPROX(Box{{1, 2, 3}}.support({-1, 1, -0.5f}), glm::vec3(-1, 2, -3), 0);
  CHECK_APPROX(Sphere{{1, 0, 0}, 2}.support({0, 0, -5}), glm::vec3(1, 0, -2), 1e-6f);
  CHECK_APPROX(Capsule{{{0, 0, 0}, {0, 1, 0}}, 0.5f}.support({3, 4, 0}), glm::vec3(0.3f, 1.4f, 0), 1e-6f);
  CHECK_APPROX(Cylinder{1, 2}.support({0, -1, 1}), glm::vec3(0, -1, 2), 1e-6f);
  CHECK_APPROX(Cone{1, 1}.support({0, 1, 0.1f}), glm::vec3(0, 1, 0), 0);
  CHECK_APPROX(Cone{1, 1}.support({1, -1, 0}), glm::vec3(1, -1, 0), 1e-6f);
}

TEST_CASE("Segment numbers its ends: support_index and vertex agree with support") {
  static_assert(IndexedSupport<Segment> && !IndexedSupport<Box> && !IndexedSupport<Transformed<Segment>>);
  const Segment s{{1e4f, -2.5f, 0.125f}, {-3.f, 7.f, 1e-3f}};
  CHECK(s.vertex_count() == 2);
  CHECK(s.vertex(0) == s.a);
  CHECK(s.vertex(1) == s.b);
  const glm::vec3 along = s.b - s.a;
  CHECK(s.support_index(along) == 1);
  CHECK(s.support_index(-along) == 0);
  CHECK(s.support_index(glm::vec3(0.f)) == 0); // ties and zero directions give a
  CHECK(s.support(glm::vec3(0.f)) == s.a);
  for (int k = 0; k < 64; ++k) {
    const glm::vec3 d{std::sin(0.7f * k), std::cos(1.3f * k), std::sin(2.1f * k + 0.5f)};
    const glm::vec3 p = s.support(d);
    CHECK(p == s.vertex(s.support_index(d)));
    // The end is chosen by the sign of d · (b − a), rounded at the scale of |a| ~ 1e4.
    CHECK(glm::dot(d, p) >= std::max(glm::dot(d, s.a), glm::dot(d, s.b)) - 5e-3f);
    CHECK((p == s.a || p == s.b));
  }
}

TEST_CASE("zero direction gives a point of the shape, never NaN") {
  const glm::vec3 zero(0.f);
  CHECK_APPROX(Sphere{{1, 2, 3}, 1}.support(zero), glm::vec3(1, 2, 3), 0);
  CHECK_APPROX(Capsule{{{0, 0, 0}, {0, 1, 0}}, 1}.support(zero), glm::vec3(0, 0, 0), 0);
  CHECK_APPROX(Cylinder{1, 1}.support(zero), glm::vec3(0, 1, 0), 0);
}

TEST_CASE("Transformed rotates the query direction into the shape and the result back") {
  const glm::quat quarter_turn_y = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 1, 0));
  const Transformed box{Box{{2, 1, 1}}, Transform{quarter_turn_y, {10, 0, 0}}};
  // The box's long local x axis now points along world -z.
  CHECK_APPROX(box.support({0, 1, -1}), glm::vec3(10 - 1, 1, -2), 1e-5f);
  CHECK_APPROX(box.transform.apply_inverse(box.transform.apply({1, 2, 3})), glm::vec3(1, 2, 3), 1e-5f);
}

TEST_CASE("GJK's vector-form support of a Transformed shape is support() bit for bit") {
  // distance() rotates on 4-float vectors; it must round exactly as glm's quaternion product.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::vec3> points(12);
  for (glm::vec3& p : points) p = {u(rng), u(rng), u(rng)};
  const ConvexHull hull(points);
  for (int k = 0; k < 200; ++k) {
    const glm::quat q = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    const Transform t{q, 1e3f * glm::vec3{u(rng), u(rng), u(rng)}};
    const Transformed<ConvexHull> placed{hull, t};
    const Transformed<Box> box{Box{{0.5f, 2.f, 1.f}}, t};
    glide::gjk::detail::SupportCursor<Transformed<ConvexHull>> hull_cursor{placed};
    glide::gjk::detail::SupportCursor<Transformed<Box>> box_cursor{box};
    for (int i = 0; i < 20; ++i) {
      const glm::vec3 d{u(rng), u(rng), u(rng)};
      const glm::vec3 h =
          glide::gjk::detail::to_vec3(glide::gjk::detail::support4(hull_cursor, glide::gjk::detail::load(d)));
      const glm::vec3 b =
          glide::gjk::detail::to_vec3(glide::gjk::detail::support4(box_cursor, glide::gjk::detail::load(d)));
      CHECK(h == placed.support(d));
      CHECK(b == box.support(d));
    }
  }
}

TEST_CASE("Swept adds the motion on the side it faces") {
  const Swept swept{Point{{1, 1, 1}}, glm::vec3(0, 0, 5)};
  CHECK_APPROX(swept.support({0, 0, 1}), glm::vec3(1, 1, 6), 0);
  CHECK_APPROX(swept.support({0, 0, -1}), glm::vec3(1, 1, 1), 0);
}

TEST_CASE("rounded shapes split into core and radius") {
  const Capsule c{{{0, 0, 0}, {0, 1, 0}}, 0.25f};
  CHECK(radius_of(c) == 0.25f);
  CHECK_APPROX(core_of(c).b, glm::vec3(0, 1, 0), 0);
  CHECK(radius_of(Box{}) == 0.f);
  CHECK_APPROX(core_of(Sphere{{1, 2, 3}, 4}).position, glm::vec3(1, 2, 3), 0);
}

TEST_CASE("PointCloud supports at its farthest point and reads the caller's points in place") {
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int round = 0; round < 50; ++round) {
    std::vector<glm::vec3> points(1 + static_cast<std::size_t>(round % 13));
    for (glm::vec3& p : points) p = {u(rng), u(rng), u(rng)};
    const PointCloud cloud(points);
    CHECK(cloud.points().data() == points.data()); // not copied
    CHECK(cloud.points().size() == points.size());
    for (int d = 0; d < 20; ++d) {
      const glm::vec3 dir{u(rng), u(rng), u(rng)};
      float best = -1e30f;
      for (const glm::vec3& p : points) best = std::max(best, glm::dot(dir, p));
      CHECK(glm::dot(dir, cloud.support(dir)) == best); // a point of the cloud, the farthest
      CHECK(std::find(points.begin(), points.end(), cloud.support(dir)) != points.end());
    }
    CHECK(cloud.support(glm::vec3(0.f)) == points[0]);
  }
}

TEST_CASE("PointCloud gives GJK the distances of the ConvexHull of the same points") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(-1.f, 1.f), far(-4.f, 4.f);
  for (int round = 0; round < 200; ++round) {
    std::vector<glm::vec3> points(4 + static_cast<std::size_t>(round % 9));
    const glm::vec3 centre{far(rng), far(rng), far(rng)};
    for (glm::vec3& p : points) p = centre + glm::vec3{u(rng), u(rng), u(rng)};
    const Segment s{{far(rng), far(rng), far(rng)}, {far(rng), far(rng), far(rng)}};
    const DistanceResult a = distance(s, PointCloud(points));
    const DistanceResult b = distance(s, ConvexHull(points));
    CHECK(a.distance == doctest::Approx(b.distance).epsilon(1e-4).scale(1.0));
  }
}

TEST_CASE("PointCloud rejects an empty span") {
  CHECK_THROWS_WITH_AS(PointCloud(std::span<const glm::vec3>{}), doctest::Contains("points must not be empty"),
                       glide::Error);
}

namespace {

// The same bits, so NaN and the sign of zero are checked too.
bool same_bits(const glm::vec3& a, const glm::vec3& b) {
  for (int k = 0; k < 3; ++k)
    if (std::bit_cast<std::uint32_t>(a[k]) != std::bit_cast<std::uint32_t>(b[k])) return false;
  return true;
}

// Coordinates that make ties, touching faces, signed zeros and NaN common.
float adversarial_coordinate(std::mt19937& rng) {
  static constexpr float k_values[] = {0.f, -0.f, 1.f, -1.f, 0.5f, 1e-30f, -1e-30f, 3e38f, -3e38f};
  switch (rng() % 8) {
  case 0:
    return std::nanf("");
  case 1:
    return std::numeric_limits<float>::infinity() * (rng() % 2 == 0 ? 1.f : -1.f);
  case 2:
  case 3:
    return k_values[rng() % std::size(k_values)];
  default:
    return std::uniform_real_distribution<float>(-2.f, 2.f)(rng);
  }
}

} // namespace

TEST_CASE("Aabb's select-instruction minima and maxima, and both branch-free overlap tests, as glm and overlaps()") {
  std::mt19937 rng(20261202);
  const auto point = [&] {
    return glm::vec3(adversarial_coordinate(rng), adversarial_coordinate(rng), adversarial_coordinate(rng));
  };
  int overlapping = 0;
  for (int n = 0; n < 20000; ++n) {
    const glm::vec3 a = point(), b = point();
    REQUIRE(same_bits(detail::min_of(a, b), glm::min(a, b)));
    REQUIRE(same_bits(detail::max_of(a, b), glm::max(a, b)));
    const Aabb box{a, b}, other{point(), point()};
    REQUIRE(same_bits(box.swept(b).min, a + glm::min(b, glm::vec3(0.f))));
    REQUIRE(same_bits(box.swept(b).max, b + glm::max(b, glm::vec3(0.f))));
    REQUIRE(same_bits(box.merged(other).min, glm::min(box.min, other.min)));
    REQUIRE(same_bits(box.merged(other).max, glm::max(box.max, other.max)));
    // Mostly boxes in order (min below max), some empty or NaN.
    const glm::vec3 c = point(), d = point();
    const Aabb first = n % 4 == 0 ? box : Aabb{glm::min(a, b), glm::max(a, b)};
    const Aabb second = n % 4 == 1 ? Aabb{c, d} : Aabb{glm::min(c, d), glm::max(c, d)};
    REQUIRE(first.overlaps_unbranched(second) == first.overlaps(second));
    REQUIRE(first.overlaps_stored(second) == first.overlaps(second));
    overlapping += first.overlaps(second) ? 1 : 0;
  }
  CHECK(overlapping > 1000); // both answers are exercised
  CHECK(overlapping < 19000);
}
