// The controller on terrain (hills, a cliff) and on a level loaded from OBJ.
#include "approx.hpp"
#include "controller_scene.hpp"

#include <glide/terrain/heightfield.hpp>
#include <glide/world/obj_level.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace glide;
using namespace glide::test;

namespace {

constexpr float k_cliff_x = 40.f; ///< the ground rises 4 m within the cell after this x (m)

// 64 m x 64 m of rolling hills (slopes up to 24 degrees) with a 4 m cliff at x = 40.
Heightfield hills_and_cliff() {
  const int n = 65;
  std::vector<float> heights;
  for (int row = 0; row < n; ++row)
    for (int column = 0; column < n; ++column) {
      const float x = static_cast<float>(column), z = static_cast<float>(row);
      heights.push_back(1.5f * std::sin(0.3f * x) * std::cos(0.3f * z) + (x > k_cliff_x ? 4.f : 0.f));
    }
  return Heightfield({.rows = n, .columns = n, .heights = heights});
}

} // namespace

TEST_CASE("walking over terrain hills follows the ground without sinking or flicker") {
  World world;
  world.set_terrain(hills_and_cliff());
  Controller c(world, {}, {5.f, 3.f, 5.f});
  Player player{c, world};
  for (int frame = 0; frame < 90; ++frame) player.step({0, 0, 0}, k_dt);
  REQUIRE(c.ground().state == GroundState::on_ground);
  const glm::vec3 walk = glm::normalize(glm::vec3(1, 0, 1)) * 3.f;
  for (int frame = 0; frame < 480; ++frame) {
    const glm::vec3 before = c.position();
    const MoveResult r = player.step(walk, k_dt);
    REQUIRE(r.ground.state == GroundState::on_ground);
    const glm::vec3 moved = c.position() - before;
    REQUIRE(glm::length(glm::vec2(moved.x, moved.z)) >= 0.9f * 3.f * k_dt);
    const float below = world.terrain()->height_at(c.position().x, c.position().z);
    REQUIRE(c.position().y > below - 0.1f); // the rounded bottom may sit a little lower on slopes
    REQUIRE(c.position().y < below + 0.1f);
  }
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}

TEST_CASE("a terrain cliff is a wall, and walking off its top falls and lands") {
  World world;
  world.set_terrain(hills_and_cliff());
  SUBCASE("from below") {
    Controller c(world, {}, {35.f, 3.f, 10.f});
    Player player{c, world};
    float highest = -1e9f;
    for (int frame = 0; frame < 300; ++frame) {
      player.step({3.f, 0, 0}, k_dt);
      highest = std::max(highest, c.position().y - world.terrain()->height_at(c.position().x, c.position().z));
    }
    CHECK(c.position().x < k_cliff_x + 0.5f);
    CHECK(c.position().y < 2.f);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
  SUBCASE("from the top") {
    Controller c(world, {}, {45.f, 7.f, 10.f});
    Player player{c, world};
    for (int frame = 0; frame < 60; ++frame) player.step({0, 0, 0}, k_dt);
    REQUIRE(c.ground().state == GroundState::on_ground);
    bool fell = false;
    for (int frame = 0; frame < 240; ++frame)
      fell = player.step({-3.f, 0, 0}, k_dt).ground.state == GroundState::in_air || fell;
    CHECK(fell);
    CHECK(c.ground().state == GroundState::on_ground);
    CHECK(c.position().x < k_cliff_x - 1.f);
    CHECK(c.position().y < 2.f);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("a level loaded from OBJ: up the ramp, onto its top, and blocked by the crate") {
  World world;
  load_obj_level(world, std::string(GLIDE_LEVELS_DIR) + "/multi_object.obj");
  SUBCASE("the ramp rises 1 m over 2 m, then drops 1 m") {
    Controller c(world, {}, {-8.f, 0.f, 0.f});
    Player player{c, world};
    float top = 0.f;
    for (int frame = 0; frame < 180; ++frame) {
      const MoveResult r = player.step({2.f, 0, 0}, k_dt);
      if (c.position().x < -4.5f) REQUIRE(r.ground.state == GroundState::on_ground); // on the way up
      top = std::max(top, c.position().y);
    }
    CHECK(top > 0.9f);                                 // reached the top edge
    CHECK(c.position().x > -3.5f);                     // walked off it
    CHECK(c.ground().state == GroundState::on_ground); // and landed on the floor
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
  SUBCASE("the 1 m crate is a wall") {
    Controller c(world, {}, {0.f, 0.f, 2.5f});
    Player player{c, world};
    for (int frame = 0; frame < 120; ++frame) player.step({2.f, 0, 0}, k_dt);
    CHECK(c.position().x + c.settings().radius <= 2.f);
    CHECK(c.position().y < 0.02f);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}
