// Spaces too tight to clear all round: rings of wall pieces, tessellated tubes, corridors
// narrower than the capsule and its skins. Recovery's push may not carry a character deeper
// into anything than it started, and its floor stays its ground.
#include "controller_scene.hpp"

#include <glide/world/triangle_mesh.hpp>

#include <random>
#include <vector>

using namespace glide;
using namespace glide::test;

namespace {

constexpr float k_dt = 1.f / 60.f;

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

struct Tally {
  int deeper = 0;     // runs that ended deeper in something than they started
  int ungrounded = 0; // frames after the first two off the floor
};

// 120 frames of random walking and standing from `spawn`, counted into `tally`.
void walk_about(const World& world, const glm::vec3& spawn, std::mt19937& rng, Tally& tally) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Controller c(world, {}, spawn);
  const float start = std::min(deepest_gap(world, c), 0.f);
  Player player{c, world};
  for (int frame = 0; frame < 120; ++frame) {
    const glm::vec3 walk(3.f * u(rng), 0.f, 3.f * u(rng));
    const MoveResult r = player.step(frame % 3 == 0 ? glm::vec3(0.f) : walk, k_dt);
    if (frame >= 2 && r.ground.state != GroundState::on_ground) ++tally.ungrounded;
  }
  REQUIRE(std::isfinite(c.position().x));
  if (player.worst_gap < start - k_penetration_tolerance) ++tally.deeper;
}

// 4 mm inside the capsule to 16 mm clear of it (m).
float tight_gap(std::mt19937& rng) { return -0.004f + 0.02f * std::uniform_real_distribution<float>(0.f, 1.f)(rng); }

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
    for (int k = 0; k < walls; ++k) {
      const float angle = 6.2831853f * (static_cast<float>(k) + phase) / static_cast<float>(walls);
      const glm::vec3 center(std::cos(angle) * (inner + 0.01f), 1.f, std::sin(angle) * (inner + 0.01f));
      const float half_width = std::max(0.02f, 0.6f * 6.2831853f * inner / static_cast<float>(walls));
      add_turned_box(world, center, {0.01f, 2.f, half_width}, glm::angleAxis(-angle, glm::vec3(0, 1, 0)));
    }
    walk_about(world, {0.003f * u(rng), on_slope ? 0.02f : 0.01f, 0.003f * u(rng)}, rng, on_slope ? sloped : flat);
  }
  CHECK(flat.deeper == 0);
  CHECK(flat.ungrounded == 0);
  CHECK(sloped.deeper == 0);
  CHECK(sloped.ungrounded == 0);
}

TEST_CASE("in a tessellated tube of 6 to 35 faces, one mesh, a walker sinks no deeper and stays grounded") {
  // The faces of one mesh piece on every side: the push may not lead out of one into another.
  std::mt19937 rng(20261132);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Tally tally;
  for (int run = 0; run < 100; ++run) {
    World world;
    add_floor(world);
    world.add_mesh(tube(6 + run % 30, 0.3f + tight_gap(rng), 2.f));
    walk_about(world, {0.003f * u(rng), 0.01f, 0.003f * u(rng)}, rng, tally);
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
    walk_about(world, {0.003f * u(rng), 0.01f, 0.003f * u(rng)}, rng, tally);
  }
  CHECK(tally.deeper == 0);
  CHECK(tally.ungrounded == 0);
}
