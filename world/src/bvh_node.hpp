#pragma once

// The node format of the 4-wide BVH the queries walk (bvh.hpp), and the tests of a query
// against a node's four slots at once. With SSE2 the slots are decoded and tested four at a
// time; the portable path computes the same IEEE operations in the same order, lane by lane,
// so both give identical results.

#include <glide/gjk/aabb.hpp>

#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace glide::detail {

/// The four slot boxes of a wide node, one coordinate array per axis so tests on all four
/// vectorise (m).
struct SlotBoxes {
  float min_x[4], min_y[4], min_z[4];
  float max_x[4], max_y[4], max_z[4];

  gjk::Aabb slot(int k) const { return {{min_x[k], min_y[k], min_z[k]}, {max_x[k], max_y[k], max_z[k]}}; }
};

/// Node of the 4-wide tree the queries walk: the binary tree with every other level folded
/// in, so a query descends half as many levels and tests four boxes at once. The slot boxes
/// are stored in 8 bits per coordinate on a grid anchored at the node's own box, so a node is
/// one 64-byte cache line (half the float form): on large levels the walk is bound by cache
/// misses, not arithmetic. Rounding is outward, so a decoded box always contains the exact
/// box of what its slot holds (tests/controller/bvh_test.cpp checks it).
struct alignas(64) WideNode {
  static constexpr std::uint32_t k_empty = ~0u;
  std::uint32_t child[4]; ///< inner slot: wide node index; leaf slot: its block of leaf storage; k_empty: unused
  float origin[3];        ///< the node's box's smallest corner (m)
  std::uint8_t lo[3][4];  ///< per axis and slot: min = origin + lo * step
  std::uint8_t hi[3][4];  ///< per axis and slot: max = origin + hi * step
  std::uint8_t count[4];  ///< 0: inner slot; 1: leaf slot (every leaf holds one item)
  /// per axis: the step's float exponent bits, step = 2^(step_bits - 127) (m); [3] is 0,
  /// so the four load as one word
  std::uint8_t step_bits[4] = {};
  std::uint8_t used = 0; ///< bit k set when slot k holds something (child != k_empty)
  /// Per slot, 6 bits: the wide nodes in an inner slot's subtree, which the depth-first layout
  /// stores contiguously from child[k], when there are at most k_max_subtree of them; else 0.
  /// A query reaching a small subtree fetches all of it at once instead of level by level.
  std::uint8_t subtree_bits[3] = {};

  static constexpr std::uint32_t k_max_subtree = 63;
  std::uint32_t subtree(int k) const {
    const std::uint32_t packed = subtree_bits[0] | subtree_bits[1] << 8 | subtree_bits[2] << 16;
    return packed >> (6 * k) & 63u;
  }
  void set_subtree(int k, std::uint32_t nodes) {
    std::uint32_t packed = subtree_bits[0] | subtree_bits[1] << 8 | subtree_bits[2] << 16;
    packed = (packed & ~(63u << (6 * k))) | (nodes <= k_max_subtree ? nodes : 0u) << (6 * k);
    for (int b = 0; b < 3; ++b) subtree_bits[b] = static_cast<std::uint8_t>(packed >> (8 * b));
  }

  /// The grid step along each axis (m).
  float step(int axis) const { return std::bit_cast<float>(static_cast<std::uint32_t>(step_bits[axis]) << 23); }

  /// One decoded coordinate; the build rounds with this same expression, so its outward
  /// rounding holds for the queries' values exactly.
  static float decode(float origin, std::uint8_t q, float step) { return origin + static_cast<float>(q) * step; }

  /// The decoded (outward-rounded) boxes of the four slots; unused slots (see `used`) decode
  /// to inverted boxes and are never tested.
  SlotBoxes boxes() const {
    SlotBoxes b;
    float* const mins[3] = {b.min_x, b.min_y, b.min_z};
    float* const maxs[3] = {b.max_x, b.max_y, b.max_z};
    for (int a = 0; a < 3; ++a) {
      const float s = step(a);
      for (int k = 0; k < 4; ++k) {
        mins[a][k] = decode(origin[a], lo[a][k], s);
        maxs[a][k] = decode(origin[a], hi[a][k], s);
      }
    }
    return b;
  }

#if defined(__SSE2__)
  /// boxes() in registers: lane k of min[a] and max[a] is slot k's bound along axis a.
  void boxes(__m128 min[3], __m128 max[3]) const {
    const __m128i zero = _mm_setzero_si128();
    // lo[0..2] and hi[0], then hi[1..2]: the 24 code bytes widened to 32-bit lanes.
    const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&lo[0][0]));
    const __m128i rest = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(&hi[1][0]));
    const __m128i w0 = _mm_unpacklo_epi8(first, zero), w1 = _mm_unpackhi_epi8(first, zero);
    const __m128i w2 = _mm_unpacklo_epi8(rest, zero);
    const __m128i codes[6] = {_mm_unpacklo_epi16(w0, zero), _mm_unpackhi_epi16(w0, zero), _mm_unpacklo_epi16(w1, zero),
                              _mm_unpackhi_epi16(w1, zero), _mm_unpacklo_epi16(w2, zero), _mm_unpackhi_epi16(w2, zero)};
    // Origin and steps in lanes 0-2, then broadcast per axis. Lane 3 of the origin load reads
    // the first codes that follow it in the node, and is never used.
    const __m128 origins = _mm_loadu_ps(origin);
    std::uint32_t bits;
    std::memcpy(&bits, step_bits, sizeof bits);
    const __m128 steps = _mm_castsi128_ps(_mm_slli_epi32(
        _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(bits)), zero), zero), 23));
    const __m128 o[3] = {_mm_shuffle_ps(origins, origins, 0x00), _mm_shuffle_ps(origins, origins, 0x55),
                         _mm_shuffle_ps(origins, origins, 0xaa)};
    const __m128 s[3] = {_mm_shuffle_ps(steps, steps, 0x00), _mm_shuffle_ps(steps, steps, 0x55),
                         _mm_shuffle_ps(steps, steps, 0xaa)};
    for (int a = 0; a < 3; ++a) {
      min[a] = _mm_add_ps(o[a], _mm_mul_ps(_mm_cvtepi32_ps(codes[a]), s[a]));
      max[a] = _mm_add_ps(o[a], _mm_mul_ps(_mm_cvtepi32_ps(codes[3 + a]), s[a]));
    }
  }
#endif

  /// Bit k set when slot k is used and its decoded box overlaps `box` (closed bounds).
  unsigned overlaps(const gjk::Aabb& box) const {
#if defined(__SSE2__)
    __m128 min[3], max[3];
    boxes(min, max);
    __m128 hit = _mm_castsi128_ps(_mm_set1_epi32(-1));
    for (int a = 0; a < 3; ++a) {
      hit = _mm_and_ps(hit, _mm_cmple_ps(min[a], _mm_set1_ps(box.max[a])));
      hit = _mm_and_ps(hit, _mm_cmple_ps(_mm_set1_ps(box.min[a]), max[a]));
    }
    return static_cast<unsigned>(_mm_movemask_ps(hit)) & used;
#else
    const SlotBoxes b = boxes();
    unsigned hit = 0;
    for (int k = 0; k < 4; ++k)
      if (b.slot(k).overlaps(box)) hit |= 1u << k;
    return hit & used;
#endif
  }
};
static_assert(sizeof(WideNode) == 64, "a wide node fills one cache line");

/// Entry parameter t in [0, 1] at which a box of half size `extent` centred at `center` and
/// moving along `motion` first touches `box`, or a value > 1 when it never does in [0, 1].
/// Uses reciprocals of the motion precomputed by the caller (inf for zero components).
struct SweptBox {
  glm::vec3 center{0.f};
  glm::vec3 extent{0.f};
  glm::vec3 motion{0.f};
  glm::vec3 inv_motion{0.f};

#if defined(__SSE2__)
  // The same per axis, in all four lanes, for enter4().
  __m128 center4[3], extent4[3], inv_motion4[3];
#endif

  SweptBox(const glm::vec3& c, const glm::vec3& e, const glm::vec3& m) : center(c), extent(e), motion(m) {
    // A zero component gets a huge finite reciprocal instead of inf: the slab then either
    // excludes every t (the centre is outside it) or none, with no 0 * inf = NaN.
    for (int i = 0; i < 3; ++i) inv_motion[i] = m[i] != 0.f ? 1.f / m[i] : 1e30f;
#if defined(__SSE2__)
    for (int i = 0; i < 3; ++i) {
      center4[i] = _mm_set1_ps(center[i]);
      extent4[i] = _mm_set1_ps(extent[i]);
      inv_motion4[i] = _mm_set1_ps(inv_motion[i]);
    }
#endif
  }

  /// Whether an entry parameter from enter() or enter4() lets a query bounded by `limit` visit
  /// its box: reached (entry <= 1; it is 2 when not) and no later than the limit.
  static bool in_time(float t, float limit) { return t <= 1.f && t <= limit; }

  float enter(const gjk::Aabb& box) const {
    const glm::vec3 t_lo = (box.min - extent - center) * inv_motion;
    const glm::vec3 t_hi = (box.max + extent - center) * inv_motion;
    const glm::vec3 t_near = glm::min(t_lo, t_hi), t_far = glm::max(t_lo, t_hi);
    const float t_in = std::max(std::max(t_near.x, t_near.y), std::max(t_near.z, 0.f));
    const float t_out = std::min(std::min(t_far.x, t_far.y), std::min(t_far.z, 1.f));
    return t_in <= t_out ? t_in : 2.f;
  }

  /// enter() for the four decoded slot boxes of a wide node at once; returns the mask of used
  /// slots the box reaches (entry <= 1) no later than `limit`.
  unsigned enter4(const WideNode& wide, float limit, float out[4]) const {
#if defined(__SSE2__)
    // The operations of the lane-by-lane path below, in the same order; _mm_min_ps(b, a) is
    // std::min(a, b) and _mm_max_ps(b, a) is std::max(a, b), NaN cases included.
    __m128 min[3], max[3];
    wide.boxes(min, max);
    __m128 near[3], far[3];
    for (int a = 0; a < 3; ++a) {
      const __m128 e = extent4[a], c = center4[a], inv = inv_motion4[a];
      const __m128 lo = _mm_mul_ps(_mm_sub_ps(_mm_sub_ps(min[a], e), c), inv);
      const __m128 hi = _mm_mul_ps(_mm_sub_ps(_mm_add_ps(max[a], e), c), inv);
      near[a] = _mm_min_ps(hi, lo);
      far[a] = _mm_max_ps(hi, lo);
    }
    const __m128 t_in = _mm_max_ps(_mm_max_ps(_mm_setzero_ps(), near[2]), _mm_max_ps(near[1], near[0]));
    const __m128 t_out = _mm_min_ps(_mm_min_ps(_mm_set1_ps(1.f), far[2]), _mm_min_ps(far[1], far[0]));
    const __m128 reached = _mm_cmple_ps(t_in, t_out);
    const __m128 t = _mm_or_ps(_mm_and_ps(reached, t_in), _mm_andnot_ps(reached, _mm_set1_ps(2.f)));
    _mm_storeu_ps(out, t);
    // in_time(), the two comparisons side by side rather than one after the other (the mask
    // decides where the walk goes next, so it is on the critical path of every level).
    const __m128 in_time = _mm_cmple_ps(t_in, _mm_set1_ps(limit));
    return static_cast<unsigned>(_mm_movemask_ps(_mm_and_ps(reached, in_time))) & wide.used;
#else
    const SlotBoxes node = wide.boxes();
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
    unsigned mask = 0;
    for (int k = 0; k < 4; ++k)
      if (in_time(out[k], limit)) mask |= 1u << k;
    return mask & wide.used;
#endif
  }
};

} // namespace glide::detail
