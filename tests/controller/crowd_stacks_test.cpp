// Stacks of characters standing on one another, two to four high, on lifts (some pressing their
// stack into a ceiling), sliding platforms and turntables, with pushers walking among them: no
// two characters overlap, none goes into static geometry, and the bytes are the same whatever the
// thread count.
#include "controller_scene.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/controller/job_threads.hpp>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace glide::test {

namespace {

constexpr int k_platforms = 12;  // (count)
constexpr int k_pushers = 30;    // tried; those clear of everything are added (count)
constexpr float k_seconds = 5.f; // (s)

struct Platform {
  int motion; // 0 lift (up to 4 m and back), 1 slider (2 m to either side), 2 turntable
  glm::vec3 base;
  float speed; // (rad/s of its cycle)
  PieceId id;
  gjk::Transform pose(float t) const {
    const float a = 0.5f * speed * t;
    if (motion == 0) return {{1, 0, 0, 0}, base + glm::vec3(0.f, 2.f * (1.f - std::cos(a)), 0.f)};
    if (motion == 1) return {{1, 0, 0, 0}, base + glm::vec3(2.f * std::sin(a), 0.f, 0.f)};
    return {glm::angleAxis(0.3f * a, glm::vec3(0, 1, 0)), base};
  }
};

struct StacksRun {
  std::vector<glm::vec3> positions; ///< every character's feet after every update
  float worst_pair = 1e9f;          ///< closest two characters came (m; negative: overlapping)
  float worst_static = 1e9f;        ///< deepest a character was in static geometry (m)
  int on_characters = 0;            ///< character-updates ending on another character (count)
  int crushed = 0;                  ///< character-updates reported crushed (count)
};

StacksRun run_stacks(unsigned seed, float hz, unsigned threads, bool watch) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f), u01(0.f, 1.f);
  const float dt = 1.f / hz;
  World world;
  add_floor(world, 40.f);
  const ControllerSettings s;
  std::vector<Platform> platforms;
  std::vector<int> heights;
  std::vector<PieceId> still;
  for (int i = 0; i < k_platforms; ++i) {
    const glm::vec3 base(-30.f + 10.f * float(i % 6), 0.25f, -10.f + 20.f * float(i / 6));
    const PieceId id = world.add_piece(gjk::ConvexHull::box({2.f, 0.25f, 2.f}), {{1, 0, 0, 0}, base});
    platforms.push_back({i % 3, base, 1.f + 5.f * u01(rng), id});
    heights.push_back(2 + static_cast<int>(3.f * u01(rng)));
    // 0.2 to 3 m above a lift's stack: the lift rises 4 m, so most of them press theirs into it.
    if (i % 3 == 0 && u01(rng) < 0.7f) {
      const float underside = 0.25f + float(heights.back()) * (s.height + 0.01f) + 0.2f + 2.8f * u01(rng);
      still.push_back(
          add_box(world, base + glm::vec3(-2.5f, underside, -2.5f), base + glm::vec3(2.5f, underside + 0.5f, 2.5f)));
    }
  }
  for (int i = 0; i < 10; ++i) { // walls the pushers walk round
    const float x = 35.f * u(rng), z = 35.f * u(rng);
    still.push_back(add_box(world, {x - 0.3f, 0.f, z - 2.f}, {x + 0.3f, 2.f, z + 2.f}));
  }
  world.update();
  CharacterSet set(world);
  set.set_min_threaded(0); // threaded however few: the threads' results are checked
  for (int i = 0; i < k_platforms; ++i) {
    const glm::vec3 off(0.3f * u(rng), 0.f, 0.3f * u(rng));
    for (int k = 0; k < heights[static_cast<std::size_t>(i)]; ++k) {
      const float x = 0.05f * u(rng), z = 0.05f * u(rng);
      const glm::vec3 feet(x, 0.25f + 0.01f + float(k) * (s.height + 0.01f), z);
      set.add(s, platforms[static_cast<std::size_t>(i)].base + off + feet, {.mass = 40.f + 100.f * u01(rng)});
    }
    set.add(s, platforms[static_cast<std::size_t>(i)].base + glm::vec3(1.3f, 0.26f, 1.3f));
  }
  const std::uint32_t walkers = static_cast<std::uint32_t>(set.size());
  for (int i = 0; i < k_pushers; ++i) {
    const float x = 35.f * u(rng), z = 35.f * u(rng);
    const glm::vec3 feet(x, s.skin_width, z);
    const gjk::Capsule body{{feet + s.up * s.radius, feet + s.up * (s.height - s.radius)}, s.radius};
    bool clear = world.overlap_capsule(body, 0.05f).empty();
    for (std::uint32_t j = 0; j < set.size() && clear; ++j) {
      const gjk::Capsule other = set.controller(CharacterId{j}).capsule();
      clear = gjk::closest_points(body.segment, other.segment).distance > body.radius + other.radius + 0.05f;
    }
    if (clear) set.add(s, feet, {.mass = 80.f, .push = true});
  }
  JobThreads pool(threads);
  std::vector<glm::vec3> velocities(set.size()), fall(set.size(), glm::vec3(0.f)), goals(set.size());
  for (glm::vec3& goal : goals) {
    const float x = 30.f * u(rng), z = 30.f * u(rng);
    goal = {x, 0.f, z};
  }
  StacksRun run;
  const int frames = static_cast<int>(k_seconds * hz);
  for (int frame = 1; frame <= frames; ++frame) {
    for (const Platform& p : platforms) world.move_piece(p.id, p.pose(float(frame) * dt), dt);
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const Controller& c = set.controller(CharacterId{i});
      fall[i] =
          c.ground().state == GroundState::on_ground ? glm::vec3(0.f) : fall[i] + glm::vec3(0.f, -9.81f * dt, 0.f);
      glm::vec3 walk(0.f);
      if (i >= walkers) {
        glm::vec3 to = goals[i] - c.position();
        to.y = 0.f;
        const float distance = glm::length(to);
        if (distance < 1.f) {
          const float x = 30.f * u(rng), z = 30.f * u(rng);
          goals[i] = {x, 0.f, z};
        } else {
          walk = to * (3.f / distance);
        }
      }
      velocities[i] = walk + fall[i];
    }
    set.update(velocities, dt, pool.hook());
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const Controller& c = set.controller(CharacterId{i});
      run.positions.push_back(c.position());
      if (!watch) continue;
      run.on_characters += c.ground().state == GroundState::on_ground && c.ground().target == HitTarget::character;
      run.crushed += set.result(CharacterId{i}).flags.crushed ? 1 : 0;
      for (const Contact& contact : world.overlap_capsule(c.capsule(), 0.f))
        if (contact.piece.value == 0 || std::find(still.begin(), still.end(), contact.piece) != still.end())
          run.worst_static = std::min(run.worst_static, contact.distance);
    }
    if (watch) run.worst_pair = std::min(run.worst_pair, closest_pair_gap(set, 2.f));
  }
  return run;
}

} // namespace

TEST_CASE("stacks of two to four on lifts pressing some into ceilings, on sliders and turntables, pushers "
          "among them: no two characters overlap, none in static geometry, the same bits on 1 and 8 threads") {
  struct Case {
    unsigned seed;
    float hz;
  };
  for (const Case c : {Case{1u, 144.f}, Case{2u, 30.f}}) {
    CAPTURE(c.seed);
    CAPTURE(c.hz);
    const StacksRun here = run_stacks(c.seed, c.hz, 1, true);
    // Before a stack moved again as a whole, its characters were pressed into one another by
    // 4.7 and 9.9 cm in these two runs.
    CHECK(here.worst_pair >= -k_penetration_tolerance);
    CHECK(here.worst_static >= -1e-3f);
    CHECK(here.on_characters > 1000); // the stacks stand
    CHECK(here.crushed > 0);          // and the lifts press some into their ceilings
    MESSAGE("closest pair " << here.worst_pair << " m, deepest in static geometry " << here.worst_static
                            << " m, on another " << here.on_characters << ", crushed " << here.crushed);
    const StacksRun there = run_stacks(c.seed, c.hz, 8, false);
    REQUIRE(there.positions.size() == here.positions.size());
    CHECK(std::memcmp(there.positions.data(), here.positions.data(), here.positions.size() * sizeof(glm::vec3)) == 0);
  }
}

} // namespace glide::test
