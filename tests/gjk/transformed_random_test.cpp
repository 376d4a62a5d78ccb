// Transformed<S> against the double-precision oracle on the placed points: GJK rotates
// directions and support points itself (on vectors, around the inner shape's cursor), so a
// wrong rotation, a swapped inverse or a lost translation shows here as a wrong distance or a
// point off the shape.
#include "approx.hpp"
#include "gjk_oracle.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <random>
#include <vector>

using namespace glide::gjk;
using glide::test::oracle_distance;
using glide::test::random_unit;

namespace {

// The placed points in double, from the float quaternion and translation as given.
std::vector<glm::dvec3> placed(const std::vector<glm::vec3>& local, const Transform& t) {
  const glm::dquat q(t.rotation);
  std::vector<glm::dvec3> world;
  for (const glm::vec3& p : local) world.push_back(q * glm::dvec3(p) + glm::dvec3(t.translation));
  return world;
}

} // namespace

TEST_CASE("Transformed hulls and boxes match the oracle on their placed points, 4,000 random pairs") {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> u01(0.f, 1.f);
  std::normal_distribution<float> g;
  int separated = 0, overlapping = 0;
  for (int index = 0; index < 4000; ++index) {
    const float scale = std::pow(10.f, -2.f + 4.f * u01(rng));
    std::vector<glm::vec3> local;
    const bool box = index % 4 == 0;
    const glm::vec3 half{scale * (0.2f + u01(rng)), scale * (0.2f + u01(rng)), scale * (0.2f + u01(rng))};
    if (box) {
      for (int i = 0; i < 8; ++i)
        local.push_back({(i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y, (i & 4) ? half.z : -half.z});
    } else {
      const int n = 4 + static_cast<int>(rng() % 61);
      for (int i = 0; i < n; ++i) local.push_back(random_unit(rng) * (scale * (0.3f + u01(rng))));
    }
    Transform t;
    t.rotation = glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
    t.translation = random_unit(rng) * (10.f * scale * u01(rng));
    const std::vector<glm::dvec3> world = placed(local, t);

    // A segment near the shape: around it, or through its centre (overlap).
    const glm::vec3 axis = random_unit(rng) * (scale * u01(rng));
    const glm::vec3 center = t.translation + (index % 5 == 0 ? glm::vec3(0.f) : random_unit(rng) * (2.5f * scale));
    const Segment segment{center - axis, center + axis};
    const std::vector<glm::dvec3> seg_d{glm::dvec3(segment.a), glm::dvec3(segment.b)};
    const glide::test::OracleResult truth = oracle_distance(seg_d, world);

    const DistanceSettings settings;
    const DistanceResult r = box ? distance(segment, Transformed{Box{half}, t}, settings)
                                 : distance(segment, Transformed{ConvexHull(local), t}, settings);
    INFO("case ", index, " scale ", scale, " box ", box, " oracle ", truth.distance, " glide ", r.distance);
    // The bound of distance_random_test plus the rounding of placing points up to 11 × scale
    // from the origin (a few float ulps of that).
    const double bound = 4e-6 * scale + settings.relative_tolerance * truth.distance;
    REQUIRE(r.status != Status::invalid_input);
    CHECK(std::abs(double(r.distance) - truth.distance) <= bound);
    const std::vector<glm::dvec3> pb{glm::dvec3(r.point_b)};
    CHECK(oracle_distance(pb, world).distance <= bound);
    CHECK(glide::test::point_segment_distance(glm::dvec3(r.point_a), seg_d[0], seg_d[1]) <= bound);
    if (truth.distance >= 1e-5 * scale) {
      const bool hit =
          box ? intersect(segment, Transformed{Box{half}, t}) : intersect(segment, Transformed{ConvexHull(local), t});
      CHECK_FALSE(r.overlapping());
      CHECK_FALSE(hit);
    }
    separated += truth.distance >= 1e-5 * scale;
    overlapping += truth.distance == 0.0;
  }
  // Both kinds are well represented.
  CHECK(separated > 2000);
  CHECK(overlapping > 600);
}
