#pragma once

// A solid hull's balls and a small solid hull's faces as planes answer the commonest segment
// queries without GJK, each certified by a margin far above rounding (the rest is left to GJK):
// - a segment through the middle of the hull: its point nearest the centre lies in a ball
//   inside the hull (distance GJK needs a tetrahedron around the origin to prove an overlap,
//   its slowest case);
// - a deep overlap: clipped to the planes, a part of the segment lies inside them all;
// - a segment over a face: its nearer end's projection falls inside the face, the closest pair;
// - for the boolean query, a miss: both ends beyond one plane, or (a large hull) the segment
//   beyond a ball around it.
// Inline: it runs before GJK's loop, in the library's instantiation of the query
// (builtin_shapes.hpp).

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/vec4.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

/// Four planes, inside where nx x + ny y + nz z <= offset (x relative to the hull's centre).
struct PlaneBlock {
  F4 nx, ny, nz, offset;
};

struct HullPlanes {
  /// Hulls with more planes than this keep none: the clipping pass would cost more than the
  /// GJK iterations it saves.
  static constexpr std::uint32_t k_max_planes = 64;
  /// The margin below, as a fraction of the hull's radius: far above float rounding of points
  /// within the hull (about 1e-7) and the planes' own (a few 1e-7); the contract's overlap
  /// threshold.
  static constexpr float k_margin = 1e-5f;

  std::vector<PlaneBlock> blocks; ///< empty: no planes kept (flat or large hulls)
  F4 center{};                    ///< the planes' origin (m), as (x, y, z, 0)
  /// How far inside the planes a point must be to count as inside the hull, or inside a
  /// face's rim to count as over the face (m): 1e-5 of the hull's radius, far above the
  /// planes' rounding.
  float margin = 0.f;
  /// Bit i: plane i passes through its own face's vertices (within rounding), so a point over
  /// the face is its height above the plane away from the hull.
  std::uint64_t exact_faces = 0;
  /// Each plane's vertices of one of its triangles (indices into the hull's vertices), by plane:
  /// a segment over the hull but not over a face starts GJK from that triangle of the plane it
  /// is farthest in front of.
  std::vector<std::array<std::uint8_t, 4>> corners;
  /// The balls, kept by every solid hull (else negative): asked first of hulls without planes,
  /// and by the planes of an overlap before they clip. A ball about the centre inside the
  /// hull, shrunk by the margin: its radius squared (m^2).
  float inner2 = -1.f;
  /// A ball about the centre holding the hull, grown by the margin: its radius squared (m^2).
  float outer2 = -1.f;
  /// How far from the centre both ends of a segment lie for the balls to answer (m^2): 8 radii,
  /// within which the float test's rounding stays below half the margin.
  float near2 = -1.f;
};

/// The planes of a solid hull's triangles (their outward unit normals, in double, and three
/// vertex indices each) about the vertices' centroid: coplanar ones merged, each offset the
/// largest of the vertices' so that no vertex lies outside it; and the hull's balls.
HullPlanes make_hull_planes(std::span<const glm::vec3> vertices, const glm::dvec3& centroid,
                            std::span<const glm::dvec3> normals, std::span<const std::uint32_t> corners);

namespace planes {

#if defined(__SSE2__)
inline __m128 m(F4 v) { return reinterpret_cast<__m128>(v); }
inline F4 f(__m128 v) { return reinterpret_cast<F4>(v); }
inline F4 min(F4 a, F4 b) { return f(_mm_min_ps(m(a), m(b))); }
inline F4 max(F4 a, F4 b) { return f(_mm_max_ps(m(a), m(b))); }
inline int lanes(I4 mask) { return _mm_movemask_ps(reinterpret_cast<__m128>(mask)); }
template <int lane>
inline F4 broadcast(F4 v) {
  return f(permute<_MM_SHUFFLE(lane, lane, lane, lane)>(m(v)));
}
#else
inline F4 min(F4 a, F4 b) {
  return F4{a[0] < b[0] ? a[0] : b[0], a[1] < b[1] ? a[1] : b[1], a[2] < b[2] ? a[2] : b[2], a[3] < b[3] ? a[3] : b[3]};
}
inline F4 max(F4 a, F4 b) {
  return F4{a[0] > b[0] ? a[0] : b[0], a[1] > b[1] ? a[1] : b[1], a[2] > b[2] ? a[2] : b[2], a[3] > b[3] ? a[3] : b[3]};
}
inline int lanes(I4 mask) { return (mask[0] & 1) | (mask[1] & 2) | (mask[2] & 4) | (mask[3] & 8); }
template <int lane>
inline F4 broadcast(F4 v) {
  return splat(v[lane]);
}
#endif

/// v where the mask is set, +0 elsewhere.
inline F4 masked(I4 mask, F4 v) { return reinterpret_cast<F4>(mask & reinterpret_cast<I4>(v)); }

/// The largest lane, in every lane.
#if defined(__SSE2__)
inline F4 highest(F4 v) {
  const F4 h = max(v, f(permute<_MM_SHUFFLE(1, 0, 3, 2)>(m(v))));
  return max(h, f(permute<_MM_SHUFFLE(2, 3, 0, 1)>(m(h))));
}
#else
inline F4 highest(F4 v) { return splat(std::max(std::max(v[0], v[1]), std::max(v[2], v[3]))); }
#endif

/// Signed heights of a point (coordinates broadcast) above four planes.
inline F4 heights(const PlaneBlock& p, F4 x, F4 y, F4 z) { return (p.nx * x + p.ny * y) + p.nz * z - p.offset; }

/// Whether `point` is at least `margin` inside every plane but plane `skip` (-1: none).
inline bool inside_all(const PlaneBlock* blocks, int count, F4 point, float margin, int skip) {
  const F4 x = broadcast<0>(point), y = broadcast<1>(point), z = broadcast<2>(point), limit = splat(-margin);
  I4 outside{}, index{0, 1, 2, 3};
  for (int k = 0; k < count; ++k) {
    outside |= (heights(blocks[k], x, y, z) > limit) & (index != skip);
    index += 4;
  }
  return lanes(outside) == 0;
}

} // namespace planes

/// What the planes tell of a segment and the hull.
enum class PlaneVerdict {
  unknown,   ///< GJK's to decide
  inside,    ///< a part of the segment lies at least the margin inside the hull
  apart,     ///< both ends lie at least the margin outside one plane: no common point
  over_face, ///< the segment's nearest point lies over a face, the nearest pair known
};

/// The planes' answer: the common point (inside), or the nearest pair (over a face).
struct PlaneAnswer {
  glm::vec3 point_a{0.f}; ///< on the segment (m)
  glm::vec3 point_b{0.f}; ///< on the hull (m)
  glm::vec3 normal{0.f};  ///< over a face: its outward normal
  float distance = 0.f;   ///< over a face: the gap (m)
  /// Unknown, with the segment in front of a plane: that plane (the one it is farthest in
  /// front of; -1 none) and whether end a is the nearer to it, for GJK's start.
  int plane = -1;
  bool a_nearer = true;
};

/// Which answers a query wants beyond `inside`: a distance query the pair over a face, a
/// boolean one `apart` (each test is a branch the other query would mispredict for nothing).
enum class PlaneQuery { distance, boolean };

/// The segment's nearest end over the face of plane i (the plane it is farthest in front of,
/// by `top`), at least the margin inside the face's rim: then the end and its projection are
/// the nearest pair, since the whole hull lies behind the plane. Whatever it finds, it records
/// plane i and the nearer end in `answer` (GJK starts from them when this is false).
[[gnu::always_inline]] inline bool over_face(const HullPlanes& hull, const F4* front, float top, const glm::vec3& a,
                                             const glm::vec3& b, F4 ac, F4 bc, PlaneAnswer& answer) {
  using namespace planes;
  int k = 0, hits;
  while ((hits = lanes(front[k] == splat(top))) == 0) ++k;
  const int lane = __builtin_ctz(static_cast<unsigned>(hits)), i = 4 * k + lane;
  const PlaneBlock& plane = hull.blocks[static_cast<std::size_t>(k)];
  const F4 n{plane.nx[lane], plane.ny[lane], plane.nz[lane], 0.f};
  const bool a_nearer = dot(n, ac) <= dot(n, bc); // the same offset on both sides
  answer.plane = i;
  answer.a_nearer = a_nearer;
  // Beyond 16 radii the projection's rounding nears the margin.
  constexpr float k_far = 16.f / HullPlanes::k_margin; // in margins
  if (!(top > 0.f && top < k_far * hull.margin)) return false;
  if (!((hull.exact_faces >> i) & 1u)) return false;
  if (!inside_all(hull.blocks.data(), static_cast<int>(hull.blocks.size()), (a_nearer ? ac : bc) - splat(top) * n,
                  hull.margin, i))
    return false;
  // The gap again in double, from the end as given.
  const glm::vec3& p = a_nearer ? a : b;
  const glm::dvec3 nd(n[0], n[1], n[2]), c(hull.center[0], hull.center[1], hull.center[2]);
  const double gap = glm::dot(nd, glm::dvec3(p) - c) - static_cast<double>(plane.offset[lane]);
  if (!(gap > 0.0)) return false;
  answer.distance = static_cast<float>(gap);
  answer.normal = to_vec3(n);
  answer.point_a = p;
  answer.point_b = glm::vec3(glm::dvec3(p) - gap * nd);
  return true;
}

/// What the hull's balls tell of the segment (a, b): inside when its point nearest the centre
/// lies in the inner ball (`answer.point_a` and point_b that point), apart (boolean query) when
/// beyond the outer one.
[[gnu::always_inline]] inline PlaneVerdict segment_against_balls(const HullPlanes& hull, const glm::vec3& a,
                                                                 const glm::vec3& b, PlaneQuery query,
                                                                 PlaneAnswer& answer) {
  const F4 ac = load(a) - hull.center, bc = load(b) - hull.center, d = bc - ac;
  if (!(std::max(dot(ac, ac), dot(bc, bc)) <= hull.near2)) return PlaneVerdict::unknown; // NaN too
  // The segment's point nearest the centre.
  const float along = -dot(ac, d), length2 = dot(d, d);
  const float t = along <= 0.f ? 0.f : (along >= length2 ? 1.f : along / length2);
  const F4 nearest = ac + splat(t) * d;
  const float distance2 = dot(nearest, nearest);
  if (distance2 <= hull.inner2) {
    answer.point_a = answer.point_b = a + t * (b - a);
    return PlaneVerdict::inside;
  }
  if (query == PlaneQuery::boolean && distance2 > hull.outer2) return PlaneVerdict::apart;
  return PlaneVerdict::unknown;
}

/// Clips the segment (a, b) to the hull's planes (Cyrus–Beck). Inside: `answer.point_a` (and
/// point_b) is the middle of the part of the segment at least the margin inside every plane.
/// Unknown for a segment that is not finite.
template <PlaneQuery query>
[[gnu::always_inline]] inline PlaneVerdict segment_against_planes(const HullPlanes& hull, const glm::vec3& a,
                                                                  const glm::vec3& b, PlaneAnswer& answer) {
  using namespace planes;
  const F4 ac = load(a) - hull.center, bc = load(b) - hull.center;
  // Non-finite or huge coordinates are GJK's to refuse; below 1e18 no height overflows.
  const I4 magnitude = I4{} + std::numeric_limits<std::int32_t>::max();
  const F4 limit = splat(1e18f); // NaN compares false
  if (lanes((masked(magnitude, ac) < limit) & (masked(magnitude, bc) < limit)) != 0xF) return PlaneVerdict::unknown;
  const F4 ax = broadcast<0>(ac), ay = broadcast<1>(ac), az = broadcast<2>(ac);
  const F4 bx = broadcast<0>(bc), by = broadcast<1>(bc), bz = broadcast<2>(bc);
  const F4 margin = splat(hull.margin), zero{};
  const PlaneBlock* blocks = hull.blocks.data();
  const int count = static_cast<int>(hull.blocks.size());
  // First the cheap test most segments that miss the hull fail: both ends outside one plane
  // shrunk by the margin, i.e. the nearer end's height above it over -margin.
  F4 front[HullPlanes::k_max_planes / 4];
  F4 nearer = splat(-std::numeric_limits<float>::max());
  for (int k = 0; k < count; ++k) {
    front[k] = min(heights(blocks[k], ax, ay, az), heights(blocks[k], bx, by, bz));
    nearer = max(nearer, front[k]);
  }
  const float top = highest(nearer)[0];
  if (top > -hull.margin) {
    if constexpr (query == PlaneQuery::boolean) {
      if (top > hull.margin) return PlaneVerdict::apart;
    } else {
      if (over_face(hull, front, top, a, b, ac, bc, answer)) return PlaneVerdict::over_face;
    }
    return PlaneVerdict::unknown;
  }
  // A segment through the inner ball needs no clipping (a 16-vertex hull's overlaps took 45 ns
  // with the clip, 22 to 32 with the ball). Asked here, once the first pass found no plane
  // that both ends lie beyond, rather than before it: most of the queries it would cost there
  // are not overlaps.
  if (segment_against_balls(hull, a, b, query, answer) == PlaneVerdict::inside) return PlaneVerdict::inside;
  // The part of the segment inside each shrunk plane: from where it enters to where it
  // leaves (as 1 - t, so that both ends are maxima).
  F4 enter = zero, exit = zero;
  for (int k = 0; k < count; ++k) {
    const F4 ea = heights(blocks[k], ax, ay, az) + margin, eb = heights(blocks[k], bx, by, bz) + margin;
    const I4 out_a = ea > zero, out_b = eb > zero;
    const F4 t = ea / (ea - eb);
    enter = max(enter, masked(out_a & ~out_b, t));
    exit = max(exit, masked(out_b & ~out_a, splat(1.f) - t));
  }
  const F4 t_enter = highest(enter), t_exit = splat(1.f) - highest(exit);
  if (!(t_enter[0] <= t_exit[0])) return PlaneVerdict::unknown;
  const F4 t = splat(0.5f) * (t_enter + t_exit);
  if (!inside_all(blocks, count, ac + t * (bc - ac), 0.5f * hull.margin, -1)) return PlaneVerdict::unknown;
  answer.point_a = answer.point_b = a + t[0] * (b - a);
  return PlaneVerdict::inside;
}

/// The planes' verdict where the hull keeps them (which ask the balls for overlaps), else the
/// balls'. Asked before the planes, the balls measured slower on a mixed stream of small hulls
/// (a branch more to mispredict for the overlaps the inner ball misses, the few ns of its test).
/// Both inline, the planes laid out first: with the balls out of line (a call on this path),
/// the planes' answers took 4 to 6 ns longer.
template <PlaneQuery query>
[[gnu::always_inline]] inline PlaneVerdict segment_against_hull(const HullPlanes& hull, const glm::vec3& a,
                                                                const glm::vec3& b, PlaneAnswer& answer) {
  if (!hull.blocks.empty()) [[likely]]
    return segment_against_planes<query>(hull, a, b, answer);
  return segment_against_balls(hull, a, b, query, answer);
}

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
