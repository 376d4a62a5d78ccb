#include "walker.hpp"

#include <glide/gjk/error.hpp>

#include <glm/geometric.hpp>

#include <chrono>

namespace glide::viewer {

Walker::Walker(const World& world, const ControllerSettings& settings, const glm::vec3& spawn)
    : controller_(world, settings, spawn) {
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
  const bool grounded = controller_.ground().state == GroundState::on_ground;
  if (grounded) {
    vertical_speed_ = input.jump ? tuning.jump_speed : 0.f;
  } else {
    vertical_speed_ -= tuning.gravity * dt;
  }
  const glm::vec3 velocity = walk * tuning.walk_speed + glm::vec3(0.f, vertical_speed_, 0.f);

  const auto start = std::chrono::steady_clock::now();
  last_ = controller_.move(velocity, dt);
  const auto end = std::chrono::steady_clock::now();

  // The controller takes away what contacts blocked: a ceiling stops the rise, ground the fall.
  vertical_speed_ = last_.velocity.y;
  stats_.last_us = std::chrono::duration<double, std::micro>(end - start).count();
  stats_.average_us = stats_.average_us == 0.0 ? stats_.last_us : 0.98 * stats_.average_us + 0.02 * stats_.last_us;
  stats_.iterations = static_cast<int>(controller_.last_trace().iterations.size());
  stats_.motion = velocity * dt;
  return last_;
}

} // namespace glide::viewer
