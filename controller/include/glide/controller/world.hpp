#pragma once

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/shapes.hpp>

#include <cstdint>
#include <vector>

namespace glide {

/// Handle of a static convex piece in a World.
struct PieceId {
  std::uint32_t value = ~0u;
  friend bool operator==(PieceId, PieceId) = default;
};

/// Per-piece data the game attaches: collision layers and an opaque value.
struct PieceInfo {
  std::uint32_t layers = 1u;   ///< layer bits this piece belongs to
  std::uint64_t user_data = 0; ///< opaque to glide
};

/// The static world the character moves through.
// TODO(issue 5): OBJ levels, BVH broadphase, terrain, capsule queries.
class World {
public:
  PieceId add_piece(gjk::ConvexHull hull, gjk::Transform transform = {}, PieceInfo info = {});
  std::size_t piece_count() const { return pieces_.size(); }

private:
  struct Piece {
    gjk::ConvexHull hull;
    gjk::Transform transform;
    PieceInfo info;
  };
  std::vector<Piece> pieces_;
};

} // namespace glide
