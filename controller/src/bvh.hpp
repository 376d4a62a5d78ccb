#pragma once

#include <glide/gjk/aabb.hpp>

#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
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
/// deeper than the binary one, plus the root.
constexpr int k_wide_stack_size = 3 * k_bvh_stack_size + 1;

/// Allocator giving 64-byte aligned storage, so each pair of 32-byte sibling nodes fills
/// exactly one cache line.
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t alignment{64};
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), alignment)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, alignment); }
  friend bool operator==(const CacheLineAllocator&, const CacheLineAllocator&) { return true; }
};

/// One node of the flat hierarchy. A leaf (count > 0) holds items [first, first + count) of
/// Bvh::items(); an inner node (count == 0) has its two children at nodes [first] and
/// [first + 1], so siblings sit next to each other in memory (first is always even).
struct BvhNode {
  gjk::Aabb bounds;
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};

/// Node of the 4-wide tree the queries walk: the binary tree with every other level folded
/// in, so a query descends half as many levels and tests four boxes at once. Boxes are stored
/// one coordinate array per axis so the four tests vectorise; 128 bytes, two cache lines.
struct alignas(64) WideNode {
  static constexpr std::uint32_t k_empty = ~0u;
  float min_x[4], min_y[4], min_z[4];
  float max_x[4], max_y[4], max_z[4];
  std::uint32_t child[4]; ///< inner slot: wide node index; leaf slot: first item; k_empty: unused
  std::uint32_t count[4]; ///< 0: inner slot; > 0: leaf slot holding that many items
};

/// Bounding volume hierarchy over item boxes, built top-down with a binned surface area
/// heuristic. Items are opaque 32-bit values (the world's piece slots).
/// The binary tree is kept for inspection and future refits; queries walk the wide tree.
class Bvh {
public:
  /// Rebuilds from scratch: boxes[i] is the box of item ids[i]. O(n log n).
  void build(std::span<const gjk::Aabb> boxes, std::span<const std::uint32_t> ids);

  /// Node 0 is the root; node 1 is padding (empty box, never referenced) so that sibling
  /// pairs start at even indices, on a cache line each.
  static constexpr std::uint32_t k_padding_node = 1;

  bool empty() const { return nodes_.empty(); }
  std::span<const BvhNode> nodes() const { return nodes_; }
  /// The 4-wide tree the queries walk; node 0 is the root.
  std::span<const WideNode> wide_nodes() const { return wide_; }
  std::span<const std::uint32_t> items() const { return items_; }
  /// Box of each entry of items(), stored in leaf order so leaf tests read memory linearly.
  std::span<const gjk::Aabb> item_bounds() const { return item_bounds_; }

  /// Calls visit(item, position) for every item whose box overlaps `box` (closed bounds);
  /// position is the item's index in items(), so callers can keep per-item data in leaf order.
  template <class Visit>
  void query_box(const gjk::Aabb& box, Visit&& visit) const;

  /// Closest-first traversal for a box of half size `extent` centred at `center` moving along
  /// `motion` for t in [0, 1]. Calls visit(item, t_enter, position) for items whose box the
  /// moving box reaches no later than `limit`, where t_enter is when it first touches the
  /// item's box and position as in query_box; visit may lower `limit` (the best hit so far)
  /// to prune the rest.
  template <class Visit>
  void query_sweep(const glm::vec3& center, const glm::vec3& extent, const glm::vec3& motion, float& limit,
                   Visit&& visit) const;

private:
  std::uint32_t collapse(std::uint32_t binary_node);

  std::vector<BvhNode, CacheLineAllocator<BvhNode>> nodes_;
  std::vector<WideNode, CacheLineAllocator<WideNode>> wide_;
  std::vector<std::uint32_t> items_;
  std::vector<gjk::Aabb> item_bounds_;
};

/// Entry parameter t in [0, 1] at which a box of half size `extent` centred at `center` and
/// moving along `motion` first touches `box`, or a value > 1 when it never does in [0, 1].
/// Uses reciprocals of the motion precomputed by the caller (inf for zero components).
struct SweptBox {
  glm::vec3 center{0.f};
  glm::vec3 extent{0.f};
  glm::vec3 motion{0.f};
  glm::vec3 inv_motion{0.f};

  SweptBox(const glm::vec3& c, const glm::vec3& e, const glm::vec3& m) : center(c), extent(e), motion(m) {
    // A zero component gets a huge finite reciprocal instead of inf: the slab then either
    // excludes every t (the centre is outside it) or none, with no 0 * inf = NaN.
    for (int i = 0; i < 3; ++i) inv_motion[i] = m[i] != 0.f ? 1.f / m[i] : 1e30f;
  }

  float enter(const gjk::Aabb& box) const {
    const glm::vec3 t_lo = (box.min - extent - center) * inv_motion;
    const glm::vec3 t_hi = (box.max + extent - center) * inv_motion;
    const glm::vec3 t_near = glm::min(t_lo, t_hi), t_far = glm::max(t_lo, t_hi);
    const float t_in = std::max(std::max(t_near.x, t_near.y), std::max(t_near.z, 0.f));
    const float t_out = std::min(std::min(t_far.x, t_far.y), std::min(t_far.z, 1.f));
    return t_in <= t_out ? t_in : 2.f;
  }

  /// enter() for the four boxes of a wide node at once (written lane by lane to vectorise).
  void enter4(const WideNode& node, float out[4]) const {
    for (int k = 0; k < 4; ++k) {
      const float lx = (node.min_x[k] - extent.x - center.x) * inv_motion.x;
      const float hx = (node.max_x[k] + extent.x - center.x) * inv_motion.x;
      const float ly = (node.min_y[k] - extent.y - center.y) * inv_motion.y;
      const float hy = (node.max_y[k] + extent.y - center.y) * inv_motion.y;
      const float lz = (node.min_z[k] - extent.z - center.z) * inv_motion.z;
      const float hz = (node.max_z[k] + extent.z - center.z) * inv_motion.z;
      const float t_in = std::max(std::max(std::min(lx, hx), std::min(ly, hy)), std::max(std::min(lz, hz), 0.f));
      const float t_out = std::min(std::min(std::max(lx, hx), std::max(ly, hy)), std::min(std::max(lz, hz), 1.f));
      out[k] = t_in <= t_out ? t_in : 2.f;
    }
  }
};

template <class Visit>
void Bvh::query_box(const gjk::Aabb& box, Visit&& visit) const {
  if (wide_.empty()) return;
  std::uint32_t stack[k_wide_stack_size];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const WideNode& node = wide_[stack[--top]];
    bool hit[4];
    for (int k = 0; k < 4; ++k)
      hit[k] = node.min_x[k] <= box.max.x && box.min.x <= node.max_x[k] && node.min_y[k] <= box.max.y &&
               box.min.y <= node.max_y[k] && node.min_z[k] <= box.max.z && box.min.z <= node.max_z[k];
    for (int k = 0; k < 4; ++k) {
      if (!hit[k] || node.child[k] == WideNode::k_empty) continue;
      if (node.count[k] == 0) {
        stack[top++] = node.child[k];
        continue;
      }
      for (std::uint32_t i = node.child[k]; i < node.child[k] + node.count[k]; ++i)
        if (item_bounds_[i].overlaps(box)) visit(items_[i], i);
    }
  }
}

template <class Visit>
void Bvh::query_sweep(const glm::vec3& center, const glm::vec3& extent, const glm::vec3& motion, float& limit,
                      Visit&& visit) const {
  if (wide_.empty()) return;
  const SweptBox swept(center, extent, motion);
  struct Entry {
    std::uint32_t ref;   // wide node, or first item of a leaf
    std::uint32_t count; // 0 for a wide node, else the leaf's item count
    float t;             // when the moving box reaches its bounds
  };
  Entry stack[k_wide_stack_size];
  int top = 0;
  stack[top++] = {0, 0, 0.f};
  while (top > 0) {
    const Entry e = stack[--top];
    if (e.t > limit) continue; // a hit found since this entry was pushed is earlier
    if (e.count > 0) {
      for (std::uint32_t i = e.ref; i < e.ref + e.count; ++i) {
        const float t = swept.enter(item_bounds_[i]);
        if (t <= limit) visit(items_[i], t, i);
      }
      continue;
    }
    const WideNode& node = wide_[e.ref];
    float t[4];
    swept.enter4(node, t);
    // Push the reached slots farthest first, so the nearest is visited next.
    Entry reached[4];
    int n = 0;
    for (int k = 0; k < 4; ++k) {
      if (!(t[k] <= limit) || node.child[k] == WideNode::k_empty) continue;
      Entry entry{node.child[k], node.count[k], t[k]};
      int j = n++;
      for (; j > 0 && reached[j - 1].t < entry.t; --j) reached[j] = reached[j - 1];
      reached[j] = entry;
    }
    for (int k = 0; k < n; ++k) {
      // Start fetching what each entry reads while the nearer ones are processed.
      if (reached[k].count == 0) {
        __builtin_prefetch(&wide_[reached[k].ref]);
        __builtin_prefetch(reinterpret_cast<const char*>(&wide_[reached[k].ref]) + 64);
      } else {
        __builtin_prefetch(&item_bounds_[reached[k].ref]);
      }
      stack[top++] = reached[k];
    }
  }
}

} // namespace glide::detail
