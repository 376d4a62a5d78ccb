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

// First entry, t in [0, 1], of the ray t * m (starting outside) into a ball of radius r around c.
// The smaller root in the cancellation-free form; none if the ray does not close in.
double ball_entry(const D3& m, double mm, const D3& c, double r2) {
  const double b = glm::dot(m, c), cc = glm::dot(c, c) - r2;
  if (b <= 0.0) return 2.0;
  const double disc = b * b - mm * cc;
  if (disc < 0.0) return 2.0;
  return cc / (b + std::sqrt(disc));
}

// First entry of t * m into the side of the cylinder of radius r around the segment from e0
// along e (lengthwise within it); the ends are the balls at e0 and e0 + e.
double cylinder_entry(const D3& m, const D3& e0, const D3& e, double r2) {
  const double ee = glm::dot(e, e);
  if (ee <= 0.0) return 2.0;
  // |(t m - e0) x e|^2 = r^2 |e|^2
  const D3 a = glm::cross(m, e), b = glm::cross(-e0, e);
  const double aa = glm::dot(a, a), closing = -glm::dot(a, b), cc = glm::dot(b, b) - r2 * ee;
  if (closing <= 0.0 || cc <= 0.0) return 2.0; // receding, or already within its radius sideways
  const double disc = closing * closing - aa * cc;
  if (disc < 0.0) return 2.0;
  const double t = cc / (closing + std::sqrt(disc));
  const double along = glm::dot(m * t - e0, e);
  return along >= 0.0 && along <= ee ? t : 2.0;
}

// The first t in [0, 1] at which the gap of the two segments, `moving` (p1 q1) translated by
// t * m and the still one (p2 q2), falls to r: the first entry of the point t * m into the set
// {still point - moving point} (a parallelogram) grown by r. The grown parallelogram is the union
// of balls at its corners, cylinders on its edges and a slab over its face, so the first entry is
// the earliest entry into any of them. 2 when there is none. The start must be farther than r.
double swept_entry(const D3& p1, const D3& q1, const D3& p2, const D3& q2, const D3& m, double r) {
  const D3 d1 = q1 - p1, d2 = q2 - p2, v = p2 - p1; // differences of floats: exact at any offset
  const double r2 = r * r, mm = glm::dot(m, m);
  const D3 n = glm::cross(d2, d1);
  const double nn = glm::dot(n, n);
  if (nn <= 0.0) {
    // Parallel (upright characters): the set is a segment, the ends the outermost corners.
    const D3 dir = glm::dot(d2, d2) > 0.0 ? d2 : -d1;
    const double k = glm::dot(d1, dir);
    const D3 low = k > 0.0 ? v - d1 : v, high = (k > 0.0 ? v : v - d1) + d2;
    return std::min({ball_entry(m, mm, low, r2), ball_entry(m, mm, high, r2), cylinder_entry(m, low, high - low, r2)});
  }
  const D3 corner[4] = {v, v + d2, v - d1, v + d2 - d1};
  double t = 2.0;
  for (const D3& c : corner) t = std::min(t, ball_entry(m, mm, c, r2));
  t = std::min(t, cylinder_entry(m, corner[0], d2, r2));
  t = std::min(t, cylinder_entry(m, corner[2], d2, r2));
  t = std::min(t, cylinder_entry(m, corner[0], -d1, r2));
  t = std::min(t, cylinder_entry(m, corner[1], -d1, r2));
  {
    // The faces of the slab, r above and below the parallelogram, within its edges.
    const double mn = glm::dot(m, n), vn = glm::dot(v, n), rn = r * std::sqrt(nn);
    if (mn != 0.0 && std::abs(vn) > rn) {
      const double ts = (vn - std::copysign(rn, vn)) / mn;
      if (ts >= 0.0 && ts < t) {
        // Coordinates of the point in the plane: x = v + u d2 - s d1.
        const D3 x = m * ts - v;
        const double u = glm::dot(glm::cross(x, d1), n) / nn, s = glm::dot(glm::cross(x, d2), n) / nn;
        if (u >= 0.0 && u <= 1.0 && s >= 0.0 && s <= 1.0) t = ts;
      }
    }
  }
  return t;
}

// Whether both segments lie exactly along y (characters standing upright with the default up):
// their distance then splits into a level one and one along y.
bool upright(const Segment& a, const Segment& b) {
  return (int{a.a.x == a.b.x} & int{a.a.z == a.b.z} & int{b.a.x == b.b.x} & int{b.a.z == b.b.z}) != 0;
}

// closest_double for two segments along y (p1 q1 and p2 q2 level with each other at each end):
// the height on the second nearest p1's, then the height on the first nearest that, the pair
// closest_double picks for parallel segments. The parameters are left at 0.
Closest closest_upright(const D3& p1, const D3& q1, const D3& p2, const D3& q2) {
  const double on_b = std::clamp(p1.y, std::min(p2.y, q2.y), std::max(p2.y, q2.y));
  const double on_a = std::clamp(on_b, std::min(p1.y, q1.y), std::max(p1.y, q1.y));
  return {0.0, 0.0, D3(p1.x, on_a, p1.z), D3(p2.x, on_b, p2.z)};
}

// The closest points of the two segments: closest_upright's when `level` (both along y).
Closest closest_of(bool level, const D3& p1, const D3& q1, const D3& p2, const D3& q2) {
  return level ? closest_upright(p1, q1, p2, q2) : closest_double(p1, q1, p2, q2);
}

// swept_entry for two segments along y: the set {still point - moving point} is a segment along
// y, so the cylinder around it is a circle seen from above.
double swept_entry_upright(const D3& p1, const D3& q1, const D3& p2, const D3& q2, const D3& m, double r) {
  const double r2 = r * r, mm = glm::dot(m, m);
  const double x = p2.x - p1.x, z = p2.z - p1.z; // differences of floats: exact at any offset
  const double low = std::min(p2.y, q2.y) - std::max(p1.y, q1.y), high = std::max(p2.y, q2.y) - std::min(p1.y, q1.y);
  double t = std::min(ball_entry(m, mm, D3(x, low, z), r2), ball_entry(m, mm, D3(x, high, z), r2));
  // The side: |t * level(m) - (x, z)| = r, where t * m.y lies between low and high.
  const double level = m.x * m.x + m.z * m.z, closing = m.x * x + m.z * z, cc = x * x + z * z - r2;
  if (closing > 0.0 && cc > 0.0) {
    const double disc = closing * closing - level * cc;
    if (disc >= 0.0) {
      const double side = cc / (closing + std::sqrt(disc));
      const double along = m.y * side;
      if (along >= low && along <= high) t = std::min(t, side);
    }
  }
  return t;
}

} // namespace

SegmentPairClosest closest_points(const Segment& a, const Segment& b) {
  const bool level = upright(a, b);
  const Closest c = closest_of(level, to_d(a.a), to_d(a.b), to_d(b.a), to_d(b.b));
  SegmentPairClosest out;
  out.point_a = glm::vec3(c.pa);
  out.point_b = glm::vec3(c.pb);
  if (level) {
    // closest_upright leaves the parameters out: a time of impact needs only the points. Most
    // often the first's point is its first end (s = 0), as where the segments overlap in height.
    const auto along = [](double y, float from, float to) {
      return y != from ? (y - from) / (double(to) - from) : 0.0; // y == from where from == to
    };
    out.s = static_cast<float>(along(c.pa.y, a.a.y, a.b.y));
    out.t = static_cast<float>(along(c.pb.y, b.a.y, b.b.y));
  } else {
    out.s = static_cast<float>(c.s);
    out.t = static_cast<float>(c.t);
  }
  const D3 gap = c.pa - c.pb;
  const double distance = glm::length(gap);
  out.distance = static_cast<float>(distance);
  if (distance > 0.0) out.normal = glm::vec3(gap / distance);
  return out;
}

namespace {

// One capsule pair along a translation, in double.
struct Pair {
  D3 p1, q1, p2, q2, m;
  double reach, tol, still_radius;
  bool level; ///< both segments along y: closest_upright and swept_entry_upright answer

  Closest at(double t) const { return closest_of(level, p1 + m * t, q1 + m * t, p2, q2); }
  double gap(const Closest& c) const { return glm::length(c.pa - c.pb) - reach; }
  // d/dt |pa - pb| has the sign of dot(motion, pa - pb) (envelope theorem).
  bool closing(const Closest& c) const { return glm::dot(m, c.pa - c.pb) < 0.0; }

  // Inner segments crossing at t: any direction out is as good; away from the other's centre,
  // but across the segments where they lie on one line (the shortest way out), else back
  // along the motion.
  D3 crossing_normal(double t) const {
    const D3 along = glm::dot(q1 - p1, q1 - p1) > 0.0 ? q1 - p1 : q2 - p2; // a sphere's: the other's
    D3 away = 0.5 * (p1 + q1 + 2.0 * m * t) - 0.5 * (p2 + q2);
    // Parallel to within 1e-3 (segments rounded to float far out turn by up to ~1e-4).
    if (glm::length(glm::cross(q1 - p1, q2 - p2)) <= 1e-3 * glm::length(q1 - p1) * glm::length(q2 - p2)) {
      const double a2 = glm::dot(along, along);
      if (a2 > 0.0) away -= along * (glm::dot(away, along) / a2);
      if (!(glm::length(away) > 1e-9)) {
        away = a2 > 0.0 ? glm::cross(along, std::abs(along.x) < 0.9 * std::sqrt(a2) ? D3(1, 0, 0) : D3(0, 0, 1)) : -m;
        if (a2 > 0.0 && glm::dot(away, m) > 0.0) away = -away;
      }
    }
    const double g = glm::length(away);
    if (g > 0.0) return away / g;
    return glm::length(m) > 0.0 ? -m / glm::length(m) : D3(0.0, 1.0, 0.0);
  }

  CapsulePairHit report(double t, const Closest& c) const {
    D3 n = c.pa - c.pb;
    const double len = glm::length(n);
    if (len > 0.0) {
      n /= len;
    } else {
      n = crossing_normal(t);
    }
    CapsulePairHit out;
    out.hit = true;
    out.crossing = len <= 0.0;
    out.t = static_cast<float>(t);
    out.normal = glm::vec3(n);
    out.point = glm::vec3(c.pb + n * still_radius);
    return out;
  }

  // Conservative advancement from t (gap `gap` there, closing): the gap shrinks at most at
  // |motion| per unit t, so each step stays before the first contact.
  CapsulePairHit advance(double t, double gap, double speed) const {
    Closest c;
    for (int i = 0; i < 64; ++i) {
      t += gap / speed;
      if (t > 1.0) return {};
      c = at(t);
      gap = this->gap(c);
      if (gap <= tol) return report(t, c);
      if (!closing(c)) return {}; // past the nearest approach: the gap only grows now
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
    if (this->gap(at(lo)) > tol) return {};
    double before = t, after = lo;
    for (int i = 0; i < 40; ++i) {
      const double mid = 0.5 * (before + after);
      (this->gap(at(mid)) > tol ? before : after) = mid;
    }
    return report(before, at(before));
  }

  // Apart and closing at t = 0.
  [[gnu::noinline]] CapsulePairHit approach(double gap0, double speed) const {
    // The closed form: the first time the gap is the tolerance. Checked against the segment
    // distance there; where rounding leaves it off (nearly parallel segments), advancement.
    const double entry =
        level ? swept_entry_upright(p1, q1, p2, q2, m, reach + tol) : swept_entry(p1, q1, p2, q2, m, reach + tol);
    if (entry > 1.0) return {};
    const Closest c = at(entry);
    const double gap_entry = gap(c);
    if (std::abs(gap_entry - tol) > 0.01 * tol) return advance(0.0, gap0, speed);
    // One advancement step on: still never past the first contact, and for a direct approach
    // the contact itself.
    const double next = entry + gap_entry / speed;
    if (next <= 1.0) {
      const Closest cn = at(next);
      if (gap(cn) <= tol) return report(next, cn);
    }
    return report(entry, c);
  }
};

} // namespace

CapsulePairHit time_of_impact(const Capsule& moving, const glm::vec3& motion, const Capsule& still, float tolerance) {
  const Pair pair{to_d(moving.segment.a), to_d(moving.segment.b), to_d(still.segment.a),
                  to_d(still.segment.b),  to_d(motion),           double(moving.radius) + double(still.radius),
                  double(tolerance),      double(still.radius),   upright(moving.segment, still.segment)};
  const Closest c = pair.at(0.0);
  const double gap = pair.gap(c);
  if (gap <= pair.tol) return pair.report(0.0, c);
  const double speed = glm::length(pair.m);
  if (speed <= 0.0 || !pair.closing(c)) return {};
  // The gap shrinks by at most the motion's length: a pair farther apart than that (with a
  // margin far above the rounding of the gaps, and over the 1 % that approach accepts) cannot
  // meet. Most pairs a crowd's sweeps pass the bounds test for are such.
  if (gap - speed > 1.02 * pair.tol) return {};
  return pair.approach(gap, speed);
}

} // namespace glide::gjk
