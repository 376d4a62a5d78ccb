#pragma once

#include "input.hpp"
#include "moving_pieces.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/world/world.hpp>

#include <glm/vec3.hpp>

#include <string>
#include <vector>

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
  /// With moving pieces: each frame moves them first (or holds them while pause_pieces), then
  /// the character. They are placed at their pose at time 0; the world must outlive the walker.
  Walker(World& world, std::vector<demo::MovingPiece> moving, const ControllerSettings& settings,
         const glm::vec3& spawn);

  /// One frame: moves the moving pieces, then turns `input` into a velocity along the camera's
  /// axes, applies gravity and jumps, moves the controller.
  const MoveResult& step(const FrameInput& input, const glm::vec3& forward, const glm::vec3& right, float dt);

  /// Hands edited settings to Controller::set_settings. Returns why they were not taken (out
  /// of their limits, or a bigger capsule without room where it stands), or "" when they were.
  std::string apply_settings(const ControllerSettings& settings);

  Controller& controller() { return controller_; }
  const Controller& controller() const { return controller_; }
  const MoveResult& last() const { return last_; }
  const MoveStats& stats() const { return stats_; }
  const std::vector<demo::MovingPiece>& moving_pieces() const { return moving_; }
  /// The moving pieces' clock: how long they have moved, pauses left out (s).
  float piece_time() const { return piece_time_; }
  WalkerTuning tuning;
  bool pause_pieces = false; ///< the moving pieces stand still (and carry nothing) while set

private:
  World* moving_world_ = nullptr; // set with moving pieces
  std::vector<demo::MovingPiece> moving_;
  float piece_time_ = 0.f; // (s)
  Controller controller_;
  MoveResult last_;
  MoveStats stats_;
  PlayerStep player_;
};

} // namespace glide::viewer
