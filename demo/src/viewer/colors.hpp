#pragma once

#include <glm/vec3.hpp>

namespace glide::viewer {

// Colors the screenshot test looks for (tests/viewer/check_screenshot.cpp).
inline constexpr glm::vec3 k_sky_color{0.55f, 0.70f, 0.88f};
inline constexpr glm::vec3 k_capsule_color{0.95f, 0.15f, 0.75f};
inline constexpr glm::vec3 k_walker_color{0.95f, 0.80f, 0.10f}; ///< the crowd walkers' capsules
inline constexpr glm::vec3 k_walkable_color{0.45f, 0.62f, 0.38f};
inline constexpr glm::vec3 k_wall_color{0.80f, 0.55f, 0.30f};
inline constexpr glm::vec3 k_terrain_color{0.40f, 0.58f, 0.30f};

} // namespace glide::viewer
