// Walls, corners and gaps: the slide keeps tangential speed, never passes geometry, never jitters.
#include "approx.hpp"
#include "controller_scene.hpp"

#include <glm/gtc/constants.hpp>

using namespace glide;
using namespace glide::test;

TEST_CASE("walking into a wall at 0, 30, 60 and 89 degrees keeps exactly the tangential speed") {
  for (const float degrees : {0.f, 30.f, 60.f, 89.f}) {
    CAPTURE(degrees);
    World world;
    add_floor(world);
    add_box(world, {2.f, 0.f, -20.f}, {3.f, 3.f, 20.f}); // wall face at x = 2
    Controller c(world, {}, {1.65f, 0, 0});              // 5 cm from the wall
    Player player{c, world};
    const float speed = 3.f, dt = 1.f / 60.f;
    const float a = glm::radians(degrees);
    const glm::vec3 walk{speed * std::cos(a), 0, speed * std::sin(a)};
    MoveResult r;
    for (int frame = 0; frame < 120; ++frame) {
      r = player.step(walk, dt);
      REQUIRE(c.position().x + c.settings().radius <= 2.f + 1e-5f);
    }
    // Pressed against the wall: no normal motion, the tangential part untouched.
    CHECK(c.position().x + c.settings().radius == doctest::Approx(2.f - c.settings().skin_width).epsilon(2e-3));
    CHECK_APPROX(r.velocity, glm::vec3(0, 0, speed * std::sin(a)), 1e-3f);
    CHECK(r.flags.sides);
    CHECK(r.ground.state == GroundState::on_ground);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("corners of 90 and 60 degrees settle without jitter") {
  for (const float degrees : {90.f, 60.f}) {
    CAPTURE(degrees);
    World world;
    add_floor(world);
    // Two walls meeting at (5, 0, 0), opening `degrees` toward the character at the origin.
    const float half = glm::radians(degrees) * 0.5f;
    for (const float side : {-1.f, 1.f}) {
      const glm::quat turn = glm::angleAxis(-side * (glm::half_pi<float>() - half), glm::vec3(0, 1, 0));
      add_turned_box(world, turn * glm::vec3(0.5f, 1.5f, side * 5.f) + glm::vec3(5, 0, 0), {0.5f, 1.5f, 5.f}, turn);
    }
    Controller c(world, {}, {0, 0, 0});
    Player player{c, world};
    const float dt = 1.f / 60.f;
    for (int frame = 0; frame < 180; ++frame) player.step({4.f, 0, 0.3f}, dt);
    const glm::vec3 settled = c.position();
    float wander = 0.f;
    for (int frame = 0; frame < 60; ++frame) {
      player.step({4.f, 0, 0.3f}, dt);
      wander = std::max(wander, glm::length(c.position() - settled));
    }
    CHECK(wander < 1e-4f);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("a gap narrower than the capsule blocks without jitter, a wider one lets it through") {
  for (const float gap : {0.5f, 0.7f}) {
    CAPTURE(gap);
    World world;
    add_floor(world);
    add_box(world, {5.f, 0.f, -10.f}, {5.5f, 3.f, -0.5f * gap});
    add_box(world, {5.f, 0.f, 0.5f * gap}, {5.5f, 3.f, 10.f});
    Controller c(world, {}, {0, 0, 0});
    Player player{c, world};
    const float dt = 1.f / 60.f;
    glm::vec3 last = c.position();
    float late_wander = 0.f;
    for (int frame = 0; frame < 300; ++frame) {
      player.step({2.f, 0, 0}, dt);
      if (frame >= 240) late_wander = std::max(late_wander, glm::length(c.position() - last));
      last = c.position();
    }
    const bool through = c.position().x > 6.f;
    CHECK(through == (gap > 2.f * c.settings().radius));
    if (!through) CHECK(late_wander < 1e-4f);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("100 m/s toward a 5 cm wall never passes it, at any frame rate") {
  for (const float rate : {30.f, 60.f, 240.f}) {
    CAPTURE(rate);
    World world;
    add_floor(world);
    add_box(world, {10.f, 0.f, -5.f}, {10.05f, 3.f, 5.f});
    Controller c(world, {}, {0, 0, 0});
    Player player{c, world};
    for (int frame = 0; frame < static_cast<int>(rate); ++frame) {
      player.step({100.f, 0, 0}, 1.f / rate);
      REQUIRE(c.position().x < 10.f);
    }
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("walking diagonally into a wall along its length neither steps up nor speeds up") {
  World world;
  add_floor(world);
  add_box(world, {2.f, 0.f, -50.f}, {3.f, 3.f, 50.f});
  Controller c(world, {}, {1.5f, 0, 0}); // near the wall
  Player player{c, world};
  const float dt = 1.f / 60.f;
  const glm::vec3 walk{0.6f, 0, 3.f}; // about 11 degrees into the wall
  for (int frame = 0; frame < 120; ++frame) {
    const MoveResult r = player.step(walk, dt);
    REQUIRE(std::abs(c.position().y - c.settings().skin_width) < 1e-3f); // resting one skin above the floor
    REQUIRE(glm::length(r.velocity) <= glm::length(walk) + 1e-3f);
  }
}
