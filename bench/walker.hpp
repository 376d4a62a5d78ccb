#pragma once

// A game-like walker for the controller benchmarks: steers through a square loop of waypoints
// at 3 m/s with gravity (PlayerStep at 60 Hz); a waypoint not reached in 5 s is skipped (the
// loops cross obstacles).

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>

#include <array>
#include <chrono>
#include <cstddef>

namespace glide::bench {

struct Walker {
  static constexpr float k_dt = 1.f / 60.f; ///< frame time (s)

  glide::Controller controller;
  std::array<glm::vec3, 4> loop;
  int target = 0;
  int frames_on_target = 0;
  glide::PlayerStep player;
  int frames_in_contact = 0; ///< frames whose move hit something besides the ground

  /// Starts `lift` m above `center`, the loop `size` m around it.
  Walker(const glide::World& world, const glm::vec3& center, float size, float lift)
      : controller(world, {}, center + glm::vec3(0, lift, 0)), loop{center + glm::vec3(size, 0, size),
                                                                    center + glm::vec3(-size, 0, size),
                                                                    center + glm::vec3(-size, 0, -size),
                                                                    center + glm::vec3(size, 0, -size)} {}

  /// One frame; returns the time spent in PlayerStep::step, the move with gravity (us).
  double step() {
    glm::vec3 to = loop[static_cast<std::size_t>(target)] - controller.position();
    to.y = 0.f;
    if (glm::length(to) < 0.5f || ++frames_on_target > 300) {
      target = (target + 1) % 4;
      frames_on_target = 0;
    }
    const float length = glm::length(to);
    const glm::vec3 walk = length > 1e-3f ? to * (3.f / length) : glm::vec3(0.f);
    const auto start = std::chrono::steady_clock::now();
    const glide::MoveResult r = player.step(controller, {.velocity = walk}, k_dt);
    const auto end = std::chrono::steady_clock::now();
    frames_in_contact += r.flags.sides || r.flags.above;
    return std::chrono::duration<double, std::micro>(end - start).count();
  }
};

} // namespace glide::bench
