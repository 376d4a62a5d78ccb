#pragma once

// Time of impact of a segment with a radius (a capsule) translating by `motion` against a
// static convex shape: the first t in [0, 1] where distance(segment + t * motion, shape)
// <= radius. Both methods report t conservatively: never after the true time of impact and
// less than tolerance / |motion| before it.
//
// Under translation the distance f(t) is a convex function of t (the distance from a point
// moving on a line to the convex set shape - segment), which the fast method relies on.

#include <glide/gjk/detail/builtin_shapes.hpp>
#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/penetration.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/gjk/status.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

struct ToiSettings {
  float tolerance = 1e-4f;   ///< largest gap left before the true time of impact (m along the motion, > 0)
  int max_iterations = 64;   ///< halvings (bisection) or advancement steps before falling back (count, >= 1)
  DistanceSettings distance; ///< settings of every GJK distance query
};

struct ToiResult {
  bool hit = false;          ///< the segment comes within the radius during the motion
  float t = 1.f;             ///< fraction of the motion before contact, in [0, 1] (1 without a hit)
  glm::vec3 point{0.f};      ///< contact point on the shape at t (m); zero without a hit
  glm::vec3 normal{0, 1, 0}; ///< unit, from the shape toward the segment, from the closest points at t
  int iterations = 0;        ///< GJK queries made (count)
  Status status = Status::converged;
};

/// What a caller that queries the same pair often can hand to conservative advancement: the
/// pair's warm start, and the distance at t = 0 when it already has it (for the same segment,
/// shape and distance settings). Either may be null.
struct ToiWarmStart {
  SimplexCache* cache = nullptr;
  const DistanceResult* start = nullptr;
};

namespace detail {

inline bool finite_segment(const Segment& s) { return is_finite(s.a) && is_finite(s.b); }

/// The segment moved by t * motion; double arithmetic so t keeps its precision.
inline Segment moved(const Segment& s, const glm::vec3& motion, double t) {
  const glm::dvec3 m = glm::dvec3(motion) * t;
  return {glm::vec3(glm::dvec3(s.a) + m), glm::vec3(glm::dvec3(s.b) + m)};
}

/// The largest coordinate of the segment at the start and end of `motion` (m).
inline double largest_coordinate(const Segment& s, const glm::vec3& motion) {
  const glm::dvec3 m(motion);
  double largest = 0.0;
  for (const glm::dvec3& p : {glm::dvec3(s.a), glm::dvec3(s.b), glm::dvec3(s.a) + m, glm::dvec3(s.b) + m})
    largest = std::max({largest, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
  return largest;
}

/// The largest float not above t, so a reported t never passes the time of impact.
inline float float_below(double t) {
  float f = static_cast<float>(t);
  if (static_cast<double>(f) > t) f = std::nextafter(f, 0.f);
  return std::clamp(f, 0.f, 1.f);
}

/// Whether the segment comes within `radius` of the shape for some t in [t0, t1]: the swept
/// segment over the interval is the parallelogram covering every position in between.
template <SupportMapping B>
bool reaches(const Segment& seg, float radius, const glm::vec3& motion, const B& shape, double t0, double t1,
             const ToiSettings& settings, int& queries) {
  ++queries;
  const Swept<Segment> swept{moved(seg, motion, t0), glm::vec3(glm::dvec3(motion) * (t1 - t0))};
  return distance(swept, shape, settings.distance).distance <= radius;
}

/// Fills `out` as a contact of the segment where it is (`at`, already moved to t) from a
/// distance query there, or from penetration when the cores overlap.
template <SupportMapping B>
void contact_at(const Segment& at, float radius, const B& shape, const DistanceResult& d, const ToiSettings& settings,
                ToiResult& out) {
  out.hit = true;
  out.normal = d.normal;
  out.point = d.point_b;
  if (d.overlapping()) {
    const PenetrationResult p = penetration(Capsule{at, radius}, shape, {.distance = settings.distance});
    ++out.iterations;
    out.normal = p.normal;
    out.point = p.point_b;
  }
  if (!is_finite(out.normal) || !(glm::length(out.normal) > 0.5f)) out.normal = {0, 1, 0};
  if (!is_finite(out.point)) out.point = d.point_b;
}

/// Checks the input and handles a start within the radius. Returns true when `out` is final.
/// `known`, when given, is the distance at t = 0 the caller already has.
template <SupportMapping B>
bool toi_start(const Segment& seg, float radius, const glm::vec3& motion, const B& shape, const ToiSettings& settings,
               ToiResult& out, DistanceResult& start, SimplexCache* cache = nullptr,
               const DistanceResult* known = nullptr) {
  if (!finite_segment(seg) || !is_finite(motion) || !std::isfinite(radius) || radius < 0.f ||
      !(settings.tolerance > 0.f) || !std::isfinite(settings.tolerance) || settings.max_iterations < 1) {
    out.status = Status::invalid_input;
    return true;
  }
  start = known ? *known : distance(seg, shape, settings.distance, cache);
  out.iterations = known ? 0 : 1;
  if (start.status == Status::invalid_input) {
    out.status = Status::invalid_input;
    return true;
  }
  if (start.distance <= radius) {
    out.t = 0.f;
    out.status = start.status;
    contact_at(seg, radius, shape, start, settings, out);
    return true;
  }
  return glm::dot(motion, motion) == 0.f;
}

/// Bisection on [t0, t1], knowing the segment stays beyond the radius on [0, t0].
template <SupportMapping B>
void bisect(const Segment& seg, float radius, const glm::vec3& motion, const B& shape, double t0, double t1,
            const ToiSettings& settings, ToiResult& out) {
  const double length = glm::length(glm::dvec3(motion));
  if (!reaches(seg, radius, motion, shape, t0, t1, settings, out.iterations)) return;
  out.status = Status::converged;
  for (int halvings = 0; (t1 - t0) * length > settings.tolerance; ++halvings) {
    const double mid = 0.5 * (t0 + t1);
    if (halvings >= settings.max_iterations || !(mid > t0 && mid < t1)) {
      out.status = halvings >= settings.max_iterations ? Status::max_iterations : Status::degenerate;
      break;
    }
    if (reaches(seg, radius, motion, shape, t0, mid, settings, out.iterations))
      t1 = mid;
    else
      t0 = mid;
  }
  const DistanceResult d = distance(moved(seg, motion, t0), shape, settings.distance);
  ++out.iterations;
  const Status status = out.status;
  contact_at(moved(seg, motion, t0), radius, shape, d, settings, out);
  out.status = status;
  out.t = float_below(t0);
}

} // namespace detail

/// Reference method: halves the interval where the swept segment reaches the radius until it is
/// narrower than the tolerance. About log2(|motion| / tolerance) swept GJK queries per hit.
template <SupportMapping B>
ToiResult toi_bisection(const Segment& seg, float radius, const glm::vec3& motion, const B& shape,
                        const ToiSettings& settings = {}) {
  ToiResult out;
  DistanceResult start;
  if (detail::toi_start(seg, radius, motion, shape, settings, out, start)) return out;
  detail::bisect(seg, radius, motion, shape, 0.0, 1.0, settings, out);
  return out;
}

/// Fast method: conservative advancement. At t the distance d and its normal n give the
/// slope f'(t) = n . motion; f being convex, f stays above the radius until
/// t + (d - radius) / (-n . motion), so t jumps there (minus half a tolerance). Once contact is
/// predicted within one tolerance, a probe at the end of that window decides: within the
/// radius there means a hit at t; still descending there means no contact inside the window
/// (f' grows, so f fell all along) and t moves on; rising there leaves one swept query over
/// the window to decide, with no contact possible after it. A rising or flat slope, or a jump
/// past t = 1, proves a miss. The distance queries warm-start from one another. Out of steps
/// (grazing approaches), it finishes by bisection on the rest of the motion.
template <SupportMapping B>
ToiResult toi_conservative_advancement(const Segment& seg, float radius, const glm::vec3& motion, const B& shape,
                                       const ToiSettings& settings = {}, const ToiWarmStart& warm = {}) {
  ToiResult out;
  DistanceResult d;
  SimplexCache own;
  SimplexCache& cache = warm.cache ? *warm.cache : own;
  if (detail::toi_start(seg, radius, motion, shape, settings, out, d, &cache, warm.start)) return out;
  const glm::dvec3 m(motion);
  const double length = glm::length(m);
  const double window = settings.tolerance / length; // one tolerance (t units)
  auto query = [&](double at) {
    ++out.iterations;
    return distance(detail::moved(seg, motion, at), shape, settings.distance, &cache);
  };
  auto contact = [&](double at, const DistanceResult& there) {
    detail::contact_at(detail::moved(seg, motion, at), radius, shape, there, settings, out);
    out.status = there.status;
    out.t = detail::float_below(at);
    return out;
  };
  // The moved segment's coordinates are rounded to float, by up to this (m): far from the origin
  // more than a small radius (1e4 m: about 2e-3 m). A jump that did not allow for it could end
  // beyond a thin shape's surface, where the slope rises and seems to prove a miss.
  const double rounding = 2.0 * std::numeric_limits<float>::epsilon() * detail::largest_coordinate(seg, motion);
  double t = 0.0;
  for (int step = 0; step < settings.max_iterations; ++step) {
    if (!(d.distance > radius)) return contact(t, d); // reached within the GJK accuracy
    // GJK's distance is an upper bound, within its tolerances (and float rounding) of the true
    // one: jump by the lower bound so that far-away grazing approaches cannot overshoot.
    const double error = (settings.distance.relative_tolerance + 4.0 * std::numeric_limits<float>::epsilon()) *
                             static_cast<double>(d.distance) +
                         settings.distance.absolute_tolerance + rounding;
    const double gap = std::max(0.0, static_cast<double>(d.distance) - error - radius);
    const double closing = -glm::dot(glm::dvec3(d.normal), m); // metres per unit t toward the shape
    if (!(closing > 0.0)) return out;                          // moving away or parallel: f never drops
    const double jump = gap / closing;                         // f > radius on [t, t + jump)
    if (jump > window) {
      if (t + jump > 1.0) return out;
      t += jump - 0.5 * window;
      d = query(t);
    } else {
      const double end = std::min(1.0, t + window);
      const DistanceResult probe = query(end);
      if (probe.status == Status::invalid_input) {
        d = probe;
        break;
      }
      if (probe.distance <= radius) return contact(t, d);
      if (-glm::dot(glm::dvec3(probe.normal), m) > 0.0) {
        if (end >= 1.0) return out;
        t = end;
        d = probe;
      } else {
        if (detail::reaches(seg, radius, motion, shape, t, end, settings, out.iterations)) return contact(t, d);
        return out;
      }
    }
    if (d.status == Status::invalid_input) break;
  }
  if (d.status == Status::invalid_input) {
    out.status = Status::invalid_input;
    return out;
  }
  detail::bisect(seg, radius, motion, shape, t, 1.0, settings, out);
  return out;
}

// The built-in shapes' queries are compiled in the library (see detail/builtin_shapes.hpp).
#define GLIDE_GJK_TOI_INSTANCE(Unused, B)                                                                              \
  template ToiResult toi_bisection<B>(const Segment&, float, const glm::vec3&, const B&, const ToiSettings&);          \
  template ToiResult toi_conservative_advancement<B>(const Segment&, float, const glm::vec3&, const B&,                \
                                                     const ToiSettings&, const ToiWarmStart&);
#define GLIDE_GJK_EXTERN_TOI(Unused, B)                                                                                \
  extern template ToiResult toi_bisection<B>(const Segment&, float, const glm::vec3&, const B&, const ToiSettings&);   \
  extern template ToiResult toi_conservative_advancement<B>(const Segment&, float, const glm::vec3&, const B&,         \
                                                            const ToiSettings&, const ToiWarmStart&);
GLIDE_GJK_BUILTIN_SHAPES_WITH(GLIDE_GJK_EXTERN_TOI, )
#undef GLIDE_GJK_EXTERN_TOI

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
