#pragma once

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/hull_planes.hpp>
#include <glide/gjk/detail/hull_scan.hpp>
#include <glide/gjk/detail/vec4.hpp>
#include <glide/gjk/shapes.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

struct ConvexHullSettings {
  /// Tolerance relative to the cloud's radius r (largest distance of a point from the
  /// centroid): a point within tolerance·r of an earlier kept point is merged into it, and a
  /// point within tolerance·r of the hull of the others (a face plane, an edge, the line) is
  /// not a vertex. The default sits above float rounding of coordinates near the cloud.
  float tolerance = 1e-6f; ///< (fraction of r, in [1e-9, 0.1])
  /// Hulls with at least this many vertices answer support(dir) by hill climbing over vertex
  /// adjacency from the vertex extreme along the nearest of 26 fixed directions; smaller ones scan
  /// every vertex (SIMD, inline). Measured inside GJK's loop (bench/gjk_distance_bench.cpp):
  /// the scan never mispredicts a branch, the climb's data-dependent steps do, so the scan
  /// wins up to about 160 vertices although it computes more dot products.
  std::uint32_t hill_climb_min_vertices = 192; ///< (vertices; 0 always climbs, max never)
  /// The same for support(dir, hint) with a valid hint (climbing from a nearby vertex).
  std::uint32_t warm_hill_climb_min_vertices = 192; ///< (vertices; 0 always climbs, max never)
};

/// One triangle of the hull's surface.
struct HullFace {
  std::array<std::uint32_t, 3> vertices{}; ///< indices into ConvexHull::vertices(), counter-clockwise seen from outside
  glm::vec3 normal{0.f};                   ///< outward unit normal
  float offset = 0.f; ///< plane dot(normal, x) = offset (m); the hull lies where dot(normal, x) <= offset
};

/// A convex polyhedron built from a point cloud by quickhull (in double, relative to the
/// cloud's centroid). Only the hull's vertices are kept: duplicates are merged and interior,
/// face and edge points dropped (see ConvexHullSettings::tolerance). Degenerate clouds give
/// lower-dimensional hulls: one point, a segment (its two extremes) or a flat convex polygon.
/// Immutable after construction; every query is const and thread-safe.
class ConvexHull {
public:
  /// An empty hull, so a hull can be a plain member assigned later: empty() is true, it has no
  /// vertices or faces, dimension() is -1 and both bounds are the origin. support() answers the
  /// origin, so a stray query is defined rather than a crash; World::add_piece rejects it.
  ConvexHull();
  /// Throws glide::Error for no points, a non-finite coordinate (naming the point's index and
  /// value) or settings out of range.
  explicit ConvexHull(std::span<const glm::vec3> points, const ConvexHullSettings& settings = {});

  // Pieces in one line, centred on the origin (place them with a Transform). Each throws
  // glide::Error naming the parameter and its value for a size that is not finite and > 0.

  /// The box [-half_extents, half_extents]: 8 vertices, corner i at (i & 1 ? +x : -x,
  /// i & 2 ? +y : -y, i & 4 ? +z : -z).
  static ConvexHull box(const glm::vec3& half_extents);
  /// A ramp: the box [-half_extents, half_extents] cut by the plane through its bottom edge at
  /// x = -half_extents.x and its top edge at x = +half_extents.x. 6 vertices; its sloped top
  /// rises toward +x at atan(half_extents.y / half_extents.x) and its tall face is x = +x.
  static ConvexHull wedge(const glm::vec3& half_extents);
  /// A y-axis cylinder as a prism: two regular `segments`-gons inscribed in the circles of
  /// `radius` at y = ±half_height, vertex k at angle 2πk / segments from +x toward +z
  /// (2 * segments vertices). Its support falls short of gjk::Cylinder's by at most the sagitta
  /// radius * (1 - cos(π / segments)); extents along x and z are exactly the radius when
  /// segments is a multiple of 4. Throws glide::Error for segments outside [3, 256].
  static ConvexHull cylinder(float radius, float half_height, int segments = 16);
  static constexpr int k_min_cylinder_segments = 3;   ///< fewest cylinder() segments
  static constexpr int k_max_cylinder_segments = 256; ///< most cylinder() segments

  /// Whether the hull has no vertices (default-constructed).
  bool empty() const { return count_ == 0; }

  /// The vertex farthest along `dir` (any of the farthest for ties; dir may be zero).
  glm::vec3 support(const glm::vec3& dir) const { return vertices_[support_index(dir)]; }
  /// Warm-started support: `hint` is a vertex index to start hill climbing from (any value,
  /// e.g. -1, for no hint) and receives the returned vertex's index. Coherent directions, as in
  /// GJK iterations or successive frames, make this close to O(1).
  glm::vec3 support(const glm::vec3& dir, int& hint) const {
    const std::uint32_t start = hint >= 0 ? static_cast<std::uint32_t>(hint) : k_no_vertex;
    const std::uint32_t index = support_index(dir, start);
    hint = static_cast<int>(index);
    return vertices_[index];
  }
  /// Index into vertices() of support(dir); `start` as the hint above (k_no_vertex for none).
  std::uint32_t support_index(const glm::vec3& dir, std::uint32_t start = k_no_vertex) const {
    return support_index_inline(dir, start);
  }
  /// support_index, always inline (internal use): GJK's loop keeps the scan of a small hull in
  /// registers (as a call it was a tenth of a 16-vertex query); climbing is a call. Only for
  /// code under fp_exact.hpp's guard: inlined into a file with contracting flags, it would
  /// round with them.
  [[gnu::always_inline]] std::uint32_t support_index_inline(const glm::vec3& dir,
                                                            std::uint32_t start = k_no_vertex) const {
    if (!(start < count_ ? climb_warm_ : climb_cold_)) return detail::scan_support(scan_.data(), count_, dir);
    return climb_from(dir, start);
  }

  /// support_index for a hull that never climbs (neither hill_climb threshold reached), the
  /// direction in GJK's vector form (internal use, under fp_exact.hpp's guard like the above).
  [[gnu::always_inline]] std::uint32_t scan_index(detail::F4 dir) const {
    return detail::scan_support(scan_.data(), count_, dir);
  }
  /// Whether support_index scans whatever the hint (GJK's loop then calls scan_index).
  bool always_scans() const { return !climb_cold_ && !climb_warm_; }

  /// Vertex i (m, local space), i < vertex_count().
  glm::vec3 vertex(std::uint32_t i) const { return vertices_[i]; }
  std::uint32_t vertex_count() const { return count_; }
  /// Vertex i as (x, y, z, 0), the form GJK's loop works in (internal use). Hulls of up to 8
  /// vertices keep an aligned copy, loaded in one step: their support is on GJK's critical
  /// path, and the copy is at most 128 bytes (for larger hulls it measured slower: more to cache).
  detail::F4 vertex4(std::uint32_t i) const { return count_ <= 8 ? padded_[i] : detail::load(vertices_[i]); }
  /// The hull's vertices (m, local space), in the order the points were given.
  std::span<const glm::vec3> vertices() const { return {vertices_.data(), count_}; }
  /// Triangulated surface with outward normals. A flat hull (dimension 2) has its polygon
  /// twice, as a fan facing +normal and a fan facing -normal; a point or segment has none.
  std::span<const HullFace> faces() const { return faces_; }
  /// Vertices joined to `vertex` by a hull edge (polygon sides for a flat hull).
  std::span<const std::uint32_t> neighbors(std::uint32_t vertex) const {
    return {neighbors_.data() + neighbor_begin_[vertex], neighbors_.data() + neighbor_begin_[vertex + 1]};
  }

  /// -1 empty, 0 point, 1 segment, 2 flat polygon, 3 solid.
  int dimension() const { return dimension_; }
  bool is_flat() const { return dimension_ < 3; }
  /// Whether support(dir) hill-climbs (see ConvexHullSettings::hill_climb_min_vertices).
  bool uses_hill_climbing() const { return climb_cold_; }
  /// Whether support(dir, hint) hill-climbs (ConvexHullSettings::warm_hill_climb_min_vertices).
  bool uses_warm_hill_climbing() const { return climb_warm_; }

  /// The faces as planes, for queries answered without GJK (internal use); no blocks for flat
  /// hulls and hulls of more than detail::HullPlanes::k_max_planes planes.
  const detail::HullPlanes& planes() const { return planes_; }

  /// Axis-aligned bounds of the vertices (m, local space).
  glm::vec3 bounds_min() const { return bounds_min_; }
  glm::vec3 bounds_max() const { return bounds_max_; }

  static constexpr std::uint32_t k_no_vertex = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t k_start_cells =
      detail::k_cube_cells; ///< cold hill-climb starts, one per direction cell

private:
  std::uint32_t climb_from(const glm::vec3& dir, std::uint32_t start) const;
  std::uint32_t climb(const glm::vec3& dir, std::uint32_t start) const;
  // Rounded as the scan rounds, so both paths agree on every comparison.
  float dot_at(const glm::vec3& dir, std::uint32_t i) const {
    return dir.x * climb_x_[i] + dir.y * climb_y_[i] + dir.z * climb_z_[i];
  }

  std::vector<glm::vec3> vertices_; ///< an empty hull keeps the origin here, past count_, for support()
  std::vector<detail::F4> padded_;  ///< vertices_ as (x, y, z, 0)
  std::uint32_t count_ = 0;         ///< vertices_.size()
  // Vertices minus their centroid in the scan's block layout (detail/hull_scan.hpp): support
  // compares dot products of small numbers, which stays accurate for hulls far from the origin.
  std::vector<float> scan_;
  std::vector<float> climb_x_, climb_y_, climb_z_; ///< the same, one array per axis, for climbing
  std::vector<HullFace> faces_;
  detail::HullPlanes planes_;
  std::vector<std::uint32_t> neighbor_begin_; ///< CSR offsets into neighbors_, one per vertex plus one
  std::vector<std::uint32_t> neighbors_;
  /// Cold hill-climb starts: the vertex extreme along each of the cube's 26 face, edge and
  /// corner directions (convex_hull.cpp).
  std::array<std::uint32_t, k_start_cells> start_extreme_{};
  glm::vec3 bounds_min_{0.f}, bounds_max_{0.f};
  int dimension_ = -1;
  bool climb_cold_ = false, climb_warm_ = false;
};

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
