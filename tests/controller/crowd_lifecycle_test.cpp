// Characters taken out of a CharacterSet (a despawn) and their ids given again: a removed one
// meets no one and does not move, those standing on it fall, and a crowd that spawns and
// despawns as it walks stays thread-independent, overlap-free and replayable. And a character's
// layers and push changed as the game goes.
#include "controller_scene.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/error.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace glide::test {

TEST_CASE("a removed character meets no one, its id is given again, and the new one is met") {
  World world;
  add_floor(world);
  CharacterSet set(world);
  const CharacterId walker = set.add({}, {-2, 0, 0});
  const CharacterId gone = set.add({}, {0, 0, 0});
  const CharacterId other = set.add({}, {0, 0, 3});
  set.remove(gone);
  CHECK_FALSE(set.contains(gone));
  CHECK(set.contains(other));
  CHECK(set.size() == 3);
  CHECK_THROWS_WITH_AS(set.controller(gone), "CharacterSet: character id 1 was removed", Error);
  CHECK_THROWS_WITH_AS(set.result(gone), "CharacterSet: character id 1 was removed", Error);
  CHECK_THROWS_WITH_AS(set.remove(gone), "CharacterSet: character id 1 was removed", Error);
  CHECK_THROWS_WITH_AS(set.remove(CharacterId{3}), "CharacterSet: character id 3 is not in the set (3 ids given)",
                       Error);
  // The walker goes straight through where the removed one stands (its velocity, NaN, unread).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int frame = 0; frame < 120; ++frame) {
    const glm::vec3 velocities[] = {{2, -1, 0}, {nan, nan, nan}, {0, -1, 0}};
    set.update(velocities, 1.f / 60.f);
  }
  CHECK(set.controller(walker).position().x == doctest::Approx(2.f).epsilon(0.01));
  // Given again to the next one added, which blocks the walker on its way back.
  const CharacterId again = set.add({}, {0, 0, 0});
  CHECK(again == gone);
  CHECK(set.contains(again));
  CHECK(set.add({}, {0, 0, -3}) == CharacterId{3});
  for (int frame = 0; frame < 120; ++frame) {
    const glm::vec3 velocities[] = {{-2, -1, 0}, {0, -1, 0}, {0, -1, 0}, {0, -1, 0}};
    set.update(velocities, 1.f / 60.f);
  }
  CHECK(set.controller(walker).position().x == doctest::Approx(0.6f + 0.01f).epsilon(0.02)); // two radii and the skin
  CHECK(closest_pair_gap(set) >= -k_penetration_tolerance);
}

// Found by the crowd fuzzer: a removed character's empty reach, looked up in a neighbour grid of
// one row and many columns, gave a cell range running backward (read out of bounds).
TEST_CASE(
    "characters removed along a line, before the neighbour grid is renewed, leave the others' meetings as they were") {
  World world;
  add_floor(world);
  CharacterSet set(world);
  for (int k = 0; k < 8; ++k) set.add({}, {3.f * float(k), 0, 0});
  set.remove(CharacterId{7});
  set.remove(CharacterId{3});
  const CharacterId walker = set.add({}, {1.5f, 0, 0}); // a new id: none given again before an update
  CHECK(walker == CharacterId{8});
  for (int frame = 0; frame < 60; ++frame) {
    std::vector<glm::vec3> velocities(set.size(), glm::vec3(0, -1, 0));
    velocities[walker.value] = {2, -1, 0};
    set.update(velocities, 1.f / 60.f);
  }
  // Blocked by the one at 3 m, not by the removed ones.
  CHECK(set.controller(walker).position().x == doctest::Approx(3.f - 0.61f).epsilon(0.01));
  CHECK(closest_pair_gap(set) >= -k_penetration_tolerance);
}

TEST_CASE("one standing on a character that is removed falls to the floor, and is not carried by one given its id") {
  World world;
  add_floor(world);
  CharacterSet set(world);
  const CharacterId below = set.add({}, {0, 0, 0});
  const CharacterId above = set.add({}, {0, 1.8f + 0.01f, 0});
  const glm::vec3 velocities[] = {{0, -1, 0}, {0, -9.81f, 0}};
  set.update(velocities, 1.f / 60.f);
  REQUIRE(set.controller(above).ground().target == HitTarget::character);
  set.remove(below);
  // Its id is not given again before an update: the one above still names it as its ground,
  // and must not stand on the new one, added far off.
  const CharacterId far_off = set.add({}, {5, 0, 5});
  CHECK(far_off == CharacterId{2});
  const glm::vec3 three[] = {{0, -1, 0}, {0, -9.81f, 0}, {3, -1, 0}};
  set.update(three, 1.f / 60.f);
  CHECK(set.controller(above).position().x == 0.f);
  CHECK(set.add({}, {-5, 0, -5}) == below);
  for (int frame = 0; frame < 60; ++frame) {
    const glm::vec3 again[] = {{0, -1, 0}, {0, -9.81f, 0}, {0, -1, 0}};
    set.update(again, 1.f / 60.f);
  }
  const GroundInfo& g = set.controller(above).ground();
  CHECK(g.state == GroundState::on_ground);
  CHECK(g.target == HitTarget::piece);
  CHECK(set.controller(above).position().y < 0.02f);
}

namespace {

// 80 characters walking random headings among boxes, 3 removed and 3 added every 10 frames
// (seeded), for 300 frames on `threads` threads; the state is saved at frame 150. Returns every
// frame's positions of the characters in the set.
struct Churn {
  std::vector<glm::vec3> trail;
  std::vector<std::byte> saved;
  float worst_gap = 1e9f;
};
Churn churn(unsigned threads, const std::vector<std::byte>* restore_at_150 = nullptr) {
  World world;
  add_floor(world, 40.f);
  for (int i = 0; i < 6; ++i) add_box(world, {-12.f + 5.f * i, 0, -1}, {-11.f + 5.f * i, 1.5f, 1});
  CharacterSet set(world);
  set.set_min_threaded(0); // threaded however few: the threads' results are checked
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const auto spot = [&](int k) { return glm::vec3(-14.f + 1.4f * float(k % 20), 0.f, -6.f + 1.4f * float(k / 20)); };
  for (int k = 0; k < 80; ++k) set.add({}, spot(k), {.push = k % 4 == 0});
  JobThreads pool(threads);
  Churn c;
  std::vector<glm::vec3> velocities(set.size());
  for (int frame = 0; frame < 300; ++frame) {
    if (frame % 10 == 5) {
      for (int r = 0; r < 3; ++r) {
        const auto id = static_cast<std::uint32_t>(rng() % set.size());
        if (set.contains(CharacterId{id})) set.remove(CharacterId{id});
      }
      for (int a = 0; a < 3; ++a) {
        const glm::vec3 at = spot(static_cast<int>(rng() % 80)) + glm::vec3(0.7f, 0.f, 0.7f);
        bool clear = true;
        for (std::uint32_t j = 0; j < set.size(); ++j)
          if (set.contains(CharacterId{j}) && glm::length(set.controller(CharacterId{j}).position() - at) < 0.8f)
            clear = false;
        if (clear) set.add({}, at, {.push = a == 0});
      }
    }
    if (frame == 150) {
      if (restore_at_150 != nullptr) set.restore_state(*restore_at_150);
      c.saved = set.save_state();
    }
    velocities.resize(set.size());
    for (glm::vec3& v : velocities) v = glm::vec3(2.f * u(rng), -3.f, 2.f * u(rng));
    set.update(velocities, 1.f / 60.f, pool.hook());
    for (std::uint32_t i = 0; i < set.size(); ++i)
      c.trail.push_back(set.contains(CharacterId{i}) ? set.controller(CharacterId{i}).position() : glm::vec3(-1e6f));
    c.worst_gap = std::min(c.worst_gap, closest_pair_gap(set));
  }
  return c;
}

} // namespace

TEST_CASE("a crowd that spawns and despawns as it walks is the same on 1, 2 and 8 threads, and replays") {
  const Churn one = churn(1);
  CHECK(one.worst_gap >= -k_penetration_tolerance);
  for (const unsigned threads : {2u, 8u}) {
    CAPTURE(threads);
    const Churn other = churn(threads);
    REQUIRE(other.trail.size() == one.trail.size());
    CHECK(std::memcmp(other.trail.data(), one.trail.data(), one.trail.size() * sizeof(glm::vec3)) == 0);
  }
  // Restored at frame 150 to the state saved there (removed ones' records included), the run
  // goes on the same.
  const Churn replayed = churn(1, &one.saved);
  REQUIRE(replayed.trail.size() == one.trail.size());
  CHECK(std::memcmp(replayed.trail.data(), one.trail.data(), one.trail.size() * sizeof(glm::vec3)) == 0);
}

namespace {

// One run of a rough crowd: 30 characters of random sizes, 40 % of them pushers, a few of them
// moving at up to 400 m/s now and then, over a floor with boxes and a ledge, at 10 to 240 Hz.
// Returns the positions of frames 41 to 90, and restores the state saved after frame 40 and
// replays those frames into `replayed`.
void rough_crowd(std::uint32_t seed, std::vector<glm::vec3>& played, std::vector<glm::vec3>& replayed) {
  World world;
  add_floor(world, 30.f);
  add_box(world, {-3, 0, 1}, {3, 1.5f, 2});
  add_box(world, {2, 0, -6}, {6, 0.4f, -2});
  add_box(world, {-8, 0, -8}, {-5, 3, 8});
  CharacterSet set(world);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  for (int i = 0; i < 30; ++i) {
    ControllerSettings settings;
    settings.radius = 0.2f + 0.6f * unit(rng);
    settings.height = 2.f * settings.radius + 0.2f + 2.f * unit(rng);
    settings.step_height = std::min(settings.step_height, 0.9f * (settings.height - settings.radius));
    set.add(settings, {-4.f + 10.f * unit(rng), 0.01f, -6.f + 12.f * unit(rng)},
            {.mass = 5.f + 200.f * unit(rng), .push = unit(rng) < 0.4f});
  }
  struct Frame {
    std::vector<glm::vec3> velocities;
    float dt;
  };
  std::vector<Frame> frames;
  std::vector<std::byte> saved;
  for (int f = 0; f < 90; ++f) {
    Frame frame{std::vector<glm::vec3>(set.size()), std::array{0.1f, 1.f / 60.f, 1.f / 240.f}[rng() % 3]};
    for (glm::vec3& v : frame.velocities) {
      const float speed = unit(rng) < 0.03f ? 400.f : 3.f;
      v = {speed * (2.f * unit(rng) - 1.f), -5.f, speed * (2.f * unit(rng) - 1.f)};
    }
    set.update(frame.velocities, frame.dt);
    frames.push_back(std::move(frame));
    if (f == 39) saved = set.save_state();
    if (f >= 40)
      for (std::uint32_t i = 0; i < set.size(); ++i) played.push_back(set.controller(CharacterId{i}).position());
  }
  set.restore_state(saved);
  for (int f = 40; f < 90; ++f) {
    set.update(frames[static_cast<std::size_t>(f)].velocities, frames[static_cast<std::size_t>(f)].dt);
    for (std::uint32_t i = 0; i < set.size(); ++i) replayed.push_back(set.controller(CharacterId{i}).position());
  }
}

} // namespace

TEST_CASE("a rough crowd's rollback replays the same bits, however its neighbour lists have grown") {
  // Restored, a set finds every character's neighbours anew, where the set that went on holds
  // lists grown over earlier updates, and fast pushers shove others meters, so moves are made
  // again in wider regions: none of it may part the replay from the run it replays (a move
  // made again meets only the characters in its region; see "a move made again meets the
  // characters in its region" in character_set_test.cpp).
  int differing = 0;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    std::vector<glm::vec3> played, replayed;
    rough_crowd(seed, played, replayed);
    REQUIRE(played.size() == replayed.size());
    if (std::memcmp(played.data(), replayed.data(), played.size() * sizeof(glm::vec3)) != 0) {
      ++differing;
      MESSAGE("seed " << seed << " replayed differently");
    }
  }
  CHECK(differing == 0);
}

TEST_CASE("a crowd state whose removed characters are not the set's is refused, and nothing changes") {
  World world;
  add_floor(world);
  CharacterSet set(world);
  for (int k = 0; k < 3; ++k) set.add({}, {2.f * float(k), 0, 0});
  set.remove(CharacterId{1});
  const glm::vec3 still[] = {{0, -1, 0}, {0, -1, 0}, {0, -1, 0}};
  set.update(still, 1.f / 60.f);
  const std::vector<std::byte> saved = set.save_state();
  CHECK(saved.size() == CharacterSet::state_bytes(3));
  set.restore_state(saved); // the same ids removed: taken
  const CharacterId back = set.add({}, {2, 0, 0});
  REQUIRE(back == CharacterId{1});
  const std::vector<std::byte> all_in = set.save_state();
  CHECK_THROWS_WITH_AS(set.restore_state(saved),
                       "CharacterSet::restore_state: character 1: state: removed when saved, but in the set", Error);
  set.remove(CharacterId{2});
  const std::vector<std::byte> before = set.save_state();
  CHECK_THROWS_WITH_AS(set.restore_state(all_in),
                       "CharacterSet::restore_state: character 2: state: removed from the set, but saved", Error);
  CHECK(set.save_state() == before);
}

TEST_CASE("characters' info changed between updates: made a pusher it pushes, put on no layer two pass through") {
  World world;
  add_floor(world);
  CharacterSet set(world);
  const CharacterId walker = set.add({}, {-1, 0, 0});
  const CharacterId other = set.add({}, {0, 0, 0});
  const auto walk = [&](int frames) {
    for (int frame = 0; frame < frames; ++frame) {
      const glm::vec3 velocities[] = {{2, -1, 0}, {0, -1, 0}};
      set.update(velocities, 1.f / 60.f);
    }
  };
  walk(30);
  CHECK(set.controller(other).position().x == 0.f); // blocked, not pushed
  set.set_info(walker, {.mass = 70.f, .push = true});
  CHECK(set.info(walker).push);
  const float from = set.controller(other).position().x;
  walk(60);
  CHECK(set.controller(other).position().x - from == doctest::Approx(1.f).epsilon(0.15)); // half of 2 m/s for 1 s
  CHECK_THROWS_WITH_AS(set.set_info(walker, {.mass = -1.f}),
                       "CharacterSet::set_info: CharacterInfo::mass = -1.000000 must be positive and finite (kg)",
                       Error);
  CHECK(set.info(walker).push); // unchanged
  // On no layer, neither meets the other (one that still met the walker would be moved out of
  // its way: only one of two meeting the other is blocked).
  set.set_info(other, {.layers = 0u});
  set.set_info(walker, {.layers = 0u});
  const float other_at = set.controller(other).position().x;
  walk(90);
  CHECK(set.controller(other).position().x == other_at);
  CHECK(set.controller(walker).position().x > other_at + 1.5f); // through it
}

} // namespace glide::test
