#include <glide/controller/settings_schema.hpp>
#include <glide/limits.hpp>
#include <glide/world/sweep_settings_schema.hpp>

namespace glide {

fields::Table<ControllerSettings> controller_settings_table() {
  using S = ControllerSettings;
  using F = fields::Field<S>;
  using fields::closed;
  using fields::Kind;
  using fields::open;
  // Relational bounds in the float arithmetic the controller relies on. A capsule is no larger
  // than the largest piece, as the world's queries take them.
  // One row per field: name, member, kind, unit, min, max, slider range, group, help.
  // clang-format off
  static const F rows[] = {
    {"radius", &S::radius, Kind::real, "m", open<S>(0), closed<S>(limits::k_max_piece_size), {0.05, 1.5},
     "Shape", "capsule radius"},
    {"height", &S::height, Kind::real, "m", closed<S>([](const S& s) { return 2.f * s.radius; }, "2 * radius"),
     closed<S>(limits::k_max_piece_size), {0.1, 4}, "Shape", "capsule height, feet to top"},
    {"up", fields::vec3_access<&S::up>(), Kind::unit_vec3, "unit vector", {}, {}, {},
     "Shape", "up direction, gravity's opposite"},
    {"skin_width", &S::skin_width, Kind::real, "m", open<S>(0),
     closed<S>([](const S& s) { return 0.5f * s.radius; }, "radius / 2"), {0.0005, 0.2, true},
     "Movement", "gap kept between the capsule and geometry"},
    {"min_move_distance", &S::min_move_distance, Kind::real, "m", closed<S>(0),
     open<S>([](const S& s) { return s.skin_width; }, "skin_width"), {0, 0.01, true},
     "Movement", "motions shorter than this are not swept"},
    {"recovery_speed", &S::recovery_speed, Kind::real, "m/s", open<S>(0), {}, {0.1, 20},
     "Movement", "fastest push out of overlapping geometry"},
    {"max_slope_deg", &S::max_slope, Kind::angle, "degrees", closed<S>(0), closed<S>(89), {0, 89},
     "Slopes & steps", "steepest walkable slope"},
    {"step_height", &S::step_height, Kind::real, "m", closed<S>(0),
     closed<S>([](const S& s) { return s.height - s.radius; }, "height - radius"), {0, 1},
     "Slopes & steps", "highest step walked up; 0 turns stepping off"},
    {"step_min_forward", &S::step_min_forward, Kind::real, "m", closed<S>(0), {}, {0, 0.5},
     "Slopes & steps", "a step's top must be walkable this far past the landing"},
    {"step_max_wall_angle_deg", &S::step_max_wall_angle, Kind::angle, "degrees", closed<S>(0), closed<S>(90), {0, 90},
     "Slopes & steps", "steps are tried against walls within this angle of head-on"},
    {"floor_snap_distance", &S::floor_snap_distance, Kind::real, "m", closed<S>(0), {}, {0, 1},
     "Slopes & steps", "while walking, stick to walkable ground this far below; 0 = off"},
    {"max_slide_iterations", &S::max_slide_iterations, Kind::integer, "count", closed<S>(1), closed<S>(16), {1, 16},
     "Solver", "sweeps per move, each sliding the rest of the motion along what it hit"},
    {"toi_method", fields::enum_access<&S::toi_method>(), Kind::enumeration, "", {}, {}, {},
     "Solver", "time-of-impact method of the sweeps", k_toi_method_names, k_toi_method_aliases},
    {"toi_tolerance", &S::toi_tolerance, Kind::real, "m", open<S>(0),
     closed<S>([](const S& s) { return 0.5f * s.skin_width; }, "skin_width / 2"), {1e-6, 0.01, true},
     "Solver", "time-of-impact accuracy along the motion"},
    {"layer_mask", &S::layer_mask, Kind::mask, "bits", {}, {}, {},
     "Filtering", "layers the character collides with"},
  };
  // clang-format on
  return {"ControllerSettings", rows};
}

fields::Table<PlayerSettings> player_settings_table() {
  using S = PlayerSettings;
  using fields::closed;
  using fields::Kind;
  // clang-format off
  static const fields::Field<S> rows[] = {
    {"gravity", &S::gravity, Kind::real, "m/s^2", closed<S>(0), closed<S>(1000), {0, 40},
     "Movement", "downward acceleration along -up"},
    {"jump_speed", &S::jump_speed, Kind::real, "m/s", closed<S>(0), closed<S>(1000), {0, 15},
     "Movement", "upward speed at take-off"},
    {"keep_ground_velocity", &S::keep_ground_velocity, Kind::boolean, "true or false", {}, {}, {},
     "Movement", "leaving moving ground, keep its velocity"},
  };
  // clang-format on
  return {"PlayerSettings", rows};
}

void validate(const ControllerSettings& settings) { fields::validate_fields(controller_settings_table(), settings); }

void validate(const PlayerSettings& settings) { fields::validate_fields(player_settings_table(), settings); }

} // namespace glide
