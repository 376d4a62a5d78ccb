#pragma once

// A triangle mesh placed in a world (World::add_mesh): its own hierarchy over its triangles,
// and the active-edge rule every query applies to a triangle's contact normal.

#include "bvh.hpp"

#include <glide/gjk/aabb.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/world/query_types.hpp>
#include <glide/world/triangle_mesh.hpp>

#include <glm/geometric.hpp>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace glide::detail {

/// A contact point this close to an active edge (m, plus a millionth of its coordinates for
/// rounding) keeps the normal of its closest points: it may be that edge's.
inline constexpr float k_active_edge_reach = 1e-4f;

/// The normal a contact with one mesh triangle reports. `corners` are the triangle's placed
/// corners, `active` its TriangleMesh::active_edges bits, `point` the contact point on it and
/// `normal` the closest points' normal (toward the capsule). The side the capsule is on is
/// `side`'s sign (> 0: in front of the face, < 0: behind), or the normal's when `side` is 0.
/// Unless the point lies on an edge active from that side, the normal becomes the face normal
/// on that side: an inactive edge is shared with a triangle of the same surface (flat) or one
/// the capsule meets first (concave), whose own contact holds the true normal there.
inline glm::vec3 mesh_normal(std::span<const glm::vec3> corners, std::uint32_t active, const glm::vec3& point,
                             const glm::vec3& normal, float side = 0.f) {
  const glm::vec3 cross = glm::cross(corners[1] - corners[0], corners[2] - corners[0]);
  // Most contacts lie inside a face, whose normal they already have (to 0.03 degrees): kept,
  // without a square root. The side given must agree.
  const float along = glm::dot(normal, cross), cross2 = glm::dot(cross, cross);
  if (along * along >= 0.9999999f * cross2 && cross2 > 0.f && (side == 0.f || (side > 0.f) == (along > 0.f)))
    return normal;
  const float length = std::sqrt(cross2);
  if (!(length > 0.f) || !std::isfinite(length)) return normal;
  const glm::vec3 face = cross / length;
  const bool front = side != 0.f ? side > 0.f : along >= 0.f;
  const std::uint32_t edges = front ? active & 7u : active >> 3 & 7u;
  if (edges != 0u) {
    const float scale = std::max({std::abs(point.x), std::abs(point.y), std::abs(point.z)});
    const float reach = k_active_edge_reach + 1e-6f * scale;
    for (int e = 0; e < 3; ++e) {
      if ((edges >> e & 1u) == 0u) continue;
      const glm::vec3& p = corners[static_cast<std::size_t>(e)];
      const glm::vec3 d = corners[static_cast<std::size_t>((e + 1) % 3)] - p;
      const float dd = glm::dot(d, d);
      const float u = dd > 0.f ? std::clamp(glm::dot(point - p, d) / dd, 0.f, 1.f) : 0.f;
      const glm::vec3 off = point - (p + u * d);
      if (glm::dot(off, off) <= reach * reach) return normal;
    }
  }
  return front ? face : -face;
}

/// Which side of the triangle's plane `point` lies on (> 0 in front, < 0 behind, 0 on it).
inline float mesh_side(std::span<const glm::vec3> corners, const glm::vec3& point) {
  return glm::dot(glm::cross(corners[1] - corners[0], corners[2] - corners[0]), point - corners[0]);
}

/// mesh_normal for a distance contact with triangle `item` (a mesh hierarchy's leaf): the side
/// of a capsule whose segment reaches into the triangle is that of the segment's middle.
inline glm::vec3 mesh_contact_normal(const LeafItem& item, const Contact& c, const gjk::Segment& segment) {
  const float side = c.distance < 0.f ? mesh_side(item.payload, 0.5f * (segment.a + segment.b)) : 0.f;
  return mesh_normal(item.payload, item.word, c.point_on_piece, c.normal, side);
}

/// A mesh placed in the world: its vertices placed once, and a hierarchy whose items are its
/// triangles (item: the triangle's index, word: its active edges, payload: its three placed
/// corners), so each triangle is queried as a three-vertex VertexCloud, as a flat piece is.
struct MeshPiece {
  MeshPiece(TriangleMesh m, const gjk::Transform& transform) : mesh(std::move(m)) {
    world_vertices.reserve(mesh.vertices().size());
    for (const glm::vec3& v : mesh.vertices()) world_vertices.push_back(transform.apply(v));
    const std::size_t n = mesh.triangle_count();
    std::vector<glm::vec3> corners(3 * n);
    std::vector<gjk::Aabb> boxes(n);
    std::vector<std::uint32_t> ids(n);
    std::vector<ItemPayload> payloads(n);
    for (std::uint32_t t = 0; t < n; ++t) {
      for (std::size_t k = 0; k < 3; ++k) corners[3 * t + k] = world_vertices[mesh.triangles()[t][k]];
      const glm::vec3* c = &corners[3 * t];
      boxes[t] = gjk::Aabb::of_point(c[0]).merged(c[1]).merged(c[2]);
      bounds = bounds.merged(boxes[t]);
      ids[t] = t;
      payloads[t] = {mesh.active_edges(t), {c, 3}};
    }
    tree.build(boxes, ids, payloads);
    tree.release_binary_nodes();
  }

  TriangleMesh mesh;
  std::vector<glm::vec3> world_vertices;
  gjk::Aabb bounds;
  Bvh tree;
};

class HitCollector;

// A mesh piece's part of the world's queries, out of line so the convex pieces' loops stay as
// small as they were (mesh_queries.cpp).

/// The sweep of a capsule of `radius` (0: a ray's point) whose bounds are `box` along `motion`
/// against each triangle whose box it reaches before `limit`: hits go to `hits` (the piece
/// `id`, the triangle) with the normal rule applied, and `limit` follows them (their bound
/// plus `slack`). With `separating`, contacts the motion does not approach are skipped as
/// SweepSettings::ignore_separating says (a ray keeps every hit).
void sweep_mesh(const MeshPiece& mesh, PieceId id, const gjk::Segment& segment, float radius, const gjk::Aabb& box,
                const glm::vec3& motion, const SweepSettings& settings, bool separating, float slack,
                HitCollector& hits, float& limit);
/// Appends the contacts within `margin` of the capsule with each triangle whose box meets
/// `box`, with the normal rule applied.
void overlap_mesh(const MeshPiece& mesh, PieceId id, const gjk::Capsule& capsule, float margin, const gjk::Aabb& box,
                  std::vector<Contact>& out);
/// Whether some triangle's box meets `box` (closed bounds).
bool mesh_in_box(const MeshPiece& mesh, const gjk::Aabb& box);
/// Whether `box` moving along `motion` (t in [0, 1]) reaches some triangle's box.
bool mesh_along(const MeshPiece& mesh, const gjk::Aabb& box, const glm::vec3& motion);

} // namespace glide::detail
