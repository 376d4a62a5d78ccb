// Moving pieces carry the characters standing on them: lifts that reverse and stop hard, a
// diagonal descent, a turning platform, walking on and off a moving platform. Each frame moves
// the pieces first (World::move_piece), then the character, as docs/controller.md tells.
#include "controller_scene.hpp"

#include <glide/limits.hpp>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <functional>

using namespace glide;
using namespace glide::test;

namespace {

constexpr glm::vec3 k_platform_half{2.f, 0.25f, 2.f};

/// A platform whose centre follows `path(t)` (m) and turns about y by `yaw(t)` (radians).
struct Platform {
  World& world;
  std::function<glm::vec3(float)> path;
  std::function<float(float)> yaw = [](float) { return 0.f; };
  PieceId id = world.add_piece(gjk::ConvexHull::box(k_platform_half), pose(0.f));

  gjk::Transform pose(float t) const { return {glm::angleAxis(yaw(t), glm::vec3(0.f, 1.f, 0.f)), path(t)}; }
  void move_to(float t, float dt) { world.move_piece(id, pose(t), dt); }
  /// Where `feet` sit in the platform's own frame at time t.
  glm::vec3 local(const glm::vec3& feet, float t) const { return pose(t).apply_inverse(feet); }
};

/// Up at 6 m/s for 0.5 s, a hard stop for 0.25 s, down at 6 m/s for 1 s, reversing at once to
/// up at 6 m/s for 0.5 s: every change of speed instant.
glm::vec3 lift_path(float t) {
  float y = 0.f;
  const auto leg = [&](float from, float to, float speed) {
    if (t > from) y += speed * (std::min(t, to) - from);
  };
  leg(0.f, 0.5f, 6.f);
  leg(0.75f, 1.75f, -6.f);
  leg(1.75f, 2.25f, 6.f);
  return {0.f, y, 0.f};
}

} // namespace

TEST_CASE("a lift at 6 m/s that stops hard and reverses carries its rider on the ground, glued to 1e-4 m") {
  for (const float hz : {30.f, 60.f, 144.f, 360.f}) {
    CAPTURE(hz);
    const float dt = 1.f / hz;
    World world;
    Platform lift{world, lift_path};
    Controller c(world, {}, {0.5f, k_platform_half.y + 0.005f, 0.f});
    Player player(c, world);
    for (int i = 0; i < 10; ++i) player.step({0, 0, 0}, dt); // settle on the still lift
    REQUIRE(c.ground().state == GroundState::on_ground);
    const glm::vec3 rest = lift.local(c.position(), 0.f);
    int off_ground = 0;
    float worst = 0.f;
    for (float t = dt; t <= 2.5f; t += dt) {
      lift.move_to(t, dt);
      const MoveResult r = player.step({0, 0, 0}, dt);
      off_ground += r.ground.state == GroundState::on_ground ? 0 : 1;
      worst = std::max(worst, glm::length(lift.local(r.position, t) - rest));
    }
    CHECK(off_ground == 0);
    CHECK(worst <= 1e-4f);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("a platform descending diagonally carries its rider without jitter") {
  const float dt = 1.f / 60.f;
  World world;
  add_floor(world, 50.f);
  Platform platform{world, [](float t) { return glm::vec3(2.f * t, 5.f - 2.f * t, 1.f * t); }};
  Controller c(world, {}, {0.f, 5.f + k_platform_half.y + 0.005f, 0.f});
  Player player(c, world);
  for (int i = 0; i < 10; ++i) player.step({0, 0, 0}, dt);
  const glm::vec3 rest = platform.local(c.position(), 0.f);
  float worst = 0.f;
  glm::vec3 ground_velocity(0.f);
  for (int frame = 1; frame <= 120; ++frame) {
    const float t = static_cast<float>(frame) * dt;
    platform.move_to(t, dt);
    const MoveResult r = player.step({0, 0, 0}, dt);
    REQUIRE(r.ground.state == GroundState::on_ground);
    worst = std::max(worst, glm::length(platform.local(r.position, t) - rest));
    ground_velocity = r.ground.velocity;
  }
  CHECK(worst <= 1e-4f);
  CHECK(glm::length(ground_velocity - glm::vec3(2.f, -2.f, 1.f)) < 1e-3f);
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}

TEST_CASE("an idle rider on a platform turning at 60 deg/s for 5 s stays put on it and turns with it") {
  const float dt = 1.f / 60.f;
  const float rate = glm::radians(60.f);
  World world;
  Platform turntable{world, [](float) { return glm::vec3(0.f); }, [rate](float t) { return rate * t; }};
  Controller c(world, {}, {1.5f, k_platform_half.y + 0.005f, 0.f});
  Player player(c, world);
  for (int i = 0; i < 10; ++i) player.step({0, 0, 0}, dt);
  const glm::vec3 rest = turntable.local(c.position(), 0.f);
  float yaw = 0.f, drift = 0.f;
  MoveResult r;
  for (int frame = 1; frame <= 300; ++frame) {
    const float t = static_cast<float>(frame) * dt;
    turntable.move_to(t, dt);
    r = player.step({0, 0, 0}, dt);
    REQUIRE(r.ground.state == GroundState::on_ground);
    yaw += r.yaw_delta;
    drift = std::max(drift, glm::length(turntable.local(r.position, t) - rest));
  }
  CHECK(drift <= 0.05f);
  CHECK(yaw == doctest::Approx(5.f * rate).epsilon(1e-4));
  // The ground's velocity is the turntable's at the feet: w x r, 1.5 m from the axis.
  const glm::vec3 expected = glm::cross(glm::vec3(0.f, rate, 0.f), r.ground.point - glm::vec3(0.f));
  CHECK(glm::length(r.ground.velocity - expected) < 1e-3f);
  CHECK(glm::length(r.ground.velocity) == doctest::Approx(rate * 1.5f).epsilon(0.02));
}

TEST_CASE("walking on a moving platform is relative to it") {
  const float dt = 1.f / 60.f;
  World world;
  Platform platform{world, [](float t) { return glm::vec3(2.f * t, 0.f, 0.f); }};
  Controller c(world, {}, {0.f, k_platform_half.y + 0.005f, -1.f});
  Player player(c, world);
  for (int i = 0; i < 10; ++i) player.step({0, 0, 0}, dt);
  const glm::vec3 start = platform.local(c.position(), 0.f);
  for (int frame = 1; frame <= 60; ++frame) {
    const float t = static_cast<float>(frame) * dt;
    platform.move_to(t, dt);
    REQUIRE(player.step({0.f, 0.f, 1.5f}, dt).ground.state == GroundState::on_ground);
  }
  const glm::vec3 walked = platform.local(c.position(), 1.f) - start;
  CHECK(walked.x == doctest::Approx(0.f).epsilon(0.01));
  CHECK(walked.z == doctest::Approx(1.5f).epsilon(0.01));
}

TEST_CASE("walking off a platform moving sideways at 3 m/s keeps its velocity, or not, as the setting says") {
  const float dt = 1.f / 60.f;
  for (const bool keep : {true, false}) {
    CAPTURE(keep);
    World world;
    add_floor(world, 50.f);
    Platform platform{world, [](float t) { return glm::vec3(3.f * t, 2.f, 0.f); }};
    Controller c(world, {}, {0.f, 2.f + k_platform_half.y + 0.005f, 1.f});
    Player player(c, world);
    player.player.set_settings({.keep_ground_velocity = keep});
    for (int i = 0; i < 10; ++i) player.step({0, 0, 0}, dt);
    float t = 0.f;
    MoveResult r;
    int frame = 0;
    for (; frame < 120 && c.ground().state != GroundState::in_air; ++frame) {
      t += dt;
      platform.move_to(t, dt);
      r = player.step({0.f, 0.f, 2.f}, dt);
    }
    REQUIRE(c.ground().state == GroundState::in_air);
    CHECK(glm::length(player.player.inherited_velocity() - glm::vec3(keep ? 3.f : 0.f, 0.f, 0.f)) < 1e-3f);
    // The next frames in the air: across, the feet move at the platform's speed plus the walk.
    const glm::vec3 before = c.position();
    for (int i = 0; i < 5; ++i) {
      t += dt;
      platform.move_to(t, dt);
      r = player.step({0.f, 0.f, 2.f}, dt);
    }
    REQUIRE(r.ground.state == GroundState::in_air);
    const glm::vec3 moved = (c.position() - before) / (5.f * dt);
    CHECK(moved.x == doctest::Approx(keep ? 3.f : 0.f).epsilon(0.01));
    CHECK(moved.z == doctest::Approx(2.f).epsilon(0.01));
  }
}

TEST_CASE("a lift carrying its rider into a ceiling stops the ride under it, never inside") {
  const float dt = 1.f / 60.f;
  World world;
  add_box(world, {-5.f, 3.f, -5.f}, {5.f, 3.5f, 5.f});
  Platform lift{world, [](float t) { return glm::vec3(0.f, std::min(2.f * t, 1.2f), 0.f); }};
  Controller c(world, {}, {0.f, k_platform_half.y + 0.005f, 0.f});
  Player player(c, world);
  for (int i = 0; i < 10; ++i) player.step({0, 0, 0}, dt);
  float top = 0.f;
  for (int frame = 1; frame <= 60; ++frame) {
    lift.move_to(static_cast<float>(frame) * dt, dt);
    player.step({0, 0, 0}, dt);
    top = std::max(top, c.position().y + c.settings().height);
  }
  CHECK(top <= 3.f);
  float gap = 1e9f;
  for (const Contact& contact : world.overlap_capsule(c.capsule(), 0.f))
    if (contact.target == HitTarget::piece && contact.piece != lift.id) gap = std::min(gap, contact.distance);
  CHECK(gap >= -k_penetration_tolerance);
}

namespace {

/// A door 1 m wide, 2 m tall and `thickness` thick, hinged on the vertical line through the
/// origin, lying along +x when closed and turning toward +z (open at -90 degrees about y).
struct Door {
  World& world;
  float thickness = 0.05f;
  PieceId id = world.add_piece(gjk::ConvexHull::box({0.5f, 1.f, 0.5f * thickness}), pose(0.f));

  static gjk::Transform pose(float angle) {
    const glm::quat turn = glm::angleAxis(angle, glm::vec3(0.f, 1.f, 0.f));
    return {turn, turn * glm::vec3(0.5f, 1.f, 0.f)};
  }
  void turn_to(float angle, float dt) { world.move_piece(id, pose(angle), dt); }
};

/// The deepest overlap of the capsule with piece `id` (m, <= 0 inside), or 1e9 when apart.
float gap_to(const World& world, const Controller& c, PieceId id) {
  float gap = 1e9f;
  for (const Contact& contact : world.overlap_capsule(c.capsule(), 0.f))
    if (contact.target == HitTarget::piece && contact.piece == id) gap = std::min(gap, contact.distance);
  return gap;
}

/// The deepest overlap of the capsule with any piece but `id` (m, <= 0 inside), or 1e9 when apart.
float deepest_gap_except(const World& world, const Controller& c, PieceId id) {
  float gap = 1e9f;
  for (const Contact& contact : world.overlap_capsule(c.capsule(), 0.f))
    if (contact.target != HitTarget::piece || contact.piece != id) gap = std::min(gap, contact.distance);
  return gap;
}

using glide::limits::finite;

} // namespace

TEST_CASE("a door swinging 90 degrees in 0.5 s into an idle character pushes it along, never inside") {
  for (const float hz : {30.f, 60.f, 144.f}) {
    CAPTURE(hz);
    const float dt = 1.f / hz;
    World world;
    add_floor(world);
    Door door{world};
    Controller c(world, {}, {0.5f, 0.f, 0.45f});
    Player player(c, world);
    for (int i = 0; i < 5; ++i) player.step({0, 0, 0}, dt);
    float worst = 1e9f;
    bool pushed = false;
    for (float t = dt; t <= 0.5f + 0.5f * dt; t += dt) {
      door.turn_to(-glm::half_pi<float>() * std::min(t / 0.5f, 1.f), dt);
      const MoveResult r = player.step({0, 0, 0}, dt);
      REQUIRE(finite(r.position));
      pushed = pushed || glm::length(r.pushed) > 0.f;
      worst = std::min(worst, gap_to(world, c, door.id));
    }
    CHECK(pushed);
    CHECK(worst >= -k_penetration_tolerance);
    CHECK(player.worst_gap >= -k_penetration_tolerance);
  }
}

TEST_CASE("a thin door turning 90 degrees in 0.1 s at 30 Hz does not pass through a character") {
  const float dt = 1.f / 30.f;
  World world;
  add_floor(world);
  Door door{world, 0.02f};
  Controller c(world, {}, {0.8f, 0.f, 0.4f}); // the door's tip passes 0.8 m from the hinge at 0.5 m per frame
  Player player(c, world);
  for (int i = 0; i < 3; ++i) player.step({0, 0, 0}, dt);
  for (int frame = 1; frame <= 3; ++frame) {
    door.turn_to(-glm::half_pi<float>() * std::min(static_cast<float>(frame) / 3.f, 1.f), dt);
    player.step({0, 0, 0}, dt);
    CHECK(gap_to(world, c, door.id) >= -k_penetration_tolerance);
  }
  // Open, the door lies along +z at x = 0: the character is on the side the door's face pushed
  // it to (-x), not behind it.
  CHECK(c.position().x < 0.f);
}

TEST_CASE("a door closing a gap narrower than the capsule crushes the character against the wall, and lets it go") {
  const float dt = 1.f / 60.f;
  World world;
  add_floor(world);
  const PieceId wall = add_box(world, {-1.5f, 0.f, -1.f}, {-0.5f, 2.5f, 2.f}); // 0.475 m from the open door
  Door door{world};
  Controller c(world, {}, {0.5f, 0.f, 0.45f});
  Player player(c, world);
  for (int i = 0; i < 5; ++i) player.step({0, 0, 0}, dt);
  bool crushed = false;
  for (int frame = 1; frame <= 60; ++frame) {
    door.turn_to(-glm::half_pi<float>() * std::min(static_cast<float>(frame) * dt / 0.5f, 1.f), dt);
    const MoveResult r = player.step({0, 0, 0}, dt);
    REQUIRE(finite(r.position));
    crushed = crushed || r.flags.crushed;
    CHECK(gap_to(world, c, wall) >= -k_penetration_tolerance); // never into the static wall
  }
  CHECK(crushed);
  // The door swings back: the character is let go and rests clear of both.
  MoveResult r;
  for (int frame = 1; frame <= 120; ++frame) {
    door.turn_to(-glm::half_pi<float>() * std::max(1.f - static_cast<float>(frame) * dt / 0.5f, 0.f), dt);
    r = player.step({0, 0, 0}, dt);
    REQUIRE(finite(r.position));
  }
  CHECK_FALSE(r.flags.crushed);
  CHECK(gap_to(world, c, wall) >= -k_penetration_tolerance);
  CHECK(gap_to(world, c, door.id) >= -k_penetration_tolerance);
  CHECK(c.ground().state == GroundState::on_ground);
}

TEST_CASE("two walls closing from both sides crush the character midway, then let it go") {
  // Two kinematic walls 1 m apart close at 1 m/s each to a gap of 0.4 m (the capsule is
  // 0.6 m wide), hold, then open again. Crushed, the character sits where both overlaps are
  // equal, (0.6 - 0.4) / 2 = 0.1 m each, whichever wall it met first; let go, it rests clear.
  for (const float hz : {30.f, 60.f, 144.f}) {
    CAPTURE(hz);
    const float dt = 1.f / hz;
    World world;
    add_floor(world);
    const glm::vec3 half{0.25f, 1.f, 1.f};
    const auto wall_at = [&](float x) { return gjk::Transform{{1.f, 0.f, 0.f, 0.f}, {x, 1.f, 0.f}}; };
    // Left face at -0.5 closing to -0.2, right face at 0.5 closing to 0.2; the character starts
    // nearer the right one, so the right wall meets it first.
    const auto face = [](float t) { return 0.5f - 0.3f * std::clamp(std::min(t, 1.5f - t) / 0.3f, 0.f, 1.f); };
    const PieceId left = world.add_piece(gjk::ConvexHull::box(half), wall_at(-face(0.f) - half.x), {.kinematic = true});
    const PieceId right = world.add_piece(gjk::ConvexHull::box(half), wall_at(face(0.f) + half.x), {.kinematic = true});
    Controller c(world, {}, {0.1f, 0.f, 0.f});
    Player player(c, world);
    for (int i = 0; i < 5; ++i) player.step({0, 0, 0}, dt);
    bool crushed = false;
    for (float t = dt; t <= 1.5f + 0.5f * dt; t += dt) {
      world.move_piece(left, wall_at(-face(t) - half.x), dt);
      world.move_piece(right, wall_at(face(t) + half.x), dt);
      const MoveResult r = player.step({0, 0, 0}, dt);
      REQUIRE(finite(r.position));
      crushed = crushed || r.flags.crushed;
      if (t > 0.45f && t < 1.0f) { // closed and held
        CAPTURE(t);
        CHECK(std::abs(r.position.x) <= 2e-3f);
        CHECK(std::abs(gap_to(world, c, left) - gap_to(world, c, right)) <= 2e-3f);
        CHECK(gap_to(world, c, left) >= -0.1f - 2e-3f);
      }
    }
    CHECK(crushed);
    for (int i = 0; i < 30; ++i) player.step({0, 0, 0}, dt);
    CHECK(gap_to(world, c, left) >= -k_penetration_tolerance);
    CHECK(gap_to(world, c, right) >= -k_penetration_tolerance);
    CHECK(c.ground().state == GroundState::on_ground);
  }
}

namespace {
// The deepest overlap of the capsule with the terrain (m, <= 0 inside), or 1e9 when apart.
float gap_to_terrain(const World& world, const Controller& c) {
  float gap = 1e9f;
  for (const Contact& contact : world.overlap_capsule(c.capsule(), 0.f))
    if (contact.target == HitTarget::terrain) gap = std::min(gap, contact.distance);
  return gap;
}
} // namespace

namespace {

// A 2 m x 0.5 m x 2 m slab descending at 1 m/s from 2.3 m onto a character standing at the
// origin, 0.5 m off its middle, until it stops 0.6 m into the capsule; `closet` walls the
// character in 5 mm beyond its capsule on every side. Each frame the character stays out of the
// ground and of the walls to the tolerance.
struct SlabDown {
  bool crushed = false;  ///< some move said flags.crushed
  float slab_gap = 1e9f; ///< the character's gap to the slab at the end (m; negative inside)
  glm::vec3 end{0.f};    ///< where the character ended (m)
};
SlabDown slab_coming_down(int ground, bool closet) {
  const float dt = 1.f / 60.f;
  World world;
  if (ground == 0)
    world.set_terrain(Heightfield({.rows = 9,
                                   .columns = 9,
                                   .heights = std::vector<float>(81, 0.f),
                                   .cell_size = {2.f, 2.f},
                                   .origin = {-8.f, 0.f, -8.f}}));
  else
    add_floor(world);
  const ControllerSettings s;
  if (closet) {
    const float in = s.radius + 0.005f;
    add_box(world, {-in - 0.5f, 0, -in - 0.5f}, {-in, 1.5f, in + 0.5f});
    add_box(world, {in, 0, -in - 0.5f}, {in + 0.5f, 1.5f, in + 0.5f});
    add_box(world, {-in, 0, -in - 0.5f}, {in, 1.5f, -in});
    add_box(world, {-in, 0, in}, {in, 1.5f, in + 0.5f});
  }
  const glm::vec3 half{1.f, 0.25f, 1.f};
  const auto slab_at = [&](float t) {
    return gjk::Transform{{1.f, 0.f, 0.f, 0.f}, {0.5f, 2.3f - std::min(t, 1.1f), 0.f}};
  };
  const PieceId slab = world.add_piece(gjk::ConvexHull::box(half), slab_at(0.f), {.kinematic = true});
  Controller c(world, s, {0.f, ground == 2 ? 0.5f * s.skin_width : s.skin_width, 0.f});
  Player player(c, world);
  SlabDown out;
  for (float t = dt; t <= 1.6f; t += dt) {
    CAPTURE(t);
    world.move_piece(slab, slab_at(t), dt);
    const MoveResult r = player.step({0, 0, 0}, dt);
    REQUIRE(finite(r.position));
    out.crushed = out.crushed || r.flags.crushed;
    const float gap = ground == 0 ? std::min(gap_to_terrain(world, c), deepest_gap_except(world, c, slab))
                                  : deepest_gap_except(world, c, slab);
    CHECK(gap >= -k_penetration_tolerance);
  }
  out.end = c.position();
  for (const Contact& contact : world.overlap_capsule(c.capsule(), 0.f))
    if (contact.target == HitTarget::piece && contact.piece == slab) out.slab_gap = contact.distance;
  return out;
}

} // namespace

TEST_CASE("a slab coming down on a character squeezes it out sideways, never into the ground") {
  // The ground (terrain, a floor, or a floor the character stands on closer than the skin) does
  // not let it go down, so the slab squeezes it out the shortest free way across: 0.5 m off
  // the slab's middle, that is toward -x, by the 0.5 m to the slab's edge and the radius.
  for (const int ground : {0, 1, 2}) {
    CAPTURE(ground);
    const SlabDown d = slab_coming_down(ground, false);
    CHECK_FALSE(d.crushed);
    CHECK(d.slab_gap >= -k_penetration_tolerance);
    CHECK(d.end.x == doctest::Approx(-0.5f - ControllerSettings{}.radius).epsilon(0.05));
    CHECK(std::abs(d.end.z) < 1e-3f);
  }
}

TEST_CASE("a slab coming down on a character walled in crushes it, never into the ground or the walls") {
  for (const int ground : {0, 1, 2}) {
    CAPTURE(ground);
    const SlabDown d = slab_coming_down(ground, true);
    CHECK(d.crushed);
    CHECK(d.slab_gap < -0.1f); // held inside the slab: no way out
  }
}

TEST_CASE("a thin slab coming down on a character beside a wall squeezes it out along the wall") {
  // A lift's 20 cm deck comes down onto a character standing on the floor against a wall. Its
  // shortest way out is into the wall, which is not free; the next is along the wall, toward
  // +x, by the 0.37 m to the deck's edge and the radius.
  const float dt = 1.f / 60.f;
  World world;
  add_floor(world);
  add_box(world, {-2.f, 0.f, -4.5f}, {2.f, 3.2f, -1.05f}); // the wall, its face at z = -1.05
  const auto deck_at = [](float t) {
    return gjk::Transform{{1.f, 0.f, 0.f, 0.f}, {0.f, std::max(2.5f - t, 0.1f), 0.f}};
  };
  const PieceId deck = world.add_piece(gjk::ConvexHull::box({1.f, 0.1f, 1.f}), deck_at(0.f), {.kinematic = true});
  const ControllerSettings s;
  Controller c(world, s, {0.63f, s.skin_width, -1.05f + s.radius + s.skin_width});
  Player player(c, world);
  for (float t = dt; t <= 3.f; t += dt) {
    CAPTURE(t);
    world.move_piece(deck, deck_at(t), dt);
    const MoveResult r = player.step({0, 0, 0}, dt);
    REQUIRE(finite(r.position));
    CHECK_FALSE(r.flags.crushed);
    CHECK(deepest_gap(world, c) >= -k_penetration_tolerance); // never into the deck, floor or wall
  }
  CHECK(c.position().x == doctest::Approx(1.f + s.radius).epsilon(0.05));
  CHECK(c.position().z == doctest::Approx(-1.05f + s.radius + s.skin_width).epsilon(0.01));
}
