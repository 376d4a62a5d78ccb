#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace glide::viewer {

/// Third-person orbit camera behind the character, y up.
struct Camera {
  float yaw = 0.f;            ///< heading the camera looks along, around +y (radians; 0 looks along -z)
  float pitch = 0.35f;        ///< look down angle (radians, clamped to [-0.2, 1.4])
  float distance = 6.f;       ///< from the look-at point (m)
  float target_height = 1.4f; ///< look-at point above the feet (m)

  /// Turns by a mouse motion (pixels); `sensitivity` in radians per pixel.
  void look(float dx, float dy, float sensitivity = 0.004f);
  /// Turns with the ground: by a move's MoveResult::yaw_delta (radians, counter-clockwise seen
  /// from above), so the view stays behind a character riding a turntable.
  void turn_with_ground(float yaw_delta) { yaw -= yaw_delta; }
  /// Horizontal unit vectors the walk keys move along.
  glm::vec3 forward() const;
  glm::vec3 right() const;
  glm::vec3 eye(const glm::vec3& feet) const;
  glm::mat4 view_projection(const glm::vec3& feet, float aspect) const;
};

} // namespace glide::viewer
