// The viewer's parts that need no display: meshes, debug geometry and the
// walker on the built-in level. The drawn picture is checked by the viewer_screenshot test.
#include "approx.hpp"
#include "camera.hpp"
#include "crowd_walkers.hpp"

#include "debug_draw.hpp"
#include "mesh.hpp"
#include "viewer.hpp"
#include "walker.hpp"

#include <glide/error.hpp>
#include <glide/gjk/segment_pair.hpp>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace glide;
using namespace glide::viewer;

TEST_CASE("capsule mesh: every vertex on the capsule surface, feet at the origin") {
  const float radius = 0.4f, height = 1.7f;
  const viewer::TriangleMesh mesh = capsule_mesh(radius, height, k_capsule_color);
  REQUIRE(mesh.size() % 3 == 0);
  REQUIRE(!mesh.empty());
  float low = 1e9f, high = -1e9f;
  for (const MeshVertex& v : mesh) {
    // Distance from the inner segment between the sphere centres, in double.
    const double y = std::clamp(static_cast<double>(v.position.y), static_cast<double>(radius),
                                static_cast<double>(height - radius));
    const double dx = v.position.x, dy = v.position.y - y, dz = v.position.z;
    CHECK(std::sqrt(dx * dx + dy * dy + dz * dz) == doctest::Approx(radius).epsilon(1e-5));
    CHECK_APPROX(glm::length(v.normal), 1.f, 1e-5f);
    low = std::min(low, v.position.y);
    high = std::max(high, v.position.y);
  }
  CHECK_APPROX(low, 0.f, 1e-5f);
  CHECK_APPROX(high, height, 1e-5f);
}

TEST_CASE("level mesh: every hull face of the built-in level, tops walkable and sides walls") {
  const ViewerLevel level = builtin_level();
  std::size_t faces = 0;
  for (const PieceId id : level.world.piece_ids()) faces += level.world.hull(id).faces().size();
  const viewer::TriangleMesh mesh = level_mesh(level.world, glm::radians(50.f));
  CHECK(mesh.size() == 3 * faces);
  for (std::size_t i = 0; i < mesh.size(); i += 3) {
    // Flat shaded: the three vertices share the face normal, and the color follows its slope.
    const glm::vec3 n = mesh[i].normal;
    CHECK(mesh[i + 1].normal == n);
    const bool walkable = n.y >= std::cos(glm::radians(50.f));
    CHECK(mesh[i].color == (walkable ? k_walkable_color : k_wall_color));
  }
  // Under a 0 degree limit only exactly level faces stay walkable: the 30 degree ramp is a wall.
  const viewer::TriangleMesh strict = level_mesh(level.world, 0.f);
  const auto walkable = [](const viewer::TriangleMesh& m) {
    return std::count_if(m.begin(), m.end(), [](const MeshVertex& v) { return v.color == k_walkable_color; });
  };
  CHECK(walkable(strict) < walkable(mesh));
}

TEST_CASE("level mesh: a mesh piece is drawn triangle by triangle, floor walkable and wall a wall") {
  World world;
  // A floor quad facing up and a wall quad facing -x, one mesh, moved 5 m along z.
  const glide::TriangleMesh room({{0, 0, 0}, {0, 0, 2}, {2, 0, 2}, {2, 0, 0}, {2, 2, 0}, {2, 2, 2}},
                                 {{0, 1, 2}, {0, 2, 3}, {3, 2, 5}, {3, 5, 4}});
  const PieceId id = world.add_mesh(room, {{1, 0, 0, 0}, {0, 0, 5}});
  const viewer::TriangleMesh mesh = level_mesh(world, glm::radians(50.f));
  REQUIRE(mesh.size() == 12);
  for (std::size_t i = 0; i < 12; ++i) {
    const bool floor = i < 6;
    CHECK_APPROX(mesh[i].normal, floor ? glm::vec3(0, 1, 0) : glm::vec3(-1, 0, 0), 1e-6f);
    CHECK(mesh[i].color == (floor ? k_walkable_color : k_wall_color));
    CHECK(mesh[i].position.z >= 5.f);
  }
  CHECK(piece_mesh(world, id, glm::radians(50.f)).size() == 12); // in its own space
}

TEST_CASE("walker: walks the camera's forward at walk speed on the built-in floor") {
  const ViewerLevel level = builtin_level();
  Walker walker(level.world, {}, level.spawn);
  FrameInput in;
  in.walk = {0.f, 1.f};
  const glm::vec3 forward{0.f, 0.f, 1.f}, right{-1.f, 0.f, 0.f}; // away from the boxes (at -z)
  const float dt = 1.f / 60.f;
  for (int i = 0; i < 60; ++i) walker.step(in, forward, right, dt);
  const glm::vec3 p = walker.controller().position();
  // 1 s at 4 m/s; the spawn sits 5 cm above the floor and settles onto it.
  CHECK_APPROX(p.z - level.spawn.z, 4.f, 0.02f);
  CHECK_APPROX(p.x, level.spawn.x, 1e-4f);
  CHECK_APPROX(p.y, 0.f, 0.02f);
  CHECK(walker.last().ground.state == GroundState::on_ground);
  CHECK(walker.stats().iterations >= 1);
  CHECK_APPROX(walker.stats().motion, glm::vec3(0.f, 0.f, 4.f * dt), 1e-5f);
}

TEST_CASE("walker: a jump rises to v^2 / 2g and lands back on the ground") {
  const ViewerLevel level = builtin_level();
  Walker walker(level.world, {}, level.spawn);
  const glm::vec3 forward{0.f, 0.f, 1.f}, right{-1.f, 0.f, 0.f};
  const float dt = 1.f / 240.f; // fine steps: the discrete apex is within a few mm of the analytic one
  FrameInput idle;
  for (int i = 0; i < 60; ++i) walker.step(idle, forward, right, dt);
  REQUIRE(walker.last().ground.state == GroundState::on_ground);
  const float floor_y = walker.controller().position().y;
  FrameInput jump;
  jump.jump = true;
  walker.step(jump, forward, right, dt);
  float apex = floor_y;
  bool left_ground = false;
  for (int i = 0; i < 480; ++i) {
    walker.step(idle, forward, right, dt);
    apex = std::max(apex, walker.controller().position().y);
    left_ground |= walker.last().ground.state == GroundState::in_air;
  }
  const float v = walker.tuning.player.jump_speed, g = walker.tuning.player.gravity;
  CHECK(left_ground);
  CHECK_APPROX(apex - floor_y, v * v / (2.f * g), 0.03f);
  CHECK(walker.last().ground.state == GroundState::on_ground);
  CHECK_APPROX(walker.controller().position().y, floor_y, 0.02f);
}

TEST_CASE("debug scene: closest points of a capsule on the floor, under the feet") {
  const ViewerLevel level = builtin_level();
  Walker walker(level.world, {}, level.spawn);
  const glm::vec3 forward{0.f, 0.f, 1.f}, right{-1.f, 0.f, 0.f};
  for (int i = 0; i < 30; ++i) walker.step(FrameInput{}, forward, right, 1.f / 60.f);
  const glm::vec3 feet = walker.controller().position();
  DebugDrawOptions options;
  const DebugScene scene = debug_scene(level.world, walker.controller(), walker.last(), options);
  REQUIRE(scene.spheres.size() >= 2);
  // The floor's closest point lies on its top (y = 0) under the feet; the capsule's is its lowest point.
  const auto on_floor = std::find_if(scene.spheres.begin(), scene.spheres.end(), [&](const DebugSphere& s) {
    return glm::length(s.centre - glm::vec3(feet.x, 0.f, feet.z)) < 1e-3f;
  });
  CHECK(on_floor != scene.spheres.end());
  const auto on_capsule = std::find_if(scene.spheres.begin(), scene.spheres.end(),
                                       [&](const DebugSphere& s) { return glm::length(s.centre - feet) < 1e-3f; });
  CHECK(on_capsule != scene.spheres.end());
  CHECK(scene.lines.size() % 2 == 0);
  // The ground normal line starts at the ground point and points up.
  const auto ground = std::find_if(scene.lines.begin(), scene.lines.end(), [&](const LineVertex& v) {
    return glm::length(v.position - walker.last().ground.point) < 1e-6f;
  });
  REQUIRE(ground != scene.lines.end());

  // Everything off: nothing to draw.
  const DebugScene none = debug_scene(level.world, walker.controller(), walker.last(),
                                      DebugDrawOptions{.closest_points = false,
                                                       .contact_normals = false,
                                                       .sweep_hits = false,
                                                       .ground_normal = false,
                                                       .stair_probe = false,
                                                       .iterations = false});
  CHECK(none.lines.empty());
  CHECK(none.spheres.empty());
}

TEST_CASE("walker: the panel's edits go through set_settings; refusals say why and change nothing") {
  // A floor (top at y = 0) and a ceiling whose underside is at y = 2 m.
  World world;
  world.add_piece(gjk::ConvexHull::box({10.f, 0.5f, 10.f}), gjk::Transform{{1.f, 0.f, 0.f, 0.f}, {0.f, -0.5f, 0.f}});
  world.add_piece(gjk::ConvexHull::box({10.f, 0.5f, 10.f}), gjk::Transform{{1.f, 0.f, 0.f, 0.f}, {0.f, 2.5f, 0.f}});
  Walker walker(world, {}, {0.f, 0.f, 0.f});

  ControllerSettings taller = walker.controller().settings();
  taller.height = 2.5f; // through the ceiling
  const std::string no_room = walker.apply_settings(taller);
  CHECK(no_room.find("no room") != std::string::npos);
  CHECK(walker.controller().settings().height == 1.8f);

  ControllerSettings bad = walker.controller().settings();
  bad.skin_width = -1.f;
  const std::string invalid = walker.apply_settings(bad);
  CHECK(invalid.find("skin_width") != std::string::npos);
  CHECK(walker.controller().settings().skin_width == 0.01f);

  ControllerSettings shorter = walker.controller().settings();
  shorter.height = 1.5f;
  shorter.max_slope = glm::radians(30.f);
  CHECK(walker.apply_settings(shorter).empty());
  CHECK(walker.controller().settings().height == 1.5f);
  CHECK(walker.controller().settings().max_slope == glm::radians(30.f));
}

TEST_CASE("debug scene: walking into a low step draws the stair probe from the contact, step height up") {
  const ViewerLevel level = builtin_level();
  // The first stair of the built-in level (0.2 m high, its face at x = 5.8) lies ahead along +x.
  Walker walker(level.world, {}, {5.f, 0.f, -3.f});
  const glm::vec3 forward{1.f, 0.f, 0.f}, right{0.f, 0.f, 1.f};
  FrameInput in;
  in.walk = {0.f, 1.f};
  DebugDrawOptions only_probe{.closest_points = false,
                              .contact_normals = false,
                              .sweep_hits = false,
                              .ground_normal = false,
                              .stair_probe = true,
                              .iterations = false};
  bool seen = false;
  for (int i = 0; i < 60 && !seen; ++i) {
    walker.step(in, forward, right, 1.f / 60.f);
    const DebugScene scene = debug_scene(level.world, walker.controller(), walker.last(), only_probe);
    if (scene.lines.empty()) continue;
    seen = true;
    REQUIRE(scene.lines.size() == 6); // up, across, down
    const float step = walker.controller().settings().step_height;
    CHECK_APPROX(scene.lines[1].position - scene.lines[0].position, glm::vec3(0.f, step, 0.f), 1e-5f);
    // The probe starts where the capsule met the stair: its bottom sphere reaches x = 5.8 - skin.
    CHECK_APPROX(scene.lines[0].position.x + walker.controller().settings().radius, 5.8f, 0.05f);
  }
  CHECK(seen);
  // Half a second more: the walker stands on a stair top (0.2 m or higher).
  for (int i = 0; i < 30; ++i) walker.step(in, forward, right, 1.f / 60.f);
  CHECK(walker.controller().position().y > 0.19f);
}

namespace {

// A floor (top at y = 0) and a 4 x 4 m platform (top at y = 0.2) sliding +x at 1 m/s for 10 s.
struct SlidingPlatform {
  World world;
  std::vector<demo::MovingPiece> moving;
  SlidingPlatform() {
    world.add_piece(gjk::ConvexHull::box({20.f, 0.5f, 20.f}), gjk::Transform{{1.f, 0.f, 0.f, 0.f}, {0.f, -0.5f, 0.f}});
    const PieceId id =
        world.add_piece(gjk::ConvexHull::box({2.f, 0.1f, 2.f}), gjk::Transform{{1.f, 0.f, 0.f, 0.f}, {0.f, 0.1f, 0.f}});
    PiecePath path;
    path.keys = {{0.f, {0.f, 0.f, 0.f}, 0.f}, {10.f, {10.f, 0.f, 0.f}, 0.f}};
    moving.push_back({"platform", id, world.transform(id), path});
  }
};

} // namespace

TEST_CASE("piece mesh: a moving piece's faces in its own space; the level mesh leaves it out") {
  SlidingPlatform level;
  const PieceId platform = level.moving[0].id;
  level.world.set_piece_transform(platform, gjk::Transform{{1.f, 0.f, 0.f, 0.f}, {3.f, 0.1f, 0.f}});
  const viewer::TriangleMesh piece = piece_mesh(level.world, platform, glm::radians(50.f));
  REQUIRE(piece.size() == 3 * level.world.hull(platform).faces().size());
  // Placed by the piece's transform, every vertex lands on one of its world vertices.
  const auto world_vertices = level.world.world_vertices(platform);
  for (const MeshVertex& v : piece) {
    const glm::vec3 placed = level.world.transform(platform).apply(v.position);
    const bool on_hull = std::any_of(world_vertices.begin(), world_vertices.end(),
                                     [&](const glm::vec3& w) { return glm::length(w - placed) < 1e-5f; });
    CHECK(on_hull);
    CHECK(v.color == (v.normal.y > 0.9f ? k_walkable_color : k_wall_color)); // top walkable, sides walls
  }
  const std::vector<PieceId> skip{platform};
  const viewer::TriangleMesh all = level_mesh(level.world, glm::radians(50.f));
  const viewer::TriangleMesh still = level_mesh(level.world, glm::radians(50.f), skip);
  CHECK(still.size() + piece.size() == all.size());
}

TEST_CASE("walker: moves the pieces before the character, which rides them; paused, they stand still") {
  SlidingPlatform level;
  Walker walker(level.world, level.moving, {}, {0.f, 0.25f, 0.f});
  const glm::vec3 forward{0.f, 0.f, 1.f}, right{-1.f, 0.f, 0.f};
  const float dt = 1.f / 60.f;
  for (int i = 0; i < 30; ++i) walker.step(FrameInput{}, forward, right, dt); // settle onto it
  REQUIRE(walker.last().ground.piece == level.moving[0].id);
  const glm::vec3 start = walker.controller().position();
  const float platform_start = level.world.transform(level.moving[0].id).translation.x;
  for (int i = 0; i < 120; ++i) walker.step(FrameInput{}, forward, right, dt);
  // 2 s at 1 m/s: the platform and the character standing on it both move 2 m along +x.
  CHECK_APPROX(level.world.transform(level.moving[0].id).translation.x - platform_start, 2.f, 1e-4f);
  CHECK_APPROX(walker.controller().position().x - start.x, 2.f, 1e-3f);
  CHECK_APPROX(walker.piece_time(), 150.f * dt, 1e-4f);

  walker.pause_pieces = true;
  const glm::vec3 paused_at = walker.controller().position();
  const float platform_paused = level.world.transform(level.moving[0].id).translation.x;
  for (int i = 0; i < 60; ++i) walker.step(FrameInput{}, forward, right, dt);
  CHECK(level.world.transform(level.moving[0].id).translation.x == platform_paused);
  CHECK_APPROX(walker.controller().position(), paused_at, 1e-4f); // no velocity left over to carry it
  CHECK_APPROX(walker.piece_time(), 150.f * dt, 1e-4f);

  walker.pause_pieces = false; // the clock goes on from where it stopped
  walker.step(FrameInput{}, forward, right, dt);
  CHECK_APPROX(level.world.transform(level.moving[0].id).translation.x - platform_paused, dt, 1e-4f);
}

TEST_CASE("camera: turning with the ground keeps its forward fixed on a turning piece") {
  // A turn of the ground by a (counter-clockwise from above, about +y) turns the walk
  // directions with it: forward becomes the rotated forward.
  for (const float a : {0.3f, -1.2f, 2.5f}) {
    Camera camera;
    camera.yaw = 0.7f;
    const glm::vec3 before = camera.forward(), side = camera.right();
    camera.turn_with_ground(a);
    const glm::vec3 turned{before.x * std::cos(a) + before.z * std::sin(a), 0.f,
                           -before.x * std::sin(a) + before.z * std::cos(a)};
    const glm::vec3 turned_side{side.x * std::cos(a) + side.z * std::sin(a), 0.f,
                                -side.x * std::sin(a) + side.z * std::cos(a)};
    CHECK_APPROX(camera.forward(), turned, 1e-6f);
    CHECK_APPROX(camera.right(), turned_side, 1e-6f);
  }
}

namespace {

// Gap between two capsules (m; negative when overlapping).
float capsule_gap(const gjk::Capsule& a, const gjk::Capsule& b) {
  return gjk::closest_points(a.segment, b.segment).distance - a.radius - b.radius;
}

// The built-in level's character standing at the spawn, with `count` walkers around it, run
// for `frames` as the viewer runs them: the character moves against the walkers' capsules,
// then the walkers move. Returns every walker's position after every frame.
struct WalkersRun {
  std::size_t placed = 0;
  float spawn_gap = 1e9f;         ///< closest a spawned walker came to the character or geometry (m)
  float worst_pair_gap = 1e9f;    ///< closest two walkers came after a frame (m)
  float farthest = 0.f;           ///< farthest a walker went from the character, across the floor (m)
  bool character_hit_one = false; ///< the character's walk met a walker
  std::vector<glm::vec3> trail;
};
WalkersRun run_walkers(int count, int frames, const glm::vec3& walk) {
  const ViewerLevel level = builtin_level();
  Controller player(level.world, {}, level.spawn);
  CrowdWalkers crowd(level.world, 2);
  WalkersRun run;
  run.placed = crowd.spawn(player, count);
  for (const CapsuleObstacle& o : crowd.obstacles()) {
    run.spawn_gap = std::min(run.spawn_gap, capsule_gap(o.capsule, player.capsule()));
    for (const Contact& c : level.world.overlap_capsule(o.capsule, 0.f))
      run.spawn_gap = std::min(run.spawn_gap, c.distance);
  }
  const float dt = 1.f / 60.f;
  player.set_characters(crowd.obstacles());
  for (int frame = 0; frame < frames; ++frame) {
    const MoveResult& r = player.move(walk + glm::vec3(0.f, -2.f, 0.f), dt);
    for (int h = 0; h < r.hit_count; ++h)
      run.character_hit_one |= r.hits[static_cast<std::size_t>(h)].target == HitTarget::character;
    crowd.step(player.position(), dt);
    player.set_characters(crowd.obstacles());
    const std::span<const CapsuleObstacle> walkers = crowd.obstacles();
    for (std::size_t i = 0; i < walkers.size(); ++i) {
      for (std::size_t j = i + 1; j < walkers.size(); ++j)
        run.worst_pair_gap = std::min(run.worst_pair_gap, capsule_gap(walkers[i].capsule, walkers[j].capsule));
      const glm::vec3 feet = crowd.set().controller(CharacterId{static_cast<std::uint32_t>(i)}).position();
      run.farthest =
          std::max(run.farthest, glm::length(glm::vec2(feet.x - player.position().x, feet.z - player.position().z)));
      run.trail.push_back(feet);
    }
  }
  return run;
}

} // namespace

TEST_CASE("walkers: spawned on free spots around the character, they walk near it and never overlap") {
  const WalkersRun run = run_walkers(40, 300, glm::vec3(0.f));
  CHECK(run.placed == 40);
  CHECK(run.spawn_gap >= 0.f); // touching neither the character nor the level
  CHECK(run.worst_pair_gap >= -1e-3f);
  // Goals lie within 10 m of the character: the walkers stay around it (spawned within 6 m).
  CHECK(run.farthest < CrowdWalkers::k_route_radius + 6.f);
  // They walk: the last frame is not the first.
  REQUIRE(run.trail.size() == 40u * 300u);
  float moved = 0.f;
  for (std::size_t i = 0; i < 40; ++i) moved += glm::length(run.trail[run.trail.size() - 40 + i] - run.trail[i]);
  CHECK(moved / 40.f > 1.f);
  // The same seed walks the same paths.
  const WalkersRun again = run_walkers(40, 300, glm::vec3(0.f));
  CHECK(std::memcmp(again.trail.data(), run.trail.data(), run.trail.size() * sizeof(glm::vec3)) == 0);
}

TEST_CASE("walkers: the character walking among them is blocked by them; clearing them frees its way") {
  // Walking +x at 4 m/s into the spiral of walkers around it, it meets one within a second.
  const WalkersRun run = run_walkers(24, 60, glm::vec3(4.f, 0.f, 0.f));
  CHECK(run.character_hit_one);
  const WalkersRun none = run_walkers(0, 60, glm::vec3(4.f, 0.f, 0.f));
  CHECK(none.placed == 0);
  CHECK_FALSE(none.character_hit_one);

  const ViewerLevel level = builtin_level();
  Controller player(level.world, {}, level.spawn);
  CrowdWalkers crowd(level.world, 1);
  CHECK(crowd.spawn(player, 10) == 10);
  CHECK(crowd.obstacles().size() == 10);
  crowd.clear();
  CHECK(crowd.size() == 0);
  CHECK(crowd.obstacles().empty());
  crowd.step(player.position(), 1.f / 60.f); // nothing to move
}
