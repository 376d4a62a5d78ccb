#pragma once

// What the controller benchmarks share: a game-like walker that steers through a square loop
// of waypoints at 3 m/s with gravity (PlayerStep at 60 Hz; a waypoint not reached in 5 s is
// skipped: the loops cross obstacles), fast moves across a ground, and their times reported.

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace glide::bench {

struct Walker {
  static constexpr float k_dt = 1.f / 60.f; ///< frame time (s)

  glide::Controller controller;
  std::array<glm::vec3, 4> loop;
  int target = 0;
  int frames_on_target = 0;
  glide::PlayerStep player;
  int frames_in_contact = 0; ///< frames whose move hit something besides the ground

  /// Starts `lift` m above `center`, the loop `size` m around it.
  Walker(const glide::World& world, const glm::vec3& center, float size, float lift)
      : controller(world, {}, center + glm::vec3(0, lift, 0)), loop{center + glm::vec3(size, 0, size),
                                                                    center + glm::vec3(-size, 0, size),
                                                                    center + glm::vec3(-size, 0, -size),
                                                                    center + glm::vec3(size, 0, -size)} {}

  /// One frame; returns the time spent in PlayerStep::step, the move with gravity (us).
  double step() {
    glm::vec3 to = loop[static_cast<std::size_t>(target)] - controller.position();
    to.y = 0.f;
    if (glm::length(to) < 0.5f || ++frames_on_target > 300) {
      target = (target + 1) % 4;
      frames_on_target = 0;
    }
    const float length = glm::length(to);
    const glm::vec3 walk = length > 1e-3f ? to * (3.f / length) : glm::vec3(0.f);
    const auto start = std::chrono::steady_clock::now();
    const glide::MoveResult r = player.step(controller, {.velocity = walk}, k_dt);
    const auto end = std::chrono::steady_clock::now();
    frames_in_contact += r.flags.sides || r.flags.above;
    return std::chrono::duration<double, std::micro>(end - start).count();
  }
};

/// The mean, median, p99 and worst of `times` as counters named with their `unit` ("us").
inline void report(benchmark::State& state, std::vector<double>& times, const std::string& unit) {
  std::sort(times.begin(), times.end());
  double sum = 0.0;
  for (const double v : times) sum += v;
  state.counters["mean_" + unit] = sum / static_cast<double>(times.size());
  state.counters["median_" + unit] = times[times.size() / 2];
  state.counters["p99_" + unit] = times[times.size() * 99 / 100];
  state.counters["max_" + unit] = times.back();
}

/// One PlayerStep move of 6 m (100 m/s at 1/16 s, a fast charge) from each of 256 seeded spots
/// within `half_side` m of the origin, feet 5 cm above `ground(x, z)` (m): a move across a ground
/// of 0.5 m cells gathers hundreds of its triangles. `reused`: one controller teleported from
/// spot to spot; otherwise a new controller at each spot (its first gather). Each move's time (us).
template <class Ground>
std::vector<double> fast_moves(const glide::World& world, float half_side, const Ground& ground, bool reused) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> pos(-half_side, half_side), turn(0.f, 6.2831853f);
  std::vector<glm::vec3> spots, velocities;
  for (int i = 0; i < 256; ++i) {
    const float x = pos(rng), z = pos(rng), a = turn(rng);
    spots.emplace_back(x, ground(x, z) + 0.05f, z);
    velocities.emplace_back(100.f * std::cos(a), 0.f, 100.f * std::sin(a));
  }
  std::vector<double> us;
  glide::Controller kept(world, {}, spots[0]);
  for (std::size_t i = 0; i < spots.size(); ++i) {
    std::optional<glide::Controller> fresh;
    if (reused)
      kept.teleport(spots[i]);
    else
      fresh.emplace(world, glide::ControllerSettings{}, spots[i]);
    glide::Controller& controller = reused ? kept : *fresh;
    glide::PlayerStep player;
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(player.step(controller, {.velocity = velocities[i]}, 1.f / 16.f));
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  return us;
}

} // namespace glide::bench
