// The default ControllerSettings follow every relation docs/controller.md recommends.
#include <doctest/doctest.h>
#include <glide/controller/controller_settings.hpp>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <cmath>

using glide::ControllerSettings;

TEST_CASE("the default controller settings satisfy the documented limits and recommendations") {
  const ControllerSettings s;
  CHECK_NOTHROW(glide::validate(s));
  // Shape.
  CHECK(s.radius > 0.f);
  CHECK(s.height >= 2.f * s.radius);
  CHECK(std::abs(glm::length(s.up) - 1.f) < 1e-6f);
  // Movement: the skin at most half the radius; motions shorter than the skin are not swept.
  CHECK(s.skin_width > 0.f);
  CHECK(s.skin_width <= 0.5f * s.radius);
  CHECK(s.min_move_distance >= 0.f);
  CHECK(s.min_move_distance < s.skin_width);
  CHECK(s.recovery_speed > 0.f);
  // Slopes and steps.
  CHECK(s.max_slope >= 0.f);
  CHECK(s.max_slope <= glm::radians(89.f));
  CHECK(s.step_height >= 0.f);
  CHECK(s.step_height <= s.height - s.radius);
  CHECK(s.step_min_forward >= 0.f);
  CHECK(s.step_max_wall_angle >= 0.f);
  CHECK(s.step_max_wall_angle <= glm::radians(90.f));
  // Floor snapping reaches at least a step down, to stay grounded walking downstairs.
  CHECK(s.floor_snap_distance >= 0.f);
  CHECK(s.floor_snap_distance >= s.step_height);
  // Solver: each sweep accurate to half the skin or better.
  CHECK(s.max_slide_iterations >= 1);
  CHECK(s.max_slide_iterations <= 16);
  CHECK(s.toi_tolerance > 0.f);
  CHECK(s.toi_tolerance <= 0.5f * s.skin_width);
}
