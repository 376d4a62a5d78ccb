// The heightmap loaders (PNG, PGM, raw float32) on any bytes; a loaded field answers finite.
// The first byte picks the file's extension and, for raw, its rows; the rest is the file.
#include "fuzz_support.hpp"

#include <glide/error.hpp>
#include <glide/terrain/heightfield_loader.hpp>

#include <cmath>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static const char* const k_names[] = {"map.png", "map.pgm", "map.raw", "map.r32"};
  const std::uint8_t head = data[0];
  const auto path = glide::fuzz::write_input(k_names[head % 4], data + 1, size - 1);
  glide::HeightfieldLoadSettings settings;
  settings.raw_rows = 2 + (head >> 2) % 16;
  settings.raw_columns = static_cast<int>((size - 1) / 4 / static_cast<std::size_t>(settings.raw_rows));
  try {
    const glide::Heightfield field = glide::load_heightfield(path, settings);
    const glide::TerrainSample s = field.sample(0.5f, 0.5f);
    if (!std::isfinite(s.height) || !std::isfinite(s.normal.x + s.normal.y + s.normal.z)) std::abort();
  } catch (const glide::Error&) {
  }
  return 0;
}
