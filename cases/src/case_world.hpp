#pragma once

#include "case_model.hpp"

namespace glide::cases {

/// Builds a glide::World from the case's instances (hull-like shapes become pieces, OBJ
/// levels are loaded, a heightfield becomes the terrain) and runs the sweep or the ray.
Actuals sweep_query(const Case& c);
Actuals raycast_query(const Case& c);
/// Runs a Controller over the case's frames in that world (see MoveQuery).
Actuals move_query(const Case& c);

} // namespace glide::cases
