// resize and set_settings: the room rule, pinned at its boundary.
#include "approx.hpp"
#include "controller_scene.hpp"

using namespace glide;
using namespace glide::test;

namespace {

constexpr float k_crouched = 1.f, k_standing = 1.8f;

// A crouched controller whose feet are `floor_gap` above a floor (top y = 0), under a ceiling
// whose underside is `ceiling_gap` above the standing capsule's top.
struct Room {
  World world;
  Controller controller;
  Room(float floor_gap, float ceiling_gap)
      : controller((add_floor(world), world), {.height = k_crouched}, {0.f, floor_gap, 0.f}) {
    const float underside = floor_gap + k_standing + ceiling_gap;
    add_box(world, {-5.f, underside, -5.f}, {5.f, underside + 1.f, 5.f});
  }
};

} // namespace

TEST_CASE("resize needs the new capsule to overlap nothing: a ceiling 1 mm and 0.1 mm either side of the top") {
  const float floor_gap = ControllerSettings{}.skin_width; // where walking leaves the feet
  for (const float offset : {-1e-3f, -1e-4f, 1e-4f, 1e-3f}) {
    CAPTURE(offset);
    Room room(floor_gap, offset);
    const glm::vec3 before = room.controller.position();
    const bool stood = room.controller.resize(k_standing);
    CHECK(stood == (offset > 0.f));
    CHECK(room.controller.settings().height == (stood ? k_standing : k_crouched)); // a refusal changes nothing
    CHECK(room.controller.position() == before);
  }
  CHECK(Room(floor_gap, 1.f).controller.resize(k_standing));
}

TEST_CASE("the floor counts like any geometry: feet on it may resize, feet 1 mm into it may not") {
  CHECK(Room(0.f, 1.f).controller.resize(k_standing)); // a spawn exactly on the floor
  CHECK(Room(0.f, 1.f).controller.resize(0.9f));
  CHECK(Room(1e-3f, 1.f).controller.resize(k_standing));
  CHECK_FALSE(Room(-1e-3f, 1.f).controller.resize(k_standing));
  CHECK_FALSE(Room(-1e-3f, 1.f).controller.resize(0.9f)); // shrinking too
}

TEST_CASE("set_settings applies the same rule to a wider radius beside a wall") {
  World world;
  add_floor(world);
  add_box(world, {0.5f, 0.f, -5.f}, {1.5f, 3.f, 5.f}); // wall face at x = 0.5
  const ControllerSettings narrow{.radius = 0.3f};
  // Capsule surface 0.2 m from the wall: a radius of 0.5 m ± 1 mm overlaps it or not.
  Controller c(world, narrow, {0.f, narrow.skin_width, 0.f});
  ControllerSettings wide = narrow;
  wide.radius = 0.5f + 1e-3f;
  CHECK_FALSE(c.set_settings(wide));
  CHECK(c.settings().radius == narrow.radius);
  wide.radius = 0.5f - 1e-3f;
  CHECK(c.set_settings(wide));
  CHECK(c.settings().radius == wide.radius);
}

TEST_CASE("walking a floor, a ramp and steps, crouching and standing up are never refused") {
  World world;
  add_floor(world);
  const float rise = 2.f * std::tan(glm::radians(25.f));
  world.add_piece(gjk::ConvexHull::wedge({2.f, 0.5f * rise, 3.f}), {{1, 0, 0, 0}, {4.f, 0.5f * rise, 0.f}});
  add_box(world, {6.f, 0.f, -3.f}, {8.f, rise, 3.f}); // the ramp's top
  for (int i = 1; i <= 4; ++i)                        // and steps of 0.2 m down
    add_box(world, {8.f, 0.f, -3.f}, {8.f + 0.5f * i, rise - 0.2f * i, 3.f});
  Controller c(world, {}, {0.f, 0.f, 0.f});
  Player player{c, world};
  int tried = 0, refused = 0;
  for (int frame = 0; frame < 300; ++frame) {
    player.step({4.f, 0.f, 0.f}, k_dt);
    if (c.ground().state != GroundState::on_ground) continue;
    ++tried;
    refused += c.resize(k_crouched) ? 0 : 1;
    refused += c.resize(k_standing) ? 0 : 1;
  }
  CHECK(c.position().x > 10.f);
  CHECK(tried > 250);
  CHECK(refused == 0);
  CHECK(player.worst_gap >= -k_penetration_tolerance);
}
