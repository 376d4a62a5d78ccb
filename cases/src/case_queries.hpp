#pragma once

#include "case_model.hpp"

namespace glide::cases {

/// Runs the case's query and returns every value it reports (see fields_of()); a sweep or ray
/// that misses reports hit = false and none for the rest. Throws glide::Error when the world
/// cannot be built (missing OBJ or heightfield file, a shape a world cannot hold).
Actuals evaluate(const Case& c);

} // namespace glide::cases
