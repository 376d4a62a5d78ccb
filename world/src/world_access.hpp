#pragma once

// The world's hierarchy for the world's own sources and its tests (not part of the public
// interface: the hierarchy's types live in this private folder).

#include "bvh.hpp"

#include <glide/world/world.hpp>

namespace glide::detail {

struct WorldAccess {
  /// The hierarchy over the world's pieces, rebuilt first if edits made it dirty.
  static const Bvh& bvh(const World& world) {
    world.update();
    return *world.bvh_;
  }
};

} // namespace glide::detail
