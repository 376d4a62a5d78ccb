#pragma once

// Per-candidate tests shared by the world's queries and by the brute-force oracles in the
// tests, so a query and its oracle differ only in how candidates are found.

#include <glide/error.hpp>
#include <glide/gjk/aabb.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/penetration.hpp>
#include <glide/gjk/segment_pair.hpp>
#include <glide/gjk/toi.hpp>
#include <glide/limits.hpp>
#include <glide/terrain/heightfield.hpp>
#include <glide/world/query_types.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace glide::detail {

/// A piece as the queries see it: its hull's vertices already placed in the world, so a
/// support call is one pass of dot products with no rotation.
struct VertexCloud {
  const glm::vec3* vertices = nullptr;
  std::uint32_t count = 0;

  explicit VertexCloud(std::span<const glm::vec3> v)
      : vertices(v.data()), count(static_cast<std::uint32_t>(v.size())) {}
  VertexCloud(const glm::vec3* v, std::uint32_t n) : vertices(v), count(n) {}

  glm::vec3 support(const glm::vec3& dir) const {
    std::uint32_t best = 0;
    float best_dot = glm::dot(dir, vertices[0]);
    for (std::uint32_t i = 1; i < count; ++i) {
      const float d = glm::dot(dir, vertices[i]);
      if (d > best_dot) {
        best_dot = d;
        best = i;
      }
    }
    return vertices[best];
  }
};

using limits::finite;

inline bool valid_capsule(const gjk::Capsule& c) {
  return finite(c.segment.a) && finite(c.segment.b) && std::isfinite(c.radius) && c.radius >= 0.f;
}

/// Throws for a finite capsule outside the valid range (limits.hpp): its answers would be
/// silently wrong. Non-finite ones are left to valid_capsule, which finds nothing for them.
inline void check_range(const gjk::Capsule& c, const char* query) {
  if (!valid_capsule(c)) return;
  if (!limits::in_range(c.segment.a) || !limits::in_range(c.segment.b))
    throw Error(std::string(query) + ": capsule segment " + limits::vec_text(c.segment.a) + " to " +
                limits::vec_text(c.segment.b) +
                " beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
  if (c.radius > limits::k_max_piece_size)
    throw Error(std::string(query) + ": capsule radius " + limits::number_text(c.radius) + " exceeds " +
                limits::number_text(limits::k_max_piece_size) + " m");
}

/// Longer than this a motion from inside the valid range has left it, with every piece and the
/// terrain: the diagonal of the coordinate cube plus the largest radius.
inline constexpr double k_max_reach = 4.0 * limits::k_max_coordinate;

/// Shortens `motion` to at most k_max_reach, so its length and the broadphase's arithmetic stay
/// finite; returns what fractions of the shortened motion are to be multiplied by.
inline float shorten(glm::vec3& motion) {
  const double x = motion.x, y = motion.y, z = motion.z;
  const double length = std::sqrt(x * x + y * y + z * z);
  if (!(length > k_max_reach)) return 1.f;
  const double k = k_max_reach / length;
  motion = glm::vec3(static_cast<float>(x * k), static_cast<float>(y * k), static_cast<float>(z * k));
  return static_cast<float>(k);
}

inline gjk::ToiSettings toi_settings(const SweepSettings& s) {
  gjk::ToiSettings t;
  t.tolerance = s.tolerance > 0.f && std::isfinite(s.tolerance) ? s.tolerance : gjk::ToiSettings{}.tolerance;
  t.max_iterations = s.max_iterations >= 1 ? s.max_iterations : gjk::ToiSettings{}.max_iterations;
  return t;
}

/// Time of impact of the capsule's segment core (inflated by `radius`) moving along `motion`
/// against a convex shape, by the method the settings choose.
template <class Shape>
gjk::ToiResult time_of_impact(const gjk::Segment& segment, float radius, const glm::vec3& motion, const Shape& shape,
                              ToiMethod method, const gjk::ToiSettings& settings, const gjk::ToiWarmStart& warm = {}) {
  return method == ToiMethod::bisection
             ? gjk::toi_bisection(segment, radius, motion, shape, settings)
             : gjk::toi_conservative_advancement(segment, radius, motion, shape, settings, warm);
}

/// A contact the motion does not approach (SweepSettings::ignore_separating).
inline bool separating(const gjk::ToiResult& r, const glm::vec3& motion, const SweepSettings& settings) {
  if (!settings.ignore_separating) return false;
  // A small slack so sliding exactly along a face is not blocked by rounding of the normal.
  return glm::dot(r.normal, motion) >= -1e-4f * glm::length(motion);
}

/// False when the segment moved along `motion` stays more than `reach` from the triangle's
/// plane, all on one side: it then cannot touch the triangle. The swept positions are convex
/// combinations of the segment's ends at the start and the end, so their signed distances to
/// the plane span [min(d) + min(0, m), max(d) + max(0, m)]. A cheap exact reject before the
/// time of impact, for terrain triangles the capsule passes above.
inline bool may_reach_plane(const gjk::Triangle& tri, const gjk::Segment& seg, const glm::vec3& motion, float reach) {
  const glm::vec3 n = glm::cross(tri.b - tri.a, tri.c - tri.a);
  const float length = glm::length(n);
  if (!(length > 0.f) || !std::isfinite(length)) return true; // degenerate: GJK decides
  const glm::vec3 u = n / length;
  const float da = glm::dot(u, seg.a - tri.a), db = glm::dot(u, seg.b - tri.a), dm = glm::dot(u, motion);
  const float slack = reach + 1e-5f * (std::abs(da) + std::abs(db) + std::abs(dm)); // rounding
  return std::min(da, db) + std::min(0.f, dm) <= slack && std::max(da, db) + std::max(0.f, dm) >= -slack;
}

/// One hit found while a query runs; the winner is chosen once all are in.
struct Candidate {
  float t = 1.f;
  glm::vec3 point{0.f};
  glm::vec3 normal{0.f, 1.f, 0.f};
  HitTarget target = HitTarget::none;
  PieceId piece;
  std::uint32_t order = 0; ///< arrival order among terrain triangles (their walk order is fixed)
  CharacterId character;
  std::uint32_t triangle = ~0u; ///< a mesh piece's triangle
};

/// Collects hits and keeps the bound used to prune the broadphase: a candidate can only win
/// while its t is within `tie` of the earliest t so far.
class HitCollector {
public:
  explicit HitCollector(float tie) : tie_(tie) {}

  void add(const Candidate& c) {
    if (c.t > earliest_ + tie_) return;
    if (c.t < earliest_) earliest_ = c.t;
    // Most queries see a handful of hits: keep them inline, no allocation per query.
    if (count_ < k_inline)
      inline_.items[count_] = c;
    else
      overflow_.push_back(c);
    if (c.t == 0.f && (at_start_ == k_none || precedes(c, held(at_start_)))) at_start_ = count_;
    ++count_;
  }
  /// No candidate reported at a later t than this can win.
  float bound() const { return earliest_ + tie_; }
  bool empty() const { return count_ == 0; }
  /// Whether a hit held at t = 0, which no later one can put out of the tie, precedes any hit of
  /// character `id`: then none can win, and needs no time of impact (in a pile put at one
  /// spot, every sweep starts touching all the others).
  bool beats_character(CharacterId id) const {
    if (at_start_ == k_none) return false;
    Candidate probe;
    probe.target = HitTarget::character;
    probe.character = id;
    return precedes(held(at_start_), probe);
  }

  /// The earliest hit; among hits within `tie` of it, pieces, then characters, then terrain;
  /// the smallest piece or character id, the first terrain triangle walked. Its t is the earliest t, so
  /// the reported fraction never passes any candidate's time of impact.
  std::optional<Candidate> winner() const {
    std::optional<Candidate> best;
    for (std::size_t i = 0; i < count_; ++i) {
      const Candidate& c = held(i);
      if (c.t > earliest_ + tie_) continue;
      if (!best || precedes(c, *best)) best = c;
    }
    if (best) best->t = earliest_;
    return best;
  }

private:
  static constexpr std::size_t k_none = ~std::size_t{0};
  const Candidate& held(std::size_t i) const { return i < k_inline ? inline_.items[i] : overflow_[i - k_inline]; }
  static int rank(HitTarget t) { return t == HitTarget::piece ? 0 : t == HitTarget::character ? 1 : 2; }
  static bool precedes(const Candidate& a, const Candidate& b) {
    if (a.target != b.target) return rank(a.target) < rank(b.target);
    if (a.target == HitTarget::piece)
      return a.piece.value != b.piece.value ? a.piece.value < b.piece.value : a.triangle < b.triangle;
    if (a.target == HitTarget::character) return a.character.value < b.character.value;
    return a.order < b.order;
  }

  float tie_;
  float earliest_ = 2.f;
  // Left uninitialised: a query constructs a collector and most see no hit at all.
  static constexpr std::size_t k_inline = 8;
  union Inline {
    Inline() {}
    Candidate items[k_inline];
  } inline_;
  std::size_t count_ = 0;
  std::size_t at_start_ = k_none; ///< the first in order among the hits held at t = 0
  std::vector<Candidate> overflow_;
};

/// The contact a distance query `d` between the capsule's segment and `shape` describes, when
/// the gap is at most `margin`.
template <class Shape>
std::optional<Contact> contact_from(const gjk::Capsule& capsule, float margin, const Shape& shape,
                                    const gjk::DistanceResult& d) {
  if (d.status == gjk::Status::invalid_input) return std::nullopt;
  if (d.distance - capsule.radius > margin) return std::nullopt;
  Contact c;
  c.distance = d.distance - capsule.radius;
  c.point_on_piece = d.point_b;
  c.point_on_segment = d.point_a;
  c.normal = d.normal;
  if (d.distance <= 0.f) {
    // The segment itself is inside: the normal and depth come from the penetration.
    const gjk::PenetrationResult p = gjk::penetration(capsule.segment, shape);
    c.depth = p.depth;
    c.distance = -(p.depth + capsule.radius);
    c.normal = p.normal;
    c.point_on_piece = p.point_b;
    c.point_on_segment = p.point_a;
  }
  if (!finite(c.normal) || !(glm::length(c.normal) > 0.5f)) c.normal = {0.f, 1.f, 0.f};
  return c;
}

/// Where a segment passes over a terrain triangle: the part of it inside the triangle's column
/// (its footprint seen from above, closed), and that part's lowest point along the triangle's
/// up-facing face normal.
struct TerrainColumn {
  bool over = false;               ///< some of the segment lies inside the column
  float lowest = 0.f;              ///< signed distance of `point` above the triangle's plane (m)
  glm::vec3 point{0.f};            ///< the lowest point of that part (m)
  glm::vec3 normal{0.f, 1.f, 0.f}; ///< the unit face normal, up-facing
};

/// Terrain is solid below its surface: a segment over a triangle and below its plane is inside
/// the terrain, and the way out is up along the face normal, not sideways to the nearest edge
/// of that thin triangle. Exact for the segment clipped to the column; cheap when the segment
/// lies above every corner of the triangle (the common case: nothing below).
inline TerrainColumn terrain_column(const gjk::Triangle& tri, const gjk::Segment& seg) {
  TerrainColumn out;
  if (std::min(seg.a.y, seg.b.y) >= std::max(tri.a.y, std::max(tri.b.y, tri.c.y))) return out;
  const glm::vec3 cross = glm::cross(tri.b - tri.a, tri.c - tri.a);
  const float length = glm::length(cross);
  if (!(length > 0.f) || !std::isfinite(length) || !(cross.y > 0.f)) return out;
  const auto side = [](const glm::vec3& p, const glm::vec3& q, const glm::vec3& x) {
    // > 0 left of p -> q seen from above (+y): inside for a counter-clockwise triangle.
    return (q.z - p.z) * (x.x - p.x) - (q.x - p.x) * (x.z - p.z);
  };
  const float orientation = side(tri.a, tri.b, tri.c) >= 0.f ? 1.f : -1.f;
  // The column is closed and a little wider than the triangle, by the rounding of `side`: a
  // segment on an edge two triangles share is over both, never over neither.
  const float scale = 1.f + std::max({std::abs(seg.a.x), std::abs(seg.a.z), std::abs(seg.b.x), std::abs(seg.b.z),
                                      std::abs(tri.a.x), std::abs(tri.a.z)});
  float t0 = 0.f, t1 = 1.f;
  const std::array<std::array<glm::vec3, 2>, 3> edges{{{tri.a, tri.b}, {tri.b, tri.c}, {tri.c, tri.a}}};
  for (const auto& e : edges) {
    const float slack = 1e-6f * scale * (std::abs(e[1].x - e[0].x) + std::abs(e[1].z - e[0].z));
    const float fa = orientation * side(e[0], e[1], seg.a) + slack;
    const float fb = orientation * side(e[0], e[1], seg.b) + slack;
    if (fa < 0.f && fb < 0.f) return out;
    if (fa < 0.f) t0 = std::max(t0, fa / (fa - fb));
    if (fb < 0.f) t1 = std::min(t1, fa / (fa - fb));
  }
  if (!(t0 <= t1)) return out;
  out.over = true;
  out.normal = cross / length;
  const glm::vec3 p0 = seg.a + t0 * (seg.b - seg.a), p1 = seg.a + t1 * (seg.b - seg.a);
  const float d0 = glm::dot(out.normal, p0 - tri.a), d1 = glm::dot(out.normal, p1 - tri.a);
  out.lowest = std::min(d0, d1);
  out.point = d0 <= d1 ? p0 : p1;
  return out;
}

/// `box` grown up to the terrain's top: the triangles above a capsule buried under the surface
/// are those it is inside of, though its box may not reach them.
inline gjk::Aabb up_to_terrain_top(gjk::Aabb box, const Heightfield& terrain) {
  box.max.y = std::max(box.max.y, terrain.bounds().max.y);
  return box;
}

/// contact_from for a terrain triangle, solid below its surface: a segment over the triangle
/// that reaches below its plane (or touches it) gets the face normal and the depth below the
/// plane. Above the surface, the contact is contact_from's.
inline std::optional<Contact> terrain_contact_from(const gjk::Capsule& capsule, float margin, const gjk::Triangle& tri,
                                                   const gjk::DistanceResult& d) {
  if (d.status == gjk::Status::invalid_input) return std::nullopt;
  const TerrainColumn column = terrain_column(tri, capsule.segment);
  if (!column.over || (column.lowest >= 0.f && d.distance > 0.f)) {
    std::optional<Contact> c = contact_from(capsule, margin, tri, d);
    if (!c) return c;
    const glm::vec3 up = glm::normalize(glm::cross(tri.b - tri.a, tri.c - tri.a));
    // Overlapping it beside its column (or off its edge): the capsule is in the solid below,
    // whose way out is up through the surface; an edge of the thin triangle has no side.
    if (c->distance < 0.f) {
      c->normal = up;
      return c;
    }
    // Beside the triangle and under its plane: the terrain is met from above and the side
    // only. The edge the closest points lie on is also another triangle's, whose contact
    // faces the capsule (except at the grid's border and a hole's, where the solid has no side).
    if (glm::dot(c->normal, up) < 0.f) return std::nullopt;
    return c;
  }
  Contact c;
  c.distance = column.lowest - capsule.radius;
  if (c.distance > margin) return std::nullopt;
  c.depth = std::max(0.f, -column.lowest);
  c.normal = column.normal;
  c.point_on_segment = column.point;
  c.point_on_piece = column.point - column.normal * column.lowest;
  return c;
}

/// A terrain hit of a sweep that does not count: one met from under the triangle's plane (the
/// terrain is met from above and the side only, as terrain_contact_from), or one where the
/// motion leaves by the face normal and the capsule either touches at the start without
/// dipping below the plane, or dips below it by more than the tolerance while in the solid
/// (overlapping the triangle by more than the tolerance, or with a point under `terrain`'s
/// surface): that overlap is one with the solid below the surface, which a motion along the
/// surface or up does not deepen, whatever edge of the thin triangle the closest points lie on.
/// Past a crest the plane runs on above the far face: a capsule below the plane there is in
/// the open, and moving along the plane takes it into the solid. Terrain has no overhangs, so a
/// point under the surface is in the solid.
inline bool leaves_terrain(const gjk::ToiResult& r, const gjk::Triangle& tri, const gjk::Segment& segment, float radius,
                           const glm::vec3& motion, const SweepSettings& settings, float tolerance,
                           const Heightfield& terrain) {
  const glm::vec3 cross = glm::cross(tri.b - tri.a, tri.c - tri.a);
  const float length = glm::length(cross);
  if (!(length > 0.f) || !std::isfinite(length)) return false;
  if (glm::dot(r.normal, cross) < 0.f) return true;
  if (!settings.ignore_separating) return false;
  const glm::vec3 n = cross / length;
  if (glm::dot(n, motion) < -1e-4f * glm::length(motion)) return false;
  const float above_a = glm::dot(n, segment.a - tri.a), above_b = glm::dot(n, segment.b - tri.a);
  const float lowest = std::min(above_a, above_b) + r.t * glm::dot(n, motion) - radius;
  // Touching at the start without dipping: a motion along the plane or up keeps it so.
  if (!(lowest < -2.f * tolerance)) return r.t <= 0.f;
  // Whether the capsule is in the solid there: it overlaps the triangle itself (the surface)
  // by more than the tolerance, or its deepest point under the plane, or the bottom of either
  // end, is under the surface.
  const glm::vec3 a = segment.a + r.t * motion, b = segment.b + r.t * motion, down(0.f, radius, 0.f);
  if (gjk::closest_points({a, b}, {r.point, r.point}).distance < radius - 2.f * tolerance) return true;
  const auto under = [&](const glm::vec3& p) { return terrain.height_at(p.x, p.z) - p.y > tolerance; };
  return under((above_a <= above_b ? a : b) - radius * n) || under(a - down) || under(b - down);
}

/// The sweep's answer for a terrain triangle the segment starts below (TerrainColumn): a hit
/// at t = 0 along the face normal, unless the motion rises out (SweepSettings::ignore_separating).
/// False when the segment is not below the triangle: the time of impact decides then.
inline bool below_terrain(const gjk::Triangle& tri, const gjk::Segment& seg, const glm::vec3& motion,
                          const SweepSettings& settings, Candidate& hit) {
  const TerrainColumn column = terrain_column(tri, seg);
  if (!column.over || !(column.lowest < 0.f)) return false;
  hit.t = 0.f;
  hit.normal = column.normal;
  hit.point = column.point - column.normal * column.lowest;
  hit.target = HitTarget::terrain;
  if (settings.ignore_separating && glm::dot(column.normal, motion) >= -1e-4f * glm::length(motion))
    hit.target = HitTarget::none; // rising out: no hit
  return true;
}

/// The order of World::overlap_capsule's piece contacts: by piece, then by a mesh's triangle.
inline bool piece_order(const Contact& a, const Contact& b) {
  return a.piece.value != b.piece.value ? a.piece.value < b.piece.value : a.triangle < b.triangle;
}

/// Contact between a capsule and a convex shape when the gap is at most `margin`.
template <class Shape>
std::optional<Contact> contact(const gjk::Capsule& capsule, float margin, const Shape& shape) {
  return contact_from(capsule, margin, shape, gjk::distance(capsule.segment, shape));
}

/// Converts a distance along the motion (m) to a fraction of it; infinite for no motion, where
/// every hit is at t = 0 and all of them tie.
inline float fraction_of(float distance, const glm::vec3& motion) {
  const float length = glm::length(motion);
  return length > 0.f ? distance / length : std::numeric_limits<float>::infinity();
}

inline SweepHit to_sweep_hit(const std::optional<Candidate>& c) {
  SweepHit hit;
  if (!c) return hit;
  hit.hit = true;
  hit.fraction = std::clamp(c->t, 0.f, 1.f);
  hit.point = c->point;
  hit.normal = c->normal;
  hit.target = c->target;
  hit.piece = c->piece;
  hit.character = c->character;
  hit.started_overlapped = c->t <= 0.f;
  hit.triangle = c->triangle;
  return hit;
}

/// The motion of a ray origin + t * dir, t in [0, max_t]; false for input no ray query answers
/// (non-finite, negative max_t, or no motion).
/// Also shortens max_t as `shorten` does, which leaves the ray's answers (t along dir) as they
/// were; throws for a finite origin beyond the valid range.
inline bool ray_motion(const glm::vec3& origin, const glm::vec3& dir, float& max_t, glm::vec3& motion) {
  if (!finite(origin) || !finite(dir) || !(max_t >= 0.f) || !std::isfinite(max_t)) return false;
  if (!limits::in_range(origin))
    throw Error("World::raycast: origin " + limits::vec_text(origin) +
                " beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
  const double x = dir.x, y = dir.y, z = dir.z;
  const double length = std::sqrt(x * x + y * y + z * z) * max_t;
  if (length > k_max_reach) max_t = static_cast<float>(max_t * (k_max_reach / length));
  motion = dir * max_t;
  return finite(motion) && motion != glm::vec3(0.f);
}

/// Adds the terrain's exact ray hit, when there is a terrain on the filter's layers.
inline void add_terrain_ray(const Heightfield* terrain, std::uint32_t terrain_layers, const QueryFilter& filter,
                            const glm::vec3& origin, const glm::vec3& dir, float max_t, HitCollector& hits) {
  if (!terrain || (terrain_layers & filter.layer_mask) == 0u) return;
  const TerrainRayHit r = terrain->raycast(origin, dir, max_t);
  if (r.hit) hits.add({r.t / max_t, r.point, r.normal, HitTarget::terrain, PieceId{}, 0, {}});
}

/// The ray hit of the winning candidate of a ray origin + t * dir, t in [0, max_t], swept as a
/// point: a piece's hit point is on the ray; a terrain hit keeps the heightfield's exact point.
inline RayHit to_ray_hit(const std::optional<Candidate>& best, const glm::vec3& origin, const glm::vec3& dir,
                         float max_t) {
  RayHit out;
  if (!best) return out;
  out.hit = true;
  out.t = best->t * max_t;
  out.point = best->target == HitTarget::terrain ? best->point : origin + out.t * dir;
  out.normal = best->normal;
  out.target = best->target;
  out.piece = best->piece;
  out.character = best->character;
  out.triangle = best->triangle;
  return out;
}

} // namespace glide::detail
