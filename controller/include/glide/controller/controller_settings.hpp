#pragma once

#include <glide/world/query_types.hpp>

#include <glm/trigonometric.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <functional>

namespace glide {

/// How the character stands after a move.
enum class GroundState : std::uint8_t {
  on_ground,       ///< on walkable ground (no steeper than max_slope)
  on_steep_ground, ///< touching ground below that is too steep to stand on: it slides
  in_air,          ///< nothing below within the probe distance
};

/// Tuning of a Controller. Every field has a default, a unit and a limit, described once in
/// controller_settings_table() (settings_schema.hpp); Controller validates them and throws
/// glide::Error naming the field otherwise. A new field needs a row there too.
struct ControllerSettings {
  // Shape. The controller's position is its feet: the bottom of the capsule.
  float radius = 0.3f;         ///< capsule radius (m, > 0)
  float height = 1.8f;         ///< capsule height from feet to top (m, >= 2 * radius)
  glm::vec3 up{0.f, 1.f, 0.f}; ///< up direction (unit vector)

  // Movement.
  float skin_width = 0.01f;        ///< gap kept between the capsule and geometry (m, in (0, radius / 2])
  float min_move_distance = 1e-5f; ///< motions shorter than this are not swept (m, in [0, skin_width))
  float recovery_speed = 2.f;      ///< fastest push out of overlapping geometry (m/s, > 0)

  // Slopes and steps.
  float max_slope = glm::radians(50.f); ///< steepest walkable slope (radians, in [0, 89 degrees])
  float step_height = 0.35f;            ///< highest step walked up; 0 turns stepping off (m, in [0, height - radius])
  float step_min_forward = 0.05f;       ///< a step's top must be walkable this far past the landing (m, >= 0)
  float step_max_wall_angle = glm::radians(75.f); ///< steps are tried against walls within this angle of head-on
                                                  ///< (radians, in [0, 90 degrees]); larger angles slide along
  float floor_snap_distance = 0.35f; ///< while walking, stick to walkable ground this far below; 0 = off (m, >= 0)

  // Solver.
  int max_slide_iterations = 4; ///< sweeps per move, each sliding the rest of the motion along what it hit
                                ///< (count, in [1, 16])
  ToiMethod toi_method = ToiMethod::conservative_advancement; ///< time-of-impact method of the sweeps
  float toi_tolerance = 1e-4f; ///< time-of-impact accuracy along the motion (m, in (0, skin_width / 2])

  // Filtering.
  std::uint32_t layer_mask = ~0u;        ///< layers the character collides with (bit mask)
  std::function<bool(PieceId)> filter{}; ///< optional: return false to pass through a piece
  /// Optional: return false to pass through another character (CharacterSet, set_characters).
  /// Asked from the job threads of a CharacterSet update, maybe several at once: answer by the
  /// id alone, the same every time, or results may depend on the threads.
  std::function<bool(CharacterId)> character_filter{};
};

/// Throws glide::Error naming the first field out of its limits.
void validate(const ControllerSettings& settings);

} // namespace glide
