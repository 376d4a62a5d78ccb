#pragma once

// Penetration depth of two overlapping convex shapes: the shortest translation of A that
// separates it from B. Cores overlapping: EPA on the Minkowski difference of the cores
// (detail/epa.hpp) plus both radii. Cores apart but closer than the radii: the radii minus
// the GJK distance, along the distance normal. Farther apart: not overlapping.

#include <glide/gjk/detail/builtin_shapes.hpp>
#include <glide/gjk/detail/epa.hpp>
#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/gjk/status.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <cmath>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

struct PenetrationSettings {
  int max_iterations = 128;  ///< EPA expansions before stopping with Status::max_iterations (count, >= 1)
  float tolerance = 1e-5f;   ///< EPA stops when the depth's upper and lower bounds are this close (m, > 0)
  DistanceSettings distance; ///< the GJK query that tells overlap and handles rounded shapes
};

struct PenetrationResult {
  bool overlapping = false;  ///< the shapes (with their radii) overlap; false: the rest is depth 0
  float depth = 0.f;         ///< length of the shortest separating translation of A (m, >= 0)
  glm::vec3 normal{0, 1, 0}; ///< unit; translating A by depth * normal separates: from B toward A
  glm::vec3 point_a{0.f};    ///< deepest point of A inside B (m)
  glm::vec3 point_b{0.f};    ///< point of B's surface that point_a reaches after the translation (m)
  int iterations = 0;        ///< EPA expansions (0 when EPA did not run)
  Status status = Status::converged;
};

template <SupportMapping A, SupportMapping B>
PenetrationResult penetration(const A& a, const B& b, const PenetrationSettings& settings = {}) {
  PenetrationResult out;
  const float ra = radius_of(a), rb = radius_of(b);
  if (!(settings.max_iterations >= 1) || !(settings.tolerance > 0.f) || !std::isfinite(settings.tolerance) ||
      !std::isfinite(ra) || !std::isfinite(rb) || ra < 0.f || rb < 0.f) {
    out.status = Status::invalid_input;
    return out;
  }
  const auto& ca = core_of(a);
  const auto& cb = core_of(b);
  const DistanceResult d = distance(ca, cb, settings.distance);
  if (d.status == Status::invalid_input) {
    out.status = Status::invalid_input;
    return out;
  }
  const float radii = ra + rb;
  if (!d.overlapping()) {
    out.status = d.status;
    if (!(d.distance < radii)) return out;
    // Rounded shapes whose cores are apart: the radii overlap along the distance normal.
    out.overlapping = true;
    out.depth = radii - d.distance;
    out.normal = d.normal;
    out.point_a = d.point_a - ra * d.normal;
    out.point_b = d.point_b + rb * d.normal;
    return out;
  }

  const detail::EpaResult epa =
      detail::run_epa(ca, cb, 0.0, settings.max_iterations, static_cast<double>(settings.tolerance));
  out.status = epa.status;
  out.iterations = epa.iterations;
  if (epa.status == Status::invalid_input) return out;
  out.overlapping = true;
  const glm::vec3 normal(-epa.face_normal);
  out.normal =
      detail::is_finite(normal) && glm::length(normal) > 0.5f ? detail::normalized(normal) : glm::vec3(0, 1, 0);
  out.depth = static_cast<float>(epa.depth) + radii;
  out.point_a = epa.point_a - ra * out.normal;
  out.point_b = epa.point_b + rb * out.normal;
  return out;
}

// The built-in shapes' queries are compiled in the library (see detail/builtin_shapes.hpp).
#define GLIDE_GJK_PENETRATION_INSTANCE(A, B)                                                                           \
  template PenetrationResult penetration<A, B>(const A&, const B&, const PenetrationSettings&);
#define GLIDE_GJK_EXTERN_PENETRATION(A, B) extern GLIDE_GJK_PENETRATION_INSTANCE(A, B)
GLIDE_GJK_BUILTIN_PAIRS(GLIDE_GJK_EXTERN_PENETRATION)
#undef GLIDE_GJK_EXTERN_PENETRATION

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
