#pragma once
// Private: the file-format readers behind load_heightfield().

#include <cstddef>
#include <string>
#include <vector>

namespace glide::terrain_detail {

/// Samples of one heightmap, row-major, before scale and offset.
struct HeightmapData {
  int rows = 0;
  int columns = 0;
  std::vector<float> values;
};

/// Throws glide::Error "<file>: <problem>".
[[noreturn]] void fail(const std::string& file, const std::string& problem);
/// Checks both sides are within 2..Heightfield::k_max_dimension, else fails with "dimensions ...".
void check_dimensions(const std::string& file, long long rows, long long columns);

/// 8- or 16-bit grayscale PNG, values divided by 255 or 65535.
HeightmapData read_png(const std::vector<unsigned char>& bytes, const std::string& file);
/// PGM P2 or P5, values divided by maxval.
HeightmapData read_pgm(const std::vector<unsigned char>& bytes, const std::string& file);

} // namespace glide::terrain_detail
