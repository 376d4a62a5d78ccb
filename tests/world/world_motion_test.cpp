// Kinematic pieces: World::move_piece's velocities and carry against closed forms.
#include "world_levels.hpp"

#include <doctest/doctest.h>
#include <glide/error.hpp>
#include <glide/world/world.hpp>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <limits>

using namespace glide;

namespace {

void check_near(const glm::vec3& a, const glm::vec3& b, float tolerance) { CHECK(glm::length(a - b) <= tolerance); }

} // namespace

TEST_CASE("move_piece: a translation gives its velocity, and the carry moves points with it") {
  World world;
  const PieceId id = world.add_piece(gjk::ConvexHull::box({1.f, 0.1f, 1.f}), {.translation = {0.f, 1.f, 0.f}});
  CHECK(world.motion(id).dt == 0.f);
  CHECK(world.point_velocity(id, {0.5f, 1.1f, 0.f}) == glm::vec3(0.f));

  world.move_piece(id, {.translation = {0.3f, 1.6f, 0.f}}, 0.1f);
  const PieceMotion& m = world.motion(id);
  check_near(m.linear, {3.f, 6.f, 0.f}, 1e-5f);
  CHECK(m.angular == glm::vec3(0.f));
  check_near(m.carry({0.5f, 1.1f, 0.2f}), {0.8f, 1.7f, 0.2f}, 1e-6f);
  check_near(world.point_velocity(id, {7.f, 3.f, -2.f}), {3.f, 6.f, 0.f}, 1e-5f);
  // The world's shape moved too: the piece's bounds are the box at its new place.
  check_near(world.bounds(id).min, {-0.7f, 1.5f, -1.f}, 1e-6f);
}

TEST_CASE("move_piece: a quarter turn about y in 0.5 s is pi rad/s; v = w x r; the carry turns points") {
  World world;
  const glm::vec3 center{2.f, 0.f, 0.f};
  const PieceId id = world.add_piece(gjk::ConvexHull::box({3.f, 0.1f, 3.f}), {.translation = center});
  const glm::quat quarter = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0.f, 1.f, 0.f));
  world.move_piece(id, {.rotation = quarter, .translation = center}, 0.5f);
  const PieceMotion& m = world.motion(id);
  check_near(m.angular, {0.f, glm::pi<float>(), 0.f}, 1e-5f);
  CHECK(glm::length(m.linear) < 1e-6f);
  // A point 1 m along +x from the axis moves along -z at pi m/s and is carried to (0, 0, -1).
  check_near(world.point_velocity(id, center + glm::vec3(1.f, 0.2f, 0.f)), {0.f, 0.f, -glm::pi<float>()}, 1e-5f);
  check_near(m.carry(center + glm::vec3(1.f, 0.2f, 0.f)), center + glm::vec3(0.f, 0.2f, -1.f), 1e-6f);

  SUBCASE("the shorter way round: a turn past half a turn reads as the smaller opposite one") {
    const glm::quat three_quarters = glm::angleAxis(1.5f * glm::pi<float>(), glm::vec3(0.f, 1.f, 0.f));
    world.move_piece(id, {.rotation = three_quarters * quarter, .translation = center}, 1.f);
    check_near(world.motion(id).angular, {0.f, -glm::half_pi<float>(), 0.f}, 1e-4f);
  }
}

TEST_CASE("set_piece_transform is a teleport: a still motion with a new serial") {
  World world;
  const PieceId id = world.add_piece(gjk::ConvexHull::box({1.f, 1.f, 1.f}));
  world.move_piece(id, {.translation = {1.f, 0.f, 0.f}}, 1.f);
  const std::uint64_t moved = world.motion(id).serial;
  world.set_piece_transform(id, {.translation = {5.f, 0.f, 0.f}});
  const PieceMotion& m = world.motion(id);
  CHECK(m.serial != moved);
  CHECK(m.linear == glm::vec3(0.f));
  CHECK(m.angular == glm::vec3(0.f));
  check_near(m.carry({5.f, 1.f, 0.f}), {5.f, 1.f, 0.f}, 0.f);
}

TEST_CASE("move_piece rejects a bad id, pose or dt and changes nothing") {
  World world;
  const PieceId id = world.add_piece(gjk::ConvexHull::box({1.f, 1.f, 1.f}));
  const std::uint64_t revision = world.revision();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(world.move_piece(id, {.translation = {1.f, 0.f, 0.f}}, 0.f), Error);
  CHECK_THROWS_AS(world.move_piece(id, {.translation = {1.f, 0.f, 0.f}}, nan), Error);
  CHECK_THROWS_AS(world.move_piece(id, {.translation = {nan, 0.f, 0.f}}, 0.1f), Error);
  CHECK_THROWS_AS(world.move_piece(id, {.rotation = {2.f, 0.f, 0.f, 0.f}}, 0.1f), Error);
  CHECK_THROWS_AS(world.move_piece(PieceId{7}, {}, 0.1f), Error);
  CHECK_THROWS_AS(world.motion(PieceId{7}), Error);
  CHECK(world.revision() == revision);
  CHECK(world.transform(id).translation == glm::vec3(0.f));
}
