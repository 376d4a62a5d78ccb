#pragma once

// Settings with every field away from its default (and within its limits), and a field-by-field
// comparison, for the round trips of the settings tables through files and flags.

#include <glide/controller/settings_schema.hpp>
#include <glide/world/sweep_settings_schema.hpp>

#include <doctest/doctest.h>
#include <glm/trigonometric.hpp>

#include <cmath>

namespace glide::test {

inline ControllerSettings sample_controller_settings() {
  ControllerSettings s;
  s.radius = 0.45f;
  s.height = 2.1f;
  s.up = {0.f, 0.f, 1.f};
  s.skin_width = 0.02f;
  s.min_move_distance = 3e-5f;
  s.recovery_speed = 4.5f;
  s.max_slope = glm::radians(37.f);
  s.step_height = 0.25f;
  s.step_min_forward = 0.1f;
  s.step_max_wall_angle = glm::radians(60.f);
  s.floor_snap_distance = 0.15f;
  s.max_slide_iterations = 7;
  s.toi_method = ToiMethod::bisection;
  s.toi_tolerance = 5e-5f;
  s.layer_mask = 0x5u;
  return s;
}

inline PlayerSettings sample_player_settings() {
  return {.gravity = 12.5f, .jump_speed = 6.25f, .keep_ground_velocity = false};
}

inline SweepSettings sample_sweep_settings() {
  return {.method = ToiMethod::bisection,
          .tolerance = 2e-4f,
          .max_iterations = 33,
          .tie_distance = 3e-4f,
          .ignore_separating = false};
}

/// One row of `a` and `b` are equal: exactly, or for angles (which files and flags carry in
/// degrees) to a float rounding of the radians.
template <class S>
bool same_field(const S& a, const S& b, const fields::Field<S>& f) {
  if (f.kind == fields::Kind::unit_vec3) return fields::get_vec3(a, f) == fields::get_vec3(b, f);
  const double x = fields::get_number(a, f), y = fields::get_number(b, f);
  if (f.kind == fields::Kind::angle) return std::abs(glm::radians(x) - glm::radians(y)) <= 1e-6;
  return x == y;
}

/// Every row of `expected` and `actual` agree, and every row of `expected` is away from the default.
template <class S>
void check_every_field(const fields::Table<S>& table, const S& expected, const S& actual) {
  for (const fields::Field<S>& f : table.rows) {
    CAPTURE(f.name);
    CHECK_MESSAGE(!same_field(expected, S{}, f), "the sample keeps the default: give it another value");
    CHECK(same_field(expected, actual, f));
  }
}

} // namespace glide::test
