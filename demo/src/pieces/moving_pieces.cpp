#include "moving_pieces.hpp"

namespace glide::demo {

void place_pieces(World& world, std::span<const MovingPiece> pieces, float t) {
  for (const MovingPiece& p : pieces) world.set_piece_transform(p.id, p.path.pose_at(p.rest, t));
}

void move_pieces(World& world, std::span<const MovingPiece> pieces, float t, float dt) {
  for (const MovingPiece& p : pieces) world.move_piece(p.id, p.path.pose_at(p.rest, t + dt), dt);
}

void hold_pieces(World& world, std::span<const MovingPiece> pieces, float dt) {
  for (const MovingPiece& p : pieces) {
    const gjk::Transform here = world.transform(p.id); // a copy: move_piece rewrites the stored one
    world.move_piece(p.id, here, dt);
  }
}

} // namespace glide::demo
