// Bvh::refit: moved items re-stored in the tree they were built into (bvh.hpp).
#include "bvh.hpp"

#include <glide/error.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace glide::detail {

namespace {

constexpr std::uint32_t k_no_entry = ~0u;
constexpr std::uint32_t k_large_entry = ~0u - 1;
// A node re-gridded by a refit covers its slots' union grown by this much of its extent a
// side: about one step of the 8-bit grid's precision lost, for far fewer re-grids.
constexpr float k_refit_grid_margin = 1.f / 16.f;

gjk::Aabb union_of(const std::array<gjk::Aabb, 4>& slots, std::uint8_t used) {
  gjk::Aabb all;
  for (int k = 0; k < 4; ++k)
    if ((used >> k & 1u) != 0u) all = all.merged(slots[static_cast<std::size_t>(k)]);
  return all;
}

// Half the surface of `box`, 0 for an empty one (a removed item's slot).
double area_of(const gjk::Aabb& box) { return box.min.x <= box.max.x ? static_cast<double>(box.half_area()) : 0.0; }

} // namespace

// The records a refit walks, from the tree as built: wide nodes come after their parents
// (depth-first), so one pass from the last node up gives every subtree's exact box before
// its parent needs it.
void Bvh::prepare_refit() {
  const auto count = static_cast<std::uint32_t>(wide_.size());
  refit_.assign(count, RefitNode{});
  changed_.assign(count, 0);
  dirty_.assign((count + 63) / 64, 0);
  for (std::uint32_t w = count; w-- > 0;) {
    const WideNode& node = wide_[w];
    for (int k = 0; k < 4; ++k) {
      if ((node.used >> k & 1u) == 0u) continue;
      gjk::Aabb& slot = refit_[w].slots[static_cast<std::size_t>(k)];
      if (node.count[k] > 0) {
        slot = leaf_item(node.child[k]).box;
        continue;
      }
      RefitNode& child = refit_[node.child[k]];
      child.parent = 4 * w + static_cast<std::uint32_t>(k);
      slot = child.published = union_of(child.slots, wide_[node.child[k]].used);
    }
  }
  for (std::uint32_t i = 0; i < cells_.cell_count(); ++i)
    if (const SubtreeEntry& e = cells_.cell(i); e.used() && e.count == 0) refit_[e.ref].entry = i;
  if (cells_.large().used() && cells_.large().count == 0) refit_[cells_.large().ref].entry = k_large_entry;
  // Before any leaf moves: the centroids the build placed the small items by, and the cells
  // that hold one item only.
  for (ItemRef& r : refs_)
    if (r.block < first_large_block_) r.anchor = leaf_item(r.block).box.center();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> single; // (block, entry), by block
  for (std::uint32_t i = 0; i <= cells_.cell_count(); ++i) {
    const SubtreeEntry& e = i < cells_.cell_count() ? cells_.cell(i) : cells_.large();
    if (e.used() && e.count > 0) single.push_back({e.ref, i < cells_.cell_count() ? i : k_large_entry});
  }
  std::sort(single.begin(), single.end());
  if (single.empty()) return;
  for (ItemRef& r : refs_) {
    const auto it = std::lower_bound(single.begin(), single.end(), std::pair{r.block, 0u});
    if (it != single.end() && it->first == r.block) r.own_entry = it->second;
  }
}

// Re-stores slot k of `node` as the exact `box`, and when the slot holds a wide node, records
// it there; the node's codes wait for finish_refits().
void Bvh::set_slot(std::uint32_t node, int k, const gjk::Aabb& box) {
  gjk::Aabb& slot = refit_[node].slots[static_cast<std::size_t>(k)];
  area_ += area_of(box) - area_of(slot);
  slot = box;
  const WideNode& w = wide_[node];
  if (w.count[k] == 0) refit_[w.child[k]].published = box;
  changed_[node] = static_cast<std::uint8_t>(changed_[node] | 1u << k);
  dirty_[node / 64] |= std::uint64_t{1} << (node % 64);
}

void Bvh::stage_removal(std::uint32_t input) {
  if (input >= refs_.size())
    throw Error("Bvh::stage_removal: item " + std::to_string(input) + " out of range (" + std::to_string(refs_.size()) +
                " items)");
  if (refit_.size() != wide_.size()) prepare_refit();
  const ItemRef& ref = refs_[input];
  // A cell (or the large items) whose subtree was this leaf alone has none left.
  if (ref.own_entry != k_no_entry)
    (ref.own_entry == k_large_entry ? cells_.large() : cells_.cell(ref.own_entry)) = SubtreeEntry{};
  // Its slot leaves the node's used ones: no query looks at it again.
  const std::uint32_t node = ref.slot / 4;
  const int k = static_cast<int>(ref.slot % 4);
  set_slot(node, k, gjk::Aabb{});
  wide_[node].used = static_cast<std::uint8_t>(wide_[node].used & ~(1u << k));
}

void Bvh::stage_refit(std::uint32_t input, const gjk::Aabb& box, std::span<const glm::vec3> data) {
  if (input >= refs_.size())
    throw Error("Bvh::refit: item " + std::to_string(input) + " out of range (" + std::to_string(refs_.size()) +
                " items)");
  if (refit_.size() != wide_.size()) prepare_refit();
  const ItemRef& ref = refs_[input];
  glm::vec3* const header = leaves_.data() + ref.block;
  const auto size = std::bit_cast<std::uint32_t>(header[2].z);
  if (data.size() != size)
    throw Error("Bvh::refit: item " + std::to_string(input) + " has " + std::to_string(data.size()) +
                " points, built with " + std::to_string(size));
  header[0] = box.min;
  header[1] = box.max;
  for (std::uint32_t i = 0; i < size; ++i) header[k_header + i] = data[i];

  // Queries starting from the cells find the item from its build centroid's cell: widen the
  // reach to its new box. A cell (or the large items) whose subtree is this leaf alone records
  // the box itself.
  if (ref.block < first_large_block_) cells_.grow_reach(glm::max(box.max - ref.anchor, ref.anchor - box.min));
  if (ref.own_entry != k_no_entry)
    (ref.own_entry == k_large_entry ? cells_.large() : cells_.cell(ref.own_entry)).bounds = box;
  set_slot(ref.slot / 4, static_cast<int>(ref.slot % 4), box);
}

// The staged nodes from the deepest up (a child's index is above its parent's, so the
// highest dirty node never waits on another): each is coded once, however many of its slots
// moved, and passes its new box up only when its subtree grew out of its parent's slot (a
// subtree that shrank keeps its looser, still containing, slot).
void Bvh::finish_refits() {
  for (std::size_t word = dirty_.size(); word-- > 0;) {
    while (dirty_[word] != 0u) {
      const auto bit = static_cast<std::uint32_t>(63 - std::countl_zero(dirty_[word]));
      dirty_[word] &= ~(std::uint64_t{1} << bit);
      const auto node = static_cast<std::uint32_t>(64 * word + bit);
      WideNode& w = wide_[node];
      const RefitNode& r = refit_[node];
      const unsigned changed = changed_[node];
      changed_[node] = 0;
      for (int k = 0; k < 4; ++k) {
        if ((changed >> k & 1u) == 0u || quantize_slot(w, k, r.slots[static_cast<std::size_t>(k)])) continue;
        // Out of the grid: a new one over the slots (a removed item's is empty: it adds nothing
        // and codes as empty), with room for the next moves.
        quantize(w, r.slots, k_refit_grid_margin);
        break;
      }
      const gjk::Aabb all = union_of(r.slots, w.used);
      if (r.entry != k_no_entry) (r.entry == k_large_entry ? cells_.large() : cells_.cell(r.entry)).bounds = all;
      if (r.parent != WideNode::k_empty && !r.published.contains(all))
        set_slot(r.parent / 4, static_cast<int>(r.parent % 4), all);
    }
  }
}

void Bvh::refit(std::uint32_t input, const gjk::Aabb& box, std::span<const glm::vec3> data) {
  stage_refit(input, box, data);
  finish_refits();
}

} // namespace glide::detail
