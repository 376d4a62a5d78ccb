// The glTF level loader on any bytes (JSON or GLB, told apart by the first bytes): a
// glide::Error or a level, and a failed load leaves the world as it was.
#include "fuzz_support.hpp"
#include "level_load.hpp"

#include <glide/world/gltf_level.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = glide::fuzz::write_input("level.gltf", data, size);
  glide::fuzz::check_level_load([&](glide::World& world) {
    glide::GltfLevelOptions options;
    options.non_convex = glide::fuzz::non_convex_policy(size);
    const glide::GltfLevelReport report = glide::load_gltf_level(world, path, options);
    return report.pieces.size() + report.meshes.size(); // a mesh node: one piece
  });
  return 0;
}
