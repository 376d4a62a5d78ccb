#pragma once

#include <glide/cases/json.hpp>
#include <glide/world/piece_path.hpp>

namespace glide::cases {

/// A "motion" object as a PiecePath, angles in degrees:
///   {"pivot": [x, y, z], "repeat": "none" | "loop" | "ping_pong",
///    "keys": [{"t": 0, "offset": [x, y, z], "yaw_deg": 0}, ...]}
/// pivot (m, default [0, 0, 0]), repeat (default "none"), and each key's offset (m, default 0)
/// and yaw_deg (degrees counter-clockwise seen from above, default 0) are optional; t (s) is
/// not. Throws glide::Error naming the file and the JSON path of the offending value: an
/// unknown field, no keys, a time negative or before the previous key's, an unknown repeat, a
/// non-finite number. Case files and level files share it.
PiecePath read_piece_path(const Node& node);

} // namespace glide::cases
