#pragma once

// What the level loaders' fuzz targets check: a load either fails with a glide::Error and leaves
// the world as it was (empty), or gives a level whose report names every piece it added.

#include <glide/error.hpp>
#include <glide/world/obj_level.hpp>
#include <glide/world/world.hpp>

#include <cstddef>
#include <cstdlib>

namespace glide::fuzz {

/// Either policy for pieces that are not convex, picked by the input's size so the corpus
/// exercises both.
inline NonConvexPolicy non_convex_policy(std::size_t size) {
  return size % 2 ? NonConvexPolicy::use_hull : NonConvexPolicy::error;
}

/// Runs `load(world)` on an empty world; it returns how many pieces its report names. Aborts
/// when that is not the world's count, or when a failed load left pieces behind.
template <class Load>
void check_level_load(Load load) {
  World world;
  try {
    if (load(world) != world.piece_count()) std::abort();
    world.update();
  } catch (const Error&) {
    if (world.piece_count() != 0) std::abort();
  }
}

} // namespace glide::fuzz
