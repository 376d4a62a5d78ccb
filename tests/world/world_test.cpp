#include "approx.hpp"
#include "world_access.hpp"
#include "world_levels.hpp"

#include <glide/error.hpp>
#include <glide/world/world.hpp>

#include <cmath>
#include <limits>
#include <vector>

using glide::PieceId;
using glide::World;

TEST_CASE("World hands out distinct ids for added pieces") {
  World world;
  const std::vector<glm::vec3> tetra{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const PieceId a = world.add_piece(glide::gjk::ConvexHull(tetra));
  const PieceId b = world.add_piece(glide::gjk::ConvexHull(tetra));
  CHECK(world.piece_count() == 2);
  CHECK_FALSE(a == b);
}

TEST_CASE("World keeps the local hull and places its vertices and bounds in the world") {
  World world;
  glide::gjk::Transform t;
  t.rotation = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 1, 0));
  t.translation = {10, 0, 0};
  const PieceId id = world.add_piece(glide::gjk::ConvexHull::box({2, 1, 0.5f}), t, {.layers = 6u, .user_data = 42});
  CHECK(world.info(id).layers == 6u);
  CHECK(world.info(id).user_data == 42u);
  CHECK_APPROX(world.transform(id).translation, glm::vec3(10, 0, 0), 0);
  // Local hull unchanged; a quarter turn about Y swaps the x and z extents in the world.
  CHECK_APPROX(world.hull(id).support({1, 1, 1}), glm::vec3(2, 1, 0.5f), 0);
  CHECK_APPROX(world.bounds(id).min, glm::vec3(9.5f, -1, -2), 1e-5f);
  CHECK_APPROX(world.bounds(id).max, glm::vec3(10.5f, 1, 2), 1e-5f);
  CHECK(world.world_vertices(id).size() == 8);

  glide::gjk::Transform moved;
  moved.translation = {0, 5, 0};
  world.set_piece_transform(id, moved);
  CHECK_APPROX(world.bounds(id).min, glm::vec3(-2, 4, -0.5f), 1e-6f);
}

TEST_CASE("World removes pieces; stale ids are rejected, never reused") {
  World world;
  const PieceId a = glide::test::add_box(world, {0, 0, 0}, {1, 1, 1});
  const PieceId b = glide::test::add_box(world, {2, 0, 0}, {3, 1, 1});
  world.remove_piece(a);
  CHECK(world.piece_count() == 1);
  CHECK_FALSE(world.contains(a));
  CHECK(world.contains(b));
  CHECK_THROWS_WITH_AS(world.remove_piece(a), doctest::Contains("piece id 0"), glide::Error);
  CHECK_THROWS_AS(world.info(PieceId{77}), glide::Error);
  CHECK_THROWS_AS(world.bounds(PieceId{}), glide::Error);
  const PieceId c = glide::test::add_box(world, {0, 0, 0}, {1, 1, 1});
  CHECK_FALSE(c == a);
  CHECK(world.piece_ids() == std::vector<PieceId>{b, c});
}

TEST_CASE("World rejects non-finite and non-unit placements") {
  World world;
  const auto hull = glide::gjk::ConvexHull::box({1, 1, 1});
  glide::gjk::Transform t;
  t.translation.x = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH_AS(world.add_piece(hull, t), doctest::Contains("translation"), glide::Error);
  t = {};
  t.rotation = glm::quat(2.f, 0.f, 0.f, 0.f);
  CHECK_THROWS_WITH_AS(world.add_piece(hull, t), doctest::Contains("unit quaternion"), glide::Error);
  CHECK(world.piece_count() == 0);
}

TEST_CASE("World rejects an empty (default-constructed) hull and changes nothing") {
  World world;
  const PieceId first = glide::test::add_box(world, {0, 0, 0}, {1, 1, 1});
  const std::uint64_t revision = world.revision();
  CHECK_THROWS_WITH_AS(world.add_piece(glide::gjk::ConvexHull{}), doctest::Contains("hull is empty"), glide::Error);
  CHECK(world.piece_count() == 1);
  CHECK(world.revision() == revision);
  CHECK(world.piece_ids() == std::vector<PieceId>{first});
  // The next piece takes the next id, as though the refused call never happened.
  glide::gjk::ConvexHull later; // held empty, filled in later
  later = glide::gjk::ConvexHull::box({0.5f, 0.5f, 0.5f});
  CHECK(world.add_piece(later, {{1, 0, 0, 0}, {3, 0, 0}}) == PieceId{1});
  CHECK(world.piece_count() == 2);
}

TEST_CASE("World rebuilds its hierarchy lazily after edits") {
  World world;
  glide::test::add_random_pieces(world, 200, 30.f, 3u);
  CHECK(glide::detail::WorldAccess::bvh(world).items().size() == 200);
  world.remove_piece(PieceId{5});
  glide::test::add_box(world, {0, 0, 0}, {1, 1, 1});
  glide::test::add_box(world, {5, 0, 0}, {6, 1, 1});
  CHECK(glide::detail::WorldAccess::bvh(world).items().size() == 201);
  for (std::uint32_t item : glide::detail::WorldAccess::bvh(world).items()) CHECK(item != 5u);
}

TEST_CASE("A moved-from world is empty and still answers queries") {
  World a;
  glide::test::add_box(a, {0, 0, 0}, {1, 1, 1});
  a.set_terrain(glide::Heightfield({.rows = 2, .columns = 2, .heights = {0.f, 0.f, 0.f, 0.f}}));
  const glide::gjk::Capsule c{{{-3, 0.5f, 0.5f}, {-3, 0.5f, 0.5f}}, 0.2f};
  World b = std::move(a);
  CHECK(b.piece_count() == 1);
  CHECK(b.sweep_capsule(c, {5, 0, 0}).hit);
  CHECK(a.piece_count() == 0);
  CHECK(a.terrain() == nullptr);
  CHECK(a.piece_ids().empty());
  CHECK_FALSE(a.sweep_capsule(c, {5, 0, 0}).hit);
  a = std::move(b);
  CHECK(a.piece_count() == 1);
  CHECK(a.sweep_capsule(c, {5, 0, 0}).hit);
}
