#pragma once

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/select.hpp>
#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include <cstddef>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

/// Axis-aligned bounding box in world space. Shared by the terrain (cell culling) and the
/// world's broadphase. Bounds are closed: boxes that only touch overlap, so contacts exactly
/// at a face are never culled. The default box is empty (min > max) and is the identity of
/// merge().
struct Aabb {
  glm::vec3 min{std::numeric_limits<float>::infinity()};  ///< smallest corner (m)
  glm::vec3 max{-std::numeric_limits<float>::infinity()}; ///< largest corner (m)

  /// The box around a single point.
  static Aabb of_point(const glm::vec3& p) { return {p, p}; }

  /// False for the default (empty) box and for boxes with NaN bounds.
  bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }

  bool overlaps(const Aabb& o) const {
    return min.x <= o.max.x && o.min.x <= max.x && min.y <= o.max.y && o.min.y <= max.y && min.z <= o.max.z &&
           o.min.z <= max.z;
  }

  /// overlaps() as one test without branches, for loops where the answer is a coin toss: each
  /// of overlaps()'s early exits is a branch the predictor loses there.
  bool overlaps_unbranched(const Aabb& o) const {
    const int x = int{min.x <= o.max.x} & int{o.min.x <= max.x};
    const int y = int{min.y <= o.max.y} & int{o.min.y <= max.y};
    const int z = int{min.z <= o.max.z} & int{o.min.z <= max.z};
    return (x & y & z) != 0;
  }

  /// overlaps_unbranched() for boxes read from memory, such as a crowd's arrays: each box is
  /// read as two 16-byte loads, [min.x min.y min.z max.x] and, 8 bytes on, [min.z max.x max.y
  /// max.z], and the six comparisons are two of four lanes (8 instructions, against 20). A box
  /// just computed is better given to overlaps_unbranched(): these loads would wait for its
  /// stores to land.
  bool overlaps_stored(const Aabb& o) const {
#if defined(__SSE2__)
    const auto low = [](const Aabb& b) { return _mm_loadu_ps(&b.min.x); };
    const auto high = [](const Aabb& b) {
      const __m128 v = _mm_loadu_ps(&b.min.z);
      return _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 2, 1)); // [max.x max.y max.z max.z]
    };
    const __m128 both = _mm_and_ps(_mm_cmple_ps(low(*this), high(o)), _mm_cmple_ps(low(o), high(*this)));
    return (_mm_movemask_ps(both) & 7) == 7;
#else
    return overlaps_unbranched(o);
#endif
  }

  bool contains(const glm::vec3& p) const {
    return min.x <= p.x && p.x <= max.x && min.y <= p.y && p.y <= max.y && min.z <= p.z && p.z <= max.z;
  }

  bool contains(const Aabb& o) const {
    return min.x <= o.min.x && o.max.x <= max.x && min.y <= o.min.y && o.max.y <= max.y && min.z <= o.min.z &&
           o.max.z <= max.z;
  }

  /// Grown by `margin` on every side (m); a negative margin shrinks it.
  Aabb expanded(float margin) const { return {min - glm::vec3(margin), max + glm::vec3(margin)}; }

  // The minima and maxima below as select instructions: g++ made some of them branches on
  // the motion's sign, which a crowd's sweeps mispredicted.

  /// Grown to enclose the box swept along `motion` (m).
  Aabb swept(const glm::vec3& motion) const {
    return {min + detail::min_of(motion, glm::vec3(0.f)), max + detail::max_of(motion, glm::vec3(0.f))};
  }

  Aabb merged(const Aabb& o) const { return {detail::min_of(min, o.min), detail::max_of(max, o.max)}; }
  Aabb merged(const glm::vec3& p) const { return {detail::min_of(min, p), detail::max_of(max, p)}; }

  glm::vec3 center() const { return 0.5f * (min + max); }
  glm::vec3 extents() const { return max - min; }
  /// Half the surface area: the cost used by surface-area-heuristic BVH builders (m²).
  float half_area() const {
    const glm::vec3 e = extents();
    return e.x * e.y + e.y * e.z + e.z * e.x;
  }
};

/// The smallest box enclosing both.
inline Aabb merge(const Aabb& a, const Aabb& b) { return a.merged(b); }

// overlaps_stored reads a box as 16 bytes from its start and 16 from 8 bytes on.
static_assert(sizeof(Aabb) == 24 && offsetof(Aabb, max) == 12);

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
