// Uses one piece of each module, so a missing header, library or dependency fails to build.
#include <glide/controller/world.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/terrain/heightfield.hpp>
#include <glide/version.hpp>

#include <cstdio>
#include <vector>

int main() {
  const std::vector<glm::vec3> corners{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  glide::World world;
  world.add_piece(glide::gjk::ConvexHull(corners));
  const glide::Heightfield terrain(2, 2, {0.f, 1.f, 0.f, 1.f});
  const float h = terrain.height_at(0.5f, 0.5f);
  std::printf("glide %s: %zu piece(s), height %.3f\n", glide::version_string, world.piece_count(), h);
  return (world.piece_count() == 1 && h > 0.49f && h < 0.51f) ? 0 : 1;
}
