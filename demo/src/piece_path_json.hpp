#pragma once

// A kinematic piece's scripted motion (glide::PiecePath) in JSON, angles in degrees:
//   {"pivot": [x, y, z], "repeat": "none" | "loop" | "ping_pong",
//    "keys": [{"t": 0, "offset": [x, y, z], "yaw_deg": 0}, ...]}
// pivot (m, default [0, 0, 0]), repeat (default "none"), and each key's offset (m, default 0)
// and yaw_deg (degrees counter-clockwise seen from above, default 0) are optional; t (s) is not.

#include <glide/cases/json.hpp>
#include <glide/world/piece_path.hpp>

namespace glide::demo {

/// Reads a motion object. Throws glide::Error naming the file and the JSON path of the
/// offending value: an unknown field, no keys, a time negative or before the previous key's,
/// an unknown repeat, a non-finite number.
PiecePath read_piece_path(const cases::Node& node);

} // namespace glide::demo
