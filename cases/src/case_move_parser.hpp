#pragma once

#include "case_model.hpp"
#include <glide/cases/json.hpp>

namespace glide::cases {

/// The fields of a "move" query (controller, start, dt, gravity, jump_speed,
/// keep_ground_velocity, relative_to, frames) from `query`; the settings are validated, and any
/// error names the file, case and JSON path. relative_to is checked against the world by the caller.
MoveQuery parse_move(Fields& query);

} // namespace glide::cases
