#pragma once

// The part of a vector across the up axis: along the ground, for a character standing upright.

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace glide::detail {

/// `v` less its part along the unit `up`.
inline glm::vec3 horizontal(const glm::vec3& v, const glm::vec3& up) { return v - up * glm::dot(v, up); }

} // namespace glide::detail
