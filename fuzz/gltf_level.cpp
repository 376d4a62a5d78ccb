// The glTF level loader on any bytes (JSON or GLB, told apart by the first bytes): a
// glide::Error or a level, and a failed load leaves the world as it was.
#include "fuzz_support.hpp"

#include <glide/error.hpp>
#include <glide/world/gltf_level.hpp>

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = glide::fuzz::write_input("level.gltf", data, size);
  glide::World world;
  try {
    glide::GltfLevelOptions options;
    options.non_convex = size % 2 ? glide::NonConvexPolicy::use_hull : glide::NonConvexPolicy::error;
    const glide::GltfLevelReport report = glide::load_gltf_level(world, path, options);
    if (report.pieces.size() + report.meshes.size() != world.piece_count()) std::abort(); // a mesh node: one piece
    world.update();
  } catch (const glide::Error&) {
    if (world.piece_count() != 0) std::abort();
  }
  return 0;
}
