// The controller on triangle-mesh pieces: the edges between a surface's triangles must not
// snag, stop or shake a character (World::add_mesh, active edges).
#include "approx.hpp"
#include "controller_scene.hpp"
#include "mesh_levels.hpp"

#include <glm/gtc/constants.hpp>

using namespace glide;
using namespace glide::test;

namespace {

// Of a walk: the frames whose horizontal move falls short of 90 % of the walk's (snags), the
// frames not on walkable ground, and (meaningful on a flat surface) the frames where a hit or
// the ground contact had a normal tilted from up by more than 0.05 degrees: a normal from an
// edge between triangles.
struct WalkCount {
  int snags = 0;
  int off_ground = 0;
  int edge_normals = 0;
  float slowest = 1e9f; ///< smallest horizontal move over the walk's (ratio)
  glm::vec3 end{0.f};
};

WalkCount walk_over(const World& world, const glm::vec3& start, const glm::vec3& walk, int frames) {
  Controller c(world, {}, start);
  Player player{c, world};
  for (int frame = 0; frame < 30; ++frame) player.step({0, 0, 0}, k_dt);
  REQUIRE(c.ground().state == GroundState::on_ground);
  WalkCount count;
  for (int frame = 0; frame < frames; ++frame) {
    const glm::vec3 before = c.position();
    const MoveResult r = player.step(walk, k_dt);
    const glm::vec3 moved = c.position() - before;
    const float ratio = glm::length(glm::vec2(moved.x, moved.z)) / (glm::length(walk) * k_dt);
    count.slowest = std::min(count.slowest, ratio);
    if (ratio < 0.9f) ++count.snags;
    if (r.ground.state != GroundState::on_ground) ++count.off_ground;
    constexpr float k_face = 0.9999996f; // cos(0.05 degrees)
    bool edge = r.ground.contact_normal.y < k_face;
    for (int h = 0; h < r.hit_count; ++h) edge = edge || r.hits[static_cast<std::size_t>(h)].normal.y < k_face;
    count.edge_normals += edge;
  }
  CHECK(player.worst_gap >= -k_penetration_tolerance);
  count.end = c.position();
  return count;
}

// Diagonals mixed over the grid, the same every run.
bool mixed(int i, int k) { return ((i * 7 + k * 13) ^ (i * k)) % 3 == 0; }

} // namespace

TEST_CASE("a 100 x 100 grid of triangles is crossed at 30 degrees at 5 m/s without one snag or flicker") {
  World world;
  const MeshData grid = grid_mesh(100, 0.5f, {0.f, 0.f, 0.f}, mixed);
  world.add_mesh(grid.mesh());
  REQUIRE(world.mesh(PieceId{0}).triangle_count() == 20000u);
  for (const float angle : {30.f, 60.f}) { // 30 degrees to either axis of the grid
    CAPTURE(angle);
    const glm::vec3 walk = glm::vec3(std::cos(glm::radians(angle)), 0.f, std::sin(glm::radians(angle))) * 5.f;
    const WalkCount count = walk_over(world, {2.f, 0.02f, 2.f}, walk, 480); // 8 s, 40 m
    CHECK(count.snags == 0);
    CHECK(count.off_ground == 0);
    CHECK(count.edge_normals == 0);
    CHECK(count.slowest > 0.99f);
    CHECK(count.end.y == doctest::Approx(ControllerSettings{}.skin_width).epsilon(0.02));
  }
}

TEST_CASE("a gently rolling grid (bends under the flat angle and above it) is crossed without a snag") {
  World world;
  // Heights vary smoothly: neighbouring triangles turn by up to a few degrees, some edges flat,
  // some convex (active), some concave.
  const MeshData grid = grid_mesh(80, 0.5f, {0.f, 0.f, 0.f}, mixed,
                                  [](float x, float z) { return 0.3f * std::sin(0.8f * x) * std::cos(0.6f * z); });
  const TriangleMesh mesh = grid.mesh();
  int kinds[4] = {};
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t)
    for (int e = 0; e < 3; ++e) ++kinds[static_cast<int>(mesh.edge_kind(t, e))];
  CHECK(kinds[static_cast<int>(EdgeKind::flat)] > 1000);
  CHECK(kinds[static_cast<int>(EdgeKind::convex)] > 1000);
  CHECK(kinds[static_cast<int>(EdgeKind::concave)] > 1000);
  world.add_mesh(mesh);
  const glm::vec3 walk = glm::vec3(std::cos(glm::radians(30.f)), 0.f, std::sin(glm::radians(30.f))) * 5.f;
  const WalkCount count = walk_over(world, {2.f, 0.5f, 2.f}, walk, 360);
  CHECK(count.snags == 0);
  CHECK(count.off_ground == 0);
}

TEST_CASE("a mesh ramp: a walkable one is walked up, a too steep one is not climbed") {
  for (const float degrees : {30.f, 60.f}) {
    CAPTURE(degrees);
    const float rise = 2.f, run = rise / std::tan(glm::radians(degrees));
    const glm::vec2 profile[] = {{-10.f, 0.f}, {2.f, 0.f}, {2.f + run, rise}, {12.f + run, rise}};
    World world;
    world.add_mesh(profile_mesh(profile, 5.f).mesh());
    Controller c(world, {}, {0.f, 0.02f, 0.f});
    Player player{c, world};
    for (int frame = 0; frame < 30; ++frame) player.step({0, 0, 0}, k_dt);
    float highest = 0.f;
    for (int frame = 0; frame < 300; ++frame) {
      player.step({3.f, 0, 0}, k_dt);
      highest = std::max(highest, c.position().y);
    }
    if (degrees < 50.f) {
      CHECK(c.position().y == doctest::Approx(rise + c.settings().skin_width).epsilon(0.01));
      CHECK(c.position().x > 2.f + run + 1.f);
      CHECK(c.ground().state == GroundState::on_ground);
    } else {
      CHECK(highest < 0.4f); // no higher than a step up onto the foot of the slope
      CHECK(c.position().x < 2.f + 0.4f);
    }
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("a mesh staircase (one surface of risers and treads) is climbed with the step offset") {
  std::vector<glm::vec2> profile{{-10.f, 0.f}};
  const float rise = 0.25f, tread = 0.4f;
  for (int i = 0; i < 10; ++i) {
    const float x = 2.f + tread * static_cast<float>(i);
    profile.push_back({x, rise * static_cast<float>(i)});
    profile.push_back({x, rise * static_cast<float>(i + 1)});
  }
  profile.push_back({2.f + 10.f * tread + 10.f, 10.f * rise});
  const MeshData stairs = profile_mesh(profile, 3.f);
  World world;
  world.add_mesh(stairs.mesh());
  Controller c(world, {}, {0.f, 0.02f, 0.f});
  Player player{c, world};
  for (int frame = 0; frame < 30; ++frame) player.step({0, 0, 0}, k_dt);
  for (int frame = 0; frame < 240; ++frame) player.step({2.f, 0, 0}, k_dt);
  CHECK(c.position().y == doctest::Approx(10.f * rise + c.settings().skin_width).epsilon(0.01));
  CHECK(c.position().x > 2.f + 10.f * tread + 1.f);
  CHECK(c.ground().state == GroundState::on_ground);
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}

TEST_CASE("walking into a mesh's concave corner settles without jitter") {
  // Floor and two walls of one mesh: the edges where they meet are concave (inactive).
  MeshData m;
  add_quad(m, {-5, 0, -5}, {-5, 0, 5}, {5, 0, 5}, {5, 0, -5}); // floor, up
  add_quad(m, {5, 0, -5}, {5, 0, 5}, {5, 3, 5}, {5, 3, -5});   // wall at x = 5, facing -x
  add_quad(m, {-5, 0, 5}, {-5, 3, 5}, {5, 3, 5}, {5, 0, 5});   // wall at z = 5, facing -z
  m.vertices.push_back({});                                    // an unused vertex changes nothing
  const TriangleMesh mesh = m.mesh();
  // The walls meet the floor and each other along concave edges, welded by position.
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t)
    for (int e = 0; e < 3; ++e) CHECK(mesh.edge_kind(t, e) != EdgeKind::convex);
  World world;
  world.add_mesh(mesh);
  for (const float angle : {45.f, 30.f, 70.f}) {
    CAPTURE(angle);
    Controller c(world, {}, {0.f, 0.02f, 0.f});
    Player player{c, world};
    const glm::vec3 walk = glm::vec3(std::cos(glm::radians(angle)), 0.f, std::sin(glm::radians(angle))) * 4.f;
    for (int frame = 0; frame < 240; ++frame) player.step(walk, k_dt); // 4 s: into the corner
    const glm::vec3 settled = c.position();
    float wander = 0.f, step = 0.f;
    glm::vec3 last = settled;
    for (int frame = 0; frame < 120; ++frame) {
      const MoveResult r = player.step(walk, k_dt);
      CHECK(r.ground.state == GroundState::on_ground);
      wander = std::max(wander, glm::length(c.position() - settled));
      step = std::max(step, glm::length(c.position() - last));
      last = c.position();
    }
    const float gap = c.settings().radius + c.settings().skin_width;
    CHECK(settled.x == doctest::Approx(5.f - gap).epsilon(1e-3));
    CHECK(settled.z == doctest::Approx(5.f - gap).epsilon(1e-3));
    CHECK(wander < 1e-4f);
    CHECK(step < 1e-5f);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("a thin mesh wall (one quad) stops a character at 100 m/s from either side") {
  MeshData floor = grid_mesh(20, 1.f, {-10.f, 0.f, -10.f}, mixed);
  MeshData wall;
  add_quad(wall, {3, 0, -5}, {3, 3, -5}, {3, 3, 5}, {3, 0, 5}); // x = 3, facing +x
  World world;
  world.add_mesh(floor.mesh());
  world.add_mesh(wall.mesh());
  for (const float side : {-1.f, 1.f}) {
    CAPTURE(side);
    Controller c(world, {}, {3.f + 2.f * side, 0.02f, 0.3f});
    Player player{c, world};
    for (int frame = 0; frame < 10; ++frame) player.step({0, 0, 0}, k_dt);
    for (int frame = 0; frame < 60; ++frame) {
      player.step({-100.f * side, 0, 0}, k_dt);
      // The capsule's near side never passes the wall.
      REQUIRE(side * (c.position().x - 3.f) >= c.settings().radius);
    }
    CHECK(side * (c.position().x - 3.f) ==
          doctest::Approx(c.settings().radius + c.settings().skin_width).epsilon(0.01));
  }
}

TEST_CASE("a character sunk into a mesh floor beside its internal edges rises straight up") {
  // The triangles beside the one under the capsule reach it through their edges: without the
  // active-edge rule their contacts would push it sideways, away from each edge.
  World world;
  world.add_mesh(grid_mesh(8, 0.5f, {-2.f, 0.f, -2.f}, mixed).mesh());
  const glm::vec3 spots[] = {{0.05f, 0.f, 0.2f}, {0.02f, 0.f, 0.03f}, {0.24f, 0.f, 0.27f}, {0.f, 0.f, 0.f}};
  for (const glm::vec3& spot : spots) {
    for (const float depth : {0.02f, 0.1f}) {
      CAPTURE(spot);
      CAPTURE(depth);
      Controller c(world, {}, spot - glm::vec3(0.f, depth, 0.f));
      Player player{c, world};
      for (int frame = 0; frame < 30; ++frame) player.step({0, 0, 0}, k_dt);
      CHECK(glm::length(glm::vec2(c.position().x - spot.x, c.position().z - spot.z)) < 1e-5f);
      CHECK(c.position().y == doctest::Approx(c.settings().skin_width).epsilon(0.01));
      CHECK(c.ground().state == GroundState::on_ground);
    }
  }
}
