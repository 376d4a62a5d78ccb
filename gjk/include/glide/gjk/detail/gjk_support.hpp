#pragma once

// Support-point helpers shared by distance and intersection GJK: the first search direction
// and a support call that carries a hill-climbing hint for shapes that accept one.

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/select.hpp>
#include <glide/gjk/detail/vec4.hpp>
#include <glide/gjk/shapes.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <concepts>
#include <cstdint>
#include <limits>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

/// True when no component is NaN or ±Inf (x − x is NaN exactly for those).
inline bool is_finite(const glm::vec3& p) { return (p.x - p.x) + (p.y - p.y) + (p.z - p.z) == 0.f; }

/// A point near the middle of a shape, when it is cheap to know: the first search direction
/// points from A's centre toward B's, which starts GJK next to the answer and saves about
/// one iteration over an arbitrary axis.
template <class S>
bool center_hint(const S& s, glm::vec3& c) {
  if constexpr (requires { s.bounds_min() + s.bounds_max(); }) { // ConvexHull and other bounded shapes
    c = 0.5f * (s.bounds_min() + s.bounds_max());
    return true;
  } else {
    return false;
  }
}
inline bool center_hint(const Point& s, glm::vec3& c) { return c = s.position, true; }
inline bool center_hint(const Segment& s, glm::vec3& c) { return c = 0.5f * (s.a + s.b), true; }
inline bool center_hint(const Triangle& s, glm::vec3& c) { return c = (s.a + s.b + s.c) * (1.f / 3.f), true; }
inline bool center_hint(const Box&, glm::vec3& c) { return c = glm::vec3(0.f), true; }
inline bool center_hint(const Cylinder&, glm::vec3& c) { return c = glm::vec3(0.f), true; }
inline bool center_hint(const Cone&, glm::vec3& c) { return c = glm::vec3(0.f), true; }
template <class S>
bool center_hint(const Transformed<S>& s, glm::vec3& c) {
  if (!center_hint(s.shape, c)) return false;
  c = s.transform.apply(c);
  return true;
}
template <class S>
bool center_hint(const Swept<S>& s, glm::vec3& c) {
  if (!center_hint(s.shape, c)) return false;
  c += 0.5f * s.motion;
  return true;
}

/// The point of A nearest to c where that is cheap (a segment: the clamped projection),
/// else A's centre: pointing from it to B's centre starts GJK nearer the answer.
template <class S>
bool center_hint_toward(const S& s, const glm::vec3&, glm::vec3& c) {
  return center_hint(s, c);
}
inline bool center_hint_toward(const Segment& s, const glm::vec3& target, glm::vec3& c) {
  const glm::vec3 d = s.b - s.a;
  const float dd = glm::dot(d, d);
  float t = dd > 0.f ? glm::dot(target - s.a, d) / dd : 0.f;
  c = s.a + clamp01(t) * d; // which end is nearer is random: selects, not branches

  return true;
}

template <class A, class B>
[[gnu::always_inline]] inline glm::vec3 first_direction(const A& a, const B& b) {
  glm::vec3 ca, cb;
  if (center_hint(b, cb) && center_hint_toward(a, cb, ca)) {
    const glm::vec3 d = cb - ca;
    if (glm::dot(d, d) > 0.f && is_finite(d)) return d;
  }
  return {1.f, 0.f, 0.f};
}

/// Support calls as GJK makes them. `index` is the vertex last returned by an IndexedSupport
/// shape (0 for others), recorded in the simplex for warm starts. A shape that hill-climbs
/// from a hint (ConvexHull) gets the previous vertex as its hint when that helps.
template <class S>
struct SupportCursor {
  const S& shape;
  std::uint32_t index = 0;
  glm::vec3 operator()(const glm::vec3& d) { return shape.support(d); }
};

/// Climbing from the last vertex pays only when the direction turned by less than 60°
/// (separated shapes); near contact and in overlap GJK's direction flips and a cold start
/// (from the hull's table of 26 direction extremes) is shorter. Updates `last`.
inline bool hint_helps(const glm::vec3& d, glm::vec3& last) {
  const float dl = glm::dot(d, last);
  const bool helps = dl > 0.f && 4.f * dl * dl > glm::dot(d, d) * glm::dot(last, last);
  last = d;
  return helps;
}

template <IndexedSupport S>
struct SupportCursor<S> {
  const S& shape;
  std::uint32_t index = 0;
  glm::vec3 last{0.f};
  [[gnu::always_inline]] std::uint32_t pick(const glm::vec3& d) {
    if constexpr (requires(std::uint32_t start) {
                    { shape.support_index(d, start) } -> std::convertible_to<std::uint32_t>;
                    shape.uses_warm_hill_climbing();
                  }) {
      if (shape.uses_warm_hill_climbing()) {
        const bool warm = hint_helps(d, last) && index < shape.vertex_count();
        return index = shape.support_index(d, warm ? index : std::numeric_limits<std::uint32_t>::max());
      }
    }
    if constexpr (requires { shape.support_index_inline(d); }) {
      return index = shape.support_index_inline(d);
    } else {
      return index = shape.support_index(d);
    }
  }
  [[gnu::always_inline]] glm::vec3 operator()(const glm::vec3& d) { return shape.vertex(pick(d)); }
  /// Vertex i (< vertex_count()) in GJK's vector form, for warm starts by index.
  [[gnu::always_inline]] F4 vertex4(std::uint32_t i) const {
    if constexpr (requires { shape.vertex4(i); }) {
      return shape.vertex4(i);
    } else {
      return load(shape.vertex(i));
    }
  }
  /// Shapes that keep their vertices padded to four floats (ConvexHull) load one in one step.
  [[gnu::always_inline]] F4 operator()(F4 d) requires requires(std::uint32_t i) {
    { shape.vertex4(i) } -> std::same_as<F4>;
  }
  {
    if constexpr (requires { shape.scan_index(d); }) {
      if (shape.always_scans()) return shape.vertex4(index = shape.scan_index(d));
    }
    return shape.vertex4(pick(to_vec3(d)));
  }
};

/// A segment, the controller's capsule core and the most common shape A: its ends and its
/// direction are loaded once per query instead of at every support call.
template <>
struct SupportCursor<Segment> {
  const Segment& shape;
  std::uint32_t index = 0;
  F4 a = load(shape.a), b = load(shape.b), ab = b - a;
  glm::vec3 operator()(const glm::vec3& d) {
    index = shape.support_index(d);
    return shape.vertex(index);
  }
  /// End i (0: a, otherwise b) from the registers, without a branch.
  F4 vertex4(std::uint32_t i) const { return select(i != 0u, b, a); }
  /// The same choice as Segment::support (d·(b − a) > 0 picks b, rounded alike).
  F4 operator()(F4 d) {
    const bool to_b = dot(d, ab) > 0.f;
    index = to_b ? 1u : 0u;
    return select(to_b, b, a); // which end is random between queries: no branch
  }
};

/// q·v·q⁻¹ for the unit quaternion with vector part `qv` and scalar part `qw` (splat), the
/// products and sums of glm's quat * vec3 in its order, so the result is bit-identical.
inline F4 rotate(F4 qv, F4 qw, F4 v) {
  const F4 uv = cross(qv, v);
  const F4 uuv = cross(qv, uv);
  return v + (uv * qw + uuv) * splat(2.f);
}

/// Support along d in GJK's vector form; cursors without an F4 form go through glm.
template <class Cursor>
[[gnu::always_inline]] inline F4 support4(Cursor& cursor, F4 d) {
  if constexpr (requires {
                  { cursor(d) } -> std::same_as<F4>;
                }) {
    return cursor(d);
  } else {
    return load(cursor(to_vec3(d)));
  }
}

/// A placed shape: the direction is turned into the shape's frame and the support point
/// back on vectors, around the inner shape's own cursor (which keeps its warm hill climbing
/// and vector-form vertices). Through glm, the two rotations were most of the support's cost.
template <class S>
struct SupportCursor<Transformed<S>> {
  const Transformed<S>& shape;
  std::uint32_t index = 0; // the inner shape's index means nothing to a caller
  SupportCursor<S> inner{shape.shape};
  F4 to_world = load({shape.transform.rotation.x, shape.transform.rotation.y, shape.transform.rotation.z});
  F4 to_local = -to_world; // the conjugate's vector part
  F4 scalar = splat(shape.transform.rotation.w);
  F4 translation = load(shape.transform.translation);
  glm::vec3 operator()(const glm::vec3& d) { return to_vec3((*this)(load(d))); }
  [[gnu::always_inline]] F4 operator()(F4 d) {
    return rotate(to_world, scalar, support4(inner, rotate(to_local, scalar, d))) + translation;
  }
};

/// Other shapes with a hinted support(d, hint).
template <class S>
requires(!IndexedSupport<S>) && requires(const S& s, const glm::vec3& d, int& hint) {
  { s.support(d, hint) } -> std::convertible_to<glm::vec3>;
}
struct SupportCursor<S> {
  const S& shape;
  std::uint32_t index = 0;
  int hint = -1;
  glm::vec3 last{0.f};
  glm::vec3 operator()(const glm::vec3& d) {
    if (!hint_helps(d, last)) hint = -1;
    return shape.support(d, hint);
  }
};

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
