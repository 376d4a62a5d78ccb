#include <glide/gjk/segment_pair.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace glide::gjk {

namespace {

using D3 = glm::dvec3;

struct Closest {
  double s = 0.0, t = 0.0;
  D3 pa{0.0}, pb{0.0};
};

// Ericson, Real-Time Collision Detection 5.1.9, in double: clamp s, derive t, re-clamp.
Closest closest_double(const D3& p1, const D3& q1, const D3& p2, const D3& q2) {
  const D3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  double s = 0.0, t = 0.0;
  if (a <= 0.0 && e <= 0.0) {
    // both points
  } else if (a <= 0.0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = glm::dot(d1, r);
    if (e <= 0.0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = glm::dot(d1, d2);
      const double denom = a * e - b * b;
      // Parallel (or nearly): any s works; s = 0 keeps the answer stable.
      s = denom > 1e-12 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return {s, t, p1 + d1 * s, p2 + d2 * t};
}

D3 to_d(const glm::vec3& v) { return D3(v); }

} // namespace

SegmentPairClosest closest_points(const Segment& a, const Segment& b) {
  const Closest c = closest_double(to_d(a.a), to_d(a.b), to_d(b.a), to_d(b.b));
  SegmentPairClosest out;
  out.point_a = glm::vec3(c.pa);
  out.point_b = glm::vec3(c.pb);
  out.s = static_cast<float>(c.s);
  out.t = static_cast<float>(c.t);
  out.distance = static_cast<float>(glm::length(c.pa - c.pb));
  return out;
}

CapsulePairHit time_of_impact(const Capsule& moving, const glm::vec3& motion, const Capsule& still, float tolerance) {
  const D3 p1 = to_d(moving.segment.a), q1 = to_d(moving.segment.b);
  const D3 p2 = to_d(still.segment.a), q2 = to_d(still.segment.b);
  const D3 m = to_d(motion);
  const double reach = double(moving.radius) + double(still.radius);
  const double tol = double(tolerance);
  const auto at = [&](double t) { return closest_double(p1 + m * t, q1 + m * t, p2, q2); };
  // d/dt |pa - pb| has the sign of dot(motion, pa - pb) (envelope theorem).
  const auto closing = [&](const Closest& c) { return glm::dot(m, c.pa - c.pb) < 0.0; };

  CapsulePairHit out;
  const auto report = [&](double t, const Closest& c) {
    D3 n = c.pa - c.pb;
    const double len = glm::length(n);
    if (len > 0.0) {
      n /= len;
    } else {
      // Inner segments cross: any direction is as good; away from the other's centre first.
      const D3 centre_gap = 0.5 * (p1 + q1 + 2.0 * m * t) - 0.5 * (p2 + q2);
      const double g = glm::length(centre_gap);
      n = g > 0.0 ? centre_gap / g : (glm::length(m) > 0.0 ? -m / glm::length(m) : D3(0.0, 1.0, 0.0));
    }
    out.hit = true;
    out.t = static_cast<float>(t);
    out.normal = glm::vec3(n);
    out.point = glm::vec3(c.pb + n * double(still.radius));
    return out;
  };

  Closest c = at(0.0);
  double gap = glm::length(c.pa - c.pb) - reach;
  if (gap <= tol) return report(0.0, c);
  const double speed = glm::length(m);
  if (speed <= 0.0 || !closing(c)) return out;
  // Conservative advancement: the gap shrinks at most at |motion| per unit t, so each step
  // stays before the first contact.
  double t = 0.0;
  for (int i = 0; i < 64; ++i) {
    t += gap / speed;
    if (t > 1.0) return out;
    c = at(t);
    gap = glm::length(c.pa - c.pb) - reach;
    if (gap <= tol) return report(t, c);
    if (!closing(c)) return out; // past the nearest approach: the gap only grows now
  }
  // A grazing pass: bisect for the nearest approach, then for the contact before it.
  double lo = t, hi = 1.0;
  if (closing(at(1.0))) {
    lo = 1.0;
  } else {
    for (int i = 0; i < 40; ++i) {
      const double mid = 0.5 * (lo + hi);
      (closing(at(mid)) ? lo : hi) = mid;
    }
  }
  const Closest nearest = at(lo);
  if (glm::length(nearest.pa - nearest.pb) - reach > tol) return out;
  double before = t, after = lo;
  for (int i = 0; i < 40; ++i) {
    const double mid = 0.5 * (before + after);
    const Closest cm = at(mid);
    (glm::length(cm.pa - cm.pb) - reach > tol ? before : after) = mid;
  }
  return report(before, at(before));
}

} // namespace glide::gjk
