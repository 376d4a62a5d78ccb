// Analytic sweep and ray scenarios on hand-built worlds, for both time-of-impact methods.
#include "approx.hpp"
#include "world_levels.hpp"

#include <glide/world/world.hpp>

#include <cmath>
#include <vector>

using glide::HitTarget;
using glide::PieceId;
using glide::SweepSettings;
using glide::ToiMethod;
using glide::World;
using glide::gjk::Capsule;
using glide::test::add_box;

namespace {

// Vertical capsule: lower sphere centre at `base`, segment 1 m long.
Capsule upright(const glm::vec3& base, float radius = 0.5f) {
  return Capsule{{base, base + glm::vec3(0, 1, 0)}, radius};
}

// A time of impact stops at most one tolerance (1e-4 m) before contact, never after.
void check_fraction(float actual, float expected, const glm::vec3& motion) {
  const float early = 1e-4f / glm::length(motion);
  CHECK(actual <= expected + 2e-6f);
  CHECK(actual >= expected - early - 2e-6f);
}

glide::Heightfield ramp_terrain(float (*height)(float x)) {
  std::vector<float> h(21 * 21);
  for (int r = 0; r < 21; ++r)
    for (int c = 0; c < 21; ++c) h[static_cast<std::size_t>(r * 21 + c)] = height(static_cast<float>(c - 10));
  return glide::Heightfield({.rows = 21, .columns = 21, .heights = h, .origin = {-10, 0, -10}});
}

const ToiMethod k_methods[] = {ToiMethod::conservative_advancement, ToiMethod::bisection};

} // namespace

TEST_CASE("Sweep head-on into a box face") {
  World world;
  const PieceId box = add_box(world, {4, 0, -1}, {6, 2, 1});
  for (ToiMethod method : k_methods) {
    const glm::vec3 motion{10, 0, 0};
    const auto hit = world.sweep_capsule(upright({0, 0.5f, 0}), motion, {}, {.method = method});
    REQUIRE(hit.hit);
    CHECK(hit.target == HitTarget::piece);
    CHECK(hit.piece == box);
    check_fraction(hit.fraction, 0.35f, motion);
    CHECK_APPROX(hit.normal, glm::vec3(-1, 0, 0), 1e-3f);
    CHECK_APPROX(hit.point.x, 4.f, 2e-4f);
    CHECK_FALSE(hit.started_overlapped);
    // Stopping short by a motion that ends before the face: no hit.
    CHECK_FALSE(world.sweep_capsule(upright({0, 0.5f, 0}), {3.4f, 0, 0}, {}, {.method = method}).hit);
  }
}

TEST_CASE("Sweep grazing the top edge of a box: hit just below, miss just above") {
  World world;
  add_box(world, {-1, -1, -1}, {1, 1, 1});
  for (ToiMethod method : k_methods) {
    const glm::vec3 motion{10, 0, 0};
    const auto hit = world.sweep_capsule(upright({-5, 1.49f, 0}), motion, {}, {.method = method});
    REQUIRE(hit.hit);
    // The lower sphere (centre 0.49 m above the top) touches the edge x = -1, y = 1.
    const float dx = std::sqrt(0.25f - 0.49f * 0.49f);
    check_fraction(hit.fraction, (-1.f - dx + 5.f) / 10.f, motion);
    CHECK_APPROX(hit.normal, glm::normalize(glm::vec3(-dx, 0.49f, 0)), 2e-3f);
    CHECK_APPROX(hit.point, glm::vec3(-1, 1, 0), 2e-3f);
    CHECK_FALSE(world.sweep_capsule(upright({-5, 1.51f, 0}), motion, {}, {.method = method}).hit);
  }
}

TEST_CASE("Sweep into a corner: the earliest face wins; simultaneous hits go to the smaller id") {
  const glm::vec3 motion{5, 0, 5};
  for (ToiMethod method : k_methods) {
    World world;
    const PieceId a = add_box(world, {3, 0, -5}, {4, 2, 5});  // face x = 3, reached at t = 0.5
    const PieceId b = add_box(world, {-5, 0, 4}, {10, 2, 5}); // face z = 4, reached at t = 0.7
    auto hit = world.sweep_capsule(upright({0, 0.5f, 0}), motion, {}, {.method = method});
    REQUIRE(hit.hit);
    CHECK(hit.piece == a);
    check_fraction(hit.fraction, 0.5f, motion);
    CHECK_APPROX(hit.normal, glm::vec3(-1, 0, 0), 1e-3f);
    // Filtered out by layer or predicate, the other wall is next.
    hit = world.sweep_capsule(upright({0, 0.5f, 0}), motion, {.accept = [a](PieceId id) { return id != a; }},
                              {.method = method});
    CHECK(hit.piece == b);
    check_fraction(hit.fraction, 0.7f, motion);
    (void)b;
  }
  // Two faces reached at the same time (x = 3 and z = 3 at t = 0.5), added in both orders:
  // the piece with the smaller id wins either way, whatever the hierarchy's order.
  for (int order = 0; order < 2; ++order) {
    for (ToiMethod method : k_methods) {
      World world;
      PieceId x_wall, z_wall;
      if (order == 0) {
        x_wall = add_box(world, {3, 0, -5}, {4, 2, 2.9f});
        z_wall = add_box(world, {-5, 0, 3}, {2.9f, 2, 4});
      } else {
        z_wall = add_box(world, {-5, 0, 3}, {2.9f, 2, 4});
        x_wall = add_box(world, {3, 0, -5}, {4, 2, 2.9f});
      }
      const auto hit = world.sweep_capsule(upright({0, 0.5f, 0}), motion, {}, {.method = method});
      REQUIRE(hit.hit);
      CHECK(hit.piece == PieceId{0});
      check_fraction(hit.fraction, 0.5f, motion);
      CHECK_APPROX(hit.normal, order == 0 ? glm::vec3(-1, 0, 0) : glm::vec3(0, 0, -1), 1e-3f);
      (void)x_wall;
      (void)z_wall;
    }
  }
}

TEST_CASE("Sweep along a floor of adjacent tiles does not catch on the seams") {
  World world;
  for (int i = -5; i < 5; ++i)
    for (int j = -5; j < 5; ++j)
      add_box(world, {static_cast<float>(i), -0.2f, static_cast<float>(j)},
              {static_cast<float>(i + 1), 0.f, static_cast<float>(j + 1)});
  for (ToiMethod method : k_methods) {
    // Touching the floor (gap 0) and sliding: the start contact is not approached. The next
    // tile is touched exactly at a seam; if that counts as a hit, its normal is the floor's,
    // never an edge normal facing the motion (no ghost collision), so sliding goes on.
    const auto touch = world.sweep_capsule(upright({-4.3f, 0.5f, -4.1f}), {8, 0, 3}, {}, {.method = method});
    if (touch.hit) CHECK_APPROX(touch.normal, glm::vec3(0, 1, 0), 1e-3f);
    // Hovering 1 mm above it: no hit either.
    CHECK_FALSE(world.sweep_capsule(upright({-4.3f, 0.501f, -4.1f}), {8, 0, 3}, {}, {.method = method}).hit);
    // Descending onto it: the floor's normal, not an edge's, wherever the seam is.
    const glm::vec3 motion{6, -0.5f, 2};
    const auto hit = world.sweep_capsule(upright({-4.3f, 0.501f, -4.1f}), motion, {}, {.method = method});
    REQUIRE(hit.hit);
    check_fraction(hit.fraction, 0.001f / 0.5f, motion);
    CHECK_APPROX(hit.normal, glm::vec3(0, 1, 0), 1e-3f);
  }
  // A ray down exactly through a seam lands on the floor.
  const auto ray = world.raycast({0, 5, 0}, {0, -1, 0}, 10.f);
  REQUIRE(ray.hit);
  CHECK_APPROX(ray.t, 5.f, 2e-4f);
  CHECK_APPROX(ray.normal, glm::vec3(0, 1, 0), 1e-3f);
}

TEST_CASE("Sweep at 100 m/s does not tunnel through a 1 cm wall") {
  World world;
  const PieceId wall = add_box(world, {10, 0, -5}, {10.01f, 3, 5});
  for (ToiMethod method : k_methods) {
    const glm::vec3 frame{100.f / 60.f, 0, 0}; // one 60 Hz frame
    auto hit = world.sweep_capsule(upright({9, 0.5f, 0}), frame, {}, {.method = method});
    REQUIRE(hit.hit);
    CHECK(hit.piece == wall);
    check_fraction(hit.fraction, 0.5f / frame.x, frame);
    const glm::vec3 long_step{50, 0, 0}; // half a second
    hit = world.sweep_capsule(upright({0, 0.5f, 0}), long_step, {}, {.method = method});
    REQUIRE(hit.hit);
    check_fraction(hit.fraction, 9.5f / 50.f, long_step);
    CHECK_APPROX(hit.normal, glm::vec3(-1, 0, 0), 1e-3f);
  }
}

TEST_CASE("Sweep starting in contact: blocked when approaching, free when leaving or sliding") {
  World world;
  add_box(world, {4, 0, -1}, {6, 2, 1});
  const Capsule touching = upright({3.5f, 0.5f, 0});
  for (ToiMethod method : k_methods) {
    const SweepSettings s{.method = method};
    const auto hit = world.sweep_capsule(touching, {1, 0, 0}, {}, s);
    REQUIRE(hit.hit);
    CHECK(hit.fraction == 0.f);
    CHECK(hit.started_overlapped);
    CHECK_APPROX(hit.normal, glm::vec3(-1, 0, 0), 1e-3f);
    CHECK_FALSE(world.sweep_capsule(touching, {-1, 0, 0}, {}, s).hit);
    CHECK_FALSE(world.sweep_capsule(touching, {0, 0, 1}, {}, s).hit);
    SweepSettings strict = s;
    strict.ignore_separating = false;
    CHECK(world.sweep_capsule(touching, {-1, 0, 0}, {}, strict).fraction == 0.f);
  }
}

TEST_CASE("Sweep starting overlapped: fraction 0 with the penetration normal") {
  World world;
  add_box(world, {4, 0, -1}, {6, 2, 1});
  for (ToiMethod method : k_methods) {
    // The segment is 0.2 m inside the face x = 4: the shortest way out is -x.
    const auto hit = world.sweep_capsule(upright({4.2f, 0.5f, 0}), {1, 0, 0}, {}, {.method = method});
    REQUIRE(hit.hit);
    CHECK(hit.fraction == 0.f);
    CHECK(hit.started_overlapped);
    CHECK_APPROX(hit.normal, glm::vec3(-1, 0, 0), 1e-3f);
  }
}

TEST_CASE("Sweep against terrain: a 26.6 degree slope and a cliff") {
  for (ToiMethod method : k_methods) {
    World slope;
    slope.set_terrain(ramp_terrain([](float x) { return std::max(0.f, 0.5f * x); }));
    const glm::vec3 motion{10, 0, 0};
    auto hit = slope.sweep_capsule(upright({-3, 1, 0}), motion, {}, {.method = method});
    REQUIRE(hit.hit);
    CHECK(hit.target == HitTarget::terrain);
    // Plane y = x / 2: the lower sphere centre (x, 1) is 0.5 m away at x = 2 (1 - sqrt(1.25) / 2).
    check_fraction(hit.fraction, (2.f * (1.f - 0.5f * std::sqrt(1.25f)) + 3.f) / 10.f, motion);
    CHECK_APPROX(hit.normal, glm::normalize(glm::vec3(-0.5f, 1, 0)), 1e-3f);

    World cliff;
    cliff.set_terrain(ramp_terrain([](float x) { return x >= 6.f ? 3.f : 0.f; }));
    hit = cliff.sweep_capsule(upright({0, 1, 0}), motion, {}, {.method = method});
    REQUIRE(hit.hit);
    // Face through (5, 0) and (6, 3): -3 (x - 5) + 1 = 0.5 sqrt(10).
    check_fraction(hit.fraction, (5.f - (0.5f * std::sqrt(10.f) - 1.f) / 3.f) / 10.f, motion);
    CHECK_APPROX(hit.normal, glm::normalize(glm::vec3(-3, 1, 0)), 1e-3f);
    CHECK_APPROX(hit.point, glm::vec3(5.f + 0.841886f / 3.f, 0.841886f, 0), 2e-3f);
    // Terrain on a layer the query does not ask for is ignored.
    cliff.set_terrain(ramp_terrain([](float x) { return x >= 6.f ? 3.f : 0.f; }), 2u);
    CHECK_FALSE(cliff.sweep_capsule(upright({0, 1, 0}), motion, {.layer_mask = 1u}, {.method = method}).hit);
  }
}

TEST_CASE("Sweep: a piece and terrain hit at the same time resolve to the piece") {
  World world;
  world.set_terrain(ramp_terrain([](float) { return 0.f; }));
  const PieceId floor = add_box(world, {-3, -1, -3}, {3, 0, 3}); // top face flush with the terrain
  const auto hit = world.sweep_capsule(upright({0, 1, 0}), {0, -1, 0});
  REQUIRE(hit.hit);
  CHECK(hit.target == HitTarget::piece);
  CHECK(hit.piece == floor);
  check_fraction(hit.fraction, 0.5f, {0, -1, 0});
}

TEST_CASE("Overlap and closest report distances, normals and depth") {
  World world;
  const PieceId wall = add_box(world, {4, 0, -1}, {6, 2, 1});
  const PieceId floor = add_box(world, {-5, -1, -5}, {5, 0, 5});
  // 0.3 m from the wall, 0.1 m above the floor.
  const Capsule c = upright({3.2f, 0.6f, 0});
  auto contacts = world.overlap_capsule(c, 0.05f);
  REQUIRE(contacts.size() == 0);
  contacts = world.overlap_capsule(c, 0.5f);
  REQUIRE(contacts.size() == 2);
  CHECK(contacts[0].piece == wall);
  CHECK_APPROX(contacts[0].distance, 0.3f, 1e-5f);
  CHECK_APPROX(contacts[0].normal, glm::vec3(-1, 0, 0), 1e-5f);
  CHECK(contacts[0].depth == 0.f);
  CHECK(contacts[1].piece == floor);
  CHECK_APPROX(contacts[1].distance, 0.1f, 1e-5f);
  CHECK_APPROX(contacts[1].normal, glm::vec3(0, 1, 0), 1e-5f);
  CHECK_APPROX(contacts[1].point_on_piece, glm::vec3(3.2f, 0, 0), 1e-5f);

  // closest: nearest first, capped.
  auto nearest = world.closest(c, 1.f, {}, 1);
  REQUIRE(nearest.size() == 1);
  CHECK(nearest[0].piece == floor);

  // The segment 0.2 m inside the wall: depth 0.2, distance -(0.2 + radius).
  contacts = world.overlap_capsule(upright({4.2f, 0.6f, 0}), 0.f, {.layer_mask = 1u});
  REQUIRE(contacts.size() >= 1);
  CHECK(contacts[0].piece == wall);
  CHECK_APPROX(contacts[0].depth, 0.2f, 1e-4f);
  CHECK_APPROX(contacts[0].distance, -0.7f, 1e-4f);
  CHECK_APPROX(contacts[0].normal, glm::vec3(-1, 0, 0), 1e-4f);
}

TEST_CASE("Raycast hits pieces and terrain, first hit wins") {
  World world;
  world.set_terrain(ramp_terrain([](float) { return 0.f; }));
  const PieceId box = add_box(world, {-1, 0, -1}, {1, 2, 1});
  auto ray = world.raycast({0, 10, 0}, {0, -1, 0}, 20.f);
  REQUIRE(ray.hit);
  CHECK(ray.piece == box);
  CHECK_APPROX(ray.t, 8.f, 2e-4f);
  CHECK_APPROX(ray.normal, glm::vec3(0, 1, 0), 1e-3f);
  ray = world.raycast({3, 10, 0}, {0, -2, 0}, 20.f);
  REQUIRE(ray.hit);
  CHECK(ray.target == HitTarget::terrain);
  CHECK_APPROX(ray.t, 5.f, 1e-5f);
  CHECK_FALSE(world.raycast({3, 10, 0}, {0, -1, 0}, 9.f).hit);
  CHECK_FALSE(world.raycast({0, 10, 0}, {0, 0, 0}, 9.f).hit);
}

TEST_CASE("Queries on bad input report no hit and never throw") {
  World world;
  add_box(world, {-1, -1, -1}, {1, 1, 1});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(world.sweep_capsule(upright({nan, 0, 0}), {1, 0, 0}).hit);
  CHECK_FALSE(world.sweep_capsule(upright({-5, 0, 0}), {nan, 0, 0}).hit);
  CHECK_FALSE(world.sweep_capsule(upright({-5, 0, 0}, -1.f), {10, 0, 0}).hit);
  CHECK(world.overlap_capsule(upright({0, 0, 0}), nan).empty());
  CHECK_FALSE(world.raycast({0, 5, 0}, {0, -1, 0}, nan).hit);
  // No motion: only a start contact can be a hit.
  CHECK_FALSE(world.sweep_capsule(upright({-5, 0, 0}), {0, 0, 0}).hit);
}
