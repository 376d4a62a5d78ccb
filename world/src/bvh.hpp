#pragma once

#include "bvh_cells.hpp"
#include "bvh_node.hpp"

#include <glide/gjk/aabb.hpp>

#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <new>
#include <span>
#include <utility>
#include <vector>

namespace glide::detail {

/// The build keeps the tree shallower than this (SAH splits down to depth 64, then median
/// splits, which halve the count), so fixed traversal stacks never overflow.
constexpr int k_bvh_stack_size = 128;
/// A wide node pushes at most 4 entries and is itself popped: 3 per level of a wide tree no
/// deeper than the binary one, plus the starting entries (the root, or the cells' subtrees).
constexpr int k_wide_stack_size = 3 * k_bvh_stack_size + CellGrid::k_max_query_cells + 1;

/// Storage for the arrays the queries walk: 64-byte aligned, and from 2 MB up aligned to
/// 2 MB and (on Linux) advised to use transparent huge pages before first use. On a level of
/// 100k pieces the walk reads lines scattered over about 16 MB, far beyond the reach of the
/// 4 KB translation entries; with 2 MB pages a handful of entries cover it all.
void* allocate_query_storage(std::size_t bytes);
void free_query_storage(void* p, std::size_t bytes);

/// Allocator over allocate_query_storage (Huge) or plain 64-byte aligned storage: each pair
/// of 32-byte sibling nodes fills exactly one cache line.
template <class T, bool Huge = false>
struct CacheLineAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = CacheLineAllocator<U, Huge>;
  };
  static constexpr std::align_val_t k_alignment{64};
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U, Huge>&) {}
  T* allocate(std::size_t n) {
    if constexpr (Huge) return static_cast<T*>(allocate_query_storage(n * sizeof(T)));
    return static_cast<T*>(::operator new(n * sizeof(T), k_alignment));
  }
  void deallocate(T* p, std::size_t n) {
    if constexpr (Huge) return free_query_storage(p, n * sizeof(T));
    ::operator delete(p, k_alignment);
  }
  friend bool operator==(const CacheLineAllocator&, const CacheLineAllocator&) { return true; }
};
/// What the queries walk (wide nodes, leaf blocks) lives on huge pages when large.
template <class T>
using QueryAllocator = CacheLineAllocator<T, true>;

/// One node of the flat hierarchy. A leaf (count > 0) holds items [first, first + count) of
/// Bvh::items(); an inner node (count == 0) has its two children at nodes [first] and
/// [first + 1], so siblings sit next to each other in memory (first is always even).
struct BvhNode {
  gjk::Aabb bounds;
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};

/// Extra data an item carries in the leaves (Bvh::build): one word and a run of points.
struct ItemPayload {
  std::uint32_t word = 0;
  std::span<const glm::vec3> data;
};

/// One item during the build: its box and centroid, and its index into the build's inputs.
/// The build permutes these records rather than indices, so every pass reads memory in order.
struct Prim {
  gjk::Aabb box;
  glm::vec3 centroid;
  std::uint32_t index;
};

/// One item as a query sees it: its exact box, its id, and the payload stored with it.
struct LeafItem {
  gjk::Aabb box;
  std::uint32_t item = 0;
  std::uint32_t word = 0;
  std::span<const glm::vec3> payload;
};

/// Stores the boxes of a wide node's used slots (`exact`, slots 0 to size - 1) in 8 bits per
/// coordinate, rounded outward, on a grid that covers their union grown by `margin` times its
/// extent on each side (room for refits to move the slots without a new grid).
void quantize(WideNode& w, std::span<const gjk::Aabb> exact, float margin = 0.f);
/// Stores slot k's box on the node's current grid, rounded outward; false, changing nothing,
/// when the box leaves the grid's range.
bool quantize_slot(WideNode& w, int k, const gjk::Aabb& exact);

/// Bounding volume hierarchy over item boxes, built top-down with a binned surface area
/// heuristic. Items are opaque 32-bit values (the world's piece slots).
/// The binary tree is kept for inspection; queries walk the wide tree, which refit() keeps
/// correct as items move.
class Bvh {
public:
  /// Rebuilds from scratch: boxes[i] is the box of item ids[i], stored with payloads[i] when
  /// given. O(n log n) plus the payloads' size. Throws glide::Error when the leaf storage
  /// would not fit 32-bit offsets. Phases: the items' boxes and centroids, the cell grid,
  /// the binary tree (cell splits, then SAH within each cell and among the large items), the
  /// leaf blocks, the fold into wide nodes. The same input gives the same bytes.
  void build(std::span<const gjk::Aabb> boxes, std::span<const std::uint32_t> ids,
             std::span<const ItemPayload> payloads = {});

  /// Moves item `input` (its index in the last build's inputs) to `box`, with the payload
  /// `data` (as many points as at the build): rewrites its leaf block and re-stores the slot
  /// boxes on its path to the root, each still containing what it holds. The leaf's slot gets
  /// the exact box; an ancestor's slot is enlarged only when its subtree grew out of it, so the
  /// work is about one node per move and at most the depth. The cells' bounds and reach grow
  /// to keep the moved item reachable from the cells around its new box. The tree's shape is
  /// unchanged: area() measures how much it degrades. The first refit after a build prepares
  /// the refit records (O(nodes)); a static tree never pays for them. Throws glide::Error for
  /// an input out of range or a payload of another size.
  void refit(std::uint32_t input, const gjk::Aabb& box, std::span<const glm::vec3> data);
  /// refit() for many moves at once: each stage_refit() rewrites the leaf and its slot's exact
  /// box; finish_refits() then codes every touched node once and passes grown boxes up, deepest
  /// first. Queries must not run between the two.
  void stage_refit(std::uint32_t input, const gjk::Aabb& box, std::span<const glm::vec3> data);
  /// Takes item `input` out of the queries, as a staged refit (finish_refits() completes it):
  /// its slot leaves its node's used slots, and the tree keeps its shape. The item must not be
  /// refitted again before the next build.
  void stage_removal(std::uint32_t input);
  void finish_refits();
  /// Starts fetching what refit(input) reads first, in two steps a few moves apart: the item's
  /// record (prefetch_refit_record), then its leaf block and leaf node (prefetch_refit). A
  /// refit of moves scattered over a large tree waits on memory, not arithmetic.
  void prefetch_refit_record(std::uint32_t input) const {
    if (input < refs_.size()) __builtin_prefetch(&refs_[input]);
  }
  void prefetch_refit(std::uint32_t input) const {
    if (input >= refs_.size() || refit_.size() != wide_.size()) return;
    const ItemRef& r = refs_[input];
    __builtin_prefetch(leaves_.data() + r.block);
    __builtin_prefetch(leaves_.data() + r.block + 5);  // the payload's next lines: a box's
    __builtin_prefetch(leaves_.data() + r.block + 10); // 8 corners end 132 bytes in
    __builtin_prefetch(&wide_[r.slot / 4]);
    __builtin_prefetch(&refit_[r.slot / 4]);
    __builtin_prefetch(reinterpret_cast<const char*>(&refit_[r.slot / 4]) + 64);
  }
  /// Sum of the half surface areas of every used slot's exact box (m^2): what a query's chance
  /// to visit the tree's slots grows with. built_area() is the sum at the last build.
  double area() const { return area_; }
  /// How far refits have widened the cells' reach (cells; 0 without cells): the cells' part of
  /// the tree's degradation (CellGrid::reach_growth).
  float reach_growth() const { return cells_.active() ? cells_.reach_growth() : 0.f; }
  double built_area() const { return built_area_; }

  /// Node 0 is the root; node 1 is padding (empty box, never referenced) so that sibling
  /// pairs start at even indices, on a cache line each.
  static constexpr std::uint32_t k_padding_node = 1;

  bool empty() const { return wide_.empty(); }
  std::span<const BvhNode> nodes() const { return nodes_; }
  /// Frees the binary tree, which the queries never read, for a hierarchy that is never
  /// refitted or inspected (a mesh piece's): nodes() is empty afterwards. 64 bytes per item.
  void release_binary_nodes() { nodes_ = {}; }
  /// The 4-wide tree the queries walk; node 0 is the root.
  std::span<const WideNode> wide_nodes() const { return wide_; }
  /// The cells small queries start from (empty when the tree has too few items).
  const CellGrid& cells() const { return cells_; }
  /// The item ids in leaf order.
  std::vector<std::uint32_t> items() const;
  /// Memory in use by the binary and wide nodes and the cells, and by the leaf blocks (bytes;
  /// the arrays may hold more after a rebuild with fewer items, and large ones are rounded
  /// up to whole huge pages).
  std::size_t node_bytes() const {
    return nodes_.size() * sizeof(BvhNode) + wide_.size() * sizeof(WideNode) +
           cells_.cell_count() * sizeof(SubtreeEntry);
  }
  std::size_t leaf_bytes() const { return leaves_.size() * sizeof(glm::vec3); }
  /// The item of the leaf whose block starts at `block` (a wide node's leaf slot).
  LeafItem leaf_item(std::uint32_t block) const {
    const glm::vec3* header = leaves_.data() + block;
    return {{header[0], header[1]},
            std::bit_cast<std::uint32_t>(header[2].x),
            std::bit_cast<std::uint32_t>(header[2].y),
            {header + k_header, std::bit_cast<std::uint32_t>(header[2].z)}};
  }

  /// Calls visit(const LeafItem&) for every item whose box overlaps `box` (closed bounds).
  template <class Visit>
  void query_box(const gjk::Aabb& box, Visit&& visit) const;

  /// Closest-first traversal for a box of half size `extent` centred at `center` moving along
  /// `motion` for t in [0, 1]. Calls visit(const LeafItem&, t_enter) for items whose box the
  /// moving box reaches no later than `limit`, where t_enter is when it first touches the
  /// item's box; visit may lower `limit` (the best hit so far) to prune the rest. Items the
  /// box never reaches in [0, 1] are not visited, whatever the limit.
  template <class Visit>
  void query_sweep(const glm::vec3& center, const glm::vec3& extent, const glm::vec3& motion, float& limit,
                   Visit&& visit) const;

private:
  // The build's last phases (bvh.cpp has the first ones): the leaf blocks, then the fold.
  std::vector<std::uint32_t> lay_out_items(std::span<const Prim> prims, std::span<const std::uint32_t> ids,
                                           std::span<const ItemPayload> payloads);
  void fold(std::span<const std::uint32_t> block_of, std::span<const std::pair<std::uint32_t, std::uint32_t>> marked,
            std::span<std::uint32_t> slot_of);
  // Folds the binary subtree at `binary_node` into wide nodes; a binary node with a subtree
  // mark (cell or large items) is never folded into its parent, and its entry is recorded.
  std::uint32_t collapse(std::uint32_t binary_node, std::span<const std::uint32_t> block_of,
                         std::span<const std::uint32_t> marks, std::span<std::uint32_t> slot_of);
  void prepare_refit();
  // Stores slot k of wide node `node` as the exact `box` and marks the node for finish_refits().
  void set_slot(std::uint32_t node, int k, const gjk::Aabb& box);
  void record_entry(std::uint32_t mark, std::uint32_t binary_node, std::uint32_t ref);

  // The leaves' storage, one block per leaf (one item each) in leaf order: a header of the
  // item's box (min, max) and (id, word, payload size as bit patterns), then its payload. A
  // leaf slot holds its block's offset, so a candidate's box and the payload that follows it
  // are adjacent lines, reached straight from the node.
  static constexpr std::uint32_t k_header = 3;

  // Subtrees of up to this many wide nodes are fetched whole when reached (the last two or
  // three levels: one wait instead of one per level), on trees larger than a core's share of
  // L2 (100k pieces: 1.7 MB). Smaller trees are walked without: their nodes mostly hit, and
  // the prefetches only cost (10k pieces, 173 KB of nodes: sweeps 4 % slower with them).
  static constexpr std::uint32_t k_prefetch_subtree = 40;
  static constexpr std::size_t k_prefetch_min_nodes = 8192; // 512 KB of wide nodes
  std::uint32_t prefetch_limit_ = 0;                        // k_prefetch_subtree or 0
  // Prefetches the child in slot k of `node`, and all of its subtree when that is small.
  void prefetch_child(const WideNode& node, int k) const {
    const std::uint32_t first = node.child[k];
    __builtin_prefetch(&wide_[first]);
    if (prefetch_limit_ == 0) return; // decoding the size costs more than it saves here
    const std::uint32_t nodes = node.subtree(k);
    if (nodes > prefetch_limit_) return;
    for (std::uint32_t i = 1; i < nodes; ++i) __builtin_prefetch(&wide_[first + i]);
  }

  std::vector<BvhNode, CacheLineAllocator<BvhNode>> nodes_;
  std::vector<WideNode, QueryAllocator<WideNode>> wide_;
  std::vector<glm::vec3, QueryAllocator<glm::vec3>> leaves_;
  std::uint32_t item_count_ = 0;
  CellGrid cells_;

  // Per build input: its leaf block, the wide node (times 4) plus slot holding its leaf, and
  // (from the first refit) the centroid the build placed it in a cell by and the cell entry
  // that is its leaf alone, if any.
  struct ItemRef {
    std::uint32_t block = 0;
    std::uint32_t slot = 0;
    glm::vec3 anchor{0.f};
    std::uint32_t own_entry = ~0u;
  };
  std::vector<ItemRef> refs_;
  std::uint32_t first_large_block_ = 0; // blocks from here on hold the items too large for a cell
  double area_ = 0.0, built_area_ = 0.0;
  // Per wide node, made by the first refit after a build (prepare_refit): the exact boxes its
  // slots stand for (which the stored codes round outward), the box its parent's slot holds for
  // it, its parent (times 4, plus the slot) and the cell entry it is the subtree of. Two cache
  // lines, so a refit reads one node's records in one go.
  struct alignas(64) RefitNode {
    std::array<gjk::Aabb, 4> slots;
    gjk::Aabb published;
    std::uint32_t parent = WideNode::k_empty;
    std::uint32_t entry = ~0u;
  };
  std::vector<RefitNode, CacheLineAllocator<RefitNode>> refit_;
  std::vector<std::uint8_t> changed_; // per wide node: the slots staged since finish_refits()
  std::vector<std::uint64_t> dirty_;  // bit per wide node: has changed slots
};

template <class Visit>
void Bvh::query_box(const gjk::Aabb& box, Visit&& visit) const {
  if (wide_.empty()) return;
  std::uint32_t stack[k_wide_stack_size];
  int top = 0;
  const auto visit_leaf = [&](std::uint32_t block) {
    const LeafItem item = leaf_item(block);
    if (item.box.overlaps(box)) visit(item);
  };
  const bool from_cells = cells_.for_each_entry(box.min, box.max, [&](const SubtreeEntry& e) {
    if (!e.bounds.overlaps(box)) return;
    if (e.count > 0)
      visit_leaf(e.ref);
    else
      stack[top++] = e.ref;
  });
  if (!from_cells) stack[top++] = 0;
  while (top > 0) {
    const WideNode& node = wide_[stack[--top]];
    for (unsigned hit = node.overlaps(box); hit != 0; hit &= hit - 1) {
      const int k = std::countr_zero(hit);
      if (node.count[k] == 0) {
        stack[top++] = node.child[k];
        continue;
      }
      visit_leaf(node.child[k]);
    }
  }
}

template <class Visit>
void Bvh::query_sweep(const glm::vec3& center, const glm::vec3& extent, const glm::vec3& motion, float& limit,
                      Visit&& visit) const {
  if (wide_.empty()) return;
  const SweptBox swept(center, extent, motion);
  struct Entry {
    std::uint32_t ref;   // wide node, or a leaf's block in the leaf storage
    std::uint32_t count; // 0 for a wide node, 1 for a leaf
    float t;             // when the moving box reaches its bounds
  };
  Entry stack[k_wide_stack_size];
  int top = 0;
  // Pushes an entry so that the nearest is popped next: it is inserted among the entries
  // pushed since `base`, kept farthest first. A leaf's lines start to arrive here; a node's
  // (and its small subtree's) are fetched by the caller.
  const auto push = [&](const Entry& entry, int base) {
    if (entry.count > 0) {
      // The item's header and the start of its payload. Integer addresses: the last lines
      // may lie past the array's end, which a prefetch tolerates and pointer arithmetic not.
      const auto block = reinterpret_cast<std::uintptr_t>(leaves_.data() + entry.ref);
      for (std::uintptr_t line = 0; line < 3; ++line)
        __builtin_prefetch(reinterpret_cast<const void*>(block + 64 * line));
    }
    int j = top++;
    for (; j > base && stack[j - 1].t < entry.t; --j) stack[j] = stack[j - 1];
    stack[j] = entry;
  };
  // Start from the cells' subtrees the moving box reaches, or else from the root.
  const auto start_at = [&](const SubtreeEntry& e) {
    const float t = swept.enter(e.bounds);
    if (!SweptBox::in_time(t, limit)) return;
    if (e.count == 0) __builtin_prefetch(&wide_[e.ref]);
    push({e.ref, e.count, t}, 0);
  };
  const glm::vec3 end = center + motion;
  const bool from_cells =
      cells_.for_each_entry(glm::min(center, end) - extent, glm::max(center, end) + extent, start_at);
  std::uint32_t next = from_cells ? WideNode::k_empty : 0; // wide node to open next, skipping the stack
  for (;;) {
    if (next == WideNode::k_empty) {
      if (top == 0) return;
      const Entry e = stack[--top];
      if (e.t > limit) continue; // a hit found since this entry was pushed is earlier
      if (e.count > 0) {
        const LeafItem item = leaf_item(e.ref);
        const float t = swept.enter(item.box);
        if (SweptBox::in_time(t, limit)) visit(item, t);
        continue;
      }
      next = e.ref;
    }
    const WideNode& node = wide_[next];
    float t[4];
    const unsigned mask = swept.enter4(node, limit, t);
    // On the way down a node usually reaches one inner slot: open it directly.
    if (mask != 0 && (mask & (mask - 1)) == 0 && node.count[std::countr_zero(mask)] == 0) {
      const int k = std::countr_zero(mask);
      next = node.child[k];
      prefetch_child(node, k);
      continue;
    }
    next = WideNode::k_empty;
    // Push the reached slots so that the nearest is popped next: each is inserted into the
    // entries pushed for this node, kept farthest first.
    const int base = top;
    for (unsigned left = mask; left != 0; left &= left - 1) {
      const int k = std::countr_zero(left);
      if (node.count[k] == 0) prefetch_child(node, k);
      push({node.child[k], node.count[k], t[k]}, base);
    }
  }
}

} // namespace glide::detail
