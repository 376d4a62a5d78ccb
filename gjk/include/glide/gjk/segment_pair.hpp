#pragma once

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/shapes.hpp>

#include <glm/vec3.hpp>

#include <cmath>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

/// The closest points of two segments, exactly up to rounding (computed in double).
struct SegmentPairClosest {
  glm::vec3 point_a{0.f}; ///< on the first segment (m)
  glm::vec3 point_b{0.f}; ///< on the second segment (m)
  float s = 0.f;          ///< point_a = a.a + s * (a.b - a.a), in [0, 1]
  float t = 0.f;          ///< point_b = b.a + t * (b.b - b.a), in [0, 1]
  float distance = 0.f;   ///< |point_a - point_b| (m)
  /// From point_b toward point_a, of unit length (0 when the segments meet): taken before the
  /// points are rounded to float, which far from the origin turns their difference by up to
  /// 1e-3 (at 5 km) and so its length too.
  glm::vec3 normal{0.f};
};

/// Closest points between segments `a` and `b`; degenerate segments (a point) and parallel
/// ones are answered too (parallel: the pair nearest the start of `a`'s overlap).
SegmentPairClosest closest_points(const Segment& a, const Segment& b);

/// First contact of capsule `moving` translated by `motion` with the still capsule `still`.
struct CapsulePairHit {
  bool hit = false;
  float t = 1.f;                   ///< fraction of the motion before contact, in [0, 1]
  glm::vec3 point{0.f};            ///< contact point on `still`'s surface (m)
  glm::vec3 normal{0.f, 1.f, 0.f}; ///< unit, from `still` toward `moving`
  /// The inner segments meet at t: no direction is the contact's; `normal` is then away from
  /// `still`'s centre, or across the segments where they lie on one line.
  bool crossing = false;
};

/// Time of impact of two capsules, one moving: the gap first falls to `tolerance` (m) or
/// below. The gap along a translation is convex in time, so the answer is never later than the
/// true first contact; a pair already within `tolerance` hits at t = 0. Exact segment
/// distances, no GJK.
CapsulePairHit time_of_impact(const Capsule& moving, const glm::vec3& motion, const Capsule& still, float tolerance);

namespace detail {

/// The square of the gap between the bounding boxes of two segments (m^2): 0 where they
/// overlap along an axis, and for NaN. Each difference rounds relative to itself, so the
/// result is within a few float epsilons of the exact square, wherever the segments lie.
inline float segment_box_gap2(const Segment& a, const Segment& b) {
  float gap2 = 0.f;
  for (int k = 0; k < 3; ++k) {
    const float a0 = a.a[k], a1 = a.b[k], b0 = b.a[k], b1 = b.b[k];
    const float a_lo = a0 < a1 ? a0 : a1, a_hi = a0 < a1 ? a1 : a0;
    const float b_lo = b0 < b1 ? b0 : b1, b_hi = b0 < b1 ? b1 : b0;
    const float up = b_lo - a_hi, down = a_lo - b_hi;
    const float gap = up > down ? up : down;
    gap2 += gap > 0.f ? gap * gap : 0.f;
  }
  return gap2;
}

} // namespace detail

/// A lower bound of the distance between segments `a` and `b` (m): the gap between their
/// bounding boxes, shrunk by far more than its float rounding. For upright capsules side by
/// side it is their distance. 0 for non-finite input.
inline float segment_distance_lower_bound(const Segment& a, const Segment& b) {
  return std::sqrt(detail::segment_box_gap2(a, b)) * (1.f - 2e-5f);
}

/// Whether the gap between two capsules (their segments' distance less both radii) surely
/// exceeds `limit` (m, >= minus the radii), by the bound above with a margin far above the
/// rounding of the sums: a query rejects with it, in a few float operations, the pairs too far
/// apart to matter before closest_points or time_of_impact, which work in double. False says
/// nothing.
inline bool capsule_gap_surely_exceeds(const Capsule& a, const Capsule& b, float limit) {
  const float radii = a.radius + b.radius;
  const float beyond = limit + radii + 1e-5f * (radii + std::abs(limit)); // the distance to exceed
  return beyond >= 0.f && detail::segment_box_gap2(a.segment, b.segment) * (1.f - 4e-5f) > beyond * beyond;
}

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
