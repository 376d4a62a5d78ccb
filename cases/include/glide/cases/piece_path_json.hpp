#pragma once

#include <glide/cases/json.hpp>
#include <glide/world/piece_path.hpp>

namespace glide::cases {

/// A "motion" object (pivot, repeat, keys of t, offset and yaw_deg) as a PiecePath, checked by
/// glide::validate: any error names the file and the JSON path. Case files and level files
/// share it.
PiecePath read_piece_path(const Node& node);

} // namespace glide::cases
