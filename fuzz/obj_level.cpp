// The OBJ level loader on any bytes: a glide::Error or a level, and a failed load leaves the
// world as it was.
#include "fuzz_support.hpp"
#include "level_load.hpp"

#include <glide/world/obj_level.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = glide::fuzz::write_input("level.obj", data, size);
  glide::fuzz::check_level_load([&](glide::World& world) {
    glide::ObjLevelOptions options;
    options.non_convex = glide::fuzz::non_convex_policy(size);
    return glide::load_obj_level(world, path, options).pieces.size();
  });
  return 0;
}
