// A program that wants GJK only: built against an install found with COMPONENTS gjk, with
// tinyobjloader and nlohmann_json out of sight.
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/shapes.hpp>

#include <cmath>
#include <cstdio>

int main() {
  const glide::gjk::ConvexHull hull = glide::gjk::ConvexHull::box({1.f, 1.f, 1.f});
  const glide::gjk::Segment segment{{3.f, -5.f, 0.f}, {3.f, 5.f, 0.f}};
  const auto d = glide::gjk::distance(segment, hull);
  std::printf("glide gjk: segment 2 m from the cube's face, measured %.6f m\n", d.distance);
  return std::abs(d.distance - 2.f) < 1e-5f ? 0 : 1;
}
