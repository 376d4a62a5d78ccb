// Randomized distance GJK against the double-precision oracle (gjk_oracle.hpp):
// segments against hulls of 4–256 random points, scales 1e-2 to 1e2, separations from
// 1e-5 to 10 times the scale, shallow and deep overlaps, a quarter of the cases ~1e4 from
// the world origin.
#include "approx.hpp"
#include "gjk_oracle.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace glide::gjk;
using glide::test::oracle_distance;
using glide::test::random_unit;

namespace {

struct Case {
  std::vector<glm::vec3> points;
  Segment segment;
  float scale = 1.f;
  bool far = false;
  bool deep_overlap = false; ///< the segment passes through an interior point of the hull
};

std::vector<glm::dvec3> segment_points(const Segment& s) { return {glm::dvec3(s.a), glm::dvec3(s.b)}; }

/// Moves the segment along the oracle normal so that its distance to the hull becomes `target`
/// (negative: that far past the hull's surface).
void place(Case& c, const std::vector<glm::dvec3>& hull, double target) {
  const glide::test::OracleResult r = oracle_distance(segment_points(c.segment), hull);
  if (r.distance <= 0.0) return;
  const glm::vec3 shift = glm::vec3(r.normal * (target - r.distance));
  c.segment.a += shift;
  c.segment.b += shift;
}

Case make_case(std::mt19937& rng, int index) {
  std::uniform_real_distribution<float> u01(0.f, 1.f);
  Case c;
  c.scale = std::pow(10.f, -2.f + 4.f * u01(rng));
  c.far = index % 4 == 0;
  static constexpr int sizes[] = {4, 5, 6, 8, 12, 16, 32, 64, 256};
  const int n = sizes[index % 9 < 6 ? rng() % 6 : 6 + rng() % 3];
  const glm::vec3 origin = c.far ? random_unit(rng) * 1e4f : random_unit(rng) * (c.scale * u01(rng));
  const glm::vec3 stretch{0.2f + u01(rng), 0.2f + u01(rng), 0.2f + u01(rng)};
  for (int i = 0; i < n; ++i) {
    // Half on the unit sphere (every point a hull vertex), half inside the ball.
    const glm::vec3 p = random_unit(rng) * (i % 2 ? 1.f : std::cbrt(u01(rng)));
    c.points.push_back(origin + p * stretch * c.scale);
  }
  const float length = rng() % 8 == 0 ? 0.f : c.scale * 2.f * u01(rng);
  const glm::vec3 axis = random_unit(rng) * (0.5f * length);
  const std::vector<glm::dvec3> hull = glide::test::to_double(c.points);
  const int kind = static_cast<int>(rng() % 8);
  if (kind == 0) { // deep overlap: through the centroid of the cloud, inside the hull
    glm::dvec3 centroid(0.0);
    for (const glm::dvec3& p : hull) centroid += p;
    const glm::vec3 center = glm::vec3(centroid / double(n));
    c.segment = {center - axis, center + axis};
    c.deep_overlap = true;
    return c;
  }
  const glm::vec3 center = origin + random_unit(rng) * (3.f * c.scale);
  c.segment = {center - axis, center + axis};
  if (kind == 1) {
    place(c, hull, -double(c.scale) * std::pow(10.0, -5.0 + 5.0 * u01(rng))); // shallow overlap
  } else {
    place(c, hull, double(c.scale) * std::pow(10.0, -5.0 + 6.0 * u01(rng))); // 1e-5 .. 10 × scale
  }
  return c;
}

struct Worst {
  double distance = 0, points = 0, consistency = 0;
};

} // namespace

TEST_CASE("distance matches the double-precision oracle on 20,000 random segment-hull pairs") {
  std::mt19937 rng(12345);
  const DistanceSettings settings;
  Worst near_worst, far_worst;
  int separated = 0, overlapping = 0, degenerate = 0;
  for (int index = 0; index < 20000; ++index) {
    const Case c = make_case(rng, index);
    const ConvexHull hull(c.points);
    const std::vector<glm::dvec3> hull_d = glide::test::to_double(c.points);
    const std::vector<glm::dvec3> seg_d = segment_points(c.segment);
    const glide::test::OracleResult truth = oracle_distance(seg_d, hull_d);
    const DistanceResult r = distance(c.segment, hull, settings);
    INFO("case ", index, " scale ", c.scale, " far ", c.far, " oracle ", truth.distance, " glide ", r.distance);

    // The oracle proves its own answer.
    REQUIRE(truth.certificate_gap <= 1e-9 * c.scale);

    // Accuracy: rounding of the Minkowski difference (|w| up to ~14 × scale) plus the
    // relative stopping tolerance. Points far from the world origin also carry the float
    // spacing of their coordinates (ulp(16384) = 2e-3 / 2 per component).
    const double bound = 2e-6 * c.scale + settings.relative_tolerance * truth.distance;
    const double point_bound = bound + (c.far ? 1.7e-3 : 0.0);
    REQUIRE(r.status != Status::invalid_input);
    CHECK(r.status != Status::max_iterations);
    degenerate += r.status == Status::degenerate;
    const double error = std::abs(double(r.distance) - truth.distance);
    CHECK(error <= bound);
    const double on_a = glide::test::point_segment_distance(glm::dvec3(r.point_a), seg_d[0], seg_d[1]);
    const std::vector<glm::dvec3> pb{glm::dvec3(r.point_b)};
    const double on_b = oracle_distance(pb, hull_d).distance;
    CHECK(on_a <= point_bound);
    CHECK(on_b <= point_bound);
    const double consistency =
        r.distance > 0.f ? std::abs(glm::length(glm::dvec3(r.point_a) - glm::dvec3(r.point_b)) - double(r.distance))
                         : 0.0;
    CHECK(consistency <= point_bound);
    if (r.distance > 0.f) CHECK_APPROX(glm::length(r.normal), 1.f, 1e-5f);

    // Verdicts are exact away from contact.
    if (truth.distance >= 1e-5 * c.scale) CHECK_FALSE(r.overlapping());
    // The centroid of a thin cloud far from the origin, rounded to float, may land just
    // outside it: a deep overlap is one the oracle confirms.
    const bool deep = c.deep_overlap && truth.distance == 0.0;
    if (deep) CHECK(r.overlapping());
    if (truth.distance >= 1e-5 * c.scale || deep) CHECK(intersect(c.segment, hull) == r.overlapping());
    separated += truth.distance >= 1e-5 * c.scale;
    overlapping += truth.distance == 0.0;

    Worst& worst = c.far ? far_worst : near_worst;
    worst.distance = std::max(worst.distance, error / c.scale);
    worst.points = std::max(worst.points, std::max(on_a, on_b) / c.scale);
    worst.consistency = std::max(worst.consistency, consistency / c.scale);
  }
  MESSAGE("near origin, worst / scale: distance ", near_worst.distance, " points ", near_worst.points, " |pa-pb| ",
          near_worst.consistency);
  MESSAGE("1e4 from origin, worst / scale: distance ", far_worst.distance, " points ", far_worst.points, " |pa-pb| ",
          far_worst.consistency);
  MESSAGE("separated ", separated, " overlapping ", overlapping, " degenerate status ", degenerate);
  CHECK(separated > 10000);
  CHECK(overlapping > 3000);
}
