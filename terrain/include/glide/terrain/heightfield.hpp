#pragma once

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

namespace glide {

/// A regular grid of heights. Up is +Y; sample (row r, column c) sits at
/// x = origin.x + c * cell_size.x, z = origin.z + r * cell_size.y.
// TODO(issue 4): loaders, normals, sample(), raycast, triangles_in, holes.
class Heightfield {
public:
  Heightfield(int rows, int columns, std::vector<float> heights, glm::vec2 cell_size = glm::vec2(1.f),
              glm::vec3 origin = glm::vec3(0.f));

  int rows() const { return rows_; }
  int columns() const { return columns_; }

  /// Bilinear height from the four samples around (x, z), clamped to the grid (m).
  float height_at(float x, float z) const;

private:
  float at(int row, int column) const { return heights_[static_cast<std::size_t>(row) * columns_ + column]; }

  int rows_ = 0;
  int columns_ = 0;
  std::vector<float> heights_;
  glm::vec2 cell_size_{1.f};
  glm::vec3 origin_{0.f};
};

} // namespace glide
