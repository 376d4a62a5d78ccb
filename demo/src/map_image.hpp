#pragma once

// The top-down picture of a tour: shaded terrain, the pieces, the path colored by ground state,
// the waypoints and a legend. x grows to the right and z downward, as seen from above.

#include "demo_level.hpp"
#include "tour.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace glide::demo {

using Rgb = std::array<std::uint8_t, 3>;

// Path and legend colors (tests look for them in the picture).
inline constexpr Rgb k_on_ground_color{30, 100, 255};
inline constexpr Rgb k_steep_color{255, 150, 0};
inline constexpr Rgb k_in_air_color{220, 0, 200};
inline constexpr Rgb k_stuck_color{255, 0, 0};
inline constexpr Rgb k_waypoint_color{20, 20, 20};

struct MapImageSettings {
  int max_size = 1200; ///< pixels along the longer side (pixels, 64..8192)
  float margin = 3.f;  ///< space around the pieces and the path (m, >= 0)
};

/// An RGB picture, rows top to bottom.
struct MapImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb; ///< width * height * 3 bytes
  float metres_per_pixel = 1.f;  ///< (m)

  Rgb at(int x, int y) const {
    const std::size_t i =
        (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3u;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

/// Draws the level and the frames of a tour (frames may be empty: the level alone).
MapImage render_map(const DemoLevel& level, const std::vector<FrameRecord>& frames,
                    const MapImageSettings& settings = {});

/// Writes the picture as PNG; throws glide::Error naming the file when it cannot be written.
void write_png(const std::filesystem::path& file, const MapImage& image);

} // namespace glide::demo
