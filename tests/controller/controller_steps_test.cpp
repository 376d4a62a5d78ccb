// Stairs and floor snapping: the same outcome at every frame rate.
#include "approx.hpp"
#include "controller_scene.hpp"

#include <random>

using namespace glide;
using namespace glide::test;

namespace {

/// Ten steps of `rise` and 0.3 m tread starting at x = 1, then a landing.
void add_stairs(World& world, float rise) {
  for (int i = 0; i < 10; ++i) add_box(world, {1.f + 0.3f * i, 0.f, -2.f}, {12.f, rise * (i + 1), 2.f});
}

glm::vec3 climb(float rate, float radius, float rise) {
  World world;
  add_floor(world);
  add_stairs(world, rise);
  Controller c(world, {.radius = radius}, {0, 0, 0});
  Player player{c, world};
  const int frames = static_cast<int>(4.f * rate);
  for (int frame = 0; frame < frames; ++frame) player.step({1.5f, 0, 0}, 1.f / rate);
  CHECK(player.worst_gap >= -k_penetration_tolerance);
  CHECK(c.ground().state == GroundState::on_ground);
  return c.position();
}

} // namespace

TEST_CASE("ten stairs of 0.25 m are climbed alike at 30 to 360 Hz") {
  for (const float radius : {0.3f, 0.2f}) { // edge rolled over, and riser stepped up
    CAPTURE(radius);
    const glm::vec3 reference = climb(60.f, radius, 0.25f);
    CHECK(reference.y == doctest::Approx(2.5f).epsilon(0.005));
    for (const float rate : {30.f, 120.f, 240.f, 360.f}) {
      CAPTURE(rate);
      const glm::vec3 end = climb(rate, radius, 0.25f);
      CHECK(end.y == doctest::Approx(reference.y).epsilon(0.002));
      CHECK(std::abs(end.x - reference.x) < 0.01f);
    }
  }
}

TEST_CASE("a step higher than step_height is a wall") {
  World world;
  add_floor(world);
  add_box(world, {1.f, 0.f, -2.f}, {3.f, 0.5f, 2.f});
  Controller c(world, {}, {0, 0, 0});
  Player player{c, world};
  for (int frame = 0; frame < 120; ++frame) player.step({1.5f, 0, 0}, 1.f / 60.f);
  CHECK(c.position().y < c.settings().skin_width + 1e-3f); // resting one skin above the floor
  CHECK(c.position().x + c.settings().radius <= 1.f);
}

TEST_CASE("walking down stairs stays grounded through floor snapping") {
  World world;
  add_floor(world);
  for (int i = 0; i < 6; ++i) add_box(world, {-12.f, 0.f, -2.f}, {0.3f * (i + 1), 0.2f * (6 - i), 2.f});
  Controller c(world, {}, {-5.f, 1.2f, 0});
  Player player{c, world};
  for (int frame = 0; frame < 20; ++frame) player.step({0, 0, 0}, 1.f / 60.f);
  REQUIRE(c.ground().state == GroundState::on_ground);
  int airborne = 0;
  for (int frame = 0; frame < 240; ++frame)
    if (player.step({2.f, 0, 0}, 1.f / 60.f).ground.state != GroundState::on_ground) ++airborne;
  CHECK(airborne == 0);
  CHECK(c.position().y >= 0.f);
  CHECK(c.position().y <= c.settings().skin_width + 1e-3f);
  CHECK(c.position().x > 2.f);
}

TEST_CASE("walking diagonally into the low side of a ramp steps onto it or slides along, never sticks") {
  // Wedges 3 m wide rising to 1.5 m at 20 to 60 degrees; starts beside the part of a side
  // face lower than the step height, headings up to 80 degrees off the face's normal.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  int stuck = 0, climbed = 0;
  for (float degrees : {20.f, 40.f, 50.f, 60.f}) {
    World world;
    add_floor(world);
    const float height = 1.5f, run = height / std::tan(glm::radians(degrees)), width = 3.f;
    const glm::vec3 half{0.5f * run, 0.5f * height, 0.5f * width}; // the ramp spans [0, 2 * half]
    world.add_piece(gjk::ConvexHull::wedge(half), {{1, 0, 0, 0}, half});
    for (int attempt = 0; attempt < 40; ++attempt) {
      const bool near_side = attempt % 2 == 0;
      const float angle = (2.f * u(rng) - 1.f) * glm::radians(80.f);
      const glm::vec3 dir{std::sin(angle), 0.f, near_side ? std::cos(angle) : -std::cos(angle)};
      Controller c(world, {}, {0.4f * run * u(rng), 0.f, near_side ? -0.6f : width + 0.6f});
      Player player{c, world};
      for (int frame = 0; frame < 60; ++frame) {
        const glm::vec3 before = c.position();
        const MoveResult r = player.step(3.f * dir, 1.f / 60.f);
        glm::vec3 moved = c.position() - before;
        moved.y = 0.f;
        // Head-on into a vertical edge, a frictionless capsule rightly stops.
        bool head_on = false;
        for (int i = 0; i < r.hit_count; ++i) {
          glm::vec3 n = r.hits[static_cast<std::size_t>(i)].normal;
          n.y = 0.f;
          head_on = head_on || (glm::length(n) > 0.1f && glm::dot(glm::normalize(n), dir) < -0.97f);
        }
        stuck += glm::length(moved) < 0.1f * 3.f / 60.f && !head_on;
      }
      climbed += c.position().y > 0.05f;
      CHECK(player.worst_gap >= -k_penetration_tolerance);
    }
  }
  CHECK(stuck == 0);
  CHECK(climbed > 10); // the walkable ramps are stepped onto, not only slid along
}
