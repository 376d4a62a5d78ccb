#pragma once

// Copies member by member of structs a move has just built. Copied whole, a struct written by
// narrower stores is read back in wider pieces the stores cannot forward, and each such read
// waits for the stores to land; per member, every read matches a store.

#include <glide/controller/controller.hpp>

namespace glide::detail {

inline void copy_fields(GroundInfo& to, const GroundInfo& from) {
  to.state = from.state;
  to.normal = from.normal;
  to.contact_normal = from.contact_normal;
  to.point = from.point;
  to.distance = from.distance;
  to.target = from.target;
  to.piece = from.piece;
  to.character = from.character;
  to.velocity = from.velocity;
}

} // namespace glide::detail
