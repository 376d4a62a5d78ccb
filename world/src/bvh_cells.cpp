#include "bvh_cells.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace glide::detail {

bool CellGrid::plan(std::span<const gjk::Aabb> boxes) {
  clear();
  // Below a few cells' worth the root is as near as any cell.
  const std::size_t n = boxes.size();
  if (n < 4 * std::size_t{k_items_per_cell}) return false;
  gjk::Aabb centroids;
  for (const gjk::Aabb& b : boxes) centroids = centroids.merged(b.center());
  const glm::vec3 extent = centroids.extents();
  if (!(extent.x >= 0.f && extent.y >= 0.f && extent.z >= 0.f)) return false; // NaN

  // Cubic cells holding k_items_per_cell centroids on average over the axes the centroids
  // spread along: a flat level (its height under one cell) gets one layer of cells.
  int axes[3] = {0, 1, 2};
  std::sort(axes, axes + 3, [&](int a, int b) { return extent[a] > extent[b]; });
  const double cells = static_cast<double>(n) / k_items_per_cell;
  double size = 0.0;
  for (int k = 3; k >= 1; --k) {
    double volume = 1.0;
    for (int i = 0; i < k; ++i) volume *= extent[axes[i]];
    if (!(volume > 0.0)) continue;
    size = std::pow(volume / cells, 1.0 / k);
    if (extent[axes[k - 1]] >= size) break;
  }
  if (!(size > 0.0) || !std::isfinite(size)) return false;

  std::size_t total = 1;
  for (int a = 0; a < 3; ++a) {
    const double d = std::ceil(extent[a] / size);
    dims_[a] = static_cast<int>(std::clamp(d, 1.0, cells));
    total *= static_cast<std::size_t>(dims_[a]);
  }
  if (total < 2) return false;
  origin_ = centroids.min;
  inv_size_ = static_cast<float>(1.0 / size);
  half_size_ = static_cast<float>(0.5 * size);
  cells_.assign(total, SubtreeEntry{});
  return true;
}

void CellGrid::set_reach(const glm::vec3& reach) {
  set_reach_ = reach;
  pad_reach(reach);
}

void CellGrid::pad_reach(const glm::vec3& reach) {
  raw_reach_ = reach;
  // Outward by more than any rounding of the build's and the queries' float arithmetic. A
  // sweep's slab test rounds at the scale of the coordinates, so the pad grows with them.
  const glm::vec3 last = origin_ + glm::vec3(dims_[0], dims_[1], dims_[2]) / inv_size_;
  const glm::vec3 far = glm::max(glm::abs(origin_), glm::abs(last)) + reach;
  const float scale = std::max(std::max(far.x, far.y), far.z);
  reach_ = reach * (1.f + 1e-4f) + glm::vec3(1e-4f / inv_size_ + 64.f * FLT_EPSILON * scale);
}

} // namespace glide::detail
