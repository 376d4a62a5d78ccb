// ConvexHull: support by scanning every vertex against hill climbing over vertex adjacency
// (cold, and warm-started with a hint along a slowly turning direction), and construction.
// The scan/climb crossover sets ConvexHullSettings::hill_climb_min_vertices.
#include <glide/gjk/convex_hull.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

using glide::gjk::ConvexHull;
using glide::gjk::ConvexHullSettings;

constexpr std::size_t k_stream = 4096;

/// n points spread evenly over a sphere: every point is a hull vertex.
std::vector<glm::vec3> sphere_points(std::size_t n) {
  std::vector<glm::vec3> pts;
  for (std::size_t i = 0; i < n; ++i) {
    const float y = 1.f - 2.f * (static_cast<float>(i) + 0.5f) / static_cast<float>(n);
    const float r = std::sqrt(1.f - y * y);
    const float a = 2.39996323f * static_cast<float>(i);
    pts.push_back({r * std::cos(a), y, r * std::sin(a)});
  }
  return pts;
}

std::vector<glm::vec3> random_directions() {
  std::mt19937 rng(12345);
  std::normal_distribution<float> g;
  std::vector<glm::vec3> dirs(k_stream);
  for (auto& d : dirs) d = {g(rng), g(rng), g(rng)};
  return dirs;
}

/// A direction turning by about 2 degrees per query, as GJK sees across frames.
std::vector<glm::vec3> turning_directions() {
  std::vector<glm::vec3> dirs(k_stream);
  for (std::size_t i = 0; i < k_stream; ++i) {
    const float t = 0.035f * static_cast<float>(i);
    dirs[i] = {std::cos(t), 0.4f * std::sin(0.37f * t), std::sin(t)};
  }
  return dirs;
}

ConvexHullSettings path(bool climb) {
  const std::uint32_t threshold = climb ? 0u : std::numeric_limits<std::uint32_t>::max();
  return {.hill_climb_min_vertices = threshold, .warm_hill_climb_min_vertices = threshold};
}

void support_cold(benchmark::State& state, bool climb) {
  const ConvexHull hull(sphere_points(static_cast<std::size_t>(state.range(0))), path(climb));
  const std::vector<glm::vec3> dirs = random_directions();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(hull.support(dirs[i]));
    i = (i + 1) & (k_stream - 1);
  }
}

void support_warm(benchmark::State& state, bool climb) {
  const ConvexHull hull(sphere_points(static_cast<std::size_t>(state.range(0))), path(climb));
  const std::vector<glm::vec3> dirs = turning_directions();
  std::size_t i = 0;
  int hint = -1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(hull.support(dirs[i], hint));
    i = (i + 1) & (k_stream - 1);
  }
}

/// Construction from a random cloud in a cube (most points interior) and on a sphere (all kept).
void build(benchmark::State& state, bool on_sphere) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  std::vector<std::vector<glm::vec3>> clouds(8);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (auto& c : clouds) {
    c = on_sphere ? sphere_points(n) : std::vector<glm::vec3>(n);
    for (auto& p : c) p = on_sphere ? p * (1.f + 1e-3f * u(rng)) : glm::vec3{u(rng), u(rng), u(rng)};
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const ConvexHull hull(clouds[i]);
    benchmark::DoNotOptimize(hull.vertices().data());
    i = (i + 1) & 7;
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

void vertex_counts(benchmark::internal::Benchmark* b) {
  for (const int n : {8, 12, 16, 24, 32, 48, 64, 256}) b->Arg(n);
}

} // namespace

BENCHMARK_CAPTURE(support_cold, scan, false)->Apply(vertex_counts);
BENCHMARK_CAPTURE(support_cold, climb, true)->Apply(vertex_counts);
BENCHMARK_CAPTURE(support_warm, scan, false)->Apply(vertex_counts);
BENCHMARK_CAPTURE(support_warm, climb, true)->Apply(vertex_counts);
BENCHMARK_CAPTURE(build, cube_cloud, false)->Arg(8)->Arg(64)->Arg(256)->Arg(1024);
BENCHMARK_CAPTURE(build, sphere, true)->Arg(8)->Arg(64)->Arg(256)->Arg(1024);
BENCHMARK_MAIN();
