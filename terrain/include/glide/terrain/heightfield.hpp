#pragma once

#include <glide/gjk/aabb.hpp>
#include <glide/gjk/shapes.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace glide {

/// Result of Heightfield::sample().
struct TerrainSample {
  bool inside = false;             ///< false outside the grid, in a hole, or for non-finite coordinates
  float height = 0.f;              ///< surface height, as height_at() (m, world y)
  glm::vec3 normal{0.f, 1.f, 0.f}; ///< unit surface normal, as normal_at()
};

/// Result of Heightfield::raycast().
struct TerrainRayHit {
  bool hit = false;
  float t = 0.f;                   ///< hit at origin + t * dir (units of |dir|)
  glm::vec3 point{0.f};            ///< hit point (m)
  glm::vec3 normal{0.f, 1.f, 0.f}; ///< unit normal of the triangle hit, pointing up (+Y side)
};

/// What a Heightfield is built from: the grid's size, its raw heights and their placement.
/// Sample (row r, column c) sits at world
///   x = origin.x + c * cell_size.x,  z = origin.z + r * cell_size.y,
///   y = origin.y + height_offset + height_scale * heights[r * columns + c].
struct HeightfieldDef {
  int rows = 0;    ///< samples along z (count, in [2, Heightfield::k_max_dimension])
  int columns = 0; ///< samples along x (count, in [2, Heightfield::k_max_dimension])
  /// rows * columns raw heights, row-major: row r along +z, column c along +x (units of
  /// height_scale; finite, and within limits::k_max_coordinate (1e6 m) once scaled and offset).
  std::vector<float> heights;
  /// sample spacing along x (.x) and z (.y) (m, in [limits::k_min_cell_size, k_max_piece_size]: [1e-3, 2e5])
  glm::vec2 cell_size{1.f};
  glm::vec3 origin{0.f};     ///< world position of sample (0, 0) at raw height 0 (m, |each| <= 1e6)
  float height_scale = 1.f;  ///< world height per raw unit (m per unit, finite)
  float height_offset = 0.f; ///< added to every scaled height (m, finite)
};

/// A regular grid of heights; up is +Y (placement as HeightfieldDef).
/// Scale, offset and origin.y are applied once at construction; each sample is then one
/// float (4 bytes). Bounds of 16 x 16-cell blocks (8 bytes per block) let ray casts and box
/// queries skip flat regions; a hole mask costs 1 bit per cell, only once a hole is set.
///
/// The surface is two triangles per cell, split along the diagonal from sample (r, c) to
/// (r + 1, c + 1). height_at, normal_at, sample, raycast and triangles_in all describe exactly
/// these triangles, so what a ray hits is what the capsule collides with. On a plane this
/// equals bilinear interpolation.
class Heightfield {
public:
  static constexpr int k_max_dimension = 16385; ///< most samples per side (rows or columns)
  static constexpr int k_block_cells = 16;      ///< cells per side of a bounds block

  /// Throws glide::Error for fewer than 2 x 2 or more than k_max_dimension samples per side, a
  /// size mismatch, a non-positive cell size, or non-finite values, naming the field.
  explicit Heightfield(HeightfieldDef def);

  int rows() const { return rows_; }
  int columns() const { return columns_; }
  glm::vec2 cell_size() const { return cell_size_; } ///< spacing along x (.x) and z (.y) (m)
  glm::vec3 origin() const { return origin_; }       ///< (m)
  /// World height of one sample (m); row and column must be in range.
  float height(int row, int column) const { return at(row, column); }
  /// World-space position of one sample (m).
  glm::vec3 vertex(int row, int column) const {
    return {origin_.x + static_cast<float>(column) * cell_size_.x, at(row, column),
            origin_.z + static_cast<float>(row) * cell_size_.y};
  }
  /// Box around every sample (m), for the world's broadphase.
  gjk::Aabb bounds() const { return bounds_; }
  /// Bytes held by heights, block bounds and the hole mask.
  std::size_t memory_bytes() const;

  /// Height of the surface above (x, z); points outside the grid are clamped to its border
  /// and holes are ignored (use sample() to know). Finite for any input (m).
  float height_at(float x, float z) const { return cell_height(locate(x, z)); }
  /// Unit normal of the triangle under (x, z), clamped and ignoring holes like height_at.
  glm::vec3 normal_at(float x, float z) const;
  /// Height and normal with whether (x, z) lies on terrain: inside the grid (borders
  /// included) and not in a hole. A point on a cell border belongs to the cell at its
  /// larger coordinate, except on the last row or column.
  TerrainSample sample(float x, float z) const;

  /// First hit of the ray origin + t * dir, 0 <= t <= max_t, with the top side of the
  /// surface (rays from below pass through, as do rays through holes). Walks the cells under
  /// the ray (DDA), skipping 16 x 16 blocks the ray passes above or below. No hit for a zero
  /// or non-finite direction, non-finite origin, or negative or NaN max_t.
  TerrainRayHit raycast(const glm::vec3& origin, const glm::vec3& dir, float max_t) const;

  /// Moves the whole field by `by` (m): the origin and, when by.y is not zero, every sample,
  /// each computed in double and rounded once (World::shift_origin). Throws glide::Error,
  /// changing nothing, when a sample or corner would leave the valid coordinates.
  void translate(const glm::dvec3& by);
  /// Marks a cell (the square between rows r, r + 1 and columns c, c + 1) as a hole or not.
  /// Throws glide::Error for a cell out of range.
  void set_hole(int cell_row, int cell_column, bool hole = true);
  bool is_hole(int cell_row, int cell_column) const {
    if (holes_.empty()) return false;
    const std::size_t bit = static_cast<std::size_t>(cell_row) * static_cast<std::size_t>(columns_ - 1) +
                            static_cast<std::size_t>(cell_column);
    return (holes_[bit >> 6] >> (bit & 63)) & 1u;
  }

  /// The two triangles of a cell, counter-clockwise seen from above, so
  /// cross(b - a, c - a) points up: {(r,c), (r+1,c+1), (r,c+1)} and {(r,c), (r+1,c), (r+1,c+1)}.
  std::array<gjk::Triangle, 2> cell_triangles(int cell_row, int cell_column) const;

  /// Calls `callback(const gjk::Triangle&)` in world space for every triangle that overlaps
  /// `box` (closed bounds; triangle bounds and plane tested, so a few triangles that only
  /// come near a box corner may be reported too). Holes have no triangles. A callback that
  /// returns bool stops the walk by returning false. Returns the number of calls.
  template <class Callback>
  int triangles_in(const gjk::Aabb& box, Callback&& callback) const;

private:
  struct CellRange {
    int row_begin = 0, row_end = 0, column_begin = 0, column_end = 0; ///< half-open cell ranges
  };
  CellRange cells_overlapping(const gjk::Aabb& box) const;
  bool block_overlaps_height(int cell_row, int cell_column, float y_min, float y_max) const {
    const std::size_t b =
        static_cast<std::size_t>(cell_row / k_block_cells) * static_cast<std::size_t>(block_columns_) +
        static_cast<std::size_t>(cell_column / k_block_cells);
    return block_bounds_[2 * b] <= y_max && y_min <= block_bounds_[2 * b + 1];
  }
  float at(int row, int column) const {
    return heights_[static_cast<std::size_t>(row) * static_cast<std::size_t>(columns_) +
                    static_cast<std::size_t>(column)];
  }
  void build_block_bounds();
  /// Cell and position inside it, clamped to the grid; NaN maps to the origin.
  struct CellPoint {
    int row = 0, column = 0;
    float fu = 0.f, fv = 0.f; ///< position in the cell along x and z (0..1)
  };
  CellPoint locate(float x, float z) const {
    // Written so that NaN lands on 0 (comparisons with NaN are false) and infinities clamp.
    float u = (x - origin_.x) * inverse_cell_size_.x;
    float v = (z - origin_.z) * inverse_cell_size_.y;
    const float u_max = static_cast<float>(columns_ - 1), v_max = static_cast<float>(rows_ - 1);
    u = u > 0.f ? u : 0.f;
    u = u < u_max ? u : u_max;
    v = v > 0.f ? v : 0.f;
    v = v < v_max ? v : v_max;
    const int c = std::min(static_cast<int>(u), columns_ - 2);
    const int r = std::min(static_cast<int>(v), rows_ - 2);
    return {r, c, u - static_cast<float>(c), v - static_cast<float>(r)};
  }
  float cell_height(const CellPoint& p) const {
    const float h00 = at(p.row, p.column), h11 = at(p.row + 1, p.column + 1);
    // Triangle {00, 11, 10} when fu >= fv, else {00, 01, 11}. Both are
    //   h00 + max(fu, fv) * (corner - h00) + min(fu, fv) * (h11 - corner)
    // with corner the third sample, which keeps this free of unpredictable branches.
    const float corner = p.fu >= p.fv ? at(p.row, p.column + 1) : at(p.row + 1, p.column);
    return h00 + std::max(p.fu, p.fv) * (corner - h00) + std::min(p.fu, p.fv) * (h11 - corner);
  }
  glm::vec3 cell_normal(const CellPoint& p) const;

  int rows_ = 0;
  int columns_ = 0;
  std::vector<float> heights_; ///< world y of each sample (m)
  glm::vec2 cell_size_{1.f};
  glm::vec2 inverse_cell_size_{1.f};
  glm::vec3 origin_{0.f};
  int block_rows_ = 0, block_columns_ = 0;
  std::vector<float> block_bounds_;  ///< min, max height of each block of cells (m)
  std::vector<std::uint64_t> holes_; ///< one bit per cell; empty when there is no hole
  gjk::Aabb bounds_;
};

/// True when the triangle's bounds overlap the box and its plane crosses the box.
bool overlaps(const gjk::Triangle& triangle, const gjk::Aabb& box);

template <class Callback>
int Heightfield::triangles_in(const gjk::Aabb& box, Callback&& callback) const {
  static_assert(std::is_invocable_v<Callback&, const gjk::Triangle&>, "callback(const glide::gjk::Triangle&)");
  const CellRange range = cells_overlapping(box);
  int count = 0;
  for (int r = range.row_begin; r < range.row_end; ++r)
    for (int c = range.column_begin; c < range.column_end; ++c) {
      if (!block_overlaps_height(r, c, box.min.y, box.max.y) || is_hole(r, c)) continue;
      for (const gjk::Triangle& triangle : cell_triangles(r, c)) {
        if (!overlaps(triangle, box)) continue;
        ++count;
        if constexpr (std::is_same_v<std::invoke_result_t<Callback&, const gjk::Triangle&>, bool>) {
          if (!callback(triangle)) return count;
        } else {
          callback(triangle);
        }
      }
    }
  return count;
}

} // namespace glide
