#pragma once

#include "colors.hpp"

#include <glide/world/world.hpp>

#include <glm/vec3.hpp>

#include <span>
#include <vector>

namespace glide::viewer {

struct MeshVertex {
  glm::vec3 position{0.f}; ///< (m)
  glm::vec3 normal{0.f, 1.f, 0.f};
  glm::vec3 color{1.f}; ///< linear RGB in [0, 1]
};

/// Triangle soup, three vertices per triangle.
using TriangleMesh = std::vector<MeshVertex>;

/// Every piece's hull faces placed in the world and the terrain's triangles, flat shaded.
/// Faces no steeper than `max_slope` (radians) are colored walkable, the rest as walls.
/// Terrains larger than 256 cells a side are drawn at a coarser stride. Pieces in `skip` (the
/// moving ones, drawn with piece_mesh) are left out.
TriangleMesh level_mesh(const World& world, float max_slope, std::span<const PieceId> skip = {});

/// One piece's hull faces in its own space, to draw with its current transform (a moving
/// piece). Colored as level_mesh colors them where the piece stands now; the pieces that move
/// only turn about the vertical, so their faces keep their slope.
TriangleMesh piece_mesh(const World& world, PieceId id, float max_slope);

/// A capsule with its feet at the origin, axis along +y.
TriangleMesh capsule_mesh(float radius, float height, const glm::vec3& color);

/// A unit sphere (radius 1) at the origin.
TriangleMesh sphere_mesh(const glm::vec3& color);

} // namespace glide::viewer
