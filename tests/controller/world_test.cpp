#include <doctest/doctest.h>

#include <glide/controller/world.hpp>

#include <vector>

TEST_CASE("World hands out distinct ids for added pieces") {
  glide::World world;
  const std::vector<glm::vec3> tetra{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const glide::PieceId a = world.add_piece(glide::gjk::ConvexHull(tetra));
  const glide::PieceId b = world.add_piece(glide::gjk::ConvexHull(tetra));
  CHECK(world.piece_count() == 2);
  CHECK_FALSE(a == b);
}
