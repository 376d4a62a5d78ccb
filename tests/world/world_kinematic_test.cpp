// Moving pieces apart from static ones: kinematic pieces (and pieces moved before the static
// tree's rebuild) live in a tree of their own, so their refits leave the static tree as built;
// many refits staged and finished at once answer as brute force. Fixed seeds throughout.
#include "refit_oracle.hpp"
#include "world_levels.hpp"

#include <glide/world/world.hpp>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <random>
#include <vector>

using namespace glide;
using namespace glide::test;

TEST_CASE("Bvh: many refits staged and finished at once keep every slot containing; queries equal brute force") {
  const float extent = 30.f;
  const std::vector<Aabb> home = random_boxes(3000, extent, 61u);
  std::vector<Aabb> boxes = home;
  const std::vector<std::uint32_t> ids = iota_ids(boxes.size());
  Bvh bvh;
  bvh.build(boxes, ids);
  REQUIRE(bvh.cells().active());
  std::mt19937 rng(62);
  for (int round = 0; round < 8; ++round) {
    // Rounds of a few items moved many times each (the last staged box wins), then of many.
    const bool few = round % 2 == 0;
    for (int m = 0; m < 600; ++m) {
      const std::uint32_t i = few ? rng() % 30 : rng() % 3000;
      boxes[i] = moved_box(home[i], boxes[i], rng, extent);
      bvh.stage_refit(i, boxes[i], {});
    }
    bvh.finish_refits();
    check_refitted(bvh, boxes, ids, rng, extent, 30);
  }
}

namespace {

std::vector<std::uint32_t> sorted_items(const detail::Bvh& bvh) {
  std::vector<std::uint32_t> items = bvh.items();
  std::sort(items.begin(), items.end());
  return items;
}

} // namespace

TEST_CASE("World: kinematic pieces refit their own tree and leave the static one as built; movers join them") {
  const float side = 40.f;
  World world;
  test::add_random_pieces(world, 1500, side, 71u);
  std::vector<PieceId> kinematic;
  std::mt19937 rng(72);
  std::uniform_real_distribution<float> pos(-0.5f * side, 0.5f * side);
  for (int i = 0; i < 60; ++i) {
    gjk::Transform t;
    t.translation = {pos(rng), pos(rng), pos(rng)};
    kinematic.push_back(world.add_piece(gjk::ConvexHull::box({1.f, 0.2f, 1.f}), t, PieceInfo{.kinematic = true}));
  }
  std::vector<std::uint32_t> kinematic_items;
  for (PieceId id : kinematic) kinematic_items.push_back(id.value);
  const detail::Bvh& still = *detail::WorldAccess::trees(world)[0];
  const detail::Bvh& moving = *detail::WorldAccess::trees(world)[1];
  CHECK(sorted_items(moving) == kinematic_items);
  CHECK(still.items().size() == 1500);
  const std::uint64_t rebuilds = world.stats().rebuilds;
  std::vector<gjk::Transform> home;
  for (PieceId id : kinematic) home.push_back(world.transform(id));
  std::vector<PieceId> moved = kinematic;
  std::mt19937 queries(73);
  for (int frame = 0; frame < 40; ++frame) {
    // Platform steps first, then also jumps across the level and far out of it (which may
    // rebuild the moving tree, never the static one).
    for (std::size_t i = 0; i < kinematic.size(); ++i)
      world.move_piece(kinematic[i], moved_pose(home[i], world.transform(kinematic[i]), rng, side, frame >= 20),
                       1.f / 60.f);
    world.update();
    CHECK(still.area() == still.built_area());
    CHECK(still.reach_growth() == 0.f);
    if (frame == 19) CHECK(world.stats().rebuilds == rebuilds);
    if (frame % 10 == 9) CHECK(compare_queries(world, queries, side, 60, moved) > 5);
  }
  CHECK(sorted_items(moving) == kinematic_items);

  // An ordinary piece that moves leaves the static tree at once for the moving one; the static
  // tree is not refitted for it, then or later.
  const PieceId mover = world.piece_ids().front();
  const double static_area = still.area();
  gjk::Transform t = world.transform(mover);
  t.translation += glm::vec3(3.f, 0.f, 0.f);
  world.move_piece(mover, t, 1.f / 60.f);
  world.update();
  kinematic_items.insert(kinematic_items.begin(), mover.value);
  CHECK(sorted_items(moving) == kinematic_items);
  CHECK(still.area() < static_area); // its leaf there was taken out
  const double without = still.area();
  for (int frame = 0; frame < 10; ++frame) {
    t.translation += glm::vec3(0.f, 0.f, 0.5f);
    world.move_piece(mover, t, 1.f / 60.f);
    world.update();
    CHECK(still.area() == without);
  }
  moved.push_back(mover);
  CHECK(compare_queries(world, queries, side, 100, moved) > 10);
  // A rebuild of the static tree (a piece added) leaves it out for good.
  world.add_piece(gjk::ConvexHull::box(glm::vec3(0.5f)), {});
  world.update();
  CHECK(still.items().size() == 1500);
  CHECK(sorted_items(moving) == kinematic_items);
  CHECK(compare_queries(world, queries, side, 100, moved) > 10);
}
