#pragma once

#include "case_model.hpp"
#include "json_reader.hpp"

namespace glide::cases {

/// "fast" (conservative advancement) or "bisection", as sweeps and controllers name them.
ToiMethod parse_toi_method(const Node& node);

/// The fields of a "move" query (controller, start, dt, gravity, frames) from `query`; the
/// controller settings are validated, and any error names the file, case and JSON path.
MoveQuery parse_move(Fields& query);

} // namespace glide::cases
