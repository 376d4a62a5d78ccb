#include "approx.hpp"

#include <glide/gjk/error.hpp>
#include <glide/terrain/heightfield.hpp>

#include <vector>

TEST_CASE("height_at is exact on a plane h = a x + b z + c") {
  const float a = 0.25f, b = -0.5f, c = 3.f;
  const int rows = 5, columns = 7;
  const glm::vec2 cell{2.f, 1.5f};
  std::vector<float> heights;
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < columns; ++col) heights.push_back(a * (col * cell.x) + b * (r * cell.y) + c);
  const glide::Heightfield field(rows, columns, heights, cell);
  for (float x = 0.f; x <= 12.f; x += 0.37f)
    for (float z = 0.f; z <= 6.f; z += 0.41f) CHECK_APPROX(field.height_at(x, z), a * x + b * z + c, 1e-5f);
}

TEST_CASE("Heightfield rejects inconsistent sizes") {
  CHECK_THROWS_AS(glide::Heightfield(1, 4, std::vector<float>(4)), glide::Error);
  CHECK_THROWS_AS(glide::Heightfield(2, 2, std::vector<float>(3)), glide::Error);
  CHECK_THROWS_AS(glide::Heightfield(2, 2, std::vector<float>(4), glm::vec2(0.f, 1.f)), glide::Error);
}
