// Characters that pass through some others: ControllerSettings::character_filter, alone and
// with layers, in a CharacterSet and for a Controller given characters.
#include "controller_scene.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/gjk/segment_pair.hpp>

#include <cstring>
#include <random>
#include <vector>

namespace glide::test {

namespace {

// Gap between two characters' capsules (m; negative when overlapping).
float gap_between(const Controller& a, const Controller& b) {
  const gjk::Capsule p = a.capsule(), q = b.capsule();
  return gjk::closest_points(p.segment, q.segment).distance - p.radius - q.radius;
}

// Whether a move's hits name character `other`.
bool names(const MoveResult& r, CharacterId other) {
  for (int h = 0; h < r.hit_count; ++h)
    if (r.hits[static_cast<std::size_t>(h)].target == HitTarget::character &&
        r.hits[static_cast<std::size_t>(h)].character == other)
      return true;
  return false;
}

// A filter that refuses the characters listed.
std::function<bool(CharacterId)> refusing(std::vector<std::uint32_t> ids) {
  return [ids = std::move(ids)](CharacterId o) { return std::find(ids.begin(), ids.end(), o.value) == ids.end(); };
}

// Two characters walk head-on (2 m/s for 4 s) along a corridor one capsule wide; a third
// stands 1.5 m past the second's start, in the first's way.
struct Walk {
  ControllerSettings a, b;
  CharacterInfo a_info, b_info;
};
struct Outcome {
  glm::vec3 a, b, c;
  bool a_named_b = false, b_named_a = false, a_named_c = false;
  float worst_gap_ac = 1e9f; ///< closest the first and the third came (m)
};
Outcome walk_head_on(const Walk& w) {
  World world;
  add_floor(world);
  add_box(world, {-20, 0, 0.5f}, {20, 3, 1.5f});
  add_box(world, {-20, 0, -1.5f}, {20, 3, -0.5f});
  CharacterSet set(world);
  const CharacterId a = set.add(w.a, {-3, 0, 0}, w.a_info);
  const CharacterId b = set.add(w.b, {3, 0, 0}, w.b_info);
  const CharacterId c = set.add({}, {4.5f, 0, 0});
  Outcome o;
  for (int frame = 0; frame < 240; ++frame) {
    const glm::vec3 velocities[] = {{2, -1, 0}, {-2, -1, 0}, {0, -1, 0}};
    set.update(velocities, 1.f / 60.f);
    o.a_named_b |= names(set.result(a), b);
    o.b_named_a |= names(set.result(b), a);
    o.a_named_c |= names(set.result(a), c);
    o.worst_gap_ac = std::min(o.worst_gap_ac, gap_between(set.controller(a), set.controller(c)));
  }
  o.a = set.controller(a).position();
  o.b = set.controller(b).position();
  o.c = set.controller(c).position();
  return o;
}

} // namespace

TEST_CASE("two characters whose filters refuse each other walk through each other; others still block") {
  Walk w;
  w.a.character_filter = refusing({1});
  w.b.character_filter = refusing({0});
  const Outcome o = walk_head_on(w);
  CHECK(o.b.x < -4.f); // walked 8 m from x = 3: through the first, unhindered
  CHECK_FALSE(o.a_named_b);
  CHECK_FALSE(o.b_named_a);
  // The first goes on until the standing third, which it meets: stopped the skin apart.
  CHECK(o.a.x == doctest::Approx(4.5f - 0.6f).epsilon(0.01));
  CHECK(o.a_named_c);
  CHECK(o.worst_gap_ac >= -k_penetration_tolerance);
}

TEST_CASE("a listener's validate_character refuses characters as the filter does") {
  // The first refuses the second by its listener, the second the first by its filter.
  struct Refuse : ContactListener {
    bool validate_character(CharacterId other) override { return other != CharacterId{1}; }
  } refuse;
  World world;
  add_floor(world);
  add_box(world, {-20, 0, 0.5f}, {20, 3, 1.5f});
  add_box(world, {-20, 0, -1.5f}, {20, 3, -0.5f});
  CharacterSet set(world);
  const CharacterId a = set.add({}, {-3, 0, 0});
  ControllerSettings b_settings;
  b_settings.character_filter = refusing({0});
  const CharacterId b = set.add(b_settings, {3, 0, 0});
  set.controller(a).set_listener(&refuse);
  bool named = false;
  for (int frame = 0; frame < 240; ++frame) {
    const glm::vec3 velocities[] = {{2, -1, 0}, {-2, -1, 0}};
    set.update(velocities, 1.f / 60.f);
    named |= names(set.result(a), b) || names(set.result(b), a);
  }
  CHECK_FALSE(named);
  CHECK(set.controller(a).position().x > 4.f);
  CHECK(set.controller(b).position().x < -4.f);

  // A Controller given characters asks its listener too, and again once it is unset.
  const CapsuleObstacle one{{{{1, 0.3f, 0}, {1, 1.5f, 0}}, 0.3f}, {}, 1u, CharacterId{1}};
  Controller c(world, {}, {0, 0, 0});
  c.set_characters(std::span(&one, 1));
  c.set_listener(&refuse);
  for (int frame = 0; frame < 60; ++frame) c.move({2, -1, 0}, 1.f / 60.f);
  CHECK(c.position().x > 1.5f);
  c.set_listener(nullptr);
  c.teleport({0, 0, 0});
  for (int frame = 0; frame < 60; ++frame) c.move({2, -1, 0}, 1.f / 60.f);
  CHECK(c.position().x == doctest::Approx(1.f - 0.6f).epsilon(0.02));
}

TEST_CASE("layers and the filter together: a pair meets only when both let it") {
  SUBCASE("layers meet, filters accept: blocked") {
    Walk w;
    w.a.character_filter = refusing({2}); // asked, but refuses only a character not met head-on
    w.b.character_filter = refusing({2});
    const Outcome o = walk_head_on(w);
    CHECK(o.a.x < o.b.x);
    CHECK(o.b.x - o.a.x == doctest::Approx(0.6f).epsilon(0.05));
    CHECK(o.a_named_b);
    CHECK(o.b_named_a);
  }
  SUBCASE("filters accept, layers do not meet: through") {
    Walk w;
    w.a.character_filter = refusing({});
    w.b.character_filter = refusing({});
    w.a_info.layers = 2u;
    w.b_info.layers = 4u;
    w.a.layer_mask = ~4u;
    w.b.layer_mask = ~2u;
    const Outcome o = walk_head_on(w);
    CHECK(o.b.x < -4.f);
    CHECK_FALSE(o.a_named_b);
    CHECK_FALSE(o.b_named_a);
  }
  SUBCASE("layers meet, filters refuse: through") {
    Walk w;
    w.a_info.layers = 2u;
    w.b_info.layers = 4u;
    w.a.layer_mask = 4u | 1u; // meets the second and the third (layer 1)
    w.b.layer_mask = 2u;
    w.a.character_filter = refusing({1});
    w.b.character_filter = refusing({0});
    const Outcome o = walk_head_on(w);
    CHECK(o.b.x < -4.f);
    CHECK_FALSE(o.a_named_b);
    CHECK(o.a_named_c);
  }
  SUBCASE("only one refuses: it walks on, and the other is moved out of its way as by a moving piece") {
    Walk w;
    w.a.character_filter = refusing({1});
    const Outcome o = walk_head_on(w);
    CHECK_FALSE(o.a_named_b);
    CHECK(o.b_named_a);
    // The first walks its 8 m unhindered. The second, meeting it, is moved out of its way by its
    // recovery, ahead of it, and never walks through it; pressed on the third, it moves that
    // one out of the way too, as a moving piece pressing a character on another does.
    CHECK(o.a.x == doctest::Approx(5.f).epsilon(0.01));
    CHECK(o.b.x - o.a.x > 0.6f - 0.02f);
    CHECK(o.c.x - o.b.x > 0.6f - k_penetration_tolerance);
  }
}

TEST_CASE("one walking through a second presses it into no third: the push out of it passes into no one") {
  // A meets the world only and walks through B, which meets A and recovers out of it, toward C
  // beside it. Out of a pile's overlaps a push may pass into a neighbour by half the overlap, as
  // that one then recovers too; A never moves out of B's way, so B stops at C and moves it
  // aside, and B and C, which meet each other, never overlap.
  for (const float speed : {1.f, 3.f})
    for (const float dt : {1.f / 60.f, 0.1f}) {
      CAPTURE(speed);
      CAPTURE(dt);
      World world;
      add_floor(world);
      CharacterSet set(world);
      ControllerSettings world_only;
      world_only.layer_mask = 1u;
      const CharacterInfo on_two{.layers = 2u};
      const CharacterId c = set.add({}, {0, 0, 0}, on_two);
      const CharacterId b = set.add({}, {0.62f, 0, 0}, on_two);
      const CharacterId a = set.add(world_only, {2.5f, 0, 0}, on_two);
      float worst = 1e9f;
      const int frames = static_cast<int>(5.f / (speed * dt)); // A walks 5 m
      for (int frame = 0; frame < frames; ++frame) {
        const glm::vec3 velocities[] = {{0, -1, 0}, {0, -1, 0}, {-speed, -1, 0}};
        set.update(velocities, dt);
        worst = std::min(worst, gap_between(set.controller(b), set.controller(c)));
      }
      CHECK(worst >= -k_penetration_tolerance);
      CHECK(set.controller(a).position().x < -1.f); // it walked on, through both
    }
}

namespace {

// 120 characters walking random headings; each one refuses some others by their ids (some
// pairs both ways, some one way) and belongs to one of two layers. Returns every position of
// every frame, and the closest two characters that meet each other both ways came.
std::vector<glm::vec3> filtered_crowd(ParallelFor hook, float* worst_gap) {
  constexpr int count = 120, frames = 60;
  World world;
  add_floor(world, 30.f);
  CharacterSet set(world);
  set.set_min_threaded(0); // threaded however few: the threads' results are checked
  const auto refuses = [](std::uint32_t i, std::uint32_t j) { return (i + j) % 3 == 0 || (i % 2 == 0 && j % 5 == 0); };
  for (std::uint32_t i = 0; i < count; ++i) {
    ControllerSettings s;
    s.character_filter = [i, refuses](CharacterId o) { return !refuses(i, o.value); };
    s.layer_mask = i % 7 == 0 ? 2u : ~0u; // every 7th meets layer 2 only
    CharacterInfo info;
    info.layers = i % 4 == 0 ? 2u : 1u;
    set.add(s, {-6.f + float(i % 12), 0.f, -5.f + float(i / 12)}, info);
  }
  const auto meets = [&](std::uint32_t i, std::uint32_t j) {
    const bool layers = (set.controller(CharacterId{i}).settings().layer_mask & (j % 4 == 0 ? 2u : 1u)) != 0;
    return layers && !refuses(i, j);
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::vec3> velocities(count), trail;
  for (int frame = 0; frame < frames; ++frame) {
    for (glm::vec3& v : velocities) v = {4.f * u(rng), -2.f, 4.f * u(rng)};
    set.update(velocities, 1.f / 60.f, hook);
    for (std::uint32_t i = 0; i < count; ++i) trail.push_back(set.controller(CharacterId{i}).position());
    if (!worst_gap) continue;
    for (std::uint32_t i = 0; i < count; ++i)
      for (std::uint32_t j = i + 1; j < count; ++j)
        if (meets(i, j) && meets(j, i))
          *worst_gap =
              std::min(*worst_gap, gap_between(set.controller(CharacterId{i}), set.controller(CharacterId{j})));
  }
  return trail;
}

} // namespace

TEST_CASE("a crowd with filters and layers is bit-identical on 1, 2 and 8 threads; pairs that meet never overlap") {
  float worst_gap = 1e9f;
  const std::vector<glm::vec3> here = filtered_crowd({}, &worst_gap);
  CHECK(worst_gap >= -k_penetration_tolerance);
  for (const unsigned threads : {1u, 2u, 8u}) {
    JobThreads pool(threads);
    const std::vector<glm::vec3> there = filtered_crowd(pool.hook(), nullptr);
    REQUIRE(there.size() == here.size());
    CHECK(std::memcmp(there.data(), here.data(), here.size() * sizeof(glm::vec3)) == 0);
  }
}

TEST_CASE("a Controller given characters passes through those its filter refuses, asked at each move") {
  World world;
  add_floor(world);
  ControllerSettings settings;
  settings.character_filter = refusing({7});
  // Character 7 stands 1 m ahead, character 8 3 m ahead.
  const CapsuleObstacle others[] = {{{{{1, 0.3f, 0}, {1, 1.5f, 0}}, 0.3f}, {}, 1u, CharacterId{7}},
                                    {{{{3, 0.3f, 0}, {3, 1.5f, 0}}, 0.3f}, {}, 1u, CharacterId{8}}};
  Controller c(world, settings, {0, 0, 0});
  c.set_characters(others);
  bool named_7 = false;
  for (int frame = 0; frame < 120; ++frame) named_7 |= names(c.move({2, -1, 0}, 1.f / 60.f), CharacterId{7});
  CHECK_FALSE(named_7);
  CHECK(c.position().x == doctest::Approx(3.f - 0.6f).epsilon(0.01)); // through 7, stopped by 8

  // Without the filter the same walk stops at character 7.
  settings.character_filter = nullptr;
  c.teleport({0, 0, 0});
  REQUIRE(c.set_settings(settings));
  for (int frame = 0; frame < 120; ++frame) c.move({2, -1, 0}, 1.f / 60.f);
  CHECK(c.position().x == doctest::Approx(1.f - 0.6f).epsilon(0.02));
}

} // namespace glide::test
