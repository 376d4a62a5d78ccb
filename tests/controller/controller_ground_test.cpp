// Ground: slopes, creases, seams between tiles, ceilings, recovery from overlaps.
#include "approx.hpp"
#include "controller_scene.hpp"

using namespace glide;
using namespace glide::test;

namespace {}

TEST_CASE("standing idle on a 30 degree slope drifts less than 1e-6 m in 5 s") {
  World world;
  add_slope(world, 30.f);
  Controller c(world, {}, {0, 0.1f, 0});
  Player player{c, world};
  for (int frame = 0; frame < 60; ++frame) player.step({0, 0, 0}, k_dt);
  REQUIRE(c.ground().state == GroundState::on_ground);
  const glm::vec3 rest = c.position();
  for (int frame = 0; frame < 300; ++frame) {
    const MoveResult r = player.step({0, 0, 0}, k_dt);
    REQUIRE(r.ground.state == GroundState::on_ground);
  }
  CHECK(glm::length(c.position() - rest) < 1e-6f);
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}

TEST_CASE("pushing into a 60 degree slope gains no height and does not jitter") {
  World world;
  add_floor(world);
  add_slope(world, 60.f);
  Controller c(world, {}, {-1.f, 0, 0});
  Player player{c, world};
  float highest = 0.f;
  for (int frame = 0; frame < 180; ++frame) {
    player.step({3.f, 0, 0}, k_dt);
    highest = std::max(highest, c.position().y);
  }
  const glm::vec3 settled = c.position();
  float wander = 0.f;
  for (int frame = 0; frame < 60; ++frame) {
    player.step({3.f, 0, 0}, k_dt);
    highest = std::max(highest, c.position().y);
    wander = std::max(wander, glm::length(c.position() - settled));
  }
  // Spawned touching the floor, the feet rest one skin above it; no more.
  CHECK(highest < c.settings().skin_width + 1e-3f);
  CHECK(wander < 1e-4f);
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}

TEST_CASE("a V between two 70 degree slopes neither traps nor swallows the character") {
  World world;
  add_slope(world, 70.f);
  add_slope(world, -70.f);
  Controller c(world, {}, {0, 2.f, 0});
  Player player{c, world};
  for (int frame = 0; frame < 120; ++frame) player.step({0, 0, 0}, k_dt);
  CHECK(c.position().y > 0.f); // resting on both flanks, above the crease
  const float z0 = c.position().z;
  for (int frame = 0; frame < 60; ++frame) player.step({0, 0, 2.f}, k_dt);
  CHECK(c.position().z - z0 > 0.9f * 2.f); // walks out along the valley
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}

TEST_CASE("a floor of box tiles, coplanar or with 1 mm steps, is crossed diagonally without snag or flicker") {
  for (const float step : {0.f, 0.001f}) {
    CAPTURE(step);
    World world;
    const float tile = 0.5f;
    for (int i = -4; i < 40; ++i)
      for (int k = -4; k < 40; ++k) {
        const float top = ((i + k) % 2 == 0) ? 0.f : step;
        add_box(world, {i * tile, -0.5f, k * tile}, {(i + 1) * tile, top, (k + 1) * tile});
      }
    Controller c(world, {}, {0.1f, 0.02f, 0.1f});
    Player player{c, world};
    for (int frame = 0; frame < 30; ++frame) player.step({0, 0, 0}, k_dt);
    REQUIRE(c.ground().state == GroundState::on_ground);
    const glm::vec3 walk = glm::normalize(glm::vec3(1, 0, 0.8f)) * 5.f;
    for (int frame = 0; frame < 180; ++frame) {
      const glm::vec3 before = c.position();
      const MoveResult r = player.step(walk, k_dt);
      const glm::vec3 moved = c.position() - before;
      REQUIRE(glm::length(glm::vec2(moved.x, moved.z)) >= 0.9f * 5.f * k_dt);
      REQUIRE(r.ground.state == GroundState::on_ground);
    }
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("jumping under a sloped ceiling does not stick to it") {
  World world;
  add_floor(world);
  const glm::quat tilt = glm::angleAxis(glm::radians(30.f), glm::vec3(0, 0, 1));
  add_turned_box(world, {0, 3.f, 0}, {5.f, 0.5f, 5.f}, tilt); // underside about 2.4 m up at x = 0
  Controller c(world, {}, {0, 0, 0});
  Player player{c, world};
  for (int frame = 0; frame < 10; ++frame) player.step({0, 0, 0}, k_dt);
  player.player.set_settings({.jump_speed = 6.f});
  bool touched = false;
  int frame = 0;
  for (; frame < 120; ++frame) {
    const MoveResult r = player.step({0, 0, 0}, k_dt, frame == 0);
    touched = touched || r.flags.above;
    if (frame > 5 && r.ground.state == GroundState::on_ground) break;
  }
  CHECK(touched);
  CHECK(frame < 90); // back on the floor within 1.5 s
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}

TEST_CASE("starting 0.2 m inside a box resolves within 10 frames, never faster than 2 m/s") {
  World world;
  add_floor(world);
  add_box(world, {0.f, 0.f, -2.f}, {2.f, 2.f, 2.f});
  Controller c(world, {}, {-0.1f, 0.f, 0.f}); // capsule reaches 0.2 m into the box
  REQUIRE(deepest_gap(world, c) < -0.19f);
  Player player{c, world};
  for (int frame = 0; frame < 10; ++frame) {
    const MoveResult r = player.step({0, 0, 0}, k_dt);
    REQUIRE(glm::length(r.displacement) <= 2.f * k_dt + 1e-5f);
  }
  CHECK(deepest_gap(world, c) >= -k_penetration_tolerance);
}

TEST_CASE("recovery and rest end at the skin distance whatever the frame rate (0.1 mm)") {
  const float skin = ControllerSettings{}.skin_width;
  for (const float hz : {30.f, 60.f, 144.f, 360.f}) {
    CAPTURE(hz);
    const float dt = 1.f / hz;
    SUBCASE("spawned 0.2 m into a box beside the floor: out of both, to the skin") {
      World world;
      add_floor(world);
      add_box(world, {0.f, 0.f, -2.f}, {2.f, 2.f, 2.f});
      Controller c(world, {}, {-0.1f, 0.f, 0.f});
      Player player(c, world);
      for (int frame = 0; frame < static_cast<int>(hz); ++frame) player.step({0, 0, 0}, dt);
      CHECK(c.position().y == doctest::Approx(skin).epsilon(0.01));                        // 0.1 mm
      CHECK(-c.position().x - c.settings().radius == doctest::Approx(skin).epsilon(0.01)); // from the box
    }
    SUBCASE("resting on the floor after spawning touching it, 3 mm above it, or falling 0.5 m") {
      for (const float start : {0.f, 0.003f, 0.5f}) {
        CAPTURE(start);
        World world;
        add_floor(world);
        Controller c(world, {}, {0.f, start, 0.f});
        Player player(c, world);
        for (int frame = 0; frame < static_cast<int>(2.f * hz); ++frame) player.step({0, 0, 0}, dt);
        CHECK(c.ground().state == GroundState::on_ground);
        CHECK(std::abs(c.position().y - skin) <= 1e-4f);
      }
    }
  }
}

TEST_CASE("a character put into the terrain rises straight out of it, through it or buried under it") {
  // Terrain is solid below its surface: the way out is up, never sideways along the ground or
  // down through it. A flat and a 20 degree heightfield of 0.5 m cells; the small character
  // that once sank through the flat one, and the default one.
  for (const float slope : {0.f, 0.364f}) {
    HeightfieldDef def;
    def.rows = def.columns = 33;
    def.cell_size = {0.5f, 0.5f};
    def.origin = {-8.f, 0.f, -8.f};
    for (int r = 0; r < def.rows; ++r)
      for (int c = 0; c < def.columns; ++c) def.heights.push_back(slope * (-8.f + 0.5f * static_cast<float>(c)));
    World world;
    world.set_terrain(Heightfield(std::move(def)));
    for (const float radius : {0.17f, 0.3f}) {
      // Feet through the surface (the segment's end under it too), just under, and buried.
      for (const float below : {0.18f, 0.35f, 1.f, 2.5f}) {
        CAPTURE(slope);
        CAPTURE(radius);
        CAPTURE(below);
        ControllerSettings s;
        s.radius = radius;
        s.skin_width = radius < 0.2f ? 0.004f : s.skin_width;
        s.max_slope = glm::radians(40.f);
        const glm::vec3 spot{0.37f, 0.f, -0.21f};
        Controller c(world, s, spot + glm::vec3(0.f, slope * spot.x - below, 0.f));
        Player player(c, world);
        float lowest = c.position().y;
        for (int frame = 0; frame < 180; ++frame) {
          player.step({0, 0, 0}, k_dt);
          lowest = std::min(lowest, c.position().y);
        }
        const float surface = slope * c.position().x;
        const float cos_slope = std::cos(std::atan(slope));
        // Never deeper than where it was put, out on top at the skin (a sphere resting on the
        // slope has its lowest point (radius + skin) / cos - radius above the surface), and
        // moved along the surface's normal only: up and down the slope's x by tan of the rise,
        // and within the skin of its spot otherwise (what touches it within the skin beside
        // it pushes it that far at most).
        CHECK(lowest >= slope * spot.x - below - 1e-4f);
        CHECK(deepest_gap(world, c) >= -k_penetration_tolerance);
        CHECK(c.position().y - surface == doctest::Approx((radius + s.skin_width) / cos_slope - radius).epsilon(0.02));
        const float rise = c.position().y - (slope * spot.x - below);
        CHECK(std::abs(c.position().z - spot.z) < s.skin_width);
        CHECK(std::abs(c.position().x - (spot.x - slope * rise)) < s.skin_width);
      }
    }
  }
}

TEST_CASE("a character in a tube of sixteen wall pieces closer than its skin keeps its ground and enters none") {
  // The tube's walls stand 5 mm from the capsule all round, nearer than the floor a skin below.
  // Recovery cannot push out of all of them: its push, summed over them, must not carry the
  // character into one. Every wall is a contact of the ground probe before the floor, which
  // must still be found.
  World world;
  add_floor(world);
  constexpr int k_walls = 16;
  constexpr float k_inner = 0.3f + 0.005f; // the tube's inner radius (m)
  for (int k = 0; k < k_walls; ++k) {
    const float angle = 6.2831853f * static_cast<float>(k) / k_walls;
    const glm::quat turn = glm::angleAxis(-angle, glm::vec3(0, 1, 0));
    const glm::vec3 center(std::cos(angle) * (k_inner + 0.01f), 1.f, std::sin(angle) * (k_inner + 0.01f));
    add_turned_box(world, center, {0.01f, 1.f, 0.5f * 6.2831853f * k_inner / k_walls}, turn);
  }
  Controller c(world, {}, {0, 0.01f, 0});
  Player player{c, world};
  for (int frame = 0; frame < 60; ++frame) {
    const MoveResult r = player.step({0, 0, 0}, k_dt);
    CHECK(r.ground.state == GroundState::on_ground);
  }
  CHECK(c.position().y == doctest::Approx(0.01f).epsilon(0.2));
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}
