#include <glide/controller/player_step.hpp>
#include <glide/error.hpp>

#include <glm/geometric.hpp>

#include <cmath>
#include <string>

namespace glide {

PlayerStep::PlayerStep(const PlayerSettings& settings) { set_settings(settings); }

void PlayerStep::set_settings(const PlayerSettings& settings) {
  validate(settings);
  settings_ = settings;
}

void PlayerStep::launch(float vertical_speed) {
  if (!std::isfinite(vertical_speed))
    throw Error("PlayerStep::launch: vertical speed " + std::to_string(vertical_speed) + " is not finite");
  vertical_ = vertical_speed;
  launched_ = true;
}

MoveResult PlayerStep::step(Controller& controller, const PlayerInput& input, float dt) {
  const glm::vec3& up = controller.settings().up;
  float vertical = vertical_;
  bool jumped = false;
  if (!launched_ && controller.ground().state == GroundState::on_ground) {
    jumped = input.jump;
    vertical = jumped ? settings_.jump_speed : 0.f;
  }
  vertical -= settings_.gravity * dt;
  const float input_up = glm::dot(input.velocity, up);
  // The state changes only once the move has taken its input (it throws for a bad one).
  MoveResult r = controller.move(input.velocity + up * vertical, dt);
  launched_ = false;
  jumped_ = jumped;
  vertical_ = glm::dot(r.velocity, up) - input_up;
  return r;
}

} // namespace glide
