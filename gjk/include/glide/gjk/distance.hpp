#pragma once

// Distance GJK (Gilbert, Johnson, Keerthi 1988) with the signed-volumes sub-algorithm:
// distance, closest points and normal between two convex support mappings.
// docs/gjk.md explains the algorithm, the tolerances and the accuracy.

#include <glide/gjk/detail/builtin_shapes.hpp>
#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/gjk_precise.hpp>
#include <glide/gjk/detail/gjk_support.hpp>
#include <glide/gjk/detail/hull_planes.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/gjk/simplex.hpp>
#include <glide/gjk/status.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

struct DistanceSettings {
  int max_iterations = 64; ///< cap on GJK iterations (count, >= 1)
  /// Stop when the gap between the upper bound |v| and the lower bound v·w/|v| on the
  /// distance is below this fraction of the distance (ratio, >= 0).
  float relative_tolerance = 1e-6f;
  /// ... or below this length (m, >= 0). Rounding adds its own floor of 4·FLT_EPSILON times
  /// the largest support-point difference |a − b| seen, so tiny values only matter near contact.
  float absolute_tolerance = 1e-9f;
};

/// Warm start for frame-coherent queries: the last simplex. When both shapes number their
/// vertices (IndexedSupport: Segment, ConvexHull) its vertices are re-evaluated by index, with
/// no support search; otherwise the search directions that found them are searched again.
/// Either rebuilds a simplex next to the new answer, so a query whose shapes moved a little
/// usually ends after one iteration. Any cache is safe to pass: indices out of range and
/// non-finite directions are skipped, and repeated vertices are handled as a degenerate simplex.
/// A query given a cache always runs GJK (a small hull's planes answer only queries without
/// one, docs/gjk.md), so the cache is rewritten every time.
struct SimplexCache {
  std::array<glm::vec3, 4> directions{};  ///< A was searched along each, B along its opposite (any length)
  std::array<std::uint32_t, 4> index_a{}; ///< vertex of A behind each simplex vertex (when `indexed`)
  std::array<std::uint32_t, 4> index_b{}; ///< vertex of B behind each simplex vertex (when `indexed`)
  int count = 0;                          ///< simplex vertices recorded (0 to 4)
  bool indexed = false;                   ///< index_a and index_b are meaningful
  bool valid = false;                     ///< set by distance(); false: start cold
};

struct DistanceResult {
  float distance = 0.f;   ///< >= 0; 0 when the shapes touch or overlap (m)
  glm::vec3 point_a{0.f}; ///< closest point on A; a common point when the cores overlap (m)
  glm::vec3 point_b{0.f}; ///< closest point on B (m)
  /// Unit, from B toward A, when the cores (shapes without their radii) are apart; zero
  /// when the cores touch or overlap, since no direction is defined then.
  glm::vec3 normal{0.f};
  int iterations = 0; ///< GJK iterations run (support evaluations after the first simplex)
  Status status = Status::converged;

  bool overlapping() const { return distance <= 0.f && status != Status::invalid_input; }
};

namespace detail {

inline bool valid_settings(const DistanceSettings& s) {
  return s.max_iterations >= 1 && s.relative_tolerance >= 0.f && std::isfinite(s.relative_tolerance) &&
         s.absolute_tolerance >= 0.f && std::isfinite(s.absolute_tolerance);
}

/// Rounding floor of the bounds' gap, relative to the size of the Minkowski difference seen
/// so far.
inline constexpr float k_rounding = 4.f * std::numeric_limits<float>::epsilon();
/// |v| below which the origin counts as on the simplex (touching), relative to the same
/// size: one ulp, so that a distance reported as 0 is within 1e-6 of the shapes' size.
inline constexpr float k_touching = std::numeric_limits<float>::epsilon();

inline DistanceResult invalid_result(SimplexCache* cache) {
  DistanceResult r;
  r.status = Status::invalid_input;
  if (cache) cache->valid = false;
  return r;
}

/// Checks a staged vertex: false when |w|^2 is not finite (a NaN or infinite support point,
/// or coordinates beyond ~1e19 m). Tracks the largest |w|^2, the scale of the rounding error.
inline bool staged_finite(const Simplex& simplex, float& max_w2) {
  const F4 w = simplex.w[simplex.count];
  const float ww = dot(w, w);
  max_w2 = ww > max_w2 ? ww : max_w2;
  return ww <= std::numeric_limits<float>::max(); // false for NaN and infinity too
}

/// Evaluates both supports along d and stages the vertex w = a - b in the simplex.
template <class A, class B>
[[gnu::always_inline]] inline bool stage_support(SupportCursor<A>& support_a, SupportCursor<B>& support_b,
                                                 Simplex& simplex, float& max_w2, F4 d) {
  const F4 pa = support4(support_a, d);
  const F4 pb = support4(support_b, -d);
  simplex.stage(pa, pb, d, support_a.index, support_b.index);
  return staged_finite(simplex, max_w2);
}

/// Rebuilds the cached simplex on the shapes as they are now. False: a non-finite vertex.
template <class A, class B>
bool warm_start(const A& a, const B& b, SupportCursor<A>& support_a, SupportCursor<B>& support_b,
                const SimplexCache& cache, Simplex& simplex, float& max_w2) {
  if constexpr (IndexedSupport<A> && IndexedSupport<B>) {
    if (cache.indexed) {
      // No test for repeated vertices here (unlike below): the cache holds the distinct
      // vertices of the last simplex, which repeat only if the shapes have coincident
      // vertices (a zero-length segment), and the sub-algorithm handles coincident vertices
      // like any degenerate simplex. The test compared each new vertex with the ones just
      // stored and cost about a third of a warm-started query.
      for (int i = 0; i < cache.count; ++i) {
        const std::uint32_t ia = cache.index_a[i], ib = cache.index_b[i];
        if (ia >= a.vertex_count() || ib >= b.vertex_count()) continue;
        simplex.stage(support_a.vertex4(ia), support_b.vertex4(ib), load(cache.directions[i]), ia, ib);
        if (!staged_finite(simplex, max_w2)) return false;
        simplex.admit();
      }
      support_a.index = simplex.count > 0 ? simplex.index_a_of(0) : 0;
      support_b.index = simplex.count > 0 ? simplex.index_b_of(0) : 0;
      return true;
    }
  }
  for (int i = 0; i < cache.count; ++i) {
    if (!is_finite(cache.directions[i])) continue;
    if (!stage_support(support_a, support_b, simplex, max_w2, load(cache.directions[i]))) return false;
    simplex.admit_staged();
  }
  return true;
}

/// How the loop in double ended (see detail/gjk_precise.hpp).
struct PreciseEnd {
  int iterations = 0; ///< the query's iterations so far
  Status status = Status::converged;
  double distance_squared = 0.0;
  glm::dvec3 v{0.0};
  bool overlap = false;
  bool invalid = false;
};

/// Continues GJK in double from the float simplex, and writes the simplex it ends on back
/// into `simplex` (vertices and weights) for the closest points and the cache. Out of line:
/// float GJK needs it only on nearly flat differences with the origin close to them.
template <class A, class B>
[[gnu::noinline, gnu::cold]] PreciseEnd gjk_distance_precise(SupportCursor<A> support_a, SupportCursor<B> support_b,
                                                             Simplex& simplex, float max_w2,
                                                             const DistanceSettings& settings, DistanceResult result) {
  PreciseVertex s[5];
  int n = simplex.count;
  for (int i = 0; i < n; ++i) {
    const int slot = simplex.slot(i);
    s[i] = {to_dvec3(simplex.a[slot]) - to_dvec3(simplex.b[slot]),
            simplex.a[slot],
            simplex.b[slot],
            to_vec3(simplex.direction[slot]),
            simplex.index_a[slot],
            simplex.index_b[slot]};
  }
  // Float GJK mostly stalls on an edge near contact (its v is off along the edge by an ulp
  // of the vertices, a large angle when |v| is small): that case in closed form.
  PreciseClosest closest;
  if (n == 2) {
    const glm::dvec3 d = s[1].w - s[0].w;
    const double dd = glm::dot(d, d);
    const double t = dd > 0.0 ? std::clamp(-glm::dot(s[0].w, d) / dd, 0.0, 1.0) : 0.0;
    closest.point = s[0].w + t * d;
    closest.distance_squared = glm::dot(closest.point, closest.point);
    closest.weights = {1.0 - t, t, 0.0, 0.0};
    closest.mask = (t < 1.0 ? 1u : 0u) | (t > 0.0 ? 2u : 0u);
  } else {
    closest = precise_closest(s, n);
  }
  std::array<double, 4> weights{};
  n = keep_precise(s, n, closest, weights);
  PreciseEnd end;
  end.v = closest.point;
  end.distance_squared = closest.distance_squared;
  end.overlap = closest.contains_origin;
  const double relative = settings.relative_tolerance, absolute = settings.absolute_tolerance;
  while (!end.overlap) {
    const double vv = end.distance_squared;
    const double floor = static_cast<double>(k_touching) * std::sqrt(static_cast<double>(max_w2));
    if (vv <= floor * floor) {
      end.overlap = true;
      break;
    }
    if (result.iterations >= settings.max_iterations) {
      result.status = Status::max_iterations;
      break;
    }
    ++result.iterations;
    const glm::dvec3 dir = -end.v / std::sqrt(vv);
    const glm::vec3 d(dir);
    const F4 pa = support4(support_a, load(d));
    const F4 pb = support4(support_b, -load(d));
    PreciseVertex& w = s[n];
    w = {to_dvec3(pa) - to_dvec3(pb), pa, pb, d, support_a.index, support_b.index};
    const double ww = glm::dot(w.w, w.w);
    if (!(ww <= static_cast<double>(std::numeric_limits<float>::max()))) {
      end.invalid = true;
      end.iterations = result.iterations;
      end.status = result.status;
      return end;
    }
    max_w2 = std::max(max_w2, static_cast<float>(ww));
    const double gap = vv - glm::dot(end.v, w.w);
    if (gap <= relative * vv || gap <= std::max(absolute, floor) * std::sqrt(vv)) break;
    bool repeated = false;
    for (int i = 0; i < n; ++i) repeated = repeated || s[i].w == w.w;
    if (repeated) {
      result.status = Status::degenerate; // exact for this simplex, yet the bounds stay apart
      break;
    }
    const PreciseClosest next = precise_closest(s, n + 1);
    if (!(next.distance_squared < vv) && !next.contains_origin) {
      result.status = Status::degenerate;
      break;
    }
    n = keep_precise(s, n + 1, next, weights);
    end.v = next.point;
    end.distance_squared = next.distance_squared;
    end.overlap = next.contains_origin;
  }
  // Back into the float simplex, in order, with the weights.
  simplex = Simplex{};
  for (int i = 0; i < n; ++i) {
    simplex.stage(s[i].a, s[i].b, load(s[i].direction), s[i].index_a, s[i].index_b);
    simplex.admit();
    simplex.weights[i] = static_cast<float>(weights[static_cast<std::size_t>(i)]);
  }
  end.iterations = result.iterations;
  end.status = result.status;
  return end;
}

/// An edge's closest point in double, certified by one more support call.
struct EdgeEnd {
  double distance = 0.0;
  glm::dvec3 normal{0.0};
  bool done = false;
};

/// Float GJK near contact mostly ends on an edge of A − B whose float closest point is off
/// along the edge by an ulp of its ends, which at a small |v| tilts −v enough to return a
/// vertex it already has while the bounds stay apart. The edge's closest point in double,
/// and the support along it, settle that in one step; false when they do not (then the
/// whole loop continues in double).
template <class A, class B>
[[gnu::noinline]] bool edge_certified(SupportCursor<A> support_a, SupportCursor<B> support_b, Simplex& simplex,
                                      float max_w2, const DistanceSettings& settings, EdgeEnd& end) {
  const int s0 = simplex.slot(0), s1 = simplex.slot(1);
  const glm::dvec3 p0 = to_dvec3(simplex.a[s0]) - to_dvec3(simplex.b[s0]);
  const glm::dvec3 d = to_dvec3(simplex.a[s1]) - to_dvec3(simplex.b[s1]) - p0;
  const double dd = glm::dot(d, d);
  const double t = dd > 0.0 ? std::clamp(-glm::dot(p0, d) / dd, 0.0, 1.0) : 0.0;
  const glm::dvec3 v = p0 + t * d;
  const double vv = glm::dot(v, v);
  if (!(vv > 1e-60)) return false; // -v must stay a float direction
  const F4 dir = F4{static_cast<float>(-v.x), static_cast<float>(-v.y), static_cast<float>(-v.z), 0.f};
  const F4 pa = support4(support_a, dir);
  const F4 pb = support4(support_b, -dir);
  const double gap = vv - glm::dot(v, to_dvec3(pa) - to_dvec3(pb));
  const double floor2 = static_cast<double>(k_touching) * static_cast<double>(k_touching) * max_w2;
  const double absolute = settings.absolute_tolerance;
  if (!(gap <= static_cast<double>(settings.relative_tolerance) * vv ||
        gap * gap <= std::max(absolute * absolute, floor2) * vv))
    return false;
  simplex.weights[0] = static_cast<float>(1.0 - t);
  simplex.weights[1] = static_cast<float>(t);
  const double length = std::sqrt(vv);
  end = {length, v * (1.0 / length), true};
  return true;
}

/// A core distance made a distance between the rounded shapes: shorter by the radii (at
/// least 0), the points moved out along the normal.
inline DistanceResult with_radii(DistanceResult result, float ra, float rb) {
  if (result.distance > 0.f) {
    result.point_a -= result.normal * ra;
    result.point_b += result.normal * rb;
    result.distance = std::max(0.f, result.distance - ra - rb);
  }
  return result;
}

template <class A, class B>
inline constexpr bool has_planes = (std::is_same_v<A, Segment> ||
                                    std::is_same_v<A, Point>)&&std::is_same_v<B, ConvexHull>;

/// What a small solid hull's face planes, or a larger one's balls, tell of a segment (or point)
/// and the hull, without GJK (detail/hull_planes.hpp).
template <PlaneQuery query, class A, class B>
[[gnu::always_inline]] inline PlaneVerdict planes_verdict(const A& a, const B& b, PlaneAnswer& answer) {
  if constexpr (has_planes<A, B>) {
    if constexpr (std::is_same_v<A, Segment>)
      return segment_against_hull<query>(b.planes(), a.a, a.b, answer);
    else
      return segment_against_hull<query>(b.planes(), a.position, a.position, answer);
  } else {
    return PlaneVerdict::unknown;
  }
}

/// A segment in front of a small hull's plane but not over its face (`known.plane`) starts GJK
/// from its nearer end against one of that plane's triangles, next to the answer: 8- and
/// 16-vertex hulls then end after 1.3 to 1.5 iterations on average instead of 2.1 to 3.1.
/// False: a vertex is not finite.
template <class A, class B>
[[gnu::always_inline]] inline bool start_from_plane(const B& b, const PlaneAnswer& known, SupportCursor<A>& support_a,
                                                    SupportCursor<B>& support_b, Simplex& simplex, float& max_w2) {
  if constexpr (std::is_same_v<A, Segment> && std::is_same_v<B, ConvexHull>) {
    if (known.plane < 0) return true;
    const std::array<std::uint8_t, 4>& corner = b.planes().corners[static_cast<std::size_t>(known.plane)];
    const std::uint32_t end = known.a_nearer ? 0u : 1u;
    const F4 from = support_a.vertex4(end);
    for (std::size_t k = 0; k < 3; ++k) {
      simplex.stage(from, support_b.vertex4(corner[k]), F4{}, end, corner[k]);
      if (!staged_finite(simplex, max_w2)) return false;
      simplex.admit();
    }
  }
  return true;
}

/// GJK on the cores, the radii ra and rb (checked by the caller) applied to the result here:
/// applied by the caller, its reads of the fields just stored by this call each waited on a
/// failed store-to-load forwarding (about 5 % of an 8-vertex query).
template <class A, class B>
[[gnu::aligned(64)]] DistanceResult gjk_distance(const A& a, const B& b, const DistanceSettings& settings,
                                                 SimplexCache* cache, float ra, float rb) {
  if (!valid_settings(settings)) return invalid_result(cache);
  SupportCursor<A> support_a{a};
  SupportCursor<B> support_b{b};
  Simplex simplex;
  float max_w2 = 0.f;      // largest |w|^2 seen: the scale of the rounding error
  bool from_plane = false; // the simplex starts as a triangle of the plane faced
  // With a cache, GJK runs and keeps it: a warm start costs about what the planes do.
  if (!cache) [[likely]] { // likely: the planes laid out inline, not as a far branch (measured faster)
    PlaneAnswer known;
    if (planes_verdict<PlaneQuery::distance>(a, b, known) != PlaneVerdict::unknown) {
      DistanceResult result;
      result.distance = known.distance;
      result.point_a = known.point_a;
      result.point_b = known.point_b;
      result.normal = known.normal;
      return with_radii(result, ra, rb);
    }
    if (!start_from_plane(b, known, support_a, support_b, simplex, max_w2)) return invalid_result(cache);
    from_plane = simplex.count == 3;
  } else if (cache->valid && cache->count >= 1 && cache->count <= 4) {
    if (!warm_start(a, b, support_a, support_b, *cache, simplex, max_w2)) return invalid_result(cache);
  }
  if (simplex.count == 0) {
    if (!stage_support(support_a, support_b, simplex, max_w2, load(first_direction(a, b))))
      return invalid_result(cache);
    simplex.admit_staged();
  }
  // One vertex (every cold start) is its own closest point: no call to the sub-algorithm.
  F4 v = simplex.w[0];
  float vv = dot(v, v);
  bool overlap = false;
  if (simplex.count > 1) {
    // A plane's triangle: the origin lies beyond its rim but for rare cases (within the
    // margin of the face's rim, an inexact face), and there the rim's nearest point is still
    // a point of A - B: the bounds below hold for any, and GJK goes on from it.
    const Closest4 closest =
        from_plane ? closest_on_triangle_rim(simplex.w) : closest_to_origin(simplex.w, simplex.count);
    simplex.keep(closest);
    v = closest.point;
    vv = closest.distance_squared;
    overlap = closest.contains_origin;
  }

  const float relative = settings.relative_tolerance;
  const float absolute2 = settings.absolute_tolerance * settings.absolute_tolerance;
  DistanceResult result;
  bool precise = false; // finish in double (see detail/gjk_precise.hpp)
  EdgeEnd edge;         // or the edge's closest point in double, certified
  while (!overlap) {
    const float floor2 = k_rounding * k_rounding * max_w2;
    if (vv <= k_touching * k_touching * max_w2) {
      overlap = true; // the origin is on the simplex within rounding: touching
      break;
    }
    if (result.iterations >= settings.max_iterations) {
      result.status = Status::max_iterations;
      break;
    }
    ++result.iterations;
    if (!stage_support(support_a, support_b, simplex, max_w2, -v)) return invalid_result(cache);
    const F4 w = simplex.w[simplex.count];
    // |v| bounds the distance from above, v·w/|v| from below; stop when they are close.
    const float gap = vv - dot(v, w);
    // The squares in double: in float, for shapes 1e17 m across both sides overflowed to
    // infinity, which stopped the loop at its first vertex.
    if (gap <= relative * vv || double(gap) * gap <= double(std::max(absolute2, floor2)) * vv) break;
    // No new vertex, or one that does not bring the simplex closer, while the bounds are
    // apart: v is off by rounding by more than the gap. Finish in double.
    if (simplex.contains(w)) {
      if (simplex.count == 2 && edge_certified(support_a, support_b, simplex, max_w2, settings, edge)) break;
      precise = true;
      break;
    }
    Closest4 next;
    const F4 point = closest_with_newest(simplex.w, w, simplex.count + 1, next);
    if (next.contains_origin) {
      simplex.keep(next);
      overlap = true;
      break;
    }
    if (!(next.distance_squared < vv)) {
      precise = true;
      break;
    }
    simplex.keep(next);
    v = point;
    vv = next.distance_squared;
  }

  if (edge.done) {
    const glm::dvec3& n = edge.normal;
    v = F4{static_cast<float>(n.x), static_cast<float>(n.y), static_cast<float>(n.z), 0.f};
    result.distance = static_cast<float>(edge.distance);
  }
  if (precise) {
    const PreciseEnd end = gjk_distance_precise(support_a, support_b, simplex, max_w2, settings, result);
    if (end.invalid) return invalid_result(cache);
    result.iterations = end.iterations;
    result.status = end.status;
    overlap = end.overlap;
    if (!overlap) {
      const double length = std::sqrt(end.distance_squared);
      const glm::dvec3 normal = end.v / length;
      v = F4{static_cast<float>(normal.x), static_cast<float>(normal.y), static_cast<float>(normal.z), 0.f};
      vv = 1.f;
      result.distance = static_cast<float>(length);
    }
  }
  result.point_a = to_vec3(simplex.point_a());
  result.point_b = to_vec3(simplex.point_b());
  if (!overlap) {
    const bool in_double = precise || edge.done; // v holds the unit normal then
    if (!in_double) result.distance = std::sqrt(vv);
    result.normal = in_double ? to_vec3(v) : to_vec3(v / splat(result.distance));
  }
  if (cache) {
    cache->count = simplex.count;
    for (int i = 0; i < simplex.count; ++i) {
      cache->directions[i] = simplex.direction_of(i);
      cache->index_a[i] = simplex.index_a_of(i);
      cache->index_b[i] = simplex.index_b_of(i);
    }
    cache->indexed = IndexedSupport<A> && IndexedSupport<B>;
    cache->valid = true;
  }
  return with_radii(result, ra, rb);
}

} // namespace detail

/// Distance, closest points and normal between two convex shapes. Rounded shapes (Sphere,
/// Capsule) run GJK on their core and have their radius applied to the result: the
/// distance shrinks by the radii (clamped at 0) and the points move along the normal; when
/// only the rounded parts overlap the points are each shape's deepest point along the normal.
/// `cache`, when given, warm-starts from the previous query and is updated for the next.
template <SupportMapping A, SupportMapping B>
DistanceResult distance(const A& a, const B& b, const DistanceSettings& settings = {}, SimplexCache* cache = nullptr) {
  const float ra = radius_of(a), rb = radius_of(b);
  if (!(ra >= 0.f && rb >= 0.f && std::isfinite(ra) && std::isfinite(rb))) return detail::invalid_result(cache);
  return detail::gjk_distance(core_of(a), core_of(b), settings, cache, ra, rb);
}

// The built-in shapes' queries are compiled in the library (see detail/builtin_shapes.hpp).
#define GLIDE_GJK_DISTANCE_INSTANCE(A, B)                                                                              \
  template DistanceResult distance<A, B>(const A&, const B&, const DistanceSettings&, SimplexCache*);
#define GLIDE_GJK_EXTERN_DISTANCE(A, B) extern GLIDE_GJK_DISTANCE_INSTANCE(A, B)
GLIDE_GJK_BUILTIN_PAIRS(GLIDE_GJK_EXTERN_DISTANCE)
#undef GLIDE_GJK_EXTERN_DISTANCE

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
