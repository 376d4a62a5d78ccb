#pragma once

// Where a small query enters the BVH (bvh.hpp). The build splits the tree's upper levels on a
// uniform grid of cells, each holding about k_items_per_cell item centroids, and records each
// cell's subtree; a query whose box spans only a few cells starts from their subtrees instead
// of the root, so it walks about as many levels on a level of 100k pieces as on one of 1k.
// Items too large for their cell sit in one more subtree that such a query always visits.

#include "bvh_node.hpp"

#include <glide/gjk/aabb.hpp>

#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace glide::detail {

/// A subtree a query may start from: a wide node (count 0) or a leaf's block (count 1), and
/// the exact union of its items' boxes.
struct SubtreeEntry {
  gjk::Aabb bounds;
  std::uint32_t ref = WideNode::k_empty;
  std::uint32_t count = 0;
  bool used() const { return ref != WideNode::k_empty; }
};

/// The grid of cells over item centroids, and the subtree of each cell.
class CellGrid {
public:
  /// Centroids per cell the plan aims at: a cell's subtree is then about two wide levels. Of
  /// 8, 12, 16, 32 and 64, 8 to 16 gave the fastest walks at 1k to 100k pieces (performance.md).
  static constexpr std::uint32_t k_items_per_cell = 16;
  /// A query spanning more cells than this starts at the root.
  static constexpr int k_max_query_cells = 8;

  /// Chooses cubic cells for these item boxes; false (no grid) when there are too few items
  /// or their centroids do not spread.
  bool plan(std::span<const gjk::Aabb> boxes);
  bool active() const { return !cells_.empty(); }
  /// Whether an item belongs in a cell: no wider than half a cell along any axis.
  bool small(const gjk::Aabb& box) const {
    const glm::vec3 e = box.extents();
    return e.x <= half_size_ && e.y <= half_size_ && e.z <= half_size_;
  }
  /// Cell coordinate of `v` along `axis`, clamped to the grid; the build places centroids and
  /// queries find cells with this one expression, so both agree exactly.
  int coord(float v, int axis) const {
    const float f = (v - origin_[axis]) * inv_size_;
    if (!(f >= 0.f)) return 0;
    if (f >= static_cast<float>(dims_[axis])) return dims_[axis] - 1;
    return static_cast<int>(f);
  }
  int dims(int axis) const { return dims_[axis]; }
  std::uint32_t index(int x, int y, int z) const {
    return (static_cast<std::uint32_t>(z) * static_cast<std::uint32_t>(dims_[1]) + static_cast<std::uint32_t>(y)) *
               static_cast<std::uint32_t>(dims_[0]) +
           static_cast<std::uint32_t>(x);
  }
  /// Records how far the small items reach beyond their centroids (m, per axis).
  void set_reach(const glm::vec3& reach);
  /// Widens the reach to at least `reach` (m, per axis): an item refitted away from the
  /// centroid it was placed by must still be found from the cells around its new box.
  void grow_reach(const glm::vec3& reach) {
    if (reach.x > raw_reach_.x || reach.y > raw_reach_.y || reach.z > raw_reach_.z)
      pad_reach(glm::max(raw_reach_, reach));
  }
  /// How far grow_reach has widened the reach since set_reach, at most over the axes (cells):
  /// a query's box widens by twice this, so past a fraction of a cell it spans more cells.
  float reach_growth() const {
    const glm::vec3 grown = (raw_reach_ - set_reach_) * inv_size_;
    return std::max(std::max(grown.x, grown.y), grown.z);
  }
  std::size_t cell_count() const { return cells_.size(); }
  SubtreeEntry& cell(std::uint32_t i) { return cells_[i]; }
  const SubtreeEntry& cell(std::uint32_t i) const { return cells_[i]; }
  SubtreeEntry& large() { return large_; }
  const SubtreeEntry& large() const { return large_; }
  void clear() { *this = CellGrid{}; }

  /// Calls f(const SubtreeEntry&) for every subtree that can hold an item overlapping the box
  /// [lo, hi]: the used cells within reach of it, then the large items' subtree. False, having
  /// called nothing, when there is no grid or the box spans more than k_max_query_cells cells.
  template <class F>
  bool for_each_entry(const glm::vec3& lo, const glm::vec3& hi, F&& f) const {
    if (cells_.empty()) return false;
    int c0[3], c1[3];
    std::int64_t span = 1; // up to three axes of many cells each
    for (int a = 0; a < 3; ++a) {
      if (!(lo[a] <= hi[a])) return false; // NaN
      c0[a] = coord(lo[a] - reach_[a], a);
      c1[a] = coord(hi[a] + reach_[a], a);
      span *= c1[a] - c0[a] + 1;
    }
    if (span > k_max_query_cells) return false;
    for (int z = c0[2]; z <= c1[2]; ++z)
      for (int y = c0[1]; y <= c1[1]; ++y)
        for (int x = c0[0]; x <= c1[0]; ++x) {
          const SubtreeEntry& e = cells_[index(x, y, z)];
          if (e.used()) f(e);
        }
    if (large_.used()) f(large_);
    return true;
  }

private:
  void pad_reach(const glm::vec3& reach);
  glm::vec3 origin_{0.f};    // the centroids' smallest corner (m)
  glm::vec3 set_reach_{0.f}; // the reach as the build recorded it (m)
  glm::vec3 raw_reach_{0.f}; // beyond its centroid, a small item's box reaches at most this (m)
  glm::vec3 reach_{0.f};     // raw_reach_ padded for rounding: what queries widen their box by (m)
  float inv_size_ = 0.f;     // 1 / the cells' side (1/m)
  float half_size_ = 0.f;    // half the cells' side (m)
  int dims_[3] = {1, 1, 1};
  std::vector<SubtreeEntry> cells_; // x fastest, then y, then z
  SubtreeEntry large_;
};

} // namespace glide::detail
