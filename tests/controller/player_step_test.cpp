// glide::PlayerStep: gravity and jumps around Controller::move, against the closed forms of
// its discrete integration.
#include "controller_scene.hpp"

#include <glide/error.hpp>

#include <cmath>
#include <limits>
#include <vector>

using namespace glide;
using namespace glide::test;

namespace {} // namespace

TEST_CASE("player step: a fall from rest follows v_k = -g dt k, y_n = y0 - g dt^2 n (n + 1) / 2") {
  World world;
  add_floor(world);
  Controller c(world, {}, {0.f, 10.f, 0.f});
  PlayerStep step({.gravity = 9.81f});
  for (int n = 1; n <= 60; ++n) {
    const MoveResult r = step.step(c, {}, k_dt);
    const float expected = 10.f - 9.81f * k_dt * k_dt * static_cast<float>(n * (n + 1)) * 0.5f;
    REQUIRE(r.ground.state == GroundState::in_air);
    CHECK(r.position.y == doctest::Approx(expected).epsilon(1e-5));
    CHECK(step.vertical_speed() == doctest::Approx(-9.81f * k_dt * static_cast<float>(n)).epsilon(1e-5));
  }
}

TEST_CASE("player step: landing stops the fall, standing keeps the vertical speed at -g dt") {
  World world;
  add_floor(world);
  Controller c(world, {}, {0.f, 1.f, 0.f});
  PlayerStep step;
  for (int n = 0; n < 120; ++n) step.step(c, {}, k_dt);
  CHECK(c.ground().state == GroundState::on_ground);
  CHECK(std::abs(c.position().y) < 0.02f);
  // On the ground the speed resets to 0 and gravity takes one frame's worth, which the floor
  // takes back: the fed-back speed is that frame's press, never an accumulated fall.
  CHECK(step.vertical_speed() <= 0.f);
  CHECK(step.vertical_speed() >= -9.81f * k_dt - 1e-4f);
}

TEST_CASE("player step: a jump takes off only from walkable ground and rises to about v^2 / 2g") {
  World world;
  add_floor(world);
  Controller c(world, {}, {0.f, 0.f, 0.f});
  const float v = 5.f, g = 10.f;
  PlayerStep step({.gravity = g, .jump_speed = v});
  for (int n = 0; n < 30; ++n) step.step(c, {}, k_dt);
  REQUIRE(c.ground().state == GroundState::on_ground);
  const float floor_y = c.position().y;
  step.step(c, {.jump = true}, k_dt);
  CHECK(step.jumped());
  float apex = c.position().y;
  for (int n = 0; n < 120; ++n) {
    const bool airborne = c.ground().state == GroundState::in_air;
    const MoveResult r = step.step(c, {.jump = airborne}, k_dt); // asked in the air: no take-off
    CHECK_FALSE(step.jumped());
    apex = std::max(apex, r.position.y);
  }
  // Semi-implicit Euler with gravity on the take-off frame: the apex is the sum of the
  // positive speeds (v - g dt k) dt for k = 1, 2, ...
  float analytic = 0.f;
  for (int k = 1; v - g * k_dt * static_cast<float>(k) > 0.f; ++k)
    analytic += (v - g * k_dt * static_cast<float>(k)) * k_dt;
  CHECK(apex - floor_y == doctest::Approx(analytic).epsilon(0.01));
  CHECK(std::abs(analytic - v * v / (2.f * g)) < v * k_dt); // the closed form, within one frame's rise
}

TEST_CASE("player step: a ceiling stops the rise at once") {
  World world;
  add_floor(world);
  add_box(world, {-5.f, 2.5f, -5.f}, {5.f, 3.f, 5.f}); // 0.7 m above the head
  Controller c(world, {}, {0.f, 0.f, 0.f});
  PlayerStep step({.gravity = 9.81f, .jump_speed = 8.f});
  for (int n = 0; n < 10; ++n) step.step(c, {}, k_dt);
  step.step(c, {.jump = true}, k_dt);
  bool touched = false;
  for (int n = 0; n < 30 && !touched; ++n) touched = step.step(c, {}, k_dt).flags.above;
  REQUIRE(touched);
  CHECK(step.vertical_speed() <= 1e-3f); // the ceiling took the upward speed
}

TEST_CASE("player step: walking up a 20 degree slope and over its top never hops") {
  World world;
  add_floor(world);
  const float top = 3.f * std::tan(glm::radians(20.f));
  const glm::vec3 start{-5.f, 0.f, 0.f};
  SUBCASE("a ridge: down the far side at 20 degrees, held by the floor snap") {
    world.add_piece(gjk::ConvexHull(std::vector<glm::vec3>{
        {-3.f, 0.f, -5.f}, {-3.f, 0.f, 5.f}, {3.f, 0.f, -5.f}, {3.f, 0.f, 5.f}, {0.f, top, -5.f}, {0.f, top, 5.f}}));
  }
  SUBCASE("a ramp ending in a cliff: off its top edge it drops") {
    world.add_piece(gjk::ConvexHull::wedge({1.5f, 0.5f * top, 5.f}), {{1, 0, 0, 0}, {-1.5f, 0.5f * top, 0.f}});
  }
  Controller c(world, {}, start);
  PlayerStep step;
  float highest = 0.f;
  for (int n = 0; n < 180; ++n)
    highest = std::max(highest, step.step(c, {.velocity = {4.f, 0.f, 0.f}}, k_dt).position.y);
  CHECK(c.position().x > 5.f);
  CHECK(c.ground().state == GroundState::on_ground);
  // Kept, the slope's rise (4 m/s * tan 20 = 1.46 m/s) would hop the feet about 0.1 m over it.
  CHECK(highest < top + 0.02f);
}

TEST_CASE("player step: launch() lifts off even from the ground; a bad dt changes nothing") {
  World world;
  add_floor(world);
  Controller c(world, {}, {0.f, 0.f, 0.f});
  PlayerStep step;
  for (int n = 0; n < 10; ++n) step.step(c, {}, k_dt);
  step.launch(3.f);
  const MoveResult r = step.step(c, {}, k_dt);
  CHECK(r.position.y > 0.03f);
  CHECK(step.vertical_speed() == doctest::Approx(3.f - 9.81f * k_dt).epsilon(1e-5));

  const float before = step.vertical_speed();
  CHECK_THROWS_AS(step.step(c, {}, std::numeric_limits<float>::quiet_NaN()), Error);
  CHECK_THROWS_AS(step.step(c, {}, -1.f), Error);
  CHECK(step.vertical_speed() == before);
  CHECK_THROWS_AS(step.launch(std::numeric_limits<float>::infinity()), Error);
  CHECK_THROWS_AS(PlayerStep({.gravity = -1.f}), Error);
  CHECK_THROWS_AS(PlayerStep({.jump_speed = std::numeric_limits<float>::quiet_NaN()}), Error);
}

TEST_CASE("player step: a jump under a ceiling, flat or sloped up to 60 degrees, stops rising within 2 frames") {
  for (const float degrees : {0.f, 15.f, 30.f, 45.f, 60.f}) {
    CAPTURE(degrees);
    World world;
    add_floor(world);
    // A slab whose underside crosses x = 0 at 2.4 m, rising toward +x at `degrees`.
    const glm::quat tilt = glm::angleAxis(glm::radians(degrees), glm::vec3(0, 0, 1));
    world.add_piece(gjk::ConvexHull::box({6.f, 0.5f, 6.f}),
                    {.rotation = tilt, .translation = glm::vec3(0.f, 2.4f, 0.f) + tilt * glm::vec3(0.f, 0.5f, 0.f)});
    Controller c(world, {}, {0.f, 0.f, 0.f});
    PlayerStep step({.gravity = 9.81f, .jump_speed = 6.f});
    for (int n = 0; n < 10; ++n) step.step(c, {}, k_dt);
    REQUIRE(c.ground().state == GroundState::on_ground);
    step.step(c, {.jump = true}, k_dt);
    int contact = -1;
    float worst_gap = 1e9f;
    for (int n = 0; n < 60; ++n) {
      const MoveResult r = step.step(c, {}, k_dt);
      if (contact < 0 && r.flags.above) contact = n;
      if (contact >= 0 && n >= contact + 1) CHECK(step.vertical_speed() <= 0.f);
      for (const Contact& k : world.overlap_capsule(c.capsule(), 0.f)) worst_gap = std::min(worst_gap, k.distance);
    }
    CHECK(contact >= 0);
    CHECK(worst_gap >= -2e-4f);
  }
}
