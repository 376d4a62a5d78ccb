// Spaces too tight to clear all round: rings of wall pieces, tessellated tubes, corridors
// narrower than the capsule and its skins. Recovery's push may not carry a character deeper
// into anything than it started, and its floor stays its ground.
#include "controller_scene.hpp"

#include <glide/terrain/heightfield.hpp>
#include <glide/world/triangle_mesh.hpp>

#include <random>
#include <vector>

using namespace glide;
using namespace glide::test;

namespace {

// A tube of `sides` flat faces along y, its faces `apothem` from the axis, facing in.
TriangleMesh tube(int sides, float apothem, float height) {
  const float radius = apothem / std::cos(3.14159265f / static_cast<float>(sides));
  std::vector<glm::vec3> vertices;
  std::vector<TriangleMesh::Indices> triangles;
  for (int k = 0; k < sides; ++k) {
    const float angle = 6.2831853f * static_cast<float>(k) / static_cast<float>(sides);
    vertices.push_back({radius * std::cos(angle), 0.f, radius * std::sin(angle)});
    vertices.push_back({radius * std::cos(angle), height, radius * std::sin(angle)});
  }
  const auto n = static_cast<std::uint32_t>(sides);
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t a = 2 * k, b = a + 1, c = 2 * ((k + 1) % n), d = c + 1;
    triangles.push_back({a, c, b});
    triangles.push_back({b, c, d});
  }
  return TriangleMesh(std::move(vertices), std::move(triangles));
}

// x and z drawn in turn within `scale` of 0, at height y: one draw a statement, as the order
// of a constructor's arguments is the compiler's.
glm::vec3 across(std::mt19937& rng, float scale, float y) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const float x = scale * u(rng);
  const float z = scale * u(rng);
  return {x, y, z};
}

// 4 mm inside the capsule to 16 mm clear of it (m).
float tight_gap(std::mt19937& rng) { return -0.004f + 0.02f * std::uniform_real_distribution<float>(0.f, 1.f)(rng); }

// A ring of `walls` thin wall pieces facing the y axis at `inner` (m), each wider than its share
// of the ring, the first `phase` of a share round, standing from y = `bottom` to `top` (m).
void add_wall_ring(World& world, int walls, float inner, float phase, float bottom, float top) {
  for (int k = 0; k < walls; ++k) {
    const float angle = 6.2831853f * (static_cast<float>(k) + phase) / static_cast<float>(walls);
    const glm::vec3 center(std::cos(angle) * (inner + 0.01f), 0.5f * (bottom + top), std::sin(angle) * (inner + 0.01f));
    const float half_width = std::max(0.02f, 0.6f * 6.2831853f * inner / static_cast<float>(walls));
    add_turned_box(world, center, {0.01f, 0.5f * (top - bottom), half_width},
                   glm::angleAxis(-angle, glm::vec3(0, 1, 0)));
  }
}

// How a walker goes about: frames, walking speed (m/s), every how many frames it stands still,
// and every how many it jumps (0: never).
struct Wander {
  int frames = 0;
  float speed = 0.f;
  int stand_every = 1;
  int jump_every = 0;
};

// What a walk met: its deepest end-of-frame overlap (m) and its frames after the first two off
// the ground.
struct Walked {
  float worst_gap = 0.f;
  int ungrounded = 0;
};

// Walks `c` at random as `how` says, a walk drawn every frame.
Walked wander(Controller& c, const World& world, const Wander& how, std::mt19937& rng) {
  Player player{c, world};
  int ungrounded = 0;
  for (int frame = 0; frame < how.frames; ++frame) {
    const glm::vec3 walk = across(rng, how.speed, 0.f);
    const bool jump = how.jump_every > 0 && frame % how.jump_every == 0;
    const MoveResult r = player.step(frame % how.stand_every == 0 ? glm::vec3(0.f) : walk, k_dt, jump);
    if (frame >= 2 && r.ground.state != GroundState::on_ground) ++ungrounded;
  }
  REQUIRE(std::isfinite(c.position().x));
  REQUIRE(std::isfinite(c.position().y));
  return {player.worst_gap, ungrounded};
}

struct Tally {
  int deeper = 0;     // runs that ended deeper in something than they started
  int ungrounded = 0; // frames after the first two off the floor
};

// 120 frames of random walking and standing from `spawn`, counted into `tally`.
void walk_about(const World& world, const glm::vec3& spawn, std::mt19937& rng, Tally& tally) {
  Controller c(world, {}, spawn);
  const float start = std::min(deepest_gap(world, c), 0.f);
  const Walked walked = wander(c, world, {.frames = 120, .speed = 3.f, .stand_every = 3}, rng);
  tally.ungrounded += walked.ungrounded;
  if (walked.worst_gap < start - k_penetration_tolerance) ++tally.deeper;
}

} // namespace

TEST_CASE("in rings of 3 to 20 wall pieces, flat or on a slope, a walker sinks no deeper and stays grounded") {
  // Each wall a thin box wider than its share of the ring; the slope 5 to 45 degrees.
  std::mt19937 rng(20261131);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Tally flat, sloped;
  for (int ring = 0; ring < 200; ++ring) {
    const bool on_slope = ring % 2 == 1;
    World world;
    if (on_slope)
      add_slope(world, 5.f + 40.f * (0.5f + 0.5f * u(rng)));
    else
      add_floor(world);
    const int walls = 3 + ring % 18;
    const float inner = 0.3f + tight_gap(rng), phase = u(rng);
    add_wall_ring(world, walls, inner, phase, -1.f, 3.f);
    walk_about(world, across(rng, 0.003f, on_slope ? 0.02f : 0.01f), rng, on_slope ? sloped : flat);
  }
  CHECK(flat.deeper == 0);
  CHECK(flat.ungrounded == 0);
  CHECK(sloped.deeper == 0);
  CHECK(sloped.ungrounded == 0);
}

TEST_CASE("in a tessellated tube of 6 to 35 faces, one mesh, a walker sinks no deeper and stays grounded") {
  // The faces of one mesh piece on every side: the push may not lead out of one into another.
  std::mt19937 rng(20261132);
  Tally tally;
  for (int run = 0; run < 100; ++run) {
    World world;
    add_floor(world);
    world.add_mesh(tube(6 + run % 30, 0.3f + tight_gap(rng), 2.f));
    walk_about(world, across(rng, 0.003f, 0.01f), rng, tally);
  }
  CHECK(tally.deeper == 0);
  CHECK(tally.ungrounded == 0);
}

TEST_CASE("in a corridor as wide as the capsule, give or take its skin, a walker sinks into neither wall") {
  std::mt19937 rng(20261133);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Tally tally;
  for (int run = 0; run < 100; ++run) {
    World world;
    add_floor(world);
    const float half = 0.3f + tight_gap(rng);
    const glm::quat turn = glm::angleAxis(3.14159265f * u(rng), glm::vec3(0, 1, 0));
    add_turned_box(world, turn * glm::vec3(0, 1, half + 0.05f), {20.f, 1.f, 0.05f}, turn);
    add_turned_box(world, turn * glm::vec3(0, 1, -half - 0.05f), {20.f, 1.f, 0.05f}, turn);
    walk_about(world, across(rng, 0.003f, 0.01f), rng, tally);
  }
  CHECK(tally.deeper == 0);
  CHECK(tally.ungrounded == 0);
}

namespace {

// Walks from `spawn` for 150 frames, at random, now and then standing or (with `jumps`)
// jumping; counts the run into `deeper` when it ends deeper in anything than it started.
void wander_from(World& world, const glm::vec3& spawn, bool jumps, std::mt19937& rng, int& deeper) {
  world.update();
  Controller c(world, {}, spawn);
  const float start = std::min(deepest_gap(world, c), 0.f);
  const Walked walked =
      wander(c, world, {.frames = 150, .speed = 4.f, .stand_every = 4, .jump_every = jumps ? 37 : 0}, rng);
  if (walked.worst_gap < start - k_penetration_tolerance) ++deeper;
}

} // namespace

TEST_CASE("on narrow stairs, in V wedges and among heaps of turned boxes, a walker sinks into nothing") {
  std::mt19937 rng(20261134);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const auto unit = [&] { return 0.5f + 0.5f * u(rng); };
  int stairs = 0, wedges = 0, heaps = 0;
  for (int run = 0; run < 100; ++run) {
    // Eight steps of 0.1 to 0.35 m between walls as wide as the capsule, give or take its skin.
    World world;
    add_floor(world);
    const float rise = 0.1f + 0.25f * unit(), depth = 0.2f + 0.3f * unit(), half = 0.3f + tight_gap(rng);
    for (int k = 0; k < 8; ++k)
      add_box(world, {0.5f + static_cast<float>(k) * depth, 0.f, -half - 0.1f},
              {20.f, rise * static_cast<float>(k + 1), half + 0.1f});
    add_box(world, {-2.f, 0.f, half}, {20.f, 4.f, half + 0.3f});
    add_box(world, {-2.f, 0.f, -half - 0.3f}, {20.f, 4.f, -half});
    wander_from(world, {0.f, 0.01f, 0.f}, run % 3 == 0, rng, stairs);
  }
  for (int run = 0; run < 100; ++run) {
    // Two slabs tilted 30 to 85 degrees meeting in a V under the character, turned at random.
    World world;
    const float tilt = glm::radians(30.f + 55.f * unit());
    const glm::quat yaw = glm::angleAxis(3.14f * u(rng), glm::vec3(0, 1, 0));
    for (const float side : {-1.f, 1.f})
      add_turned_box(world, yaw * glm::vec3(side * 2.f * std::cos(tilt), 2.f * std::sin(tilt) - std::cos(tilt), 0.f),
                     {2.f, 1.f, 5.f}, yaw * glm::angleAxis(side * tilt, glm::vec3(0, 0, 1)));
    wander_from(world, {0.f, 1.5f, 0.f}, run % 2 == 0, rng, wedges);
  }
  for (int run = 0; run < 100; ++run) {
    // Up to 25 boxes of 0.1 to 0.7 m, turned at random and overlapping each other, round the spawn.
    World world;
    add_floor(world);
    for (int k = 0; k < 25; ++k) {
      glm::vec3 center = across(rng, 1.2f, 0.f), half, axis;
      center.y = 0.1f + 0.8f * unit();
      for (int i = 0; i < 3; ++i) half[i] = 0.05f + 0.3f * unit();
      const float angle = 3.f * u(rng);
      for (int i = 0; i < 3; ++i) axis[i] = u(rng) + (i == 1 ? 1.5f : 0.f);
      axis = glm::normalize(axis);
      if (glm::length(glm::vec2(center.x, center.z)) < 0.45f) continue;
      add_turned_box(world, center, half, glm::angleAxis(angle, axis));
    }
    wander_from(world, {0.f, 0.01f, 0.f}, run % 2 == 0, rng, heaps);
  }
  CHECK(stairs == 0);
  CHECK(wedges == 0);
  CHECK(heaps == 0);
}

TEST_CASE("in jagged terrain, among pits and rings of walls, a walker never sinks in, nor deeper, and rises out") {
  // 17 x 17 heightfields with 0.1 to 2.1 m of noise on 0.2 to 1 m cells (spikes up to about
  // 85 degrees, knife-edge ridges), a third with a pit in the middle, half with a ring of
  // walls: the character is put 0.5 m above the middle sample, often inside a spike. A walk that
  // starts clear may not sweep into the terrain (coming down onto a crest, the plane of its far
  // face once let it through); recovery out of the terrain may not carry it into another spike
  // or a wall, and without walls it is out of the terrain by the end (up, the terrain's way out,
  // when the spikes' pushes add up to one into another).
  std::mt19937 rng(20261135);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const auto unit = [&] { return 0.5f + 0.5f * u(rng); };
  int started_clear = 0, sank = 0, started_inside = 0, deeper = 0, open_inside = 0, left_inside = 0;
  for (int run = 0; run < 300; ++run) {
    HeightfieldDef def;
    def.rows = def.columns = 17;
    const float cell = 0.2f + 0.8f * unit();
    def.cell_size = {cell, cell};
    def.origin = {-8.f * cell, 0.f, -8.f * cell};
    const float rough = 0.1f + 2.f * unit();
    for (int r = 0; r < 17; ++r)
      for (int c = 0; c < 17; ++c) {
        const bool pit = run % 3 == 0 && std::abs(r - 8) <= 1 && std::abs(c - 8) <= 1;
        const float noise = rough * u(rng);
        def.heights.push_back(pit ? -1.5f : noise);
      }
    World world;
    world.set_terrain(Heightfield(std::move(def)));
    const bool walls = run % 2 == 1;
    if (walls) {
      const float inner = 0.3f + 0.02f * u(rng);
      add_wall_ring(world, 3 + run % 9, inner, 0.f, -3.f, 3.f);
    }
    world.update();
    Controller c(world, {}, {0.f, world.terrain()->height_at(0.f, 0.f) + 0.5f, 0.f});
    const float start = deepest_gap(world, c);
    const Walked walked = wander(c, world, {.frames = 200, .speed = 4.f, .stand_every = 4, .jump_every = 41}, rng);
    if (!(start < 0.f)) {
      ++started_clear;
      if (walked.worst_gap < -k_penetration_tolerance) ++sank;
      continue;
    }
    ++started_inside;
    if (walked.worst_gap < start - k_penetration_tolerance) ++deeper;
    if (walls) continue;
    ++open_inside;
    if (deepest_gap(world, c) < -k_penetration_tolerance) ++left_inside;
  }
  CHECK(started_clear > 150);
  CHECK(sank == 0);
  CHECK(started_inside > 60);
  CHECK(deeper == 0);
  CHECK(open_inside > 20);
  CHECK(left_inside == 0);
}

// A character put a few millimetres into a wall that leans over the floor it stands on: the way
// out along the wall's normal points down into the floor, which stopped recovery's push at once,
// so the character stayed in the wall (found 5.5 mm deep in a crowd 5 km out). Out along the
// floor instead, it leaves the wall within a few frames and stays on the floor.
TEST_CASE("a character put into a wall that leans over its floor gets out along the floor") {
  int cases = 0;
  for (const float radius : {0.2f, 0.4f})
    for (const float lean_degrees : {3.f, 12.f, 30.f, 50.f})
      for (const float depth : {0.001f, 0.003f, 0.006f}) {
        CAPTURE(radius);
        CAPTURE(lean_degrees);
        CAPTURE(depth);
        World world;
        add_floor(world);
        ControllerSettings s;
        s.radius = radius;
        s.height = 2.f * radius + 0.5f;
        s.step_height = 0.2f;
        const glm::vec3 feet(0.f, s.skin_width, 0.f);
        const glm::vec3 top = feet + s.up * (s.height - radius); // the top sphere's centre
        // The wall's face leans over the character: its normal points down toward it.
        const float lean = glm::radians(lean_degrees);
        const glm::vec3 normal(std::cos(lean), -std::sin(lean), 0.f);
        const glm::vec3 half(1.f, 3.f, 2.f);
        const glm::vec3 on_face = top - normal * (radius - depth);
        add_turned_box(world, on_face - normal * half.x, half, glm::angleAxis(-lean, glm::vec3(0, 0, 1)));
        Controller c(world, s, feet);
        REQUIRE(deepest_gap(world, c) <= -0.9f * depth);
        for (int frame = 0; frame < 30; ++frame) c.move({0.f, -1.f, 0.f}, 1.f / 60.f);
        CHECK(deepest_gap(world, c) >= -k_penetration_tolerance);
        CHECK(c.ground().state == GroundState::on_ground);
        ++cases;
      }
  CHECK(cases == 24);
}
