// World::stats() against a walk of the hierarchy and the counts a binary tree of n leaves
// must have; World::pieces_in_box and pieces_along against brute force over every piece.
#include "world_access.hpp"
#include "world_levels.hpp"

#include <glide/world/world.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using glide::PieceId;
using glide::World;
using glide::WorldStats;
using glide::gjk::Aabb;

namespace {

struct Walk {
  std::size_t nodes = 0, leaves = 0, depth = 0;
};

// Recursive count of the wide nodes and leaf slots under `node`, `depth` counting it.
void walk(const glide::detail::Bvh& bvh, std::uint32_t node, std::size_t depth, Walk& w) {
  ++w.nodes;
  const glide::detail::WideNode& n = bvh.wide_nodes()[node];
  for (int k = 0; k < 4; ++k) {
    if (n.child[k] == glide::detail::WideNode::k_empty) continue;
    if (n.count[k] == 0) {
      walk(bvh, n.child[k], depth + 1, w);
    } else {
      ++w.leaves;
      w.depth = std::max(w.depth, depth);
    }
  }
}

// The stats agree with a walk of the tree, and with what any tree over n pieces must be: a
// binary tree of n leaves has n - 1 inner nodes (2n nodes with the root's padding), and a wide
// node absorbs one to three of them, so between (n - 1) / 3 and n - 1 wide nodes, and at
// least log4(n) levels.
void check_stats(const World& world) {
  const WorldStats s = world.stats();
  const glide::detail::Bvh& bvh = glide::detail::WorldAccess::bvh(world);
  Walk w;
  if (!bvh.wide_nodes().empty()) walk(bvh, 0, 1, w);
  const std::size_t n = world.piece_count();
  CHECK(s.pieces == n);
  CHECK(s.leaves == n);
  CHECK(w.leaves == n);
  CHECK(s.nodes == w.nodes);
  CHECK(s.nodes == bvh.wide_nodes().size()); // every stored node is reached
  CHECK(s.depth == w.depth);
  if (n == 0) {
    CHECK(s.nodes == 0);
    CHECK(s.depth == 0);
    return;
  }
  CHECK(s.build_nodes == 2 * n);
  CHECK(3 * s.nodes + 1 >= n);
  CHECK(s.nodes <= std::max<std::size_t>(n - 1, 1));
  CHECK(static_cast<double>(s.depth) >= std::ceil(std::log(static_cast<double>(n)) / std::log(4.0) - 1e-9));
  CHECK(s.depth <= s.nodes);
  CHECK(s.used_cells <= s.grid_cells);
  CHECK(s.hierarchy_bytes >= s.nodes * 64 + s.build_nodes * 32);
}

// What each piece's query data holds: its box and a triple of header words (three points),
// then its world vertices, 12 bytes each.
std::size_t piece_data_floor(const World& world) {
  std::size_t points = 0;
  for (PieceId id : world.piece_ids()) points += 3 + world.world_vertices(id).size();
  return points * sizeof(glm::vec3);
}

std::vector<PieceId> sorted(std::vector<PieceId> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool passes(const World& world, PieceId id, const glide::QueryFilter& filter) {
  return (world.info(id).layers & filter.layer_mask) != 0u && (!filter.accept || filter.accept(id));
}

} // namespace

TEST_CASE("World::stats of small known layouts") {
  World world;
  WorldStats s = world.stats();
  CHECK(s.pieces == 0);
  CHECK(s.nodes == 0);
  CHECK(s.depth == 0);
  CHECK(s.leaves == 0);
  CHECK(s.grid_cells == 0);
  CHECK(s.rebuilds == 1);
  CHECK(world.stats().rebuilds == 1); // no edit, no rebuild

  // Up to four pieces fold into the root: one wide node, one level.
  for (int i = 0; i < 4; ++i) {
    glide::test::add_box(world, {2.f * i, 0, 0}, {2.f * i + 1, 1, 1});
    s = world.stats();
    CHECK(s.pieces == static_cast<std::size_t>(i + 1));
    CHECK(s.nodes == 1);
    CHECK(s.depth == 1);
    CHECK(s.leaves == s.pieces);
    CHECK(s.build_nodes == 2 * s.pieces);
    CHECK(s.rebuilds == static_cast<std::uint64_t>(i + 2));
    CHECK(s.piece_data_bytes == piece_data_floor(world));
    check_stats(world);
  }
  // A fifth needs a second level: the root takes at most three of the four inner nodes.
  glide::test::add_box(world, {8, 0, 0}, {9, 1, 1});
  s = world.stats();
  CHECK(s.nodes >= 2);
  CHECK(s.depth == 2);
  CHECK(s.grid_cells == 0); // too few pieces for cells
  check_stats(world);
}

TEST_CASE("World::stats of random levels match a walk of the hierarchy; bytes grow with pieces") {
  WorldStats previous;
  for (int n : {10, 100, 1000, 5000}) {
    World world;
    glide::test::add_random_pieces(world, n, 4.f * std::cbrt(static_cast<float>(n)), 11u);
    check_stats(world);
    const WorldStats s = world.stats();
    CHECK(s.piece_data_bytes == piece_data_floor(world));
    CHECK(s.hierarchy_bytes > previous.hierarchy_bytes);
    CHECK(s.piece_data_bytes > previous.piece_data_bytes);
    if (n >= 1000) {
      CHECK(s.grid_cells > 0);
      CHECK(s.used_cells > 0);
    }
    previous = s;
  }
}

TEST_CASE("World::stats after remove_piece") {
  World world;
  glide::test::add_random_pieces(world, 300, 40.f, 5u);
  const WorldStats before = world.stats();
  world.remove_piece(PieceId{7});
  world.remove_piece(PieceId{100});
  const WorldStats after = world.stats();
  CHECK(after.pieces == 298);
  CHECK(after.leaves == 298);
  CHECK(after.rebuilds == before.rebuilds + 1); // two edits, one lazy rebuild
  CHECK(after.piece_data_bytes < before.piece_data_bytes);
  check_stats(world);
  std::vector<PieceId> all;
  world.pieces_in_box({glm::vec3(-1e6f), glm::vec3(1e6f)}, all);
  CHECK(all.size() == 298);
  CHECK(std::find(all.begin(), all.end(), PieceId{7}) == all.end());
  CHECK(std::find(all.begin(), all.end(), PieceId{100}) == all.end());
}

TEST_CASE("World::pieces_in_box equals brute force over every piece's bounds") {
  World world;
  glide::test::add_random_pieces(world, 2000, 80.f, 21u);
  world.remove_piece(PieceId{3});
  const std::vector<PieceId> ids = world.piece_ids();
  std::mt19937 rng(22);
  std::uniform_real_distribution<float> pos(-45.f, 45.f), half(0.f, 10.f);
  glide::QueryFilter layer2{.layer_mask = 2u};
  glide::QueryFilter odd{.accept = [](PieceId id) { return id.value % 2 == 1; }};
  std::size_t found = 0;
  for (int q = 0; q < 300; ++q) {
    const glm::vec3 c{pos(rng), pos(rng), pos(rng)};
    const glm::vec3 h{half(rng), half(rng), half(rng)};
    const Aabb box{c - h, c + h};
    const glide::QueryFilter all_filter{};
    for (const glide::QueryFilter& filter : {all_filter, layer2, odd}) {
      std::vector<PieceId> got{PieceId{123456}}; // appended to, not replaced
      world.pieces_in_box(box, got, filter);
      REQUIRE(got.front() == PieceId{123456});
      got.erase(got.begin());
      std::vector<PieceId> expected;
      for (PieceId id : ids)
        if (world.bounds(id).overlaps(box) && passes(world, id, filter)) expected.push_back(id);
      REQUIRE(sorted(got) == expected);
      found += got.size();
    }
  }
  CHECK(found > 1000); // the queries are not all empty
  std::vector<PieceId> none;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  world.pieces_in_box({glm::vec3(nan), glm::vec3(1.f)}, none);
  world.pieces_in_box({glm::vec3(1.f), glm::vec3(-1.f)}, none); // inverted
  CHECK(none.empty());
}

TEST_CASE("World::pieces_along equals brute force over every piece's bounds") {
  World world;
  glide::test::add_random_pieces(world, 2000, 80.f, 31u);
  const std::vector<PieceId> ids = world.piece_ids();
  std::mt19937 rng(32);
  std::uniform_real_distribution<float> pos(-45.f, 45.f), half(0.f, 2.f), unit(-1.f, 1.f), length(0.f, 30.f);
  const glide::QueryFilter layer4{.layer_mask = 4u};
  std::size_t found = 0;
  for (int q = 0; q < 400; ++q) {
    const glm::vec3 c{pos(rng), pos(rng), pos(rng)};
    const glm::vec3 h{half(rng), half(rng), half(rng)};
    glm::vec3 motion = glm::vec3{unit(rng), unit(rng), unit(rng)} * length(rng);
    if (q % 10 == 0) motion.y = 0.f; // motions in a plane: one slab is a plain interval
    const glide::detail::SweptBox swept(c, h, motion);
    for (const glide::QueryFilter& filter : {glide::QueryFilter{}, layer4}) {
      std::vector<PieceId> got;
      world.pieces_along({c - h, c + h}, motion, got, filter);
      std::vector<PieceId> expected;
      for (PieceId id : ids)
        if (swept.enter(world.bounds(id)) <= 1.f && passes(world, id, filter)) expected.push_back(id);
      REQUIRE(sorted(got) == expected);
      found += got.size();
    }
  }
  CHECK(found > 200);
  std::vector<PieceId> none;
  world.pieces_along({glm::vec3(0.f), glm::vec3(1.f)}, glm::vec3(std::numeric_limits<float>::infinity()), none);
  CHECK(none.empty());
}
