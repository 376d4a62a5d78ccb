// Time of impact: bisection against conservative advancement on the same streams of 4096
// distinct sweeps (capsule core segment, radius 0.3, vs random hulls of 8 and 64 vertices),
// split into hits, misses and a mixed stream. Tolerance 1e-4 m. Also the cost of
// penetration() for capsules overlapping the same kind of hulls (no peer).
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/penetration.hpp>
#include <glide/gjk/toi.hpp>

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

namespace {

using namespace glide::gjk;

constexpr std::size_t k_stream = 4096;
constexpr float k_radius = 0.3f;

struct Sweep {
  Segment segment;
  glm::vec3 motion{0.f};
  int hull = 0;
};

enum class Kind { hits, misses, mixed };

struct Scene {
  std::vector<ConvexHull> hulls;
  std::vector<Sweep> sweeps;
};

// 16 hulls of `vertices` points on spheres of radius 0.5-1.5 m; sweeps start 2-4 m from a
// hull, aimed within 2 m of its centre, moving 0.5-4 m. Kept by kind (as bisection says).
Scene make_scene(int vertices, Kind kind) {
  std::mt19937 rng(20261121u + static_cast<unsigned>(vertices) * 7u + static_cast<unsigned>(kind));
  std::normal_distribution<float> g;
  std::uniform_real_distribution<float> u(0.f, 1.f);
  auto unit = [&] { return glm::normalize(glm::vec3(g(rng), g(rng), g(rng)) + glm::vec3(1e-6f)); };
  Scene scene;
  for (int h = 0; h < 16; ++h) {
    std::vector<glm::vec3> pts(static_cast<std::size_t>(vertices));
    const float size = 0.5f + u(rng);
    for (auto& p : pts) p = unit() * size;
    scene.hulls.emplace_back(pts);
  }
  while (scene.sweeps.size() < k_stream) {
    Sweep s;
    s.hull = static_cast<int>(rng() % scene.hulls.size());
    const glm::vec3 start = unit() * (2.f + 2.f * u(rng));
    const glm::vec3 half_axis = unit() * 0.6f;
    s.segment = {start - half_axis, start + half_axis};
    const glm::vec3 target = unit() * 2.f * u(rng);
    s.motion = glm::normalize(target - start) * (0.5f + 3.5f * u(rng));
    const bool hit = toi_bisection(s.segment, k_radius, s.motion, scene.hulls[s.hull]).hit;
    if (kind == Kind::mixed || hit == (kind == Kind::hits)) scene.sweeps.push_back(s);
  }
  return scene;
}

template <bool Fast>
void toi_stream(benchmark::State& state, int vertices, Kind kind) {
  const Scene scene = make_scene(vertices, kind);
  const ToiSettings settings; // tolerance 1e-4 m
  std::size_t i = 0;
  long queries = 0, hits = 0, count = 0;
  for (auto _ : state) {
    const Sweep& s = scene.sweeps[i];
    const ToiResult r = Fast
                            ? toi_conservative_advancement(s.segment, k_radius, s.motion, scene.hulls[s.hull], settings)
                            : toi_bisection(s.segment, k_radius, s.motion, scene.hulls[s.hull], settings);
    benchmark::DoNotOptimize(r);
    queries += r.iterations;
    hits += r.hit;
    ++count;
    i = (i + 1) % k_stream;
  }
  state.counters["gjk_per_sweep"] = static_cast<double>(queries) / static_cast<double>(count);
  state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(count);
}

void bisection(benchmark::State& state, int vertices, Kind kind) { toi_stream<false>(state, vertices, kind); }
void advancement(benchmark::State& state, int vertices, Kind kind) { toi_stream<true>(state, vertices, kind); }

// 4096 capsules (radius 0.3) whose core is inside or crosses one of 16 unit-size hulls.
void penetration_stream(benchmark::State& state, int vertices) {
  std::mt19937 rng(777u + static_cast<unsigned>(vertices));
  std::normal_distribution<float> g;
  auto unit = [&] { return glm::normalize(glm::vec3(g(rng), g(rng), g(rng)) + glm::vec3(1e-6f)); };
  std::vector<ConvexHull> hulls;
  for (int h = 0; h < 16; ++h) {
    std::vector<glm::vec3> pts(static_cast<std::size_t>(vertices));
    for (auto& p : pts) p = unit();
    hulls.emplace_back(pts);
  }
  std::vector<Capsule> capsules(k_stream);
  for (auto& c : capsules) {
    const glm::vec3 centre = unit() * 0.3f, half_axis = unit() * 0.6f;
    c = {{centre - half_axis, centre + half_axis}, k_radius};
  }
  std::size_t i = 0;
  long iterations = 0, count = 0;
  for (auto _ : state) {
    const PenetrationResult r = penetration(capsules[i], hulls[i % hulls.size()]);
    benchmark::DoNotOptimize(r);
    iterations += r.iterations;
    ++count;
    i = (i + 1) % k_stream;
  }
  state.counters["epa_iterations"] = static_cast<double>(iterations) / static_cast<double>(count);
}

} // namespace

BENCHMARK_CAPTURE(bisection, hull8_hits, 8, Kind::hits);
BENCHMARK_CAPTURE(advancement, hull8_hits, 8, Kind::hits);
BENCHMARK_CAPTURE(bisection, hull8_misses, 8, Kind::misses);
BENCHMARK_CAPTURE(advancement, hull8_misses, 8, Kind::misses);
BENCHMARK_CAPTURE(bisection, hull8_mixed, 8, Kind::mixed);
BENCHMARK_CAPTURE(advancement, hull8_mixed, 8, Kind::mixed);
BENCHMARK_CAPTURE(bisection, hull64_hits, 64, Kind::hits);
BENCHMARK_CAPTURE(advancement, hull64_hits, 64, Kind::hits);
BENCHMARK_CAPTURE(bisection, hull64_misses, 64, Kind::misses);
BENCHMARK_CAPTURE(advancement, hull64_misses, 64, Kind::misses);
BENCHMARK_CAPTURE(bisection, hull64_mixed, 64, Kind::mixed);
BENCHMARK_CAPTURE(advancement, hull64_mixed, 64, Kind::mixed);

BENCHMARK_CAPTURE(penetration_stream, capsule_hull8, 8);
BENCHMARK_CAPTURE(penetration_stream, capsule_hull64, 64);

BENCHMARK_MAIN();
