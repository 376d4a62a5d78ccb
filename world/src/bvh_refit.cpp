// Bvh::refit: moved items re-stored in the tree they were built into (bvh.hpp).
#include "bvh.hpp"

#include <glide/error.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace glide::detail {

namespace {

constexpr std::uint32_t k_no_entry = ~0u;
constexpr std::uint32_t k_large_entry = ~0u - 1;

gjk::Aabb union_of(const std::array<gjk::Aabb, 4>& slots, std::uint8_t used) {
  gjk::Aabb all;
  for (int k = 0; k < 4; ++k)
    if ((used >> k & 1u) != 0u) all = all.merged(slots[static_cast<std::size_t>(k)]);
  return all;
}

} // namespace

// The records a refit walks, from the tree as built: wide nodes come after their parents
// (depth-first), so one pass from the last node up gives every subtree's exact box before
// its parent needs it.
void Bvh::prepare_refit() {
  const auto count = static_cast<std::uint32_t>(wide_.size());
  parent_.assign(count, WideNode::k_empty);
  node_entry_.assign(count, k_no_entry);
  slot_bounds_.assign(count, {});
  for (std::uint32_t w = count; w-- > 0;) {
    const WideNode& node = wide_[w];
    for (int k = 0; k < 4; ++k) {
      if ((node.used >> k & 1u) == 0u) continue;
      gjk::Aabb& slot = slot_bounds_[w][static_cast<std::size_t>(k)];
      if (node.count[k] > 0) {
        slot = leaf_item(node.child[k]).box;
        continue;
      }
      parent_[node.child[k]] = 4 * w + static_cast<std::uint32_t>(k);
      slot = union_of(slot_bounds_[node.child[k]], wide_[node.child[k]].used);
    }
  }
  for (std::uint32_t i = 0; i < cells_.cell_count(); ++i)
    if (const SubtreeEntry& e = cells_.cell(i); e.used() && e.count == 0) node_entry_[e.ref] = i;
  if (cells_.large().used() && cells_.large().count == 0) node_entry_[cells_.large().ref] = k_large_entry;
  // Before any leaf moves: the centroids the build placed the small items by.
  anchors_.assign(refs_.size(), glm::vec3(std::numeric_limits<float>::quiet_NaN()));
  for (std::size_t i = 0; i < refs_.size(); ++i)
    if (refs_[i].block < first_large_block_) anchors_[i] = leaf_item(refs_[i].block).box.center();
}

void Bvh::refit_slot(std::uint32_t node, int k, const gjk::Aabb& box) {
  gjk::Aabb& slot = slot_bounds_[node][static_cast<std::size_t>(k)];
  area_ += static_cast<double>(box.half_area()) - static_cast<double>(slot.half_area());
  slot = box;
  WideNode& w = wide_[node];
  if (quantize_slot(w, k, box)) return;
  // Out of the grid: a new one over the used slots (always slots 0 to n - 1).
  quantize(w, {slot_bounds_[node].data(), static_cast<std::size_t>(std::popcount(w.used))});
}

void Bvh::refit(std::uint32_t input, const gjk::Aabb& box, std::span<const glm::vec3> data) {
  if (input >= refs_.size())
    throw Error("Bvh::refit: item " + std::to_string(input) + " out of range (" + std::to_string(refs_.size()) +
                " items)");
  if (parent_.size() != wide_.size()) prepare_refit();
  const ItemRef ref = refs_[input];
  glm::vec3* const header = leaves_.data() + ref.block;
  const auto size = std::bit_cast<std::uint32_t>(header[2].z);
  if (data.size() != size)
    throw Error("Bvh::refit: item " + std::to_string(input) + " has " + std::to_string(data.size()) +
                " points, built with " + std::to_string(size));
  header[0] = box.min;
  header[1] = box.max;
  std::copy(data.begin(), data.end(), header + k_header);

  // Queries starting from the cells find the item from its build centroid's cell: widen the
  // reach to its new box. A cell (or the large items) whose subtree is this leaf alone records
  // the box itself.
  if (cells_.active()) {
    if (ref.block < first_large_block_) {
      const glm::vec3& anchor = anchors_[input];
      cells_.grow_reach(glm::max(box.max - anchor, anchor - box.min));
      SubtreeEntry& e =
          cells_.cell(cells_.index(cells_.coord(anchor.x, 0), cells_.coord(anchor.y, 1), cells_.coord(anchor.z, 2)));
      if (e.count > 0 && e.ref == ref.block) e.bounds = box;
    } else if (cells_.large().count > 0 && cells_.large().ref == ref.block) {
      cells_.large().bounds = box;
    }
  }

  // Up the tree: the leaf's slot gets its exact box; each parent's slot only when the subtree
  // below grew out of it (a subtree that shrank keeps its looser, still containing, slot).
  std::uint32_t node = ref.slot / 4;
  int k = static_cast<int>(ref.slot % 4);
  gjk::Aabb moved = box;
  for (;;) {
    refit_slot(node, k, moved);
    const gjk::Aabb all = union_of(slot_bounds_[node], wide_[node].used);
    if (const std::uint32_t entry = node_entry_[node]; entry != k_no_entry)
      (entry == k_large_entry ? cells_.large() : cells_.cell(entry)).bounds = all;
    const std::uint32_t up = parent_[node];
    if (up == WideNode::k_empty || slot_bounds_[up / 4][up % 4].contains(all)) return;
    node = up / 4;
    k = static_cast<int>(up % 4);
    moved = all;
  }
}

} // namespace glide::detail
