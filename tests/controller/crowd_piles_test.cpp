// Characters put into one another (a spawn, a teleport): piles come apart, and nobody is
// pushed deeper into a wall than it was put.
#include "controller_scene.hpp"

#include <array>
#include <cmath>
#include <random>
#include <vector>

namespace glide::test {

namespace {

// Terrain over [-5, 5] m in x and z, 0.25 m cells: bumps of 0.25 m (their pattern shifted by
// `phase`, radians) on ground rising 0.1 m a metre toward +x.
Heightfield bumpy_terrain(float phase) {
  HeightfieldDef def;
  def.rows = def.columns = 41;
  def.cell_size = {0.25f, 0.25f};
  def.origin = {-5.f, 0.f, -5.f};
  for (int r = 0; r < def.rows; ++r)
    for (int c = 0; c < def.columns; ++c) {
      const float x = -5.f + 0.25f * static_cast<float>(c), z = -5.f + 0.25f * static_cast<float>(r);
      def.heights.push_back(0.25f * std::sin(2.1f * x + phase) * std::cos(1.7f * z) + 0.1f * x);
    }
  return Heightfield(std::move(def));
}

// Updates the set for `frames` at 60 Hz, every character standing still, none ever inside a
// piece (within the tolerance).
void stand_still(const World& world, CharacterSet& set, int frames) {
  const std::vector<glm::vec3> velocities(set.size(), glm::vec3(0, -1, 0));
  for (int frame = 0; frame < frames; ++frame) {
    set.update(velocities, 1.f / 60.f);
    for (std::uint32_t i = 0; i < set.size(); ++i)
      REQUIRE(deepest_gap(world, set.controller(CharacterId{i})) >= -k_penetration_tolerance);
  }
}

} // namespace

TEST_CASE("characters put into one another part within a second and a half, on the floor, none into a wall") {
  // A pile as a spawn or a teleport leaves it, beside a wall. Those inside others push out of
  // them past those at the skin round them, and move aside those their push presses on, as a
  // piece's press does: the pile comes apart from inside. At one spot the capsules share
  // centre and axis, so no direction out is better than another: each leaves along a
  // direction its id picks, opposite for the two of a pair.
  struct Pile {
    int count;
    float spread; // half the side of the square the feet are put in (m)
  };
  for (const Pile pile : {Pile{2, 0.f}, Pile{3, 0.f}, Pile{8, 0.f}, Pile{16, 0.f}, Pile{8, 0.1f}, Pile{16, 0.3f}}) {
    CAPTURE(pile.count);
    CAPTURE(pile.spread);
    World world;
    add_floor(world);
    const glm::vec3 spot(4.f, 0.01f, -2.f);
    add_box(world, {spot.x + 0.8f, 0, -10}, {spot.x + 1.8f, 3, 10});
    CharacterSet set(world);
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> offset(-1.f, 1.f);
    for (int i = 0; i < pile.count; ++i) {
      const float dx = pile.spread * offset(rng);
      const float dz = pile.spread * offset(rng);
      set.add({}, spot + glm::vec3(dx, 0, dz));
    }
    REQUIRE(closest_pair_gap(set) < -0.3f);
    const std::vector<glm::vec3> velocities(static_cast<std::size_t>(pile.count), glm::vec3(0, -1, 0));
    for (int frame = 0; frame < 90; ++frame) {
      set.update(velocities, 1.f / 60.f);
      for (std::uint32_t i = 0; i < set.size(); ++i)
        CHECK(deepest_gap(world, set.controller(CharacterId{i})) >= -k_penetration_tolerance);
    }
    CHECK(closest_pair_gap(set) >= -k_penetration_tolerance);
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const Controller& k = set.controller(CharacterId{i});
      CHECK(k.ground().state == GroundState::on_ground);
      CHECK(std::abs(k.position().y - spot.y) < 0.02f);
      CHECK(glm::length(k.position() - spot) < 3.f);
    }
  }
}

TEST_CASE("a character inside another, hemmed in closer than the skin by the rest of a pile, gets out") {
  // Where a seeded pile beside a wall stood still for good: 0 is 0.023 m inside 1, and 13 and 14
  // stand round 0 closer than the skin. Out to the skin from all of them at once was a push back
  // into 1, which 1 stopped at once, every frame.
  World world;
  add_floor(world);
  add_box(world, {0.8994f, 0, -10}, {3, 3, 10});
  const std::vector<glm::vec2> feet = {
      {0.0350f, 0.1890f},   {0.0527f, -0.3874f}, {-0.2983f, -0.8740f}, {-0.8473f, -1.7220f}, {0.5881f, 1.1831f},
      {-1.1270f, 0.4895f},  {0.5881f, 1.7931f},  {-1.2132f, -0.1274f}, {-0.9212f, -0.8797f}, {-0.2855f, -1.4839f},
      {-0.4561f, 0.9582f},  {0.5881f, -1.2854f}, {-1.4953f, 0.9761f},  {-0.5603f, 0.2639f},  {0.1281f, 0.7824f},
      {-0.6335f, -0.3417f}, {-0.6697f, 1.5297f}, {0.5881f, -0.0658f},  {0.5880f, -0.6754f}};
  CharacterSet set(world);
  for (const glm::vec2& f : feet) set.add({}, {f.x, 0.01f, f.y});
  REQUIRE(closest_pair_gap(set) < -0.02f);
  const std::vector<glm::vec3> velocities(set.size(), glm::vec3(0, -1, 0));
  for (int frame = 0; frame < 60; ++frame) set.update(velocities, 1.f / 60.f);
  CHECK(closest_pair_gap(set) >= -k_penetration_tolerance);
  for (std::uint32_t i = 0; i < set.size(); ++i) CHECK(deepest_gap(world, set.controller(CharacterId{i})) >= 0.f);
}

TEST_CASE("two characters inside each other in a corner, each against a wall, slide out along the walls") {
  // Each one's way out of the other leads into its wall: pushed out of the walls' skin alone,
  // both stood still for good. Out of the other along its wall, they part; and in a corner
  // packed deeper, one may go into a neighbour by up to half the overlap it leaves.
  World world;
  add_floor(world);
  const float skin = ControllerSettings{}.skin_width, radius = ControllerSettings{}.radius;
  // Each wall closer than the skin, as a pile leaves those pressed against it.
  add_box(world, {-10, 0, radius + 0.5f * skin}, {10, 3, 3}); // the wall beside p, toward +z
  const glm::vec3 p(0.f, 0.01f, 0.f), q(0.25f, 0.01f, -0.15f);
  add_box(world, {q.x + radius + 0.5f * skin, 0, -10}, {3, 3, 10}); // the wall beside q, toward +x
  CharacterSet set(world);
  set.add({}, p);
  set.add({}, q);
  REQUIRE(closest_pair_gap(set) < -0.3f);
  stand_still(world, set, 30);
  CHECK(closest_pair_gap(set) >= -k_penetration_tolerance);
  // Along the walls: p toward -x, q toward -z, each still at its wall.
  const glm::vec3 a = set.controller(CharacterId{0}).position(), b = set.controller(CharacterId{1}).position();
  CHECK(a.x < p.x - 0.05f);
  CHECK(b.z < q.z - 0.05f);
  CHECK(std::abs(a.z - p.z) < skin);
  CHECK(std::abs(b.x - q.x) < skin);
}

TEST_CASE("two characters inside each other by a wall on bumpy terrain slide apart along wall and ground") {
  // Where a seeded pile stood still for good: each one's way out of the other, along the wall,
  // ran into the rising ground and, slid along that, into the wall, four times a move. Along
  // the crease of the two it gets out.
  World world;
  world.set_terrain(bumpy_terrain(2.87658525f));
  add_box(world, {0.7f, -2, -5}, {2, 3, 5});
  CharacterSet set(world);
  set.add({}, {0.39f, -0.0435f, -0.3775f});
  set.add({}, {0.39f, -0.0534f, 0.2020f});
  REQUIRE(closest_pair_gap(set) < -0.02f);
  stand_still(world, set, 60);
  CHECK(closest_pair_gap(set) >= -k_penetration_tolerance);
  for (std::uint32_t i = 0; i < set.size(); ++i)
    CHECK(set.controller(CharacterId{i}).ground().state == GroundState::on_ground);
}

TEST_CASE("a hundred characters put at one spot: every update within the moves' budgets, and the pile opens") {
  // Each is inside all the others, so a move meets 99 capsules: the presses of one update, each
  // moving the ones that stopped a push out of the pile aside, made up to 1,800 such moves. The
  // pile spreads, those deep in it by the sum of their overlaps' pushes: all are free of the
  // others after 2 s. How many are free after 1 s turns on the last bits of every contact (a
  // pile is chaotic): over 24 spots it ranged from 19 to 49, about 31 on average, so four spots
  // are summed (106 now), against a bound of 20 a pile.
  int free_after_1s = 0;
  for (const glm::vec3& spot : {glm::vec3(0.f, 0.01f, 0.f), glm::vec3(3.7f, 0.01f, -2.1f),
                                glm::vec3(-12.5f, 0.01f, 8.25f), glm::vec3(40.1f, 0.01f, -33.3f)}) {
    CAPTURE(spot);
    World world;
    add_floor(world);
    CharacterSet set(world);
    constexpr std::size_t k_count = 100;
    for (std::size_t i = 0; i < k_count; ++i) set.add({}, spot);
    const std::vector<glm::vec3> velocities(k_count, glm::vec3(0, -1, 0));
    const auto free_of_others = [&] {
      int count = 0;
      for (std::uint32_t i = 0; i < set.size(); ++i) {
        const Controller& a = set.controller(CharacterId{i});
        const gjk::Capsule mine = a.capsule_at(a.position());
        bool free = true;
        for (std::uint32_t j = 0; j < set.size() && free; ++j) {
          const Controller& b = set.controller(CharacterId{j});
          const gjk::Capsule theirs = b.capsule_at(b.position());
          free = i == j || gjk::closest_points(mine.segment, theirs.segment).distance >=
                               mine.radius + theirs.radius - k_penetration_tolerance;
        }
        count += free ? 1 : 0;
      }
      return count;
    };
    REQUIRE(free_of_others() == 0);
    for (int frame = 1; frame <= 120; ++frame) {
      set.update(velocities, 1.f / 60.f);
      CHECK(set.last_push_moves() <= 2 * 4 * k_count); // the pushers' budget and the presses'
      if (frame == 60) free_after_1s += free_of_others();
    }
    const int free_after_2s = free_of_others();
    MESSAGE("free of the others after 2 s: " << free_after_2s << " of " << k_count);
    CHECK(free_after_2s >= 95);
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const Controller& k = set.controller(CharacterId{i});
      CHECK(k.ground().state == GroundState::on_ground);
      CHECK(std::abs(k.position().y - spot.y) < 0.02f);
    }
  }
  MESSAGE("free of the others after 1 s, over the four piles: " << free_after_1s << " of 400");
  CHECK(free_after_1s >= 80);
}

TEST_CASE("characters of different heights and widths put at one spot part, on the floor") {
  // A short character put where a tall one stands lies on its axis, inside it: from centre to
  // centre, their contact's normal pointed up and down, which the floor and gravity undo, and a
  // pile of mixed sizes at one spot stood inside itself for good (40 put there: 416 pairs of
  // them still overlapping after 5 s). Across the axis, as equal ones leave one another, it
  // opens.
  struct Pile {
    int count;
    bool mixed_radii;
    bool pushers;
  };
  for (const Pile pile : {Pile{2, false, false}, Pile{5, false, false}, Pile{30, false, false}, Pile{30, true, false},
                          Pile{30, true, true}}) {
    CAPTURE(pile.count);
    CAPTURE(pile.mixed_radii);
    CAPTURE(pile.pushers);
    World world;
    add_floor(world);
    CharacterSet set(world);
    std::mt19937 rng(23);
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    const glm::vec3 spot(-1.5f, 0.01f, 2.25f);
    for (int i = 0; i < pile.count; ++i) {
      ControllerSettings settings;
      if (pile.mixed_radii) settings.radius = 0.2f + 0.5f * unit(rng);
      settings.height = std::max(2.f * settings.radius + 0.4f, 1.f + 1.5f * unit(rng));
      set.add(settings, spot, {.push = pile.pushers && i % 3 == 0});
    }
    REQUIRE(closest_pair_gap(set) < -0.3f);
    const std::vector<glm::vec3> velocities(set.size(), glm::vec3(0, -1, 0));
    for (int frame = 0; frame < 240; ++frame) set.update(velocities, 1.f / 60.f);
    CHECK(closest_pair_gap(set) >= -k_penetration_tolerance);
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const Controller& k = set.controller(CharacterId{i});
      CHECK(k.ground().state == GroundState::on_ground);
      CHECK(std::abs(k.position().y - spot.y) < 0.02f);
    }
  }
}

TEST_CASE("seeded piles of 2 to 20 characters, in the open, by walls, in a corridor and on bumpy terrain: none "
          "deeper in a wall, all but a few apart") {
  // Feet put at random within up to 0.5 m of one spot: with no wall; one, or two meeting in a
  // corner, up to 1 m away; between the walls of a corridor 1.4 m wide; or on terrain with
  // 0.25 m bumps by a wall 0.7 m away (some characters put into them). Piles come apart from
  // their rim inward; those packed against a wall slide along it out of one another, up and
  // down the terrain.
  enum class Around { open, walls, corridor, terrain };
  constexpr int k_seeds = 100;  // of each
  constexpr int k_frames = 240; // 4 s
  std::array<int, 4> apart_count{};
  for (int seed = 0; seed < 4 * k_seeds; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(static_cast<std::uint32_t>(seed));
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    World world;
    const auto around = static_cast<Around>(seed / k_seeds);
    if (around == Around::terrain) {
      world.set_terrain(bumpy_terrain(6.28f * unit(rng)));
      add_box(world, {0.7f, -2, -5}, {2, 3, 5});
    } else {
      add_floor(world);
    }
    if (around == Around::walls) {
      const float x = 0.6f + 0.4f * unit(rng);
      add_box(world, {x, 0, -10}, {3, 3, 10});
      const float z = 0.6f + 0.4f * unit(rng);
      if (unit(rng) < 0.5f) add_box(world, {-10, 0, z}, {10, 3, 3});
    } else if (around == Around::corridor) {
      add_box(world, {-10, 0, 0.7f}, {10, 3, 2});
      add_box(world, {-10, 0, -2}, {10, 3, -0.7f});
    }
    const int count = 2 + static_cast<int>(unit(rng) * 19.f);
    const float spread = 0.5f * unit(rng);
    const bool push = unit(rng) < 0.3f;
    CharacterSet set(world);
    for (int i = 0; i < count; ++i) {
      const float x = spread * (2.f * unit(rng) - 1.f);
      const float z = spread * (2.f * unit(rng) - 1.f);
      const float ground = around == Around::terrain ? world.terrain()->height_at(x, z) + 0.05f : 0.01f;
      set.add({}, {x, ground, z}, {.push = push});
    }
    std::vector<float> put_depth(set.size());
    for (std::uint32_t i = 0; i < set.size(); ++i)
      put_depth[i] = std::min(0.f, deepest_gap(world, set.controller(CharacterId{i})));
    const std::vector<glm::vec3> velocities(set.size(), glm::vec3(0, -1, 0));
    bool apart = false;
    for (int frame = 0; frame < k_frames && !apart; ++frame) {
      set.update(velocities, 1.f / 60.f);
      for (std::uint32_t i = 0; i < set.size(); ++i)
        REQUIRE(deepest_gap(world, set.controller(CharacterId{i})) >= put_depth[i] - k_penetration_tolerance);
      apart = closest_pair_gap(set) >= -k_penetration_tolerance;
    }
    apart_count[static_cast<std::size_t>(around)] += apart ? 1 : 0;
  }
  MESSAGE("apart within 4 s, of " << k_seeds << " each: " << apart_count[0] << " in the open, " << apart_count[1]
                                  << " by walls, " << apart_count[2] << " in a corridor, " << apart_count[3]
                                  << " on terrain");
  CHECK(apart_count[0] >= 99);
  CHECK(apart_count[1] >= 99);
  CHECK(apart_count[2] >= 97);
  CHECK(apart_count[3] >= 97);
}

} // namespace glide::test
