#pragma once

// Support-point helpers shared by distance and intersection GJK: the first search direction
// and a support call that carries a hill-climbing hint for shapes that accept one.

#include <glide/gjk/shapes.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <concepts>

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

template <class A, class B>
glm::vec3 first_direction(const A& a, const B& b) {
  glm::vec3 ca, cb;
  if (center_hint(a, ca) && center_hint(b, cb)) {
    const glm::vec3 d = cb - ca;
    if (glm::dot(d, d) > 0.f && is_finite(d)) return d;
  }
  return {1.f, 0.f, 0.f};
}

/// Calls `shape.support(d)`, or the hinted `shape.support(d, hint)` where the shape has one
/// (ConvexHull's hill climbing), carrying the hint from one iteration to the next.
template <class S>
struct SupportCursor {
  const S& shape;
  glm::vec3 operator()(const glm::vec3& d) { return shape.support(d); }
};
template <class S>
requires requires(const S& s, const glm::vec3& d, int& hint) {
  { s.support(d, hint) } -> std::convertible_to<glm::vec3>;
}
struct SupportCursor<S> {
  const S& shape;
  int hint = -1;
  glm::vec3 last{0.f};
  glm::vec3 operator()(const glm::vec3& d) {
    if constexpr (requires { shape.uses_warm_hill_climbing(); }) {
      if (!shape.uses_warm_hill_climbing()) return shape.support(d); // small hull: the scan ignores hints
    }
    // Climbing from the last vertex pays only when the direction turned by less than 60°
    // (separated shapes); near contact and in overlap GJK's direction flips and a cold
    // start (from the hull's axis extremes) is shorter.
    const float dl = glm::dot(d, last);
    if (!(dl > 0.f && 4.f * dl * dl > glm::dot(d, d) * glm::dot(last, last))) hint = -1;
    last = d;
    return shape.support(d, hint);
  }
};

} // namespace glide::gjk::detail
