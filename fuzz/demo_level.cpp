// Demo level descriptions and tour scripts. The first byte splits the input between the two
// files; the level's OBJ and terrain are the shipped ones, named by the fuzzed JSON.
#include "fuzz_support.hpp"

#include "demo_level.hpp"

#include <glide/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  // The shipped level's OBJ and terrain beside the fuzzed files, where the corpus names them.
  static const bool linked = [] {
    const auto dir = glide::fuzz::write_input("level.json", nullptr, 0).parent_path();
    for (const char* name : {"demo.obj", "demo_terrain.png"}) {
      std::error_code ignored;
      std::filesystem::create_symlink(std::filesystem::path(GLIDE_DEMO_LEVELS_DIR) / name, dir / name, ignored);
    }
    return true;
  }();
  (void)linked;
  const std::size_t split = 1 + (size - 1) * data[0] / 256;
  const auto level = glide::fuzz::write_input("level.json", data + 1, split - 1);
  const auto script = glide::fuzz::write_input("tour.json", data + split, size - split);
  try {
    (void)glide::demo::load_tour_script(script);
    (void)glide::demo::load_demo_level(level, script);
  } catch (const glide::Error&) {
  }
  return 0;
}
