#pragma once

// The BVH tests' random item boxes, the opaque ids they carry, and the brute-force oracles
// the queries are checked against.

#include "bvh.hpp"

#include <glide/gjk/aabb.hpp>

#include <doctest/doctest.h>

#include <algorithm>
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

/// The box query's items equal brute force over every box.
inline void check_box_query(const glide::detail::Bvh& bvh, const std::vector<glide::gjk::Aabb>& boxes,
                            const std::vector<std::uint32_t>& ids, const glide::gjk::Aabb& q) {
  std::vector<std::uint32_t> got, expected;
  bvh.query_box(q, [&](const glide::detail::LeafItem& item) { got.push_back(item.item); });
  for (std::size_t i = 0; i < boxes.size(); ++i)
    if (boxes[i].overlaps(q)) expected.push_back(ids[i]);
  std::sort(got.begin(), got.end());
  REQUIRE(got == expected);
}

/// The sweep query of a box of half size e at c moving along m, against brute force over
/// every box (ids from iota_ids): without pruning it visits exactly the items the moving box
/// reaches in [0, 1], also under a `limit` beyond the motion's end; with pruning at each
/// item's own entry time it still finds the earliest.
inline void check_sweep_query(const glide::detail::Bvh& bvh, const std::vector<glide::gjk::Aabb>& boxes,
                              const glm::vec3& c, const glm::vec3& e, const glm::vec3& m, float limit) {
  using glide::detail::LeafItem;
  const glide::detail::SweptBox swept(c, e, m);
  std::vector<std::uint32_t> got, expected;
  bvh.query_sweep(c, e, m, limit, [&](const LeafItem& item, float) { got.push_back(item.item); });
  std::uint32_t first = ~0u;
  float first_t = 2.f;
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    const float t = swept.enter(boxes[i]);
    if (t > 1.f) continue;
    expected.push_back(1000 + 3 * i);
    if (t < first_t) first_t = t, first = 1000 + 3 * i;
  }
  std::sort(got.begin(), got.end());
  REQUIRE(got == expected);

  float best = 1.f;
  std::uint32_t best_id = ~0u;
  bvh.query_sweep(c, e, m, best, [&](const LeafItem& item, float) {
    const float t = swept.enter(boxes[(item.item - 1000) / 3]);
    if (t < best || (t == best && best_id == ~0u)) best = t, best_id = item.item;
  });
  if (first == ~0u)
    CHECK(best_id == ~0u);
  else
    CHECK(best == first_t);
}
