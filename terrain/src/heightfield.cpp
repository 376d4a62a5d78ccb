#include <glide/gjk/error.hpp>
#include <glide/terrain/heightfield.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace glide {

Heightfield::Heightfield(int rows, int columns, std::vector<float> heights, glm::vec2 cell_size, glm::vec3 origin)
    : rows_(rows), columns_(columns), heights_(std::move(heights)), cell_size_(cell_size), origin_(origin) {
  if (rows < 2 || columns < 2)
    throw Error("Heightfield: need at least 2 x 2 samples, got " + std::to_string(rows) + " x " +
                std::to_string(columns));
  if (heights_.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns))
    throw Error("Heightfield: " + std::to_string(heights_.size()) + " heights for " + std::to_string(rows) + " x " +
                std::to_string(columns) + " samples");
  if (!(cell_size.x > 0.f) || !(cell_size.y > 0.f))
    throw Error("Heightfield: cell size must be positive, got (" + std::to_string(cell_size.x) + ", " +
                std::to_string(cell_size.y) + ")");
}

float Heightfield::height_at(float x, float z) const {
  const float u = std::clamp((x - origin_.x) / cell_size_.x, 0.f, static_cast<float>(columns_ - 1));
  const float v = std::clamp((z - origin_.z) / cell_size_.y, 0.f, static_cast<float>(rows_ - 1));
  const int c = std::min(static_cast<int>(u), columns_ - 2);
  const int r = std::min(static_cast<int>(v), rows_ - 2);
  const float fu = u - static_cast<float>(c), fv = v - static_cast<float>(r);
  const float h0 = at(r, c) + (at(r, c + 1) - at(r, c)) * fu;
  const float h1 = at(r + 1, c) + (at(r + 1, c + 1) - at(r + 1, c)) * fu;
  return origin_.y + h0 + (h1 - h0) * fv;
}

} // namespace glide
