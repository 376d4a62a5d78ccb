#include "approx.hpp"

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/error.hpp>

#include <limits>
#include <vector>

using glide::gjk::ConvexHull;

TEST_CASE("ConvexHull support picks the extreme point") {
  const std::vector<glm::vec3> cube{{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                    {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
  const ConvexHull hull(cube);
  CHECK_APPROX(hull.support({1, 2, -3}), glm::vec3(1, 1, -1), 0);
  CHECK_APPROX(hull.support({-1, -2, 3}), glm::vec3(-1, -1, 1), 0);
}

TEST_CASE("ConvexHull rejects empty and non-finite input with a message naming the value") {
  CHECK_THROWS_AS(ConvexHull(std::vector<glm::vec3>{}), glide::Error);
  const std::vector<glm::vec3> bad{{0, 0, 0}, {1, std::numeric_limits<float>::quiet_NaN(), 0}};
  CHECK_THROWS_WITH_AS(ConvexHull{bad}, doctest::Contains("point 1"), glide::Error);
}
