// A crowd's characters added with the same settings share one copy of them: what one of them
// changes is its own, and sharing changes no result.
#include "controller_scene.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/error.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace glide::test {

namespace {

// The positions of a crowd walking at random for `frames`, each added with `settings`.
// Each walks its own way, turning a little each frame, so the crowd spreads and meets.
std::vector<glm::vec3> walk(const ControllerSettings& settings, int count, int frames, int& character_hits) {
  World world;
  add_floor(world, 20.f);
  add_box(world, {-2, 0, 2}, {2, 1, 4});
  CharacterSet set(world);
  for (int i = 0; i < count; ++i) set.add(settings, {-6.f + float(i % 12), 0.f, -6.f + float(i / 12)});
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> heading(static_cast<std::size_t>(count));
  for (float& h : heading) h = 3.1416f * u(rng);
  std::vector<glm::vec3> velocities(static_cast<std::size_t>(count)), trail;
  for (int frame = 0; frame < frames; ++frame) {
    for (std::size_t i = 0; i < velocities.size(); ++i) {
      heading[i] += 0.1f * u(rng);
      velocities[i] = {3.f * std::cos(heading[i]), -2.f, 3.f * std::sin(heading[i])};
    }
    set.update(velocities, 1.f / 60.f);
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      trail.push_back(set.controller(CharacterId{i}).position());
      const MoveResult& r = set.result(CharacterId{i});
      for (int h = 0; h < r.hit_count; ++h)
        character_hits += r.hits[static_cast<std::size_t>(h)].target == HitTarget::character;
    }
  }
  return trail;
}

} // namespace

TEST_CASE("characters added with the same settings share them; what one changes stays its own") {
  World world;
  add_floor(world);
  CharacterSet set(world);
  ControllerSettings tall;
  tall.height = 2.f;
  const float lift = 0.02f; // feet the skin above the floor
  const CharacterId a = set.add(tall, {0, lift, 0});
  const CharacterId b = set.add(tall, {2, lift, 0});
  const CharacterId c = set.add({}, {4, lift, 0});
  CHECK(&set.controller(a).settings() == &set.controller(b).settings());
  CHECK(set.controller(c).settings().height == ControllerSettings{}.height);
  // Kinds added in turn share with their own kind.
  const CharacterId tall_again = set.add(tall, {0, lift, 2});
  const CharacterId short_again = set.add({}, {2, lift, 2});
  CHECK(&set.controller(tall_again).settings() == &set.controller(a).settings());
  CHECK(&set.controller(short_again).settings() == &set.controller(c).settings());
  // A refused add adds nothing.
  ControllerSettings bad = tall;
  bad.radius = -1.f;
  const std::size_t before = set.size();
  CHECK_THROWS_AS(set.add(bad, {20, lift, 20}), Error);
  CHECK(set.size() == before);

  // Filters are code: never compared, never shared, with one that has them or one that has not.
  ControllerSettings picky;
  picky.character_filter = [](CharacterId) { return true; };
  const CharacterId d = set.add(picky, {6, lift, 0});
  const CharacterId e = set.add(picky, {8, lift, 0});
  const CharacterId plain = set.add({}, {10, lift, 2});
  CHECK(&set.controller(d).settings() != &set.controller(e).settings());
  CHECK(!set.controller(plain).settings().character_filter);

  // -0 and 0 are told apart.
  ControllerSettings flat;
  flat.step_min_forward = 0.f;
  ControllerSettings flat_negative = flat;
  flat_negative.step_min_forward = -0.f;
  const CharacterId f = set.add(flat, {10, lift, 0});
  const CharacterId g = set.add(flat_negative, {12, lift, 0});
  CHECK(&set.controller(f).settings() != &set.controller(g).settings());
  CHECK(!std::signbit(set.controller(f).settings().step_min_forward));
  CHECK(std::signbit(set.controller(g).settings().step_min_forward));

  // One crouches, then changes its step height: the other keeps its own.
  REQUIRE(set.controller(b).resize(1.2f));
  CHECK(set.controller(a).settings().height == 2.f);
  ControllerSettings low = set.controller(b).settings();
  low.step_height = 0.1f;
  REQUIRE(set.controller(b).set_settings(low));
  CHECK(set.controller(a).settings().step_height == tall.step_height);
  CHECK(set.controller(b).settings().step_height == 0.1f);

  // A state saved crouched and restored: only the restored one crouches.
  const std::vector<std::byte> crouched = set.controller(b).save_state();
  REQUIRE(set.controller(b).resize(2.f));
  const std::vector<std::byte> standing = set.controller(a).save_state();
  set.controller(a).restore_state(crouched);
  CHECK(set.controller(a).settings().height == 1.2f);
  CHECK(set.controller(b).settings().height == 2.f);
  set.controller(a).restore_state(standing);
  CHECK(set.controller(a).settings().height == 2.f);
}

TEST_CASE("a crowd sharing its settings moves bit-identically to one whose characters each own theirs") {
  constexpr int count = 60, frames = 90;
  int shared_hits = 0, owned_hits = 0;
  const std::vector<glm::vec3> shared = walk({}, count, frames, shared_hits);
  // A filter that lets everyone in keeps every character's settings its own.
  ControllerSettings own;
  own.character_filter = [](CharacterId) { return true; };
  const std::vector<glm::vec3> owned = walk(own, count, frames, owned_hits);
  REQUIRE(owned.size() == shared.size());
  CHECK(std::memcmp(owned.data(), shared.data(), shared.size() * sizeof(glm::vec3)) == 0);
  CHECK(owned_hits == shared_hits);
  // Not a trivial walk: the characters went far, and met each other.
  CHECK(glm::length(shared.back() - shared[count - 1]) > 1.f);
  CHECK(shared_hits > 20);
}

} // namespace glide::test
