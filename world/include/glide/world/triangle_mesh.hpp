#pragma once

#include <glm/trigonometric.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace glide {

struct TriangleMeshSettings {
  /// Two triangles whose faces turn by less than this across their shared edge are flat
  /// there: the edge is inactive from both sides (radians, in [0, 90 degrees)).
  float flat_angle = glm::radians(2.5f);
  /// Vertices at exactly the same position count as one when edges are matched: exporters
  /// split a vertex wherever its normals or texture coordinates differ.
  bool weld_coincident = true;
};

/// How the two triangles sharing an edge meet, seen from the front (the side their
/// counter-clockwise winding faces).
enum class EdgeKind : std::uint8_t {
  boundary, ///< one triangle only, more than two, opposite windings, or back to back
  flat,     ///< the faces turn by less than TriangleMeshSettings::flat_angle
  convex,   ///< a ridge: the other triangle falls away behind this one's plane
  concave,  ///< a valley: the other triangle rises in front of this one's plane
};

/// A static triangle mesh in local space (m), for World::add_mesh: vertices, triangles of three
/// vertex indices, and each triangle's neighbours and active edges. An edge is active for
/// contacts from the front when it is a boundary or convex edge, from the back when it is a
/// boundary or concave edge (concave from the front is convex from the back); flat edges are
/// never active. A contact whose closest point lies on no active edge takes the triangle's face
/// normal (docs/world.md, "Mesh pieces"): the edges between triangles of one surface do not snag.
class TriangleMesh {
public:
  using Indices = std::array<std::uint32_t, 3>;
  static constexpr std::uint32_t k_none = ~0u; ///< no neighbour across an edge

  TriangleMesh() = default;
  /// Validates and indexes the mesh. Triangles of zero area (doubled area at most 1e-6 of the
  /// longest edge squared, or a repeated index) are dropped and counted. Throws glide::Error
  /// naming the vertex or triangle for a non-finite vertex, an index out of range, a
  /// non-finite or out-of-range flat_angle, or a mesh with no triangle of positive area.
  TriangleMesh(std::vector<glm::vec3> vertices, std::vector<Indices> triangles,
               const TriangleMeshSettings& settings = {});

  std::span<const glm::vec3> vertices() const { return vertices_; }
  /// The kept triangles, in input order.
  std::span<const Indices> triangles() const { return triangles_; }
  std::size_t triangle_count() const { return triangles_.size(); }
  bool empty() const { return triangles_.empty(); }
  /// Zero-area triangles left out (count).
  std::size_t dropped_triangles() const { return dropped_; }
  /// Index among the input triangles of kept triangle `t`.
  std::uint32_t source_triangle(std::uint32_t t) const { return source_[t]; }

  /// Edge `edge` of triangle `t` runs from its corner `edge` to corner (edge + 1) % 3.
  EdgeKind edge_kind(std::uint32_t t, int edge) const { return static_cast<EdgeKind>(kinds_[t] >> (2 * edge) & 3u); }
  /// The triangle across the edge (k_none at a boundary edge).
  std::uint32_t neighbour(std::uint32_t t, int edge) const { return neighbours_[t][static_cast<std::size_t>(edge)]; }
  /// Bits 0-2: edges active for contacts from the front; bits 3-5: from the back.
  std::uint8_t active_edges(std::uint32_t t) const { return active_[t]; }
  /// Unit face normal of triangle `t` (local, the front side).
  glm::vec3 face_normal(std::uint32_t t) const;

  const glm::vec3& bounds_min() const { return min_; }
  const glm::vec3& bounds_max() const { return max_; }

private:
  void index_edges(const TriangleMeshSettings& settings);

  std::vector<glm::vec3> vertices_;
  std::vector<Indices> triangles_;
  std::vector<std::uint32_t> source_;
  std::vector<Indices> neighbours_;
  std::vector<std::uint8_t> kinds_;  // 2 bits per edge (EdgeKind)
  std::vector<std::uint8_t> active_; // see active_edges()
  std::size_t dropped_ = 0;
  glm::vec3 min_{0.f}, max_{0.f};
};

} // namespace glide
