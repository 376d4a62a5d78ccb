// Characters put at one spot (a spawn point many use at once): each is inside all the others, so
// every move of the first frames meets them all, and the pile opens from its rim at the
// recovery's speed. 2 s at 60 Hz from the spawn, every update timed on its own; the first
// frames cost far more than the rest. One iteration is one whole run.
// Counters: the mean and worst frame (ms) and per character (µs per character-update), how many
// stand free of the others at the end, and the most moves the pushes made in one update.
#include <glide/controller/character_set.hpp>
#include <glide/controller/job_threads.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/segment_pair.hpp>
#include <glide/world/world.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace {

constexpr float k_dt = 1.f / 60.f;
constexpr int k_frames = 120; // 2 s (count)

// Characters whose capsule overlaps no other's (count).
int free_of_others(const glide::CharacterSet& set) {
  std::vector<glide::gjk::Capsule> capsules;
  for (std::uint32_t i = 0; i < set.size(); ++i) {
    const glide::Controller& k = set.controller(glide::CharacterId{i});
    capsules.push_back(k.capsule_at(k.position()));
  }
  int count = 0;
  for (std::size_t i = 0; i < capsules.size(); ++i) {
    bool free = true;
    for (std::size_t j = 0; j < capsules.size() && free; ++j)
      free = i == j || glide::gjk::closest_points(capsules[i].segment, capsules[j].segment).distance >=
                           capsules[i].radius + capsules[j].radius - 1e-4f;
    count += free ? 1 : 0;
  }
  return count;
}

// Args: characters, threads.
void crowd_pile(benchmark::State& state) {
  const auto count = static_cast<std::size_t>(state.range(0));
  glide::JobThreads pool(static_cast<unsigned>(state.range(1)));
  double total = 0.0, worst = 0.0;
  int free = 0;
  std::size_t most_push_moves = 0;
  for (auto _ : state) {
    glide::World world;
    world.add_piece(glide::gjk::ConvexHull::box({40.f, 1.f, 40.f}), glide::gjk::Transform{{1, 0, 0, 0}, {0, -1.f, 0}});
    world.update();
    glide::CharacterSet set(world);
    for (std::size_t i = 0; i < count; ++i) set.add({}, {0.f, 0.01f, 0.f});
    const std::vector<glm::vec3> velocities(count, glm::vec3(0.f, -1.f, 0.f));
    double seconds = 0.0;
    for (int frame = 0; frame < k_frames; ++frame) {
      const auto start = std::chrono::steady_clock::now();
      set.update(velocities, k_dt, pool.hook());
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      seconds += s;
      worst = std::max(worst, s);
      most_push_moves = std::max(most_push_moves, set.last_push_moves());
    }
    state.SetIterationTime(seconds);
    total += seconds;
    free = free_of_others(set);
  }
  const double frames = static_cast<double>(state.iterations()) * k_frames;
  state.counters["mean_ms"] = 1e3 * total / frames;
  state.counters["worst_ms"] = 1e3 * worst;
  state.counters["mean_us"] = 1e6 * total / (frames * static_cast<double>(count));
  state.counters["worst_us"] = 1e6 * worst / static_cast<double>(count);
  state.counters["free"] = free;
  state.counters["most_push_moves"] = static_cast<double>(most_push_moves);
}

} // namespace

BENCHMARK(crowd_pile)
    ->ArgNames({"characters", "threads"})
    ->ArgsProduct({{25, 50, 100, 200}, {1}})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
