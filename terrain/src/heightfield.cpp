#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/terrain/heightfield.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace glide {

namespace {

// Coordinates are those of the valid range (limits.hpp), so that differences and products of
// positions stay far from float overflow in every query.
using limits::in_range;
using limits::number_text;

std::string vec_text(glm::vec2 v) { return "(" + number_text(v.x) + ", " + number_text(v.y) + ")"; }
std::string vec_text(glm::vec3 v) { return limits::vec_text(v); }
const std::string k_range = number_text(limits::k_max_coordinate) + " m";

} // namespace

Heightfield::Heightfield(HeightfieldDef def)
    : rows_(def.rows), columns_(def.columns), heights_(std::move(def.heights)), cell_size_(def.cell_size),
      origin_(def.origin) {
  const int rows = def.rows, columns = def.columns;
  const glm::vec2 cell_size = def.cell_size;
  const glm::vec3 origin = def.origin;
  const float height_scale = def.height_scale, height_offset = def.height_offset;
  const std::string dims = std::to_string(rows) + " x " + std::to_string(columns);
  if (rows < 2 || columns < 2) throw Error("Heightfield: need at least 2 x 2 samples, got " + dims);
  if (rows > k_max_dimension || columns > k_max_dimension)
    throw Error("Heightfield: " + dims + " samples exceed the maximum of " + std::to_string(k_max_dimension) +
                " per side");
  if (heights_.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns))
    throw Error("Heightfield: " + std::to_string(heights_.size()) + " heights for " + dims + " samples");
  // Smaller cells make a triangle's normal overflow; larger ones a triangle beyond a piece's size.
  if (!(cell_size.x >= limits::k_min_cell_size) || !(cell_size.y >= limits::k_min_cell_size) ||
      !(cell_size.x <= limits::k_max_piece_size) || !(cell_size.y <= limits::k_max_piece_size))
    throw Error("Heightfield: cell_size must be in [" + number_text(limits::k_min_cell_size) + ", " +
                number_text(limits::k_max_piece_size) + "] m, got " + vec_text(cell_size));
  if (!in_range(origin))
    throw Error("Heightfield: origin must be finite (|v| <= " + k_range + "), got " + vec_text(origin));
  if (!std::isfinite(height_scale) || !std::isfinite(height_offset))
    throw Error("Heightfield: height_scale and height_offset must be finite, got " + std::to_string(height_scale) +
                " and " + std::to_string(height_offset));
  const float x_end = origin.x + static_cast<float>(columns - 1) * cell_size.x;
  const float z_end = origin.z + static_cast<float>(rows - 1) * cell_size.y;
  if (!in_range(x_end) || !in_range(z_end))
    throw Error("Heightfield: far corner (" + number_text(x_end) + ", " + number_text(z_end) + ") beyond " + k_range);
  inverse_cell_size_ = 1.f / cell_size;

  const float base = origin.y + height_offset;
  for (std::size_t i = 0; i < heights_.size(); ++i) {
    const float raw = heights_[i];
    const float y = base + height_scale * raw;
    if (!std::isfinite(raw) || !in_range(y))
      throw Error("Heightfield: sample (row " + std::to_string(i / static_cast<std::size_t>(columns)) + ", column " +
                  std::to_string(i % static_cast<std::size_t>(columns)) + ") height " + number_text(raw) + " is " +
                  (std::isfinite(raw) ? number_text(y) + " m after scale and offset, beyond " + k_range
                                      : std::string("not finite")));
    heights_[i] = y;
  }
  build_block_bounds();
}

void Heightfield::translate(const glm::dvec3& by) {
  const glm::vec3 origin(glm::dvec3(origin_) + by);
  const float x_end = origin.x + static_cast<float>(columns_ - 1) * cell_size_.x;
  const float z_end = origin.z + static_cast<float>(rows_ - 1) * cell_size_.y;
  if (!in_range(origin) || !in_range(x_end) || !in_range(z_end))
    throw Error("Heightfield::translate: the grid would span " + vec_text(origin) + " to (" + number_text(x_end) +
                ", " + number_text(z_end) + "), beyond " + k_range);
  std::vector<float> heights = heights_;
  if (by.y != 0.0)
    for (std::size_t i = 0; i < heights.size(); ++i) {
      heights[i] = static_cast<float>(static_cast<double>(heights_[i]) + by.y);
      if (!in_range(heights[i]))
        throw Error("Heightfield::translate: sample " + std::to_string(i) + " would be at height " +
                    number_text(heights[i]) + ", beyond " + k_range);
    }
  origin_ = origin;
  heights_ = std::move(heights);
  build_block_bounds();
}

void Heightfield::build_block_bounds() {
  block_rows_ = (rows_ - 1 + k_block_cells - 1) / k_block_cells;
  block_columns_ = (columns_ - 1 + k_block_cells - 1) / k_block_cells;
  block_bounds_.assign(2 * static_cast<std::size_t>(block_rows_) * static_cast<std::size_t>(block_columns_), 0.f);
  float lowest = heights_[0], highest = heights_[0];
  for (int br = 0; br < block_rows_; ++br)
    for (int bc = 0; bc < block_columns_; ++bc) {
      // A block of cells spans one more sample than cells on each side.
      const int r_end = std::min((br + 1) * k_block_cells, rows_ - 1);
      const int c_end = std::min((bc + 1) * k_block_cells, columns_ - 1);
      float lo = at(br * k_block_cells, bc * k_block_cells), hi = lo;
      for (int r = br * k_block_cells; r <= r_end; ++r)
        for (int c = bc * k_block_cells; c <= c_end; ++c) {
          lo = std::min(lo, at(r, c));
          hi = std::max(hi, at(r, c));
        }
      const std::size_t b =
          static_cast<std::size_t>(br) * static_cast<std::size_t>(block_columns_) + static_cast<std::size_t>(bc);
      block_bounds_[2 * b] = lo;
      block_bounds_[2 * b + 1] = hi;
      lowest = std::min(lowest, lo);
      highest = std::max(highest, hi);
    }
  bounds_ = {{origin_.x, lowest, origin_.z},
             {origin_.x + static_cast<float>(columns_ - 1) * cell_size_.x, highest,
              origin_.z + static_cast<float>(rows_ - 1) * cell_size_.y}};
}

std::size_t Heightfield::memory_bytes() const {
  return heights_.capacity() * sizeof(float) + block_bounds_.capacity() * sizeof(float) +
         holes_.capacity() * sizeof(std::uint64_t);
}

void Heightfield::set_hole(int cell_row, int cell_column, bool hole) {
  if (cell_row < 0 || cell_row >= rows_ - 1 || cell_column < 0 || cell_column >= columns_ - 1)
    throw Error("Heightfield::set_hole: cell (" + std::to_string(cell_row) + ", " + std::to_string(cell_column) +
                ") outside the " + std::to_string(rows_ - 1) + " x " + std::to_string(columns_ - 1) + " cells");
  const std::size_t cells = static_cast<std::size_t>(rows_ - 1) * static_cast<std::size_t>(columns_ - 1);
  if (holes_.empty()) {
    if (!hole) return;
    holes_.assign((cells + 63) / 64, 0u);
  }
  const std::size_t bit = static_cast<std::size_t>(cell_row) * static_cast<std::size_t>(columns_ - 1) +
                          static_cast<std::size_t>(cell_column);
  if (hole)
    holes_[bit >> 6] |= std::uint64_t{1} << (bit & 63);
  else
    holes_[bit >> 6] &= ~(std::uint64_t{1} << (bit & 63));
}

glm::vec3 Heightfield::cell_normal(const CellPoint& p) const {
  const float h00 = at(p.row, p.column), h11 = at(p.row + 1, p.column + 1);
  float dh_du = 0.f, dh_dv = 0.f; // height change per cell along x and z (m)
  if (p.fu >= p.fv) {
    const float h10 = at(p.row, p.column + 1);
    dh_du = h10 - h00;
    dh_dv = h11 - h10;
  } else {
    const float h01 = at(p.row + 1, p.column);
    dh_du = h11 - h01;
    dh_dv = h01 - h00;
  }
  // (-dh/dx, 1, -dh/dz) scaled by cell.x * cell.z to avoid divisions.
  return glm::normalize(glm::vec3(-dh_du * cell_size_.y, cell_size_.x * cell_size_.y, -dh_dv * cell_size_.x));
}

glm::vec3 Heightfield::normal_at(float x, float z) const { return cell_normal(locate(x, z)); }

TerrainSample Heightfield::sample(float x, float z) const {
  const CellPoint p = locate(x, z);
  const float u = (x - origin_.x) * inverse_cell_size_.x;
  const float v = (z - origin_.z) * inverse_cell_size_.y;
  const bool on_grid = u >= 0.f && u <= static_cast<float>(columns_ - 1) && v >= 0.f &&
                       v <= static_cast<float>(rows_ - 1) && std::isfinite(x) && std::isfinite(z);
  return {on_grid && !is_hole(p.row, p.column), cell_height(p), cell_normal(p)};
}

std::array<gjk::Triangle, 2> Heightfield::cell_triangles(int cell_row, int cell_column) const {
  const glm::vec3 p00 = vertex(cell_row, cell_column), p10 = vertex(cell_row, cell_column + 1);
  const glm::vec3 p01 = vertex(cell_row + 1, cell_column), p11 = vertex(cell_row + 1, cell_column + 1);
  return {gjk::Triangle{p00, p11, p10}, gjk::Triangle{p00, p01, p11}};
}

Heightfield::CellRange Heightfield::cells_overlapping(const gjk::Aabb& box) const {
  if (!box.valid() || !box.overlaps(bounds_)) return {};
  // Cell c spans u in [c, c + 1]; closed overlap with [u_lo, u_hi] means c >= u_lo - 1 and
  // c <= u_hi. Computed in double so that the bounds never exclude a touching cell.
  const auto range = [](float lo, float hi, float origin, float cell, int cells, int& begin, int& end) {
    const double u_lo = (static_cast<double>(lo) - origin) / cell;
    const double u_hi = (static_cast<double>(hi) - origin) / cell;
    begin = static_cast<int>(std::clamp(std::ceil(u_lo) - 1.0, 0.0, static_cast<double>(cells)));
    end = static_cast<int>(std::clamp(std::floor(u_hi) + 1.0, 0.0, static_cast<double>(cells)));
  };
  CellRange r;
  range(box.min.x, box.max.x, origin_.x, cell_size_.x, columns_ - 1, r.column_begin, r.column_end);
  range(box.min.z, box.max.z, origin_.z, cell_size_.y, rows_ - 1, r.row_begin, r.row_end);
  return r;
}

bool overlaps(const gjk::Triangle& t, const gjk::Aabb& box) {
  const glm::vec3 lo = glm::min(t.a, glm::min(t.b, t.c)), hi = glm::max(t.a, glm::max(t.b, t.c));
  if (!box.overlaps({lo, hi})) return false;
  // Separating axis along the triangle normal: the box's extent along it must reach the plane.
  const glm::vec3 n = glm::cross(t.b - t.a, t.c - t.a);
  const glm::vec3 center = box.center(), half = 0.5f * box.extents();
  const float reach = half.x * std::abs(n.x) + half.y * std::abs(n.y) + half.z * std::abs(n.z);
  const float offset = glm::dot(n, center - t.a);
  return std::abs(offset) <= reach * (1.f + 1e-6f) + 1e-12f;
}

} // namespace glide
