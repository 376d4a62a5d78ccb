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
  const GroundInfo ground = controller.ground();
  float vertical = vertical_;
  bool jumped = false;
  if (!launched_ && ground.state == GroundState::on_ground) {
    jumped = input.jump;
    vertical = jumped ? settings_.jump_speed : 0.f;
  }
  vertical -= settings_.gravity * dt;
  const glm::vec3 inherited = ground.state == GroundState::in_air ? inherited_ : glm::vec3(0.f);
  const float input_up = glm::dot(input.velocity, up);
  // The state changes only once the move has taken its input (it throws for a bad one).
  MoveResult r = controller.move(input.velocity + inherited + up * vertical, dt);
  launched_ = false;
  jumped_ = jumped;
  vertical_ = glm::dot(r.velocity, up) - input_up;
  inherited_ = inherited;
  if (r.ground.state != GroundState::in_air) {
    inherited_ = glm::vec3(0.f);
  } else if (ground.state != GroundState::in_air && settings_.keep_ground_velocity) {
    // Left moving ground this move: its velocity goes with the character.
    const float ground_up = glm::dot(ground.velocity, up);
    vertical_ += ground_up;
    inherited_ = ground.velocity - up * ground_up;
  }
  return r;
}

} // namespace glide
