#pragma once

// Boolean GJK: do two convex shapes overlap (touching counts)? Cheaper than distance():
// it stops as soon as a support point fails to pass the origin (a separating plane) or a
// tetrahedron encloses the origin, and never computes barycentric weights.

#include <glide/gjk/detail/builtin_shapes.hpp>
#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/shapes.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

namespace detail {

inline glm::vec3 toward_origin_from_line(const glm::vec3& ab, const glm::vec3& ao) {
  return glm::cross(glm::cross(ab, ao), ab);
}

/// The classic simplex update: `p[0..n-1]` with the newest point last. Keeps the feature
/// nearest the origin, sets the next search direction toward it and returns true when the
/// origin is enclosed. `d` comes back zero when the origin lies on the kept feature.
class BooleanSimplex {
public:
  glm::vec3 p[4];
  int n = 0;
  bool unconfirmed = false; ///< the enclosing tetrahedron failed the exact-sign check

  bool update(glm::vec3& d) {
    switch (n) {
    case 2:
      return line(d);
    case 3:
      return triangle(d);
    default:
      return tetrahedron(d);
    }
  }

private:
  bool line(glm::vec3& d) {
    const glm::vec3 a = p[1], b = p[0];
    const glm::vec3 ab = b - a, ao = -a;
    if (glm::dot(ab, ao) > 0.f) {
      d = toward_origin_from_line(ab, ao);
    } else {
      p[0] = a;
      n = 1;
      d = ao;
    }
    return false;
  }

  bool triangle(glm::vec3& d) {
    const glm::vec3 a = p[2], b = p[1], c = p[0];
    const glm::vec3 ab = b - a, ac = c - a, ao = -a;
    const glm::vec3 abc = glm::cross(ab, ac);
    if (!(glm::dot(abc, abc) > 0.f)) { // collinear: keep the newest edge
      p[0] = b;
      p[1] = a;
      n = 2;
      return line(d);
    }
    if (glm::dot(glm::cross(abc, ac), ao) > 0.f) {
      if (glm::dot(ac, ao) > 0.f) {
        p[0] = c;
        p[1] = a;
        n = 2;
        d = toward_origin_from_line(ac, ao);
        return false;
      }
      return edge_ab(d, a, b);
    }
    if (glm::dot(glm::cross(ab, abc), ao) > 0.f) return edge_ab(d, a, b);
    if (glm::dot(abc, ao) >= 0.f) {
      d = abc;
    } else { // wind the triangle so that its normal faces the origin
      p[0] = b;
      p[1] = c;
      d = -abc;
    }
    return false;
  }

  bool edge_ab(glm::vec3& d, const glm::vec3& a, const glm::vec3& b) {
    p[0] = b;
    p[1] = a;
    n = 2;
    return line(d);
  }

  bool tetrahedron(glm::vec3& d) {
    const glm::vec3 a = p[3], b = p[2], c = p[1], dd = p[0];
    const glm::vec3 ab = b - a, ac = c - a, ad = dd - a, ao = -a;
    glm::vec3 abc = glm::cross(ab, ac), acd = glm::cross(ac, ad), adb = glm::cross(ad, ab);
    const float volume = glm::dot(abc, ad);
    if (!(volume != 0.f)) { // flat: drop the newest point's opposite vertex and keep a triangle
      p[0] = c;
      p[1] = b;
      p[2] = a;
      n = 3;
      return triangle(d);
    }
    // Orient the three faces through `a` outward (away from the opposite vertex).
    if (volume > 0.f) {
      abc = -abc;
      acd = -acd;
      adb = -adb;
    }
    if (glm::dot(abc, ao) > 0.f) return keep_face(d, c, b, a);
    if (glm::dot(acd, ao) > 0.f) return keep_face(d, dd, c, a);
    if (glm::dot(adb, ao) > 0.f) return keep_face(d, b, dd, a);
    // Face normals of a needle or sliver tetrahedron can point the wrong way in float: the
    // verdict is confirmed with certain signs, and left to distance GJK if it fails.
    const F4 q[4] = {load(p[0]), load(p[1]), load(p[2]), load(p[3])};
    if (!tetrahedron_holds_origin(q)) unconfirmed = true;
    return true;
  }

  bool keep_face(glm::vec3& d, const glm::vec3& c, const glm::vec3& b, const glm::vec3& a) {
    p[0] = c;
    p[1] = b;
    p[2] = a;
    n = 3;
    return triangle(d);
  }
};

template <class A, class B>
bool gjk_intersect(const A& a, const B& b, int max_iterations) {
  PlaneAnswer known;
  const PlaneVerdict planes = planes_verdict<PlaneQuery::boolean>(a, b, known); // planes or balls
  if (planes != PlaneVerdict::unknown) return planes == PlaneVerdict::inside;
  SupportCursor<A> support_a{a};
  SupportCursor<B> support_b{b};
  BooleanSimplex simplex;
  glm::vec3 d = first_direction(a, b);
  glm::vec3 w = support_a(d) - support_b(-d);
  if (!is_finite(w)) return false;
  simplex.p[simplex.n++] = w;
  d = -w;
  for (int i = 0; i < max_iterations; ++i) {
    // The origin lies on the simplex (touching), or rounding zeroed the direction: distance
    // GJK decides, as it does for such cases.
    if (!(glm::dot(d, d) > 0.f)) break;
    w = support_a(d) - support_b(-d);
    if (!is_finite(w)) return false;
    if (glm::dot(w, d) < 0.f) return false; // w does not pass the origin: -d separates
    simplex.p[simplex.n++] = w;
    if (simplex.update(d)) {
      if (simplex.unconfirmed) break;
      return true;
    }
    if (!is_finite(d)) break;
  }
  return distance(a, b).overlapping(); // no certain verdict within the cap (rounding): ask distance GJK
}

} // namespace detail

/// Whether the two convex shapes overlap or touch. Shapes with a radius (Sphere, Capsule) are
/// decided by distance() on their cores; the rest by boolean GJK, which falls back to
/// distance() when rounding keeps it from a verdict within 64 iterations. Returns false for
/// non-finite input.
template <SupportMapping A, SupportMapping B>
bool intersect(const A& a, const B& b) {
  if (radius_of(a) != 0.f || radius_of(b) != 0.f) return distance(a, b).overlapping();
  return detail::gjk_intersect(core_of(a), core_of(b), 64);
}

// The built-in shapes' queries are compiled in the library (see detail/builtin_shapes.hpp).
#define GLIDE_GJK_INTERSECT_INSTANCE(A, B) template bool intersect<A, B>(const A&, const B&);
#define GLIDE_GJK_EXTERN_INTERSECT(A, B) extern GLIDE_GJK_INTERSECT_INSTANCE(A, B)
GLIDE_GJK_BUILTIN_PAIRS(GLIDE_GJK_EXTERN_INTERSECT)
#undef GLIDE_GJK_EXTERN_INTERSECT

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
