// A crowd of mixed bodies doing what players do: four sizes, half of them pushing, walking and
// running, jumping, turning back and stretching some frames, among pillars, ramps, low boxes and
// thin walls, at the origin and 2 km out.
#include "controller_scene.hpp"

#include <glide/controller/job_threads.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace glide::test {

namespace {

constexpr int k_count = 200;  // characters (count)
constexpr int k_frames = 360; // updates (count)

// A yard of 36 m x 36 m walled in, with pillars, low boxes, ramps tilted up to 50 degrees and
// 4 cm thick walls, seeded; `o` offsets all of it (m).
void build_yard(World& world, const glm::vec3& o, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f), u01(0.f, 1.f);
  add_box(world, o + glm::vec3(-30, -2, -30), o + glm::vec3(30, 0, 30)); // the floor, its top at y = 0
  for (int side = 0; side < 4; ++side) {
    const float turn = 1.5707963f * static_cast<float>(side);
    add_turned_box(world, o + glm::vec3(20.f * std::sin(turn), 2.f, 20.f * std::cos(turn)), {20, 2, 0.5f},
                   glm::angleAxis(turn, glm::vec3(0, 1, 0)));
  }
  for (int i = 0; i < 40; ++i) {
    const float x = 17.f * u(rng), z = 17.f * u(rng), turn = 3.f * u(rng), tilt = 0.2f + 0.67f * u01(rng);
    const glm::vec3 at = o + glm::vec3(x, 0, z);
    const glm::quat yaw = glm::angleAxis(turn, glm::vec3(0, 1, 0));
    switch (i % 4) {
    case 0:
      add_turned_box(world, at + glm::vec3(0, 1.5f, 0), {0.3f, 1.5f, 0.3f}, yaw);
      break;
    case 1:
      add_turned_box(world, at + glm::vec3(0, 0.2f, 0), {1.f + u01(rng), 0.2f + 0.2f * u01(rng), 1.f}, yaw);
      break;
    case 2:
      add_turned_box(world, at, {2, 0.5f, 2}, yaw * glm::angleAxis(tilt, glm::vec3(1, 0, 0)));
      break;
    default:
      add_turned_box(world, at + glm::vec3(0, 1, 0), {0.02f, 1, 1.5f}, yaw);
      break;
    }
  }
  world.update();
}

struct MixedRun {
  std::vector<glm::vec3> positions; ///< every character's feet after every update
  float worst_pair = 1e9f;          ///< closest two characters came (m; negative: overlapping)
  float worst_piece = 1e9f;         ///< deepest a character was in a piece (m; negative: inside)
  int character_hits = 0;           ///< hits naming a character (count)
  std::size_t conflicts = 0;        ///< moves taken back and made again (count)
};

MixedRun run_mixed(const glm::vec3& o, const ParallelFor& parallel_for) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f), u01(0.f, 1.f);
  World world;
  build_yard(world, o, rng);
  CharacterSet set(world);
  set.set_min_threaded(0); // threaded however few: the threads' results are checked
  std::array<ControllerSettings, 4> kinds;
  const std::array<float, 4> radii = {0.2f, 0.3f, 0.5f, 0.8f};
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    kinds[k].radius = radii[k];
    kinds[k].height = 2.f * radii[k] + 0.3f * static_cast<float>(k);
    kinds[k].step_height = std::min(kinds[k].step_height, kinds[k].height - radii[k]);
  }
  // Seeded spots, clear of the pieces and of each other; one in seven drops from up to 8 m.
  for (int tries = 0; set.size() < k_count && tries < 100 * k_count; ++tries) {
    const ControllerSettings& s = kinds[static_cast<std::size_t>(tries) % kinds.size()];
    const float drop = tries % 7 == 0 ? 8.f * u01(rng) : 0.f;
    const float x = 18.f * u(rng), z = 18.f * u(rng);
    const glm::vec3 feet = o + glm::vec3(x, 0.05f + drop, z);
    const gjk::Capsule body{{feet + s.up * s.radius, feet + s.up * (s.height - s.radius)}, s.radius};
    bool clear = world.overlap_capsule(body, s.skin_width).empty();
    for (std::uint32_t j = 0; j < set.size() && clear; ++j) {
      const gjk::Capsule other = set.controller(CharacterId{j}).capsule();
      clear = gjk::closest_points(body.segment, other.segment).distance > body.radius + other.radius + 0.02f;
    }
    if (clear) set.add(s, feet, {.mass = 20.f + 180.f * u01(rng), .push = tries % 2 == 0});
  }
  REQUIRE(set.size() == k_count);
  // All head for the middle first (a pile), then for new seeded goals every 2 s.
  std::vector<glm::vec3> goals(set.size()), velocities(set.size());
  std::vector<float> fall(set.size(), 0.f);
  for (glm::vec3& goal : goals) {
    const float x = 3.f * u(rng), z = 3.f * u(rng);
    goal = o + glm::vec3(x, 0, z);
  }
  MixedRun run;
  for (int frame = 0; frame < k_frames; ++frame) {
    const float dt = frame % 13 == 0 ? 4.f / 60.f : 1.f / 60.f; // a hitch now and then
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const Controller& c = set.controller(CharacterId{i});
      if (frame % 120 == 60) {
        const float x = 17.f * u(rng), z = 17.f * u(rng);
        goals[i] = o + glm::vec3(x, 0, z);
      }
      glm::vec3 to = goals[i] - c.position();
      to.y = 0.f;
      const float distance = glm::length(to), speed = i % 5 == 0 ? 8.f : 2.5f;
      glm::vec3 walk = distance > 1e-3f ? to * (speed / distance) : glm::vec3(0.f);
      if (frame % 50 == 25 && i % 3 == 0) walk = -walk;
      const bool jumps = frame % 90 == 45 && i % 4 == 0;
      fall[i] = c.ground().state == GroundState::on_ground ? (jumps ? 5.f : 0.f) : fall[i] - 9.81f * dt;
      velocities[i] = walk + glm::vec3(0.f, fall[i], 0.f);
    }
    set.update(velocities, dt, parallel_for);
    run.conflicts += set.last_conflicts();
    run.worst_pair = std::min(run.worst_pair, closest_pair_gap(set, 2.f));
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const Controller& c = set.controller(CharacterId{i});
      run.positions.push_back(c.position());
      if (frame % 8 == 0) run.worst_piece = std::min(run.worst_piece, deepest_gap(world, c));
      const MoveResult& r = set.result(CharacterId{i});
      for (int h = 0; h < r.hit_count; ++h)
        run.character_hits += r.hits[static_cast<std::size_t>(h)].target == HitTarget::character;
    }
  }
  return run;
}

bool all_finite(const std::vector<glm::vec3>& positions) {
  return std::all_of(positions.begin(), positions.end(),
                     [](const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); });
}

} // namespace

TEST_CASE("a crowd of four sizes, half pushing, running, jumping and turning back among ramps and thin walls: "
          "no overlap, none in a piece, the same bits on 1, 2 and 8 threads, at the origin and 2 km out") {
  for (const glm::vec3 o : {glm::vec3(0.f), glm::vec3(2000.f, 40.f, -2000.f)}) {
    CAPTURE(o.x);
    const MixedRun here = run_mixed(o, {});
    CHECK(all_finite(here.positions));
    CHECK(here.worst_pair >= -k_penetration_tolerance);
    CHECK(here.worst_piece >= -k_penetration_tolerance);
    // The crowd is packed and quick enough that characters meet, press and take moves back.
    CHECK(here.character_hits > 2000);
    CHECK(here.conflicts > 300);
    MESSAGE("character hits " << here.character_hits << ", conflicts " << here.conflicts << ", closest pair "
                              << here.worst_pair << " m, deepest in a piece " << here.worst_piece << " m");
    for (const unsigned threads : {2u, 8u}) {
      JobThreads pool(threads);
      const MixedRun there = run_mixed(o, pool.hook());
      REQUIRE(there.positions.size() == here.positions.size());
      CHECK(std::memcmp(there.positions.data(), here.positions.data(), here.positions.size() * sizeof(glm::vec3)) == 0);
    }
  }
}

} // namespace glide::test
