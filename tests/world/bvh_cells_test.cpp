// The BVH's cells (world/src/bvh_cells.hpp): which items each cell's subtree holds, and
// that queries starting from cells answer exactly as brute force over every item.
#include "bvh_oracle.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

using glide::detail::Bvh;
using glide::detail::CellGrid;
using glide::detail::LeafItem;
using glide::detail::SubtreeEntry;
using glide::gjk::Aabb;

namespace {

// A town: many small boxes over 200 x 60 x 200 m, and a few large ones (20 to 80 m).
std::vector<Aabb> town_boxes(std::size_t small, std::size_t large, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> x(-100.f, 100.f), y(-30.f, 30.f), half(0.1f, 1.5f), big(10.f, 40.f);
  std::vector<Aabb> boxes;
  for (std::size_t i = 0; i < small + large; ++i) {
    const glm::vec3 c{x(rng), y(rng), x(rng)};
    const glm::vec3 h = i < small ? glm::vec3{half(rng), half(rng), half(rng)} : glm::vec3{big(rng), 1.f, big(rng)};
    boxes.push_back({c - h, c + h});
  }
  return boxes;
}

// The items under an entry, in leaf order.
void collect(const Bvh& bvh, std::uint32_t ref, std::uint32_t count, std::vector<LeafItem>& out) {
  if (count > 0) {
    out.push_back(bvh.leaf_item(ref));
    return;
  }
  const glide::detail::WideNode& w = bvh.wide_nodes()[ref];
  for (int k = 0; k < 4; ++k)
    if (w.used >> k & 1u) collect(bvh, w.child[k], w.count[k], out);
}

// Every item lies under exactly one entry: a small one under its centroid's cell, a large
// one under the large items' entry; each entry's bounds are the exact union of its items.
void check_cells(const Bvh& bvh, std::size_t items) {
  const CellGrid& grid = bvh.cells();
  REQUIRE(grid.active());
  std::vector<int> seen(items, 0);
  const auto check_entry = [&](const SubtreeEntry& e, auto&& belongs) {
    std::vector<LeafItem> under;
    collect(bvh, e.ref, e.count, under);
    REQUIRE(!under.empty());
    Aabb bounds;
    for (const LeafItem& item : under) {
      seen[(item.item - 1000) / 3]++;
      CHECK(belongs(item.box));
      bounds = bounds.merged(item.box);
    }
    CHECK(bounds.min == e.bounds.min);
    CHECK(bounds.max == e.bounds.max);
  };
  for (int z = 0; z < grid.dims(2); ++z)
    for (int y = 0; y < grid.dims(1); ++y)
      for (int x = 0; x < grid.dims(0); ++x) {
        const SubtreeEntry& e = grid.cell(grid.index(x, y, z));
        if (!e.used()) continue;
        check_entry(e, [&](const Aabb& box) {
          const glm::vec3 c = box.center();
          return grid.small(box) && grid.coord(c.x, 0) == x && grid.coord(c.y, 1) == y && grid.coord(c.z, 2) == z;
        });
      }
  if (grid.large().used()) check_entry(grid.large(), [&](const Aabb& box) { return !grid.small(box); });
  CHECK(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
}

// Sweeps and box queries of character size from anywhere around the level (some beyond its
// edges, some long enough to start at the root) visit exactly the brute-force items, and
// nearest-first pruning still finds the earliest. Returns how many started from cells.
int check_queries(const Bvh& bvh, const std::vector<Aabb>& boxes, const glm::vec3& center, const glm::vec3& span,
                  std::uint32_t seed) {
  const auto ids = iota_ids(boxes.size());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.f, 1.f), ext(0.f, 1.5f);
  int from_cells = 0;
  for (int q = 0; q < 1000; ++q) {
    const glm::vec3 c = center + 1.1f * span * glm::vec3{unit(rng), unit(rng), unit(rng)};
    const glm::vec3 e{ext(rng), ext(rng), ext(rng)};
    const glm::vec3 m = (q % 10 == 0 ? 150.f : 2.f) * glm::vec3{unit(rng), q % 4 == 0 ? 0.f : unit(rng), unit(rng)};
    const glm::vec3 end = c + m;
    from_cells += bvh.cells().for_each_entry(glm::min(c, end) - e, glm::max(c, end) + e, [](const SubtreeEntry&) {});

    check_sweep_query(bvh, boxes, c, e, m, q % 7 == 0 ? 3.f : 1.f);
    check_box_query(bvh, boxes, ids, {c - e, c + e});
  }
  return from_cells;
}

} // namespace

TEST_CASE("Bvh cells hold each small item under its centroid's cell and the large ones apart") {
  const auto boxes = town_boxes(20000, 300, 51u);
  Bvh bvh;
  bvh.build(boxes, iota_ids(boxes.size()));
  check_cells(bvh, boxes.size());
  const CellGrid& grid = bvh.cells();
  // About k_items_per_cell centroids per cell over a level of 200 x 60 x 200 m.
  const auto cells = static_cast<double>(grid.cell_count());
  CHECK(cells >= 0.5 * 20300 / CellGrid::k_items_per_cell);
  CHECK(cells <= 2.0 * 20300 / CellGrid::k_items_per_cell);
  CHECK(grid.dims(1) < grid.dims(0));
  CHECK(grid.large().used());
}

TEST_CASE("Bvh queries starting from cells answer as brute force, large items and edges included") {
  // Near the origin, and 100 km from it, where float coordinates are 8 mm apart.
  for (const glm::vec3 offset : {glm::vec3(0.f), glm::vec3(1e5f, -2e4f, 7e4f)}) {
    auto boxes = town_boxes(20000, 300, 52u);
    for (Aabb& b : boxes) b = {b.min + offset, b.max + offset};
    Bvh bvh;
    bvh.build(boxes, iota_ids(boxes.size()));
    const int from_cells = check_queries(bvh, boxes, offset, {100.f, 30.f, 100.f}, 53u);
    CHECK(from_cells > 500); // most of the 1000 queries start from cells
    CHECK(from_cells < 925); // the long ones (one in ten) mostly start at the root
  }
}

TEST_CASE("Bvh cells on a flat level, a line of items, and items that do not spread") {
  SUBCASE("flat: one layer of cells") {
    auto boxes = random_boxes(5000, 60.f, 54u);
    for (Aabb& b : boxes) b.min.y = -0.5f, b.max.y = 0.5f;
    Bvh bvh;
    bvh.build(boxes, iota_ids(boxes.size()));
    check_cells(bvh, boxes.size());
    CHECK(bvh.cells().dims(1) == 1);
    CHECK(bvh.cells().dims(0) * bvh.cells().dims(2) >= 40);
    CHECK(check_queries(bvh, boxes, {}, {60.f, 1.f, 60.f}, 55u) > 500);
  }
  SUBCASE("a line along x") {
    std::vector<Aabb> boxes;
    for (int i = 0; i < 3000; ++i) boxes.push_back(Aabb{{0.5f * i, 0, 0}, {0.5f * i + 0.3f, 0.3f, 0.3f}});
    Bvh bvh;
    bvh.build(boxes, iota_ids(boxes.size()));
    check_cells(bvh, boxes.size());
    CHECK(bvh.cells().dims(0) > 40);
    CHECK(bvh.cells().dims(1) * bvh.cells().dims(2) == 1);
    CHECK(check_queries(bvh, boxes, {750.f, 0.f, 0.f}, {750.f, 1.f, 1.f}, 56u) > 0);
  }
  SUBCASE("every centroid in one place, or too few items: no cells") {
    const std::vector<Aabb> same(3000, Aabb{{0, 0, 0}, {1, 1, 1}});
    Bvh bvh;
    bvh.build(same, iota_ids(same.size()));
    CHECK(!bvh.cells().active());
    const auto few = random_boxes(4 * CellGrid::k_items_per_cell - 1, 50.f, 57u);
    bvh.build(few, iota_ids(few.size()));
    CHECK(!bvh.cells().active());
    CHECK(check_queries(bvh, few, {}, {50.f, 50.f, 50.f}, 58u) == 0);
  }
  SUBCASE("only large items: no cells") {
    std::vector<Aabb> boxes = town_boxes(0, 500, 59u);
    for (Aabb& b : boxes) b.max.x += 150.f; // wider than half of any cell the plan can choose
    Bvh bvh;
    bvh.build(boxes, iota_ids(boxes.size()));
    CHECK(!bvh.cells().active());
    CHECK(check_queries(bvh, boxes, {}, {100.f, 30.f, 100.f}, 60u) == 0);
  }
}
