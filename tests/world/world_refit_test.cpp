// Refits: a hierarchy refitted to moved items answers every query exactly as a fresh build
// of the same items at the same places, and as brute force. Fixed seeds throughout.
#include "refit_oracle.hpp"
#include "world_levels.hpp"

#include <glide/world/nearby_pieces.hpp>
#include <glide/world/world.hpp>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <random>
#include <vector>

using namespace glide;
using namespace glide::test;

TEST_CASE("Bvh::refit: slots contain their items and queries equal brute force, whatever the moves") {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    const float extent = 30.f;
    const std::vector<Aabb> home = random_boxes(2000, extent, seed);
    std::vector<Aabb> boxes = home;
    const std::vector<std::uint32_t> ids = iota_ids(boxes.size());
    Bvh bvh;
    bvh.build(boxes, ids);
    REQUIRE(bvh.cells().active());
    CHECK(bvh.area() == bvh.built_area());
    std::mt19937 rng(seed + 10);
    for (int round = 0; round < 12; ++round) {
      // A few items moved many times (dedupe is the world's job; repeats must still work),
      // then many moved once.
      const int moves = round % 2 == 0 ? 40 : 400;
      for (int m = 0; m < moves; ++m) {
        const std::uint32_t i = round % 2 == 0 ? static_cast<std::uint32_t>(rng() % 8) : rng() % 2000;
        boxes[i] = moved_box(home[i], boxes[i], rng, extent);
        bvh.refit(i, boxes[i], {});
      }
      check_refitted(bvh, boxes, ids, rng, extent, 8);
    }
    CHECK(bvh.area() > bvh.built_area());
  }
}

TEST_CASE("Bvh::refit rejects an unknown item and a payload of another size") {
  const std::vector<Aabb> boxes = random_boxes(100, 10.f, 7u);
  const std::vector<glm::vec3> points(4, glm::vec3(0.f));
  std::vector<detail::ItemPayload> payloads(boxes.size(), {0u, points});
  Bvh bvh;
  bvh.build(boxes, iota_ids(boxes.size()), payloads);
  CHECK_THROWS_AS(bvh.refit(100, boxes[0], points), Error);
  CHECK_THROWS_AS(bvh.refit(3, boxes[3], std::span(points).first(3)), Error);
  bvh.refit(3, boxes[3], points);
}

TEST_CASE("After random move_piece sequences every query answers as a fresh build and brute force") {
  for (std::uint32_t seed : {31u, 32u}) {
    const float side = 40.f;
    World world;
    test::add_random_pieces(world, 1000, side, seed);
    const std::vector<PieceId> ids = world.piece_ids();
    std::vector<gjk::Transform> home;
    for (PieceId id : ids) home.push_back(world.transform(id));
    world.update();
    // The few pieces the even rounds move have moved once already, so those rounds refit.
    for (std::size_t i = 0; i < 20; ++i) world.move_piece(ids[i], world.transform(ids[i]), 1.f / 60.f);
    world.update();
    std::mt19937 rng(seed + 100);
    int hits = 0;
    std::uint64_t refitted = 0;
    for (int round = 0; round < 10; ++round) {
      const WorldStats before = world.stats();
      std::vector<PieceId> moved;
      // Moving platforms: the same few pieces every other round, many others in between;
      // near their places first, then also across the level and far out of it.
      const bool few = round % 2 == 0;
      for (int m = 0; m < (few ? 20 : 200); ++m) {
        const std::size_t i = few ? rng() % 20 : rng() % ids.size();
        const gjk::Transform pose = moved_pose(home[i], world.transform(ids[i]), rng, side, round >= 6);
        moved.push_back(ids[i]);
        if (m % 2 == 0)
          world.move_piece(ids[i], pose, 1.f / 60.f);
        else
          world.set_piece_transform(ids[i], pose);
      }
      world.update();
      const WorldStats after = world.stats();
      // Refitted, or rebuilt: pieces moving for the first time join the moving pieces' tree.
      CHECK(after.refits + after.rebuilds > before.refits + before.rebuilds);
      CHECK(after.rebuilds <= before.rebuilds + 2);
      refitted += after.refits > before.refits && after.rebuilds == before.rebuilds;
      CHECK(after.refit_area_ratio <= World::k_rebuild_area_ratio);
      hits += compare_queries(world, rng, side, 150, moved);
    }
    MESSAGE("rounds refitted without a rebuild: ", refitted);
    CHECK(refitted >= 3); // the refit path itself was compared, not only rebuilds
    CHECK(hits > 100);
  }
}

TEST_CASE("Small platform motion refits for many frames; queries still equal a fresh build") {
  World world;
  test::add_random_pieces(world, 2000, 50.f, 41u);
  world.set_terrain(test::wavy_terrain(), 2u);
  const std::uint64_t rebuilds = world.stats().rebuilds;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  for (int frame = 0; frame < 300; ++frame) {
    for (std::uint32_t i = 0; i < 50; ++i) {
      gjk::Transform t = world.transform(PieceId{i * 37});
      t.translation += 0.02f * glm::vec3{unit(rng), unit(rng), unit(rng)};
      t.rotation = glm::normalize(glm::angleAxis(0.02f * unit(rng), glm::vec3(0, 1, 0)) * t.rotation);
      world.move_piece(PieceId{i * 37}, t, 1.f / 60.f);
    }
    world.update();
  }
  // The first frame took the 50 pieces into the moving pieces' tree (rebuilding it); every
  // later frame refitted that tree alone.
  const WorldStats s = world.stats();
  CHECK(s.refits == 299);
  CHECK(s.rebuilds == rebuilds + 1);
  const detail::Bvh& still = *detail::WorldAccess::trees(world)[0];
  const detail::Bvh& moving = *detail::WorldAccess::trees(world)[1];
  CHECK(moving.items().size() == 50);
  CHECK(still.items().size() == 2000); // the static tree keeps their removed leaves until rebuilt
  CHECK(moving.area() > moving.built_area());
  CHECK(moving.area() < World::k_rebuild_area_ratio * moving.built_area());
  CHECK(s.refit_reach_growth <= World::k_rebuild_reach_growth);
  std::vector<PieceId> moved;
  for (std::uint32_t i = 0; i < 50; ++i) moved.push_back(PieceId{i * 37});
  std::mt19937 queries(43);
  CHECK(compare_queries(world, queries, 50.f, 400, moved) > 50);
}

TEST_CASE("Refit bookkeeping: a first move joins the moving tree, later moves refit it once per update") {
  World world;
  test::add_random_pieces(world, 300, 30.f, 51u);
  WorldStats s = world.stats();
  CHECK(s.rebuilds == 1);
  CHECK(s.refits == 0);
  CHECK(s.refit_area_ratio == 1.0);
  const auto moving_items = [&] { return detail::WorldAccess::trees(world)[1]->items().size(); };
  // First moves of two static pieces: they leave the static tree for the moving one (a
  // rebuild of that tree), however often they moved.
  gjk::Transform t = world.transform(PieceId{4});
  for (int k = 0; k < 5; ++k) {
    t.translation.x += 0.01f;
    world.move_piece(PieceId{4}, t, 0.1f);
  }
  world.set_piece_transform(PieceId{9}, world.transform(PieceId{9}));
  s = world.stats();
  CHECK(s.rebuilds == 2);
  CHECK(s.refits == 0);
  CHECK(moving_items() == 2);
  CHECK(world.stats().rebuilds == 2); // nothing moved since: nothing to do
  // Moves of a piece in the moving tree: one refit per update, however many moves.
  for (int k = 0; k < 3; ++k) {
    t.translation.x += 0.01f;
    world.move_piece(PieceId{4}, t, 0.1f);
  }
  s = world.stats();
  CHECK(s.rebuilds == 2);
  CHECK(s.refits == 1);

  // A move then a removal: one rebuild, no refit; the moved piece is in the moving tree.
  world.move_piece(PieceId{5}, t, 0.1f);
  world.remove_piece(PieceId{6});
  s = world.stats();
  CHECK(s.rebuilds == 3);
  CHECK(s.refits == 1);
  CHECK(s.refit_area_ratio == 1.0);
  CHECK(moving_items() == 3);
  // An addition then a move of the new piece: one rebuild.
  const PieceId added = test::add_box(world, {0, 0, 0}, {1, 1, 1});
  world.move_piece(added, {.translation = {3, 0, 0}}, 0.1f);
  s = world.stats();
  CHECK(s.rebuilds == 4);
  CHECK(s.refits == 1);
  CHECK(moving_items() == 4);
  std::vector<PieceId> found;
  world.pieces_in_box({{2.6f, -0.4f, -0.4f}, {3.4f, 0.4f, 0.4f}}, found);
  CHECK(std::find(found.begin(), found.end(), added) == found.end() - 1); // once
  // A piece of the moving tree sent far away: refitted (that tree, one node of four pieces,
  // is no looser for it), and found there.
  world.move_piece(PieceId{4}, {.translation = {1e4f, 0, 0}}, 0.1f);
  s = world.stats();
  CHECK(s.refits == 2);
  CHECK(s.rebuilds == 4);
  found.clear();
  world.pieces_in_box({{1e4f - 1.f, -1.f, -1.f}, {1e4f + 1.f, 1.f, 1.f}}, found);
  CHECK(found == std::vector<PieceId>{PieceId{4}});
}

TEST_CASE("NearbyPieces takes up moved pieces without a regather and answers as the World") {
  World world;
  test::add_random_pieces(world, 1000, 40.f, 61u);
  const gjk::Capsule capsule{{{0, 0, 0}, {0, 1, 0}}, 0.4f};
  const glm::vec3 motion{6.f, 0.f, 0.f};
  NearbyPieces nearby;
  std::mt19937 rng(62);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  for (int frame = 0; frame < 40; ++frame) {
    // Pieces drift through the capsule's path, and every tenth frame jump into it from
    // wherever they are: the held pieces must follow each move, and newcomers must join.
    for (std::uint32_t i = 0; i < 30; ++i) {
      gjk::Transform t = world.transform(PieceId{i});
      t.translation = frame % 10 == 0 ? glm::vec3{3.f + 0.1f * static_cast<float>(i), unit(rng), unit(rng)}
                                      : t.translation + 0.3f * glm::vec3{unit(rng), unit(rng), unit(rng)};
      world.move_piece(PieceId{i}, t, 1.f / 60.f);
    }
    const std::uint64_t gathers = nearby.gathers();
    const SweepHit got = nearby.sweep_capsule(world, capsule, motion, {}, {});
    const SweepHit expected = fresh_copy(world).sweep_capsule(capsule, motion);
    CHECK(nearby.gathers() == (frame == 0 ? gathers + 1 : gathers)); // one gather, then moves only
    REQUIRE(got.hit == expected.hit);
    CHECK(got.piece == expected.piece);
    CHECK(std::abs(got.fraction - expected.fraction) * glm::length(motion) <= 1.01e-4f);
  }
  CHECK(world.stats().refits > 0);
}

TEST_CASE("NearbyPieces: a held piece that moves into the path, and one that moves in from afar, are hit") {
  World world;
  const PieceId beside = world.add_piece(gjk::ConvexHull::box({0.5f, 0.5f, 0.5f}), {.translation = {3.f, 0.5f, 2.f}});
  const PieceId afar = world.add_piece(gjk::ConvexHull::box({0.5f, 0.5f, 0.5f}), {.translation = {3.f, 0.5f, 40.f}});
  const gjk::Capsule capsule{{{0, 0.5f, 0}, {0, 1.5f, 0}}, 0.4f};
  const glm::vec3 motion{6.f, 0.f, 0.f};
  NearbyPieces nearby;
  // The first sweep holds `beside` (its bounds meet the swept box, 2 m to the side) and learns
  // a plane it lies behind; `afar` is not held.
  nearby.reach(world, gjk::capsule_bounds(capsule).swept(motion), 2.f);
  REQUIRE_FALSE(nearby.sweep_capsule(world, capsule, motion, {}, {}).hit);
  const std::uint64_t gathers = nearby.gathers();

  world.move_piece(beside, {.translation = {3.f, 0.5f, 0.f}}, 1.f / 60.f);
  const SweepHit hit = nearby.sweep_capsule(world, capsule, motion, {}, {});
  REQUIRE(hit.hit);
  CHECK(hit.piece == beside);

  world.move_piece(beside, {.translation = {3.f, 0.5f, 2.f}}, 1.f / 60.f);
  world.move_piece(afar, {.translation = {2.f, 0.5f, 0.f}}, 1.f / 60.f);
  const SweepHit second = nearby.sweep_capsule(world, capsule, motion, {}, {});
  REQUIRE(second.hit);
  CHECK(second.piece == afar);
  CHECK(nearby.gathers() == gathers); // taken up without a regather
  // As the World answers, within the time-of-impact tolerance (NearbyPieces' faces answer
  // exactly where the World runs GJK).
  const SweepHit expected = world.sweep_capsule(capsule, motion);
  CHECK(expected.piece == afar);
  CHECK(std::abs(second.fraction - expected.fraction) * glm::length(motion) <= 1.01e-4f);
}

TEST_CASE("NearbyPieces fills a lent contact list with what it fills its own with, and its own again after") {
  World world;
  test::add_random_pieces(world, 300, 12.f, 63u);
  NearbyPieces own, lending;
  std::vector<Contact> lent;
  std::mt19937 rng(64);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  int compared = 0;
  for (int query = 0; query < 400; ++query) {
    const glm::vec3 at{6.f * unit(rng), 6.f * unit(rng), 6.f * unit(rng)};
    const gjk::Capsule capsule{{at, at + glm::vec3(0.f, 1.f, 0.f)}, 0.4f};
    const bool lend = query % 2 == 0;
    lending.lend_contact_list(lend ? &lent : nullptr);
    const std::span<const Contact> expected = own.closest(world, capsule, 0.2f, {}, 8);
    const std::span<const Contact> got = lending.closest(world, capsule, 0.2f, {}, 8);
    // Lent: the span lies in the lent list; given back: in the object's own, the lent one untouched.
    if (!got.empty()) CHECK((got.data() == lent.data()) == lend);
    REQUIRE(got.size() == expected.size());
    for (std::size_t c = 0; c < got.size(); ++c) {
      CHECK(got[c].piece == expected[c].piece);
      CHECK(got[c].distance == expected[c].distance);
      CHECK(got[c].normal == expected[c].normal);
    }
    compared += static_cast<int>(got.size());
  }
  CHECK(compared > 100);
}
