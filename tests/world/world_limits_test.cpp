// The valid range of <glide/limits.hpp>: what lies outside is rejected with an error naming the
// value and changes nothing; what lies inside, up to its edges, is answered correctly.
#include "bvh.hpp"
#include "bvh_oracle.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>

#include <vector>

using glide::PieceId;
using glide::World;
using glide::gjk::Aabb;
using glide::gjk::Capsule;
using glide::gjk::ConvexHull;
using glide::gjk::Transform;
namespace limits = glide::limits;

namespace {
Transform at(const glm::vec3& p) {
  Transform t;
  t.translation = p;
  return t;
}
} // namespace

TEST_CASE("The hierarchy builds over boxes whose bounds overflow float") {
  // Two boxes near +-2e38: their union's extent and centroids overflow to infinity.
  const std::vector<Aabb> boxes{
      {{-2e38f, 0, 0}, {-1.9e38f, 1, 1}}, {{1.9e38f, 0, 0}, {2e38f, 1, 1}}, {{3e38f, 0, 0}, {3.2e38f, 1, 1}}};
  glide::detail::Bvh bvh;
  bvh.build(boxes, iota_ids(boxes.size()));
  std::vector<std::uint32_t> found;
  bvh.query_box({{1.95e38f, 0.5f, 0.5f}, {1.95e38f, 0.5f, 0.5f}},
                [&](const auto& item) { found.push_back(item.item); });
  CHECK(found == std::vector<std::uint32_t>{1003});
}

TEST_CASE("World rejects pieces beyond the valid range, naming the value, and changes nothing") {
  World world;
  const PieceId kept = world.add_piece(ConvexHull::box({1, 1, 1}), at({5, 0, 0}));
  SUBCASE("a box of half extents 1e38 at 3e38") {
    CHECK_THROWS_WITH_AS(world.add_piece(ConvexHull::box(glm::vec3(1e38f)), at({3e38f, 0, 0})),
                         doctest::Contains("exceeds the largest piece of 2e+05 m"), glide::Error);
  }
  SUBCASE("a small box placed beyond 1e6 m") {
    CHECK_THROWS_WITH_AS(world.add_piece(ConvexHull::box({1, 1, 1}), at({2e6f, 0, 0})),
                         doctest::Contains("World::add_piece: the placed piece spans (1999999, -1, -1)"), glide::Error);
  }
  SUBCASE("re-placing or moving a piece beyond the range leaves it where it was") {
    CHECK_THROWS_WITH_AS(world.set_piece_transform(kept, at({0, -1e6f, 0})),
                         doctest::Contains("beyond the valid coordinates (|v| <= 1e+06 m)"), glide::Error);
    CHECK_THROWS_WITH_AS(world.move_piece(kept, at({0, 0, 3e7f}), 0.1f), doctest::Contains("World::move_piece"),
                         glide::Error);
    CHECK(world.transform(kept).translation == glm::vec3(5, 0, 0));
    CHECK(world.bounds(kept).min == glm::vec3(4, -1, -1));
    CHECK(world.world_vertices(kept)[0] == glm::vec3(4, -1, -1));
  }
  CHECK(world.piece_count() == 1);
  const Capsule capsule{{{0, 0, 0}, {0, 0.5f, 0}}, 0.5f};
  const auto hit = world.sweep_capsule(capsule, {10, 0, 0});
  CHECK(hit.hit);
  CHECK(hit.fraction == doctest::Approx(0.35).epsilon(1e-3));
}

TEST_CASE("A piece moved in a dt too short for its move is refused by name, and nothing changes") {
  // 10 cm in 1e-30 s is 1e29 m/s, a quarter turn in 1e-15 s turns points 2e6 m away at 3e21 m/s:
  // both beyond the 1e19 m/s whose square a float holds. The same moves in a frame are taken.
  World world;
  const PieceId piece = world.add_piece(ConvexHull::box({1, 1, 1}), at({5, 0, 0}));
  const Transform turned{glm::angleAxis(1.5707964f, glm::vec3(0, 1, 0)), {5, 0, 0}};
  const std::uint64_t serial = world.motion(piece).serial;
  CHECK_THROWS_WITH_AS(world.move_piece(piece, at({5.1f, 0, 0}), 1e-30f),
                       doctest::Contains("World::move_piece: dt = 1e-30 s is too short for a move of 0.0999999"),
                       glide::Error);
  CHECK_THROWS_WITH_AS(world.move_piece(piece, turned, 1e-15f), doctest::Contains("and a turn of 1.57"), glide::Error);
  CHECK(world.transform(piece).translation == glm::vec3(5, 0, 0));
  CHECK(world.motion(piece).serial == serial);
  CHECK(world.bounds(piece).min == glm::vec3(4, -1, -1));
  world.move_piece(piece, turned, 1.f / 60.f);
  world.move_piece(piece, at({5.1f, 0, 0}), 1.f / 60.f);
  CHECK(world.motion(piece).linear.x == doctest::Approx(6.0).epsilon(1e-4));
}

TEST_CASE("Queries beyond the valid range throw; motions of any finite length hit what they cross") {
  World world;
  world.add_piece(ConvexHull::box({1, 10, 10}), at({5, 0, 0}));
  const Capsule capsule{{{0, 0, 0}, {0, 1, 0}}, 0.5f};
  // Its length overflows float; the wall 3.5 m ahead along x is crossed at once.
  const auto sweep = world.sweep_capsule(capsule, {3e38f, 3e38f, 0});
  REQUIRE(sweep.hit);
  CHECK(sweep.piece == PieceId{0});
  CHECK(sweep.fraction > 0.f);
  CHECK(sweep.fraction * 3e38f == doctest::Approx(3.5f).epsilon(1e-3));
  const auto ray = world.raycast({0, 0, 0}, {1e30f, 1e30f, 0}, 1e30f);
  REQUIRE(ray.hit);
  CHECK(ray.point.x == doctest::Approx(4.f).epsilon(1e-3));

  const Capsule far{{{0, 0, 0}, {0, 2e6f, 0}}, 0.5f};
  CHECK_THROWS_WITH_AS(world.sweep_capsule(far, {1, 0, 0}), doctest::Contains("World::sweep_capsule: capsule segment"),
                       glide::Error);
  const Capsule huge{{{0, 0, 0}, {0, 1, 0}}, 1e30f};
  CHECK_THROWS_WITH_AS(world.overlap_capsule(huge, 0.f), doctest::Contains("capsule radius 1e+30"), glide::Error);
  CHECK_THROWS_WITH_AS(world.raycast({0, 0, 1e7f}, {1, 0, 0}, 1.f), doctest::Contains("World::raycast: origin"),
                       glide::Error);
}

TEST_CASE("The largest piece at the edge of the range is seen from inside and outside") {
  const float half = 0.5f * limits::k_max_piece_size;
  for (const glm::vec3 centre :
       {glm::vec3(0.f), glm::vec3(limits::k_max_coordinate - half, -(limits::k_max_coordinate - half), 0.f)}) {
    CAPTURE(centre);
    World world;
    world.add_piece(ConvexHull::box(glm::vec3(half)), at(centre));
    // Inside: the overlap sees it.
    const Capsule inside{{centre, centre + glm::vec3(0, 1, 0)}, 0.3f};
    CHECK(world.overlap_capsule(inside, 0.f).size() == 1);
    // Above its top, 10 m away, falling 20 m: contact after 10 m, to within the float step
    // there (1/16 m at 1e6 m) and the sweep's tolerance.
    const glm::vec3 top = centre + glm::vec3(0, half, 0);
    const Capsule above{{top + glm::vec3(0, 10.3f, 0), top + glm::vec3(0, 11.3f, 0)}, 0.3f};
    const auto sweep = world.sweep_capsule(above, {0, -20, 0});
    REQUIRE(sweep.hit);
    CHECK(sweep.fraction * 20.f == doctest::Approx(10.f).epsilon(0.02));
    const auto ray = world.raycast(top + glm::vec3(0, 10, 0), {0, -1, 0}, 20.f);
    REQUIRE(ray.hit);
    CHECK(ray.t == doctest::Approx(10.f).epsilon(0.02));
  }
}
