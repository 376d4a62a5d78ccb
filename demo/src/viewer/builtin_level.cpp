#include "viewer.hpp"

#include <glide/gjk/convex_hull.hpp>

#include <glm/gtc/quaternion.hpp>

#include <cmath>

namespace glide::viewer {
namespace {

void add_box(World& world, const glm::vec3& centre, const glm::vec3& half, const glm::quat& rotation = {1, 0, 0, 0}) {
  world.add_piece(gjk::ConvexHull::box(half), gjk::Transform{rotation, centre});
}

} // namespace

ViewerLevel builtin_level() {
  ViewerLevel level;
  level.name = "built-in test level";
  level.spawn = {0.f, 0.05f, 0.f};
  World& w = level.world;
  add_box(w, {0.f, -0.5f, 0.f}, {30.f, 0.5f, 30.f}); // floor, top at y = 0
  // Boxes ahead of the spawn (the camera starts looking along -z).
  add_box(w, {-3.f, 0.5f, -6.f}, {0.5f, 0.5f, 0.5f});
  add_box(w, {3.f, 1.f, -8.f}, {1.f, 1.f, 1.f});
  add_box(w, {0.f, 1.5f, -14.f}, {4.f, 1.5f, 0.5f}); // wall
  // Stairs of 0.2 m rising along +x.
  for (int i = 0; i < 6; ++i)
    add_box(w, {6.f + 0.4f * static_cast<float>(i), 0.1f + 0.1f * static_cast<float>(i), -3.f},
            {0.2f, 0.1f + 0.1f * static_cast<float>(i), 1.f});
  // A 30 degree ramp and a 60 degree one (too steep to walk).
  add_box(w, {-7.f, 0.f, -3.f}, {2.f, 0.1f, 1.f}, glm::angleAxis(glm::radians(30.f), glm::vec3(0.f, 0.f, 1.f)));
  add_box(w, {-7.f, 0.f, 1.f}, {2.f, 0.1f, 1.f}, glm::angleAxis(glm::radians(60.f), glm::vec3(0.f, 0.f, 1.f)));
  return level;
}

} // namespace glide::viewer
