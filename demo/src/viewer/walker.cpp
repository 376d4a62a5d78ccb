#include "walker.hpp"

#include <glide/error.hpp>

#include <glm/geometric.hpp>

#include <chrono>

namespace glide::viewer {
namespace {

std::vector<demo::MovingPiece> placed(World& world, std::vector<demo::MovingPiece> moving) {
  demo::place_pieces(world, moving, 0.f);
  world.update();
  return moving;
}

} // namespace

Walker::Walker(const World& world, const ControllerSettings& settings, const glm::vec3& spawn)
    : controller_(world, settings, spawn) {
  last_.position = spawn;
  last_.ground = controller_.ground();
}

Walker::Walker(World& world, std::vector<demo::MovingPiece> moving, const ControllerSettings& settings,
               const glm::vec3& spawn)
    : moving_world_(&world), moving_(placed(world, std::move(moving))), controller_(world, settings, spawn) {
  last_.position = spawn;
  last_.ground = controller_.ground();
}

std::string Walker::apply_settings(const ControllerSettings& settings) {
  try {
    if (controller_.set_settings(settings)) return "";
    return "shape change refused: no room for the new capsule here";
  } catch (const Error& e) {
    return e.what();
  }
}

const MoveResult& Walker::step(const FrameInput& input, const glm::vec3& forward, const glm::vec3& right, float dt) {
  glm::vec3 walk = input.walk.x * right + input.walk.y * forward;
  if (glm::length(walk) > 1.f) walk = glm::normalize(walk);
  const glm::vec3 velocity = walk * tuning.walk_speed;
  if (!moving_.empty()) {
    // The frame order: the pieces move first, so the character rides and is pushed this frame.
    if (pause_pieces) {
      demo::hold_pieces(*moving_world_, moving_, dt);
    } else {
      demo::move_pieces(*moving_world_, moving_, piece_time_, dt);
      piece_time_ += dt;
    }
    moving_world_->update();
  }
  player_.set_settings(tuning.player); // the panel edits the tuning between frames
  const auto start = std::chrono::steady_clock::now();
  last_ = player_.step(controller_, {.velocity = velocity, .jump = input.jump}, dt);
  const auto end = std::chrono::steady_clock::now();
  stats_.last_us = std::chrono::duration<double, std::micro>(end - start).count();
  stats_.average_us = stats_.average_us == 0.0 ? stats_.last_us : 0.98 * stats_.average_us + 0.02 * stats_.last_us;
  stats_.iterations = static_cast<int>(controller_.last_trace().iterations.size());
  stats_.motion = (velocity + controller_.settings().up * player_.vertical_speed()) * dt;
  return last_;
}

} // namespace glide::viewer
