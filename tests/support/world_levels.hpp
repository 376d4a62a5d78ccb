#pragma once

// Builders shared by the world suites: box pieces and random levels with fixed seeds.

#include <glide/world/world.hpp>

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <random>
#include <vector>

namespace glide::test {

/// An axis-aligned box piece spanning [lo, hi].
inline PieceId add_box(World& world, const glm::vec3& lo, const glm::vec3& hi, PieceInfo info = {}) {
  gjk::Transform t;
  t.translation = 0.5f * (lo + hi);
  return world.add_piece(gjk::ConvexHull::box(0.5f * (hi - lo)), t, info);
}

/// `n` random convex pieces (rotated boxes and random point clouds of 0.3 to 2 m) in a cube of
/// side `side` centred on the origin, on layers 1, 2 or 4.
inline void add_random_pieces(World& world, int n, float side, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-0.5f * side, 0.5f * side), size(0.15f, 1.f), unit(-1.f, 1.f);
  std::normal_distribution<float> gauss;
  for (int i = 0; i < n; ++i) {
    gjk::ConvexHull hull;
    if (i % 3 == 0) {
      const int count = 4 + static_cast<int>(rng() % 9);
      const float s = size(rng);
      std::vector<glm::vec3> points;
      for (int k = 0; k < count; ++k) points.push_back(s * glm::vec3{unit(rng), unit(rng), unit(rng)});
      hull = gjk::ConvexHull(points);
    } else {
      hull = gjk::ConvexHull::box({size(rng), size(rng), size(rng)});
    }
    gjk::Transform t;
    t.rotation = glm::normalize(glm::quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng)));
    t.translation = {pos(rng), pos(rng), pos(rng)};
    world.add_piece(std::move(hull), t, PieceInfo{1u << (rng() % 3), static_cast<std::uint64_t>(i)});
  }
}

/// A wavy 24 x 24 cell terrain of 2 m cells, heights within 3 m of y = -12.
inline Heightfield wavy_terrain() {
  const int n = 25;
  std::vector<float> h(static_cast<std::size_t>(n * n));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      h[static_cast<std::size_t>(r * n + c)] =
          3.f * std::sin(0.5f * static_cast<float>(c)) * std::cos(0.3f * static_cast<float>(r));
  return Heightfield({.rows = n, .columns = n, .heights = h, .cell_size = glm::vec2(2.f), .origin = {-24, -12, -24}});
}

/// 1,000 random pieces in a cube of side `side` over the wavy terrain (on layer 2).
inline World random_level(std::uint32_t seed, float side) {
  World world;
  add_random_pieces(world, 1000, side, seed);
  world.set_terrain(wavy_terrain(), 2u);
  return world;
}

} // namespace glide::test
