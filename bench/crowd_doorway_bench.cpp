// A pushing crowd at one doorway: 50 characters spawned at seeded places over 16 m x 8 m in
// front of a wall walk at 2 m/s for the middle of a 1.2 m doorway in it, for 30 s at 60 Hz (the
// scene of tests/controller/crowd_doorway_test.cpp). Every update is timed on its own: the
// crowd packs in front of the doorway and its pushes move characters again and again, so the
// worst frames cost far more than the mean. One iteration is one whole run of a seed.
// Counters: the mean, 99th percentile and worst frame per character (µs per character-update),
// how many got through and the most moves the pushes made in one update.
#include <glide/controller/character_set.hpp>
#include <glide/controller/job_threads.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/world/world.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

namespace {

constexpr float k_dt = 1.f / 60.f;
constexpr float k_door_half_width = 0.6f; // a 1.2 m doorway (m)
constexpr float k_wall_front = 0.f, k_wall_back = 0.3f;
constexpr int k_count = 50;           // characters (count)
constexpr float k_seconds = 30.f;     // of walking (s)
constexpr float k_speed = 2.f;        // (m/s)
constexpr float k_spread = 8.f;       // spawns lie up to this far to either side of the doorway (m)
constexpr float k_depth = 8.f;        // ... and up to 1.5 m + this in front of the wall (m)
constexpr float k_min_spacing = 0.7f; // between spawns (m)

void add_box(glide::World& world, const glm::vec3& lo, const glm::vec3& hi) {
  glide::gjk::Transform t;
  t.translation = 0.5f * (lo + hi);
  world.add_piece(glide::gjk::ConvexHull::box(0.5f * (hi - lo)), t);
}

struct Run {
  std::vector<double> frame_seconds;
  int through = 0;
  std::size_t most_push_moves = 0; // in one update (count)
};

Run doorway_run(std::uint32_t seed, const glide::ParallelFor& hook) {
  glide::World world;
  add_box(world, {-40, -1, -40}, {40, 0, 40});
  add_box(world, {-30, 0, k_wall_front}, {-k_door_half_width, 3, k_wall_back});
  add_box(world, {k_door_half_width, 0, k_wall_front}, {30, 3, k_wall_back});
  world.update();
  glide::CharacterSet set(world);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> ux(-k_spread, k_spread), uz(-1.5f - k_depth, -1.5f);
  std::vector<glm::vec3> spawns;
  while (static_cast<int>(spawns.size()) < k_count) {
    const float x = ux(rng);
    const float z = uz(rng);
    const glm::vec3 p{x, 0.f, z};
    if (std::all_of(spawns.begin(), spawns.end(),
                    [&](const glm::vec3& q) { return glm::length(p - q) > k_min_spacing; }))
      spawns.push_back(p);
  }
  for (const glm::vec3& p : spawns) set.add({}, p, {.push = true});

  Run run;
  std::vector<glm::vec3> velocities(spawns.size());
  const int frames = static_cast<int>(k_seconds / k_dt);
  for (int frame = 0; frame < frames; ++frame) {
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      const glm::vec3 p = set.controller(glide::CharacterId{i}).position();
      const glm::vec3 to = p.z < k_wall_front ? glm::vec3(-p.x, 0.f, k_wall_front + 0.3f - p.z) : glm::vec3(0, 0, 1);
      velocities[i] = k_speed * glm::normalize(to) + glm::vec3(0, -2, 0);
    }
    const auto start = std::chrono::steady_clock::now();
    set.update(velocities, k_dt, hook);
    run.frame_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    run.most_push_moves = std::max(run.most_push_moves, set.last_push_moves());
  }
  for (std::uint32_t i = 0; i < set.size(); ++i)
    run.through += set.controller(glide::CharacterId{i}).position().z > k_wall_back + 0.4f;
  return run;
}

// Args: seed, threads.
void crowd_doorway(benchmark::State& state) {
  const auto seed = static_cast<std::uint32_t>(state.range(0));
  glide::JobThreads pool(static_cast<unsigned>(state.range(1)));
  std::vector<double> all;
  double total = 0.0;
  int through = 0;
  std::size_t most_push_moves = 0;
  for (auto _ : state) {
    const Run run = doorway_run(seed, pool.hook());
    double seconds = 0.0;
    for (const double s : run.frame_seconds) seconds += s;
    state.SetIterationTime(seconds);
    total += seconds;
    all.insert(all.end(), run.frame_seconds.begin(), run.frame_seconds.end());
    through = run.through;
    most_push_moves = run.most_push_moves;
  }
  std::sort(all.begin(), all.end());
  const double per_update = 1e6 / k_count; // µs per character-update, from a frame's seconds
  state.counters["mean_us"] = per_update * total / static_cast<double>(all.size());
  state.counters["p99_us"] = per_update * all[all.size() * 99 / 100];
  state.counters["worst_us"] = per_update * all.back();
  state.counters["through"] = through;
  state.counters["most_push_moves"] = static_cast<double>(most_push_moves);
}

} // namespace

BENCHMARK(crowd_doorway)
    ->ArgNames({"seed", "threads"})
    ->ArgsProduct({{1, 2, 3}, {1, 2}})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
