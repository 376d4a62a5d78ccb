#pragma once

// Two moves of one character in an update reported as one.

#include <glide/controller/controller.hpp>

#include <cstddef>

namespace glide::detail {

/// One move's outcome followed by another's: where the second ended, what both did.
inline void append(MoveResult& first, const MoveResult& second) {
  first.position = second.position;
  first.displacement += second.displacement;
  first.carried += second.carried;
  first.pushed += second.pushed;
  first.yaw_delta += second.yaw_delta;
  first.ground = second.ground;
  first.flags.sides |= second.flags.sides;
  first.flags.above |= second.flags.above;
  first.flags.below |= second.flags.below;
  first.flags.crushed |= second.flags.crushed;
  first.recovered += second.recovered;
  for (int h = 0; h < second.hit_count && first.hit_count < MoveResult::k_max_hits; ++h)
    first.hits[static_cast<std::size_t>(first.hit_count++)] = second.hits[static_cast<std::size_t>(h)];
}

} // namespace glide::detail
