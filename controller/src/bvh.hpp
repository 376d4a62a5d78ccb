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

/// Bounding volume hierarchy over item boxes, built top-down with a binned surface area
/// heuristic. Items are opaque 32-bit values (the world's piece slots).
class Bvh {
public:
  /// Rebuilds from scratch: boxes[i] is the box of item ids[i]. O(n log n).
  void build(std::span<const gjk::Aabb> boxes, std::span<const std::uint32_t> ids);

  /// Node 0 is the root; node 1 is padding (empty box, never referenced) so that sibling
  /// pairs start at even indices, on a cache line each.
  static constexpr std::uint32_t k_padding_node = 1;

  bool empty() const { return nodes_.empty(); }
  std::span<const BvhNode> nodes() const { return nodes_; }
  std::span<const std::uint32_t> items() const { return items_; }
  /// Box of each entry of items(), stored in leaf order so leaf tests read memory linearly.
  std::span<const gjk::Aabb> item_bounds() const { return item_bounds_; }

  /// Calls visit(item) for every item whose box overlaps `box` (closed bounds).
  template <class Visit>
  void query_box(const gjk::Aabb& box, Visit&& visit) const;

  /// Closest-first traversal for a box of half size `extent` centred at `center` moving along
  /// `motion` for t in [0, 1]. Calls visit(item, t_enter) for items whose box the moving box
  /// reaches no later than `limit`, where t_enter is when it first touches the item's box;
  /// visit may lower `limit` (the best hit so far) to prune the rest.
  template <class Visit>
  void query_sweep(const glm::vec3& center, const glm::vec3& extent, const glm::vec3& motion, float& limit,
                   Visit&& visit) const;

private:
  std::vector<BvhNode, CacheLineAllocator<BvhNode>> nodes_;
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
};

template <class Visit>
void Bvh::query_box(const gjk::Aabb& box, Visit&& visit) const {
  if (nodes_.empty()) return;
  std::uint32_t stack[k_bvh_stack_size];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const BvhNode& node = nodes_[stack[--top]];
    if (!node.bounds.overlaps(box)) continue;
    if (node.count > 0) {
      for (std::uint32_t i = node.first; i < node.first + node.count; ++i)
        if (item_bounds_[i].overlaps(box)) visit(items_[i]);
    } else {
      stack[top++] = node.first;
      stack[top++] = node.first + 1;
    }
  }
}

template <class Visit>
void Bvh::query_sweep(const glm::vec3& center, const glm::vec3& extent, const glm::vec3& motion, float& limit,
                      Visit&& visit) const {
  if (nodes_.empty()) return;
  const SweptBox swept(center, extent, motion);
  struct Entry {
    std::uint32_t node;
    float t;
  };
  Entry stack[k_bvh_stack_size];
  int top = 0;
  const float t_root = swept.enter(nodes_[0].bounds);
  if (t_root > limit) return;
  stack[top++] = {0, t_root};
  while (top > 0) {
    const Entry e = stack[--top];
    if (e.t > limit) continue; // a hit found since this node was pushed is earlier
    const BvhNode& node = nodes_[e.node];
    if (node.count > 0) {
      for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
        const float t = swept.enter(item_bounds_[i]);
        if (t <= limit) visit(items_[i], t);
      }
      continue;
    }
    float ta = swept.enter(nodes_[node.first].bounds);
    float tb = swept.enter(nodes_[node.first + 1].bounds);
    std::uint32_t a = node.first, b = node.first + 1;
    if (ta > tb) {
      std::swap(ta, tb);
      std::swap(a, b);
    }
    // Push the farther child first so the nearer one is visited next.
    if (tb <= limit) stack[top++] = {b, tb};
    if (ta <= limit) stack[top++] = {a, ta};
  }
}

} // namespace glide::detail
