// A crowd heading for one doorway in a wall: pushing keeps it flowing, nobody overlaps another
// beyond the skin or goes into the wall, and whoever is not through yet waits in front of it.
#include "controller_scene.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/controller/job_threads.hpp>
#include <glide/gjk/segment_pair.hpp>

#include <algorithm>
#include <random>
#include <vector>

namespace glide::test {

namespace {

constexpr float k_door_half_width = 0.6f; // a 1.2 m doorway (m)
constexpr float k_wall_front = 0.f, k_wall_back = 0.3f;

struct Doorway {
  int through = 0;                 ///< characters past the wall at the end (count)
  int waiting = 0;                 ///< characters in front of the wall at the end (count)
  float worst_gap = 1e9f;          ///< closest two characters came (m; negative: overlap)
  float worst_wall = 1e9f;         ///< deepest any character went into geometry (m)
  std::uint64_t hash = 0;          ///< of every position of every frame
  std::size_t most_push_moves = 0; ///< the most moves the pushes made in one update (count)
};

// `count` characters spawned at seeded places up to `spread` m to either side of the doorway
// and up to `depth` m in front of its wall, each walking at `speed` for the doorway's middle
// and, once in it, straight on, with gravity's fall; at 60 Hz for `seconds`. Then the ones in
// front of the wall stop and the ones in the doorway walk on, for up to 1 s until nobody is
// in it: a flowing crowd has someone passing through most of the time, one wedged there stays.
Doorway doorway_run(int count, float seconds, bool push, std::uint32_t seed, float speed, float spread, float depth,
                    const ParallelFor& hook = {}) {
  World world;
  add_floor(world, 40.f);
  add_box(world, {-30, 0, k_wall_front}, {-k_door_half_width, 3, k_wall_back});
  add_box(world, {k_door_half_width, 0, k_wall_front}, {30, 3, k_wall_back});
  CharacterSet set(world);
  set.set_min_threaded(0); // threaded however few: the threads' results are checked
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> ux(-spread, spread), uz(-1.5f - depth, -1.5f);
  std::vector<glm::vec3> spawns;
  while (static_cast<int>(spawns.size()) < count) {
    const float x = ux(rng), z = uz(rng);
    const glm::vec3 p{x, 0.f, z};
    if (std::all_of(spawns.begin(), spawns.end(), [&](const glm::vec3& q) { return glm::length(p - q) > 0.7f; }))
      spawns.push_back(p);
  }
  for (const glm::vec3& p : spawns) set.add({}, p, {.push = push});

  Doorway d;
  std::vector<glm::vec3> velocities(spawns.size());
  const int frames = static_cast<int>(seconds / k_dt), most_frames = frames + static_cast<int>(1.f / k_dt);
  const auto in_doorway = [&](const glm::vec3& p, float r) {
    return p.z >= k_wall_front - r + 0.02f && p.z <= k_wall_back + r;
  };
  for (int frame = 0; frame < most_frames; ++frame) {
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const glm::vec3 p = set.controller(CharacterId{i}).position();
      const glm::vec3 to = p.z < k_wall_front ? glm::vec3(-p.x, 0.f, k_wall_front + 0.3f - p.z) : glm::vec3(0, 0, 1);
      const bool stops =
          frame >= frames && !in_doorway(p, set.controller(CharacterId{i}).settings().radius) && p.z < k_wall_front;
      velocities[i] = (stops ? 0.f : speed) * glm::normalize(to) + glm::vec3(0, -2, 0);
    }
    set.update(velocities, k_dt, hook);
    d.most_push_moves = std::max(d.most_push_moves, set.last_push_moves());
    bool all_through = true, doorway_clear = true;
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const glm::vec3 p = set.controller(CharacterId{i}).position();
      for (int k = 0; k < 3; ++k) d.hash = (d.hash ^ std::bit_cast<std::uint32_t>(p[k])) * 1099511628211ull;
      all_through = all_through && p.z > k_wall_back + 1.f;
      doorway_clear = doorway_clear && !in_doorway(p, set.controller(CharacterId{i}).settings().radius);
    }
    const bool last = (frame + 1 >= frames && doorway_clear) || frame + 1 == most_frames || all_through;
    if (frame % 4 == 3 || last) { // the checks cost more than the crowd
      d.worst_gap = std::min(d.worst_gap, closest_pair_gap(set, 1.f));
      for (std::uint32_t i = 0; i < set.size(); ++i)
        d.worst_wall = std::min(d.worst_wall, deepest_gap(world, set.controller(CharacterId{i})));
    }
    if (last) break;
  }
  for (std::uint32_t i = 0; i < set.size(); ++i) {
    const glm::vec3 p = set.controller(CharacterId{i}).position();
    const float r = set.controller(CharacterId{i}).settings().radius;
    d.through += p.z > k_wall_back + r;
    d.waiting += p.z < k_wall_front - r + 0.02f; // its capsule in front of the wall's face
  }
  return d;
}

} // namespace

TEST_CASE("fifty characters pushing for one doorway get through; without pushing an arch blocks it") {
  for (const std::uint32_t seed : {1u, 2u}) {
    CAPTURE(seed);
    const Doorway pushing = doorway_run(50, 30.f, true, seed, 2.f, 8.f, 8.f);
    CHECK(pushing.through >= 40);
    CHECK(pushing.through + pushing.waiting == 50); // nobody stuck in the doorway
    CHECK(pushing.worst_gap >= -k_penetration_tolerance);
    CHECK(pushing.worst_wall >= -k_penetration_tolerance);
    // Packed in front of the doorway, the pushes would make up to 9.5 moves a character in one
    // update; they stop at 4, and the crowd flows as well.
    CHECK(pushing.most_push_moves > 100);
    CHECK(pushing.most_push_moves <= 4 * 50);
    const Doorway polite = doorway_run(50, 10.f, false, seed, 2.f, 8.f, 8.f);
    CHECK(polite.through < 15); // walking into each other without pushing, they wedge in the doorway
    CHECK(polite.worst_gap >= -k_penetration_tolerance);
    CHECK(polite.worst_wall >= -k_penetration_tolerance);
  }
}

TEST_CASE("fifty characters pushing for one doorway get through walking at 1 to 3 m/s") {
  // Speeds and seeds at which the packed crowd forms arches that pushing alone does not break:
  // two characters behind two at the jambs, or one behind two at the corners.
  struct Run {
    float speed;
    std::uint32_t seed;
  };
  for (const Run run : {Run{1.f, 4}, Run{1.f, 6}, Run{1.f, 8}, Run{1.5f, 27}, Run{1.5f, 43}, Run{3.f, 4}}) {
    CAPTURE(run.speed);
    CAPTURE(run.seed);
    const Doorway d = doorway_run(50, 30.f, true, run.seed, run.speed, 8.f, 8.f);
    CHECK(d.through >= 40);
    CHECK(d.through + d.waiting == 50);
    CHECK(d.worst_gap >= -k_penetration_tolerance);
    CHECK(d.worst_wall >= -k_penetration_tolerance);
  }
}

TEST_CASE("a pushing crowd at a doorway moves bit-identically on 1 and 2 threads") {
  JobThreads two(2);
  const Doorway here = doorway_run(50, 5.f, true, 7, 2.f, 8.f, 8.f);
  const Doorway threaded = doorway_run(50, 5.f, true, 7, 2.f, 8.f, 8.f, two.hook());
  CHECK(here.hash == threaded.hash);
}

TEST_CASE("two hundred characters at one doorway: none overlaps, none in the wall, all through or waiting") {
  const Doorway d = doorway_run(200, 20.f, true, 11, 2.f, 10.f, 16.f);
  CHECK(d.through + d.waiting == 200);
  CHECK(d.through >= 50); // the ones behind step back for those ahead, so the pack keeps moving
  CHECK(d.most_push_moves <= 4 * 200);
  CHECK(d.worst_gap >= -k_penetration_tolerance);
  CHECK(d.worst_wall >= -k_penetration_tolerance);
}

} // namespace glide::test
