// The world and the controller driven by fuzzed geometry and moves: up to 8 boxes and wedges,
// then up to 64 frames of velocities to 100 m/s, dt from 1/360 to 1/15 s, teleports, resizes
// and jumps. Checks each frame: a finite state, and, while no teleport or resize has placed
// the capsule into geometry, no overlap deeper than the skin.
#include "fuzz_support.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

using glide::limits::finite;

float deepest(const glide::World& world, const glide::gjk::Capsule& capsule) {
  float depth = 0.f;
  for (const glide::Contact& c : world.overlap_capsule(capsule, 0.f)) depth = std::max(depth, -c.distance);
  return depth;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  glide::fuzz::Reader in(data, size);
  glide::World world;
  // A floor, then the fuzzed pieces.
  world.add_piece(glide::gjk::ConvexHull::box({60.f, 1.f, 60.f}), {{1.f, 0.f, 0.f, 0.f}, {0.f, -1.f, 0.f}});
  const int pieces = in.byte() % 9;
  for (int i = 0; i < pieces; ++i) {
    const glm::vec3 half = in.vec(0.05f, 20.f);
    glide::gjk::Transform t;
    t.translation = in.vec(-30.f, 30.f);
    t.rotation = glm::angleAxis(in.range(0.f, 6.3f), glm::vec3(0.f, 1.f, 0.f));
    world.add_piece(in.byte() % 2 ? glide::gjk::ConvexHull::box(half) : glide::gjk::ConvexHull::wedge(half), t);
  }
  glide::ControllerSettings settings;
  settings.radius = in.range(0.1f, 0.6f);
  settings.height = in.range(2.f * settings.radius + settings.step_height, 3.f);
  glide::Controller controller(world, settings, in.vec(-40.f, 40.f) + glm::vec3(0.f, 5.f, 0.f));
  glide::PlayerStep step;
  // Overlap at the spawn is allowed; it is then recovered and not checked.
  bool placed_clear = deepest(world, controller.capsule()) <= 0.f;
  for (int frame = 0; frame < 64 && !in.done(); ++frame) {
    const std::uint8_t op = in.byte();
    if (op % 16 == 0) {
      controller.teleport(in.vec(-40.f, 40.f) + glm::vec3(0.f, 2.f, 0.f));
      placed_clear = deepest(world, controller.capsule()) <= 0.f;
      continue;
    }
    if (op % 16 == 1) {
      try {
        if (controller.resize(in.range(2.f * settings.radius + settings.step_height, 3.f)))
          placed_clear = placed_clear && deepest(world, controller.capsule()) <= 0.f;
      } catch (const glide::Error&) {
      }
      continue;
    }
    const glm::vec3 velocity = in.vec(-100.f, 100.f);
    const float dt = in.range(1.f / 360.f, 1.f / 15.f);
    const glide::MoveResult r = step.step(controller, {velocity, op % 16 == 2}, dt);
    if (!finite(r.position) || !finite(controller.position()) || !finite(r.velocity)) std::abort();
    if (placed_clear && deepest(world, controller.capsule()) > settings.skin_width + 1e-3f) std::abort();
  }
  return 0;
}
