// The OBJ level loader on any bytes: a glide::Error or a level, and a failed load leaves the
// world as it was.
#include "fuzz_support.hpp"

#include <glide/error.hpp>
#include <glide/world/obj_level.hpp>

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = glide::fuzz::write_input("level.obj", data, size);
  glide::World world;
  try {
    glide::ObjLevelOptions options;
    options.non_convex = size % 2 ? glide::NonConvexPolicy::use_hull : glide::NonConvexPolicy::error;
    const glide::ObjLevelReport report = glide::load_obj_level(world, path, options);
    if (report.pieces.size() != world.piece_count()) std::abort();
    world.update();
  } catch (const glide::Error&) {
    if (world.piece_count() != 0) std::abort();
  }
  return 0;
}
