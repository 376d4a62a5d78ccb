// ConvexHull::box, wedge and cylinder, and the default (empty) hull.

#include "approx.hpp"

#include <glide/error.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/shapes.hpp>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using glide::gjk::ConvexHull;

namespace {

constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float k_inf = std::numeric_limits<float>::infinity();
const glm::vec3 k_axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

// The hull's extent along +axis and -axis must be exactly the expected values.
void check_extents(const ConvexHull& hull, const glm::vec3& plus, const glm::vec3& minus) {
  for (int a = 0; a < 3; ++a) {
    CHECK(glm::dot(hull.support(k_axes[a]), k_axes[a]) == plus[a]);
    CHECK(-glm::dot(hull.support(-k_axes[a]), k_axes[a]) == minus[a]);
  }
  CHECK(hull.bounds_max() == plus);
  CHECK(hull.bounds_min() == -minus);
}

std::string message_of(void (*build)()) {
  try {
    build();
  } catch (const glide::Error& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("ConvexHull::box has 8 corners in a fixed order and the exact half extents") {
  const glm::vec3 half{2.f, 0.35f, 7.25f};
  const ConvexHull box = ConvexHull::box(half);
  REQUIRE(box.vertex_count() == 8);
  CHECK(box.dimension() == 3);
  CHECK(box.faces().size() == 12);
  for (std::uint32_t i = 0; i < 8; ++i)
    CHECK(box.vertex(i) ==
          glm::vec3((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y, (i & 4) ? half.z : -half.z));
  check_extents(box, half, half);
}

TEST_CASE("ConvexHull::wedge is a ramp rising toward +x at atan(half.y / half.x)") {
  for (const float degrees : {5.f, 20.f, 45.f, 70.f}) {
    CAPTURE(degrees);
    const glm::vec3 half{1.5f, 1.5f * std::tan(glm::radians(degrees)), 5.f};
    const ConvexHull wedge = ConvexHull::wedge(half);
    REQUIRE(wedge.vertex_count() == 6);
    CHECK(wedge.dimension() == 3);
    CHECK(wedge.faces().size() == 8); // two triangles per rectangle, one per end
    check_extents(wedge, half, half);
    // The top is the only face facing up at all; its tilt from up is the slope angle.
    int top = 0;
    for (const glide::gjk::HullFace& f : wedge.faces()) {
      if (f.normal.y <= 1e-6f) continue;
      ++top;
      CHECK(std::acos(std::min(1.f, f.normal.y)) == doctest::Approx(glm::radians(degrees)).epsilon(1e-5));
      CHECK(f.normal.x < 0.f); // rising toward +x
      CHECK(std::abs(f.normal.z) < 1e-6f);
    }
    CHECK(top == 2);
    // The tall face is x = +half.x (the top edge on it); at x = -half.x only the low edge.
    CHECK(wedge.support({1, 1, 0}).x == half.x);
    CHECK(wedge.support({1, 1, 0}).y == half.y);
    CHECK(wedge.support({-1, 0, 0}).y == -half.y);
  }
}

TEST_CASE("ConvexHull::cylinder is a prism within the sagitta of gjk::Cylinder") {
  for (const int segments : {3, 4, 7, 16, 64, 256}) {
    CAPTURE(segments);
    const float radius = 0.8f, half_height = 1.3f;
    const ConvexHull hull = ConvexHull::cylinder(radius, half_height, segments);
    REQUIRE(hull.vertex_count() == static_cast<std::uint32_t>(2 * segments));
    CHECK(hull.dimension() == 3);
    CHECK(glm::dot(hull.support({0, 1, 0}), glm::vec3(0, 1, 0)) == half_height);
    CHECK(glm::dot(hull.support({0, -1, 0}), glm::vec3(0, -1, 0)) == half_height);
    CHECK(hull.support({1, 0, 0}).x == radius); // vertex 0 sits on +x
    if (segments % 4 == 0) check_extents(hull, {radius, half_height, radius}, {radius, half_height, radius});

    // Inscribed: never beyond the cylinder, short of it by at most the sagitta (scaled by the
    // direction's lateral part), plus float rounding of the vertices.
    const glide::gjk::Cylinder exact{half_height, radius};
    const double sagitta = radius * (1.0 - std::cos(std::numbers::pi / segments));
    std::mt19937 rng(7u + static_cast<unsigned>(segments));
    std::normal_distribution<float> g;
    for (int k = 0; k < 2000; ++k) {
      const glm::vec3 d = glm::normalize(glm::vec3(g(rng), g(rng), g(rng)));
      const float lateral = std::sqrt(d.x * d.x + d.z * d.z);
      const float reach = glm::dot(hull.support(d), d), bound = glm::dot(exact.support(d), d);
      CHECK(reach <= bound + 1e-6f);
      CHECK(bound - reach <= static_cast<float>(sagitta) * lateral + 1e-6f);
    }
  }
  // The bound is tight: halfway between two vertices the prism falls short by the sagitta.
  const ConvexHull square = ConvexHull::cylinder(1.f, 1.f, 4);
  const glm::vec3 diagonal = glm::normalize(glm::vec3(1, 0, 1));
  CHECK(glm::dot(square.support(diagonal), diagonal) == doctest::Approx(std::cos(std::numbers::pi / 4)));
}

TEST_CASE("the factories reject sizes that are not finite and positive, naming the parameter and value") {
  for (const float bad : {0.f, -2.f, k_nan, k_inf}) {
    CAPTURE(bad);
    for (int axis = 0; axis < 3; ++axis) {
      glm::vec3 half{1.f};
      half[axis] = bad;
      const std::string field = std::string("half_extents.") + "xyz"[axis];
      CHECK_THROWS_WITH_AS(ConvexHull::box(half), doctest::Contains(field.c_str()), glide::Error);
      CHECK_THROWS_WITH_AS(ConvexHull::wedge(half), doctest::Contains(field.c_str()), glide::Error);
    }
    CHECK_THROWS_WITH_AS(ConvexHull::cylinder(bad, 1.f), doctest::Contains("radius"), glide::Error);
    CHECK_THROWS_WITH_AS(ConvexHull::cylinder(1.f, bad), doctest::Contains("half_height"), glide::Error);
  }
  CHECK(message_of([] {
          (void)ConvexHull::box({1.f, -2.f, 1.f});
        }) == "ConvexHull::box: half_extents.y must be finite and > 0 (m), got -2.000000");
  CHECK(message_of([] { (void)ConvexHull::wedge({1.f, 1.f, k_inf}); }).find("half_extents.z") != std::string::npos);
  CHECK(message_of([] { (void)ConvexHull::cylinder(1.f, 1.f, 2); }) ==
        "ConvexHull::cylinder: segments must be in [3, 256], got 2");
  CHECK(message_of([] { (void)ConvexHull::cylinder(1.f, 1.f, 257); }).find("got 257") != std::string::npos);
  CHECK_NOTHROW(ConvexHull::cylinder(1e-3f, 1e-3f, 3));
}

TEST_CASE("a default-constructed ConvexHull is empty, answers the origin, and takes a real hull") {
  ConvexHull hull;
  CHECK(hull.empty());
  CHECK(hull.vertex_count() == 0);
  CHECK(hull.vertices().empty());
  CHECK(hull.faces().empty());
  CHECK(hull.dimension() == -1);
  CHECK(hull.is_flat());
  CHECK(hull.bounds_min() == glm::vec3(0.f));
  CHECK(hull.bounds_max() == glm::vec3(0.f));
  CHECK(hull.support({1, 2, 3}) == glm::vec3(0.f));
  int hint = -1;
  CHECK(hull.support({-1, 0, 0}, hint) == glm::vec3(0.f));
  const ConvexHull copy = hull;
  CHECK(copy.empty());

  hull = ConvexHull::box({1.f, 2.f, 3.f});
  CHECK_FALSE(hull.empty());
  CHECK(hull.vertex_count() == 8);
  CHECK(hull.support({1, 1, 1}) == glm::vec3(1, 2, 3));
  CHECK_FALSE(ConvexHull(std::vector<glm::vec3>{{5, 5, 5}}).empty()); // one point is a hull
}
