#pragma once

#include <glide/gjk/shapes.hpp>

#include <glm/vec3.hpp>

namespace glide::gjk {

/// The closest points of two segments, exactly up to rounding (computed in double).
struct SegmentPairClosest {
  glm::vec3 point_a{0.f}; ///< on the first segment (m)
  glm::vec3 point_b{0.f}; ///< on the second segment (m)
  float s = 0.f;          ///< point_a = a.a + s * (a.b - a.a), in [0, 1]
  float t = 0.f;          ///< point_b = b.a + t * (b.b - b.a), in [0, 1]
  float distance = 0.f;   ///< |point_a - point_b| (m)
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
};

/// Time of impact of two capsules, one moving: the gap first falls to `tolerance` (m) or
/// below. The gap along a translation is convex in time, so the answer is never later than the
/// true first contact; a pair already within `tolerance` hits at t = 0. Exact segment
/// distances, no GJK.
CapsulePairHit time_of_impact(const Capsule& moving, const glm::vec3& motion, const Capsule& still, float tolerance);

} // namespace glide::gjk
