// Controller::move on random box levels: one character walking a waypoint loop (median and
// p99 per move), 1,000 characters each on its own loop, and the same walk on 10k and 100k
// pieces; the walk saving (and restoring) the character's state every frame, as a rolling-back
// game does. Each benchmark iteration is a whole run; per-move times are taken with
// steady_clock around move() only and reported as counters (us).
#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/terrain/heightfield.hpp>
#include <glide/world/world.hpp>

#include "walker.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <optional>
#include <random>
#include <vector>

namespace {

// A floor and `boxes` random boxes standing on it, at 1,000 boxes per 100 m x 100 m; a quarter
// are low enough to step onto (0.1 to 0.3 m), the rest are 0.5 to 3 m tall.
glide::World make_level(int boxes) {
  glide::World world;
  const float side = 100.f * std::sqrt(boxes / 1000.f);
  world.add_piece(glide::gjk::ConvexHull::box({side, 1.f, side}), glide::gjk::Transform{{1, 0, 0, 0}, {0, -1.f, 0}});
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> pos(-0.5f * side, 0.5f * side), size(0.3f, 2.f), low(0.1f, 0.3f),
      tall(0.5f, 3.f), angle(0.f, 6.2831853f);
  for (int i = 0; i < boxes; ++i) {
    const float height = (i % 4 == 0) ? low(rng) : tall(rng);
    const glm::vec3 half{size(rng), 0.5f * height, size(rng)};
    const glm::quat turn = glm::angleAxis(angle(rng), glm::vec3(0, 1, 0));
    world.add_piece(glide::gjk::ConvexHull::box(half),
                    glide::gjk::Transform{turn, {pos(rng), 0.5f * height, pos(rng)}});
  }
  world.update();
  return world;
}

using glide::bench::report;
using glide::bench::Walker;

void walk_one(benchmark::State& state) {
  const glide::World world = make_level(static_cast<int>(state.range(0)));
  std::vector<double> us;
  for (auto _ : state) {
    Walker walker(world, {0, 0, 0}, 12.f, 0.5f);
    us.clear();
    for (int frame = 0; frame < 10000; ++frame) us.push_back(walker.step());
    state.counters["contact_frames"] = walker.frames_in_contact / 10000.0;
  }
  report(state, us, "us");
}

void walk_many(benchmark::State& state) {
  const glide::World world = make_level(1000);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(-40.f, 40.f), size(3.f, 10.f);
  std::vector<double> us;
  for (auto _ : state) {
    std::vector<Walker> walkers;
    for (int i = 0; i < 1000; ++i) walkers.emplace_back(world, glm::vec3(pos(rng), 0, pos(rng)), size(rng), 0.5f);
    us.clear();
    for (int frame = 0; frame < 600; ++frame)
      for (Walker& w : walkers) us.push_back(w.step());
  }
  report(state, us, "us");
}

double us_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double>& us) {
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// walk_one on 1k boxes, saving the controller's and the player step's state after every move
// (arg 0), or saving and restoring it (arg 1): the cost of a snapshot, of a restore, and of the
// moves after them, whose query caches start empty.
void walk_saving(benchmark::State& state) {
  const glide::World world = make_level(1000);
  const bool restore = state.range(0) == 1;
  std::vector<double> us, save_us, restore_us;
  std::size_t bytes = 0;
  for (auto _ : state) {
    Walker walker(world, {0, 0, 0}, 12.f, 0.5f);
    us.clear();
    for (int frame = 0; frame < 10000; ++frame) {
      us.push_back(walker.step());
      const auto start = std::chrono::steady_clock::now();
      const std::vector<std::byte> saved = walker.controller.save_state();
      const std::vector<std::byte> saved_player = walker.player.save_state();
      save_us.push_back(us_since(start));
      bytes = saved.size() + saved_player.size();
      if (restore) {
        const auto restart = std::chrono::steady_clock::now();
        walker.controller.restore_state(saved);
        walker.player.restore_state(saved_player);
        restore_us.push_back(us_since(restart));
      }
    }
    state.counters["contact_frames"] = walker.frames_in_contact / 10000.0;
  }
  report(state, us, "us");
  state.counters["save_us"] = median(save_us);
  if (restore) state.counters["restore_us"] = median(restore_us);
  state.counters["bytes"] = static_cast<double>(bytes);
}

// Rolling hills of 0.5 m cells over 128 m x 128 m, up to about 3 m high: walkable everywhere
// but for a few steep flanks.
glide::World make_hills() {
  constexpr int side = 257;
  std::vector<float> heights(static_cast<std::size_t>(side) * side);
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const float x = 0.5f * static_cast<float>(c), z = 0.5f * static_cast<float>(r);
      heights[static_cast<std::size_t>(r) * side + c] =
          1.5f * std::sin(x * 0.21f) * std::cos(z * 0.17f) + 0.4f * std::sin(x * 0.9f + z * 0.6f);
    }
  glide::World world;
  world.set_terrain(glide::Heightfield({.rows = side,
                                        .columns = side,
                                        .heights = std::move(heights),
                                        .cell_size = {0.5f, 0.5f},
                                        .origin = {-64.f, 0.f, -64.f}}));
  world.update();
  return world;
}

// One PlayerStep move of 6 m across the hills (100 m/s at 1/16 s, a fast charge), from 256
// seeded spots: the move gathers hundreds of the terrain's triangles. Arg 0: a new controller
// at each spot (its first gather); 1: one controller teleported from spot to spot.
void fast_move_across_hills(benchmark::State& state) {
  const glide::World world = make_hills();
  const glide::Heightfield& hills = *world.terrain();
  std::vector<double> us;
  for (auto _ : state)
    us = glide::bench::fast_moves(
        world, 50.f, [&](float x, float z) { return hills.height_at(x, z); }, state.range(0) == 1);
  report(state, us, "us");
}

} // namespace

BENCHMARK(walk_one)->Arg(1000)->Arg(10000)->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(walk_many)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(walk_saving)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(fast_move_across_hills)->ArgName("reused")->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
