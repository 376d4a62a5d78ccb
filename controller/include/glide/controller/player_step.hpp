#pragma once

#include <glide/controller/controller.hpp>

#include <glm/vec3.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace glide {

/// The game side of a character's vertical motion: gravity and jumping. Controller::move
/// leaves them to the game; PlayerStep is the loop most games write around it.
struct PlayerSettings {
  float gravity = 9.81f;            ///< downward acceleration along -up (m/s^2, in [0, 1000])
  float jump_speed = 5.f;           ///< upward speed at take-off (m/s, in [0, 1000])
  bool keep_ground_velocity = true; ///< leaving moving ground (walking off, jumping), keep its velocity
};

/// Throws glide::Error naming the first field out of its limits.
void validate(const PlayerSettings& settings);

/// What the player asks for in one frame.
struct PlayerInput {
  glm::vec3 velocity{0.f}; ///< wanted velocity (m/s): a walk across the ground; any part along up is
                           ///< added for this frame only and not kept (a ladder, swimming)
  bool jump = false;       ///< take off this frame, when standing on walkable ground
};

/// One frame of a player update around Controller::move, in the spirit of Jolt's
/// CharacterVirtual::ExtendedUpdate. The rule, every frame:
///   1. on walkable ground (the controller's state before the move), the vertical speed is
///      jump_speed when input.jump asks for it, else 0: the ground carries the character, and
///      speed gained walking uphill is dropped, so cresting a hill does not launch it;
///   2. gravity lowers the vertical speed by gravity * dt (on the ground too, so the move
///      presses onto the floor);
///   3. the controller moves by input.velocity + up * vertical speed;
///   4. the vertical speed becomes the result's velocity along up less the input's: a ceiling
///      stops the rise, a landing stops the fall.
/// Leaving moving ground (GroundInfo::velocity, a platform's), with keep_ground_velocity, the
/// character keeps that velocity: its part along up joins the vertical speed, the rest is added
/// to every move until the character is supported again (inherited_velocity()).
/// Games with their own loop call Controller::move directly.
class PlayerStep {
public:
  /// Throws glide::Error for settings out of their limits.
  explicit PlayerStep(const PlayerSettings& settings = {});

  /// Moves `controller` one frame of `dt` seconds. Throws as Controller::move does.
  MoveResult step(Controller& controller, const PlayerInput& input, float dt);

  /// Sets the vertical speed the next step starts from, even on the ground: a launch pad, a
  /// knock-back, a case file's start velocity (m/s along up). Throws glide::Error when not finite.
  void launch(float vertical_speed);

  float vertical_speed() const { return vertical_; } ///< along up (m/s)
  /// Velocity across up kept from moving ground left behind, added to the moves in the air (m/s).
  glm::vec3 inherited_velocity() const { return inherited_; }
  bool jumped() const { return jumped_; } ///< the last step took off from the ground
  const PlayerSettings& settings() const { return settings_; }
  /// Throws glide::Error for settings out of their limits.
  void set_settings(const PlayerSettings& settings);

  /// The step's state as bytes (docs/controller.md lists the fields): vertical speed, inherited
  /// velocity, launch and jump flags. The settings are configuration and not saved.
  std::vector<std::byte> save_state() const;
  /// Puts back a state from save_state. Throws glide::Error naming the field for bytes that are
  /// not such a state; then nothing changes.
  void restore_state(std::span<const std::byte> bytes);
  /// Bytes of a saved state.
  static constexpr std::size_t k_state_bytes = 28;

private:
  PlayerSettings settings_;
  float vertical_ = 0.f; // (m/s, + up)
  glm::vec3 inherited_{0.f};
  bool launched_ = false;
  bool jumped_ = false;
};

} // namespace glide
