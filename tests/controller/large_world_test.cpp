// Worlds kilometres wide: the classic scenes played 1e4 m and 1e5 m from the origin, with the
// world's origin near them (World::shift_origin), give the walk at the origin within 1e-4 m;
// shifting the origin under moving characters changes nothing but rounding.

#include "controller_scene.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/error.hpp>
#include <glide/world/triangle_mesh.hpp>

#include <glm/ext/vector_double3.hpp>

#include <functional>
#include <limits>
#include <vector>

namespace glide::test {
namespace {

/// How far apart two runs of a scene end when their float coordinates round differently by
/// about 1e-5 m (its origin placed elsewhere, or shifted mid-run): the stops short of a contact
/// and step decisions take the rounding up to the time-of-impact tolerance each frame. 1.3 mm
/// measured on these scenes at the origin with the origin 300 m off.
constexpr double k_rounding_spread = 2e-3;

/// One of the classic scenes, built around `at` (global, m) in `world`, played for its frames;
/// returns the feet's global position after every frame.
struct Scene {
  std::string name;
  glm::vec3 start;                                      ///< feet, relative to the scene (m)
  std::function<void(World&, const glm::dvec3&)> build; ///< places the pieces around `at`
  glm::vec3 walk;                                       ///< walk velocity, held (m/s)
  int frames;
};

/// A box of corners lo, hi relative to the scene at `at`, placed through the world's origin.
void add_box_at(World& world, const glm::dvec3& at, const glm::vec3& lo, const glm::vec3& hi) {
  const glm::vec3 half = 0.5f * (hi - lo);
  const glm::dvec3 centre = at + 0.5 * (glm::dvec3(lo) + glm::dvec3(hi));
  world.add_piece(gjk::ConvexHull::box(half), gjk::Transform{{1, 0, 0, 0}, world.to_local(centre)});
}

void add_turned_at(World& world, const glm::dvec3& at, const glm::vec3& centre, const glm::vec3& half,
                   const glm::quat& turn) {
  world.add_piece(gjk::ConvexHull::box(half), gjk::Transform{turn, world.to_local(at + glm::dvec3(centre))});
}

std::vector<Scene> scenes() {
  const auto floor = [](World& w, const glm::dvec3& at) { add_box_at(w, at, {-30, -1, -30}, {30, 0, 30}); };
  std::vector<Scene> out;
  out.push_back({"walk into a wall at 30 degrees",
                 {0, 0, 0},
                 [=](World& w, const glm::dvec3& at) {
                   floor(w, at);
                   add_box_at(w, at, {-30, 0, 2}, {30, 3, 3});
                 },
                 glm::vec3(std::sin(glm::radians(30.f)), 0, std::cos(glm::radians(30.f))) * 4.f,
                 120});
  out.push_back({"idle on a 30 degree slope",
                 {0, 0.05f, 0},
                 [](World& w, const glm::dvec3& at) {
                   const glm::quat tilt = glm::angleAxis(glm::radians(30.f), glm::vec3(0, 0, 1));
                   add_turned_at(w, at, tilt * glm::vec3(0, -1, 0), {20, 1, 20}, tilt);
                 },
                 {0, 0, 0},
                 120});
  out.push_back({"push into a 60 degree slope",
                 {-2, 0, 0},
                 [=](World& w, const glm::dvec3& at) {
                   floor(w, at);
                   const glm::quat tilt = glm::angleAxis(glm::radians(60.f), glm::vec3(0, 0, 1));
                   add_turned_at(w, at, glm::vec3(0, -1, 0) + tilt * glm::vec3(0, -1, 0), {20, 1, 20}, tilt);
                 },
                 {3, 0, 0},
                 120});
  out.push_back(
      {"climb stairs",
       {0, 0, 0},
       [=](World& w, const glm::dvec3& at) {
         floor(w, at);
         for (int i = 0; i < 8; ++i)
           add_box_at(w, at, {1.f + 0.3f * static_cast<float>(i), 0, -2}, {10, 0.2f * static_cast<float>(i + 1), 2});
       },
       {2, 0, 0},
       150});
  out.push_back({"walk into a 90 degree corner",
                 {0, 0, 0},
                 [=](World& w, const glm::dvec3& at) {
                   floor(w, at);
                   add_box_at(w, at, {-5, 0, 2}, {5, 3, 3});
                   add_box_at(w, at, {2, 0, -5}, {3, 3, 5});
                 },
                 glm::normalize(glm::vec3(1, 0, 1)) * 4.f,
                 120});
  return out;
}

/// The scene placed at `at` in a world whose origin is `origin`; the feet after every frame,
/// less `at`, in double. `before_frame`, when given, runs before each frame's move.
std::vector<glm::dvec3> play(const Scene& scene, const glm::dvec3& at, const glm::dvec3& origin,
                             const std::function<void(int, World&, Controller&)>& before_frame = {}) {
  World world;
  world.shift_origin(origin);
  scene.build(world, at);
  Controller c(world, {}, world.to_local(at + glm::dvec3(scene.start)));
  PlayerStep player;
  std::vector<glm::dvec3> path;
  for (int frame = 0; frame < scene.frames; ++frame) {
    if (before_frame) before_frame(frame, world, c);
    player.step(c, {.velocity = scene.walk}, k_dt);
    path.push_back(c.global_position() - at);
  }
  return path;
}

double farthest(const std::vector<glm::dvec3>& a, const std::vector<glm::dvec3>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(a[i] - b[i]));
  return worst;
}

} // namespace

TEST_CASE("the classic scenes 1e4 m and 1e5 m out play as at the origin, frame by frame (1e-4 m)") {
  // What a move computes depends on the float coordinates relative to the world's origin only:
  // a scene far out with the origin at a given place near it plays as the same scene at the
  // origin with the origin at the same place near it.
  for (const Scene& scene : scenes()) {
    CAPTURE(scene.name);
    for (const glm::dvec3 offset : {glm::dvec3(0.0), glm::dvec3(37.25, -3.5, -81.125), glm::dvec3(-300.3, 0, 211.7)}) {
      CAPTURE(offset.x);
      const std::vector<glm::dvec3> home = play(scene, glm::dvec3(0.0), offset);
      REQUIRE(glm::length(home.back() - home.front()) < 100.0);
      for (const glm::dvec3 at : {glm::dvec3(1e4, 0, 1e4), glm::dvec3(1e5, 0, 1e5), glm::dvec3(-1e5, 2e3, 1e5),
                                  glm::dvec3(1e5 + 0.37, 0.11, -1e5 - 0.73)}) {
        CAPTURE(at.x);
        CAPTURE(at.y);
        CAPTURE(at.z);
        CHECK(farthest(play(scene, at, at + offset), home) <= 1e-4);
      }
    }
  }
}

TEST_CASE("without the origin near it, a float world 1e5 m out cannot resolve the scenes") {
  // The reason for the origin: the same wall walk with the world's origin left at zero.
  const Scene scene = scenes()[0];
  const std::vector<glm::dvec3> home = play(scene, glm::dvec3(0.0), glm::dvec3(0.0));
  CHECK(farthest(play(scene, glm::dvec3(1e5, 0, 1e5), glm::dvec3(0.0)), home) > 1e-3);
}

TEST_CASE("shifting the origin under walking characters changes nothing but rounding") {
  const Scene scene = scenes()[0];
  const glm::dvec3 at(5e4, 0, -5e4);
  const std::vector<glm::dvec3> steady = play(scene, at, at);
  const std::vector<glm::dvec3> path = play(scene, at, at, [](int frame, World& world, Controller& c) {
    if (frame != 30 && frame != 70) return;
    const glm::dvec3 before = c.global_position();
    world.shift_origin(world.origin() + glm::dvec3(123.375, -0.5, -77.25));
    // position() reads in the new coordinates at once, before the controller's next call.
    CHECK(glm::length(world.to_global(c.position()) - before) <= 1e-5);
  });
  // A shift rounds the character's and the pieces' coordinates anew (by up to 8e-6 m here); a
  // move answers such rounding within k_rounding_spread, as at the origin.
  CHECK(farthest(path, steady) <= k_rounding_spread);
}

TEST_CASE("a crowd follows the origin: one update later, every character is where it would be") {
  const glm::dvec3 at(-2e4, 0, 3e4);
  const auto run = [&](bool shift) {
    World world;
    world.shift_origin(at);
    add_box_at(world, at, {-30, -1, -30}, {30, 0, 30});
    CharacterSet set(world);
    for (int i = 0; i < 6; ++i) set.add({}, world.to_local(at + glm::dvec3(1.5 * i, 0, 0)));
    std::vector<glm::vec3> walk(6, glm::vec3(0, 0, 1.5f));
    walk[2] = glm::vec3(-1.5f, 0, 0); // walks into its neighbour
    std::vector<glm::dvec3> feet;
    for (int frame = 0; frame < 90; ++frame) {
      if (shift && frame == 40) world.shift_origin(at + glm::dvec3(250.5, 1.25, -99.75));
      set.update(walk, k_dt);
    }
    for (std::uint32_t i = 0; i < 6; ++i) feet.push_back(set.controller(CharacterId{i}).global_position() - at);
    return feet;
  };
  CHECK(farthest(run(true), run(false)) <= k_rounding_spread);
}

TEST_CASE("a saved state restores at its global place whatever the origin is now") {
  const glm::dvec3 at(7e4, 10, 7e4);
  World world;
  world.shift_origin(at);
  add_box_at(world, at, {-30, -1, -30}, {30, 0, 30});
  Controller c(world, {}, world.to_local(at + glm::dvec3(1, 0, 2)));
  for (int frame = 0; frame < 20; ++frame) c.move({1, -9.8f, 0}, k_dt);
  const glm::dvec3 saved_at = c.global_position();
  const std::vector<std::byte> saved = c.save_state();
  for (int frame = 0; frame < 20; ++frame) c.move({1, -9.8f, 0}, k_dt);
  world.shift_origin(at + glm::dvec3(-40.5, 0, 13.25));
  c.restore_state(saved);
  CHECK(glm::length(c.global_position() - saved_at) <= 1e-5);
  CHECK(c.ground().state == GroundState::on_ground);
  CHECK(std::abs(world.to_global(c.ground().point).y - (at.y + 0.0)) <= 1e-4); // the floor's top, in the new frame
}

TEST_CASE("5 km out without the origin near, a character standing on a leaning one saves a state that restores") {
  // Its ground is a character contact, whose normal came from the closest points rounded to
  // float: 5 km out its length was off by up to 1e-3, and restore_state refused the bytes
  // save_state had just given. Forty places round the spot, each leaning its own way.
  int on_character = 0;
  for (int k = 0; k < 40; ++k) {
    const glm::vec3 o(5000.f + 0.37f * float(k), 0.f, -5000.f - 0.23f * float(k));
    World world;
    add_box(world, o + glm::vec3(-20, -1, -20), o + glm::vec3(20, 0, 20));
    world.update();
    CharacterSet set(world);
    ControllerSettings lying; // a log on the floor, its up nearly along x
    lying.up = glm::normalize(glm::vec3(1.f, 0.02f, 0.3f));
    set.add(lying, o + glm::vec3(0, 0.31f, 0));
    // Another stands on the log's middle, off its top line by a few degrees.
    const glm::vec3 middle = o + glm::vec3(0, 0.31f, 0) + lying.up * 0.9f;
    const float angle = glm::radians(2.f + 0.5f * float(k));
    const glm::vec3 side = glm::normalize(glm::cross(lying.up, glm::vec3(0, 1, 0)));
    const glm::vec3 from_axis = std::cos(angle) * glm::vec3(0, 1, 0) + std::sin(angle) * side;
    const CharacterId standing = set.add({}, middle + from_axis * 0.605f - glm::vec3(0, 0.3f, 0));
    const std::vector<glm::vec3> still(2, glm::vec3(0.f));
    for (int frame = 0; frame < 3; ++frame) set.update(still, k_dt);
    const GroundInfo& ground = set.controller(standing).ground();
    if (ground.target != HitTarget::character) continue;
    ++on_character;
    CHECK(std::abs(glm::length(ground.contact_normal) - 1.f) <= 1e-6f);
    const std::vector<std::byte> saved = set.save_state();
    CHECK_NOTHROW(set.restore_state(saved));
    CHECK(set.save_state() == saved);
  }
  MESSAGE(on_character << " of 40 stand on the log");
  CHECK(on_character >= 20);
}

TEST_CASE("the origin's contract: range checks, a failed shift changes nothing, terrain moves along") {
  World world;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(world.shift_origin({nan, 0, 0}), doctest::Contains("World::shift_origin: origin"), Error);
  CHECK_THROWS_WITH_AS(world.shift_origin({2e9, 0, 0}), doctest::Contains("beyond 1e+09 m"), Error);
  CHECK_THROWS_WITH_AS(world.to_local({2e6, 0, 0}), doctest::Contains("beyond the valid coordinates"), Error);
  CHECK(world.to_local({12.5, -3, 4}) == glm::vec3(12.5f, -3.f, 4.f));

  const PieceId far = add_box(world, {9e5f, 0, 0}, {9e5f + 1, 1, 1});
  HeightfieldDef def;
  def.rows = def.columns = 3;
  def.heights = {0, 1, 0, 1, 2, 1, 0, 1, 0};
  def.origin = {-10, 0, -10};
  def.cell_size = glm::vec2(10.f);
  world.set_terrain(Heightfield(def));
  const std::uint64_t revision = world.revision();
  const gjk::Aabb bounds = world.bounds(far);
  // The far piece would end beyond 1e6 m from the new origin: refused, nothing changes.
  CHECK_THROWS_WITH_AS(world.shift_origin({-2e5, 0, 0}), doctest::Contains("beyond the valid coordinates"), Error);
  CHECK(world.revision() == revision);
  CHECK(world.origin() == glm::dvec3(0.0));
  CHECK(world.bounds(far).min == bounds.min);

  world.shift_origin({1000.25, -2.5, 500.5});
  CHECK(world.origin() == glm::dvec3(1000.25, -2.5, 500.5));
  CHECK(world.revision() != revision);
  CHECK(std::abs(world.to_global(world.bounds(far).min).x - 9e5) <= 0.07); // float steps 899,000 m out
  CHECK(world.to_global(world.bounds(far).max).y == doctest::Approx(1.0).epsilon(1e-6));
  // The terrain's peak (sample (1, 1), 2 m up at the global origin) is found where it was.
  const glm::vec3 peak = world.to_local({0, 0, 0});
  CHECK(world.terrain()->height_at(peak.x, peak.z) == doctest::Approx(2.f + 2.5f).epsilon(1e-6));
  // A mesh piece is placed anew with its triangles' hierarchy: a ray finds it where it was.
  const PieceId mesh =
      world.add_mesh(TriangleMesh({{-1, 0, -1}, {1, 0, -1}, {1, 0, 1}, {-1, 0, 1}}, {{{0, 2, 1}}, {{0, 3, 2}}}),
                     {{1, 0, 0, 0}, world.to_local({500.0, 7.0, 0.0})});
  world.shift_origin({400.0, 0.0, 0.0});
  const RayHit on_mesh = world.raycast(world.to_local({500.25, 9.0, 0.5}), {0, -1, 0}, 5.f);
  REQUIRE(on_mesh.hit);
  CHECK(on_mesh.piece == mesh);
  CHECK(std::abs(world.to_global(on_mesh.point).y - 7.0) <= 2e-4); // a ray may stop its tolerance short
  CHECK(world.to_global(world.bounds(mesh).min).x == doctest::Approx(499.0).epsilon(1e-7));
  world.shift_origin({1000.25, -2.5, 500.5});
  const RayHit hit = world.raycast(world.to_local({0, 10, 0}), {0, -1, 0}, 20.f);
  REQUIRE(hit.hit);
  CHECK(hit.target == HitTarget::terrain);
  CHECK(world.to_global(hit.point).y == doctest::Approx(2.0).epsilon(1e-6));
}

} // namespace glide::test
