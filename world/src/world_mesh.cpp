// The world's triangle-mesh pieces (World::add_mesh): each a piece of its own in the
// hierarchy, with no payload there, and a hierarchy of its own over its triangles.
#include "mesh_piece.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <cmath>
#include <string>

namespace glide {

PieceId World::add_mesh(TriangleMesh mesh, gjk::Transform transform, PieceInfo info) {
  if (mesh.empty())
    throw Error("World::add_mesh: the mesh has no triangles (a default-constructed TriangleMesh); build it from "
                "vertices and triangles");
  const glm::quat& q = transform.rotation;
  const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (!(len2 >= 0.998001f && len2 <= 1.002001f))
    throw Error("World::add_mesh: rotation must be a unit quaternion, got (w " + std::to_string(q.w) + ", x " +
                std::to_string(q.x) + ", y " + std::to_string(q.y) + ", z " + std::to_string(q.z) + ")");
  const glm::vec3& t = transform.translation;
  if (!(std::isfinite(t.x) && std::isfinite(t.y) && std::isfinite(t.z)))
    throw Error("World::add_mesh: translation is not finite " + limits::vec_text(t));
  if (info.kinematic) throw Error("World::add_mesh: info.kinematic is set, but a mesh piece is static");
  if (pieces_.size() >= ~0u - 1u) throw Error("World: too many pieces");
  auto placed = std::make_unique<detail::MeshPiece>(std::move(mesh), transform);
  if (!limits::in_range(placed->bounds.min) || !limits::in_range(placed->bounds.max))
    throw Error("World::add_mesh: the placed mesh spans " + limits::vec_text(placed->bounds.min) + " to " +
                limits::vec_text(placed->bounds.max) +
                ", beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
  Piece p{transform, info,  placed->bounds, {},           {transform, transform, {}, {}, 0.f, 0},
          true,      false, false,          k_static_tree};
  const auto id = static_cast<std::uint32_t>(pieces_.size());
  meshes_.emplace(id, std::move(placed));
  dirty_[k_static_tree] = true;
  pieces_.push_back(std::move(p));
  hulls_.emplace_back();
  ++live_count_;
  revision_ = structure_revision_ = next_revision();
  return PieceId{id};
}

bool World::is_mesh(PieceId id) const { return contains(id) && meshes_.contains(id.value); }

const TriangleMesh& World::mesh(PieceId id) const { return mesh_piece(id).mesh; }

const detail::MeshPiece& World::mesh_piece(PieceId id) const {
  piece(id); // checks the id
  const auto it = meshes_.find(id.value);
  if (it == meshes_.end()) throw Error("World: piece " + std::to_string(id.value) + " is not a triangle mesh");
  return *it->second;
}

} // namespace glide
