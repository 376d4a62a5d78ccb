#include "cases/case_world.hpp"

#include <glide/gjk/error.hpp>

namespace glide::cases {

// TODO(issue 6): the World's sweep_capsule and raycast are being written (issue 5).
Actuals sweep_query(const Case&) { throw Error("sweep queries need World::sweep_capsule, not available yet"); }
Actuals raycast_query(const Case&) { throw Error("raycast queries need World::raycast, not available yet"); }

} // namespace glide::cases
