#pragma once

// The world's hierarchy for the world's own sources and its tests (not part of the public
// interface: the hierarchy's types live in this private folder).

#include "bvh.hpp"
#include "mesh_piece.hpp"

#include <glide/world/world.hpp>

#include <array>

namespace glide::detail {

struct WorldAccess {
  /// The static pieces' hierarchy and the moving pieces', rebuilt first if edits made them
  /// dirty (either may be empty).
  static std::array<const Bvh*, 2> trees(const World& world) {
    world.update();
    return {world.trees_[0].get(), world.trees_[1].get()};
  }
  /// The static pieces' hierarchy: every piece, in a world where none has moved.
  static const Bvh& bvh(const World& world) { return *trees(world)[0]; }
  /// A mesh piece's placed triangles and their hierarchy; throws glide::Error for another id.
  static const MeshPiece& mesh(const World& world, PieceId id) { return world.mesh_piece(id); }
};

} // namespace glide::detail
