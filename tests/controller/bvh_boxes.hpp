#pragma once

// Random item boxes for the BVH tests, and the opaque ids they carry.

#include <glide/gjk/aabb.hpp>

#include <cstdint>
#include <random>
#include <vector>

/// n boxes with centres uniform in [-extent, extent]^3 and half sizes 0.05-2 m per axis.
inline std::vector<glide::gjk::Aabb> random_boxes(std::size_t n, float extent, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-extent, extent), size(0.05f, 2.f);
  std::vector<glide::gjk::Aabb> boxes(n);
  for (glide::gjk::Aabb& b : boxes) {
    const glm::vec3 c{pos(rng), pos(rng), pos(rng)};
    const glm::vec3 h{size(rng), size(rng), size(rng)};
    b = {c - h, c + h};
  }
  return boxes;
}

/// Item ids 1000, 1003, ...: ids are opaque to the tree, and (id - 1000) / 3 finds the box.
inline std::vector<std::uint32_t> iota_ids(std::size_t n) {
  std::vector<std::uint32_t> ids(n);
  for (std::uint32_t i = 0; i < n; ++i) ids[i] = 1000 + 3 * i;
  return ids;
}
