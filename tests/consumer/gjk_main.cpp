// A program that wants GJK only: built against an install found with COMPONENTS gjk, with
// tinyobjloader and nlohmann_json out of sight.
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/shapes.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  std::vector<glm::vec3> cube;
  for (int i = 0; i < 8; ++i) cube.push_back({(i & 1) ? 1.f : -1.f, (i & 2) ? 1.f : -1.f, (i & 4) ? 1.f : -1.f});
  const glide::gjk::ConvexHull hull(cube);
  const glide::gjk::Segment segment{{3.f, -5.f, 0.f}, {3.f, 5.f, 0.f}};
  const auto d = glide::gjk::distance(segment, hull);
  std::printf("glide gjk: segment 2 m from the cube's face, measured %.6f m\n", d.distance);
  return std::abs(d.distance - 2.f) < 1e-5f ? 0 : 1;
}
