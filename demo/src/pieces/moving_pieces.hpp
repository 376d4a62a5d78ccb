#pragma once

// The kinematic pieces of a level (lifts, turntables, doors, walkways): which world piece each
// is, where it rests and its scripted motion, and the per-frame move every game loop makes
// before it moves its characters (docs/controller.md, "Moving pieces: the frame order"). The
// headless tour and the viewer share it.

#include <glide/gjk/shapes.hpp>
#include <glide/world/piece_path.hpp>
#include <glide/world/world.hpp>

#include <span>
#include <string>

namespace glide::demo {

/// One kinematic piece of a level.
struct MovingPiece {
  std::string name;    ///< the OBJ object it is
  PieceId id;          ///< the piece in the world
  gjk::Transform rest; ///< its pose as loaded: the path's offsets and turns apply on top of it
  PiecePath path;
};

/// Places every piece at its pose at time `t` (s) at once, without velocity: the start of a
/// run, or a reload.
void place_pieces(World& world, std::span<const MovingPiece> pieces, float t);

/// Moves every piece from its pose at `t` to its pose at `t + dt` (s) over the coming frame,
/// so characters standing on them are carried and the ones they move into are pushed.
void move_pieces(World& world, std::span<const MovingPiece> pieces, float t, float dt);

/// Keeps every piece where it is for the coming frame of `dt` (s): a still motion, so nothing
/// is carried by the velocity of an earlier move (a paused clock).
void hold_pieces(World& world, std::span<const MovingPiece> pieces, float dt);

} // namespace glide::demo
