#pragma once

#include "input.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/world/world.hpp>

#include <glm/vec3.hpp>

#include <string>

namespace glide::viewer {

/// The game side of the character: walking speed, gravity and jumping (the controller leaves
/// them to the game), plus what the stats panel shows about each move.
struct WalkerTuning {
  float walk_speed = 4.f;                                     ///< (m/s)
  PlayerSettings player{.gravity = 15.f, .jump_speed = 5.5f}; ///< gravity and jumps
};

struct MoveStats {
  double last_us = 0.0;    ///< time of the last Controller::move (microseconds)
  double average_us = 0.0; ///< exponential average over about 60 moves (microseconds)
  int iterations = 0;      ///< slide iterations of the last move
  glm::vec3 motion{0.f};   ///< motion requested by the last move: velocity * dt (m)
};

class Walker {
public:
  Walker(const World& world, const ControllerSettings& settings, const glm::vec3& spawn);

  /// One frame: turns `input` into a velocity along the camera's axes, applies gravity and
  /// jumps, moves the controller.
  const MoveResult& step(const FrameInput& input, const glm::vec3& forward, const glm::vec3& right, float dt);

  /// Hands edited settings to Controller::set_settings. Returns why they were not taken (out
  /// of their limits, or a bigger capsule without room where it stands), or "" when they were.
  std::string apply_settings(const ControllerSettings& settings);

  Controller& controller() { return controller_; }
  const Controller& controller() const { return controller_; }
  const MoveResult& last() const { return last_; }
  const MoveStats& stats() const { return stats_; }
  WalkerTuning tuning;

private:
  Controller controller_;
  MoveResult last_;
  MoveStats stats_;
  PlayerStep player_;
};

} // namespace glide::viewer
