#pragma once

#include "case_model.hpp"
#include <glide/cases/json.hpp>

namespace glide::cases {

/// The fields of a "move" query (controller, start, dt, gravity, frames) from `query`; the
/// controller settings are validated, and any error names the file, case and JSON path.
MoveQuery parse_move(Fields& query);

} // namespace glide::cases
