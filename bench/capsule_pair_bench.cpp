// Capsule pairs (segment_pair.hpp): time of impact on streams of 4096 distinct sweeps of
// characters' kind (upright capsules of radius 0.3 m, 1.2 m cores, or random tilts), and the
// closest points of segment pairs. Tolerance 1e-4 m.
//   head_on:  upright, aimed within 0.3 m of the other's axis from 1-3 m away: hits
//   grazing:  upright, passing the other within three tolerances of touching (both sides)
//   pressed:  upright, already within the tolerance and moving on: a hit at t = 0
//   general:  random tilts and aims: hits, misses and grazes
#include <glide/gjk/segment_pair.hpp>

#include <benchmark/benchmark.h>

#include <glm/geometric.hpp>

#include <random>
#include <vector>

namespace {

using namespace glide::gjk;

constexpr std::size_t k_stream = 4096;
constexpr float k_radius = 0.3f;
constexpr float k_tolerance = 1e-4f;

struct Sweep {
  Capsule moving;
  glm::vec3 motion{0.f};
  Capsule still;
};

enum class Kind { head_on, grazing, pressed, general };

Capsule upright(const glm::vec3& foot) { return {{foot, foot + glm::vec3(0.f, 1.2f, 0.f)}, k_radius}; }

std::vector<Sweep> make_stream(Kind kind) {
  std::mt19937 rng(20261125u + static_cast<unsigned>(kind));
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<Sweep> out;
  while (out.size() < k_stream) {
    const glm::vec3 base(50.f * u(rng), 0.f, 50.f * u(rng));
    const float heading = 3.14159265f * u(rng);
    const glm::vec3 dir(std::cos(heading), 0.f, std::sin(heading));
    const glm::vec3 side(-dir.z, 0.f, dir.x);
    Sweep s;
    s.still = upright(base);
    switch (kind) {
    case Kind::head_on: {
      const float from = 2.f + u(rng);
      s.moving = upright(base - from * dir + 0.3f * u(rng) * side + glm::vec3(0.f, 0.2f * u(rng), 0.f));
      s.motion = (from + 0.5f) * dir;
      break;
    }
    case Kind::grazing: {
      const float pass = 2.f * k_radius + 3.f * k_tolerance * u(rng);
      s.moving = upright(base - 1.5f * dir + pass * side);
      s.motion = 3.f * dir;
      break;
    }
    case Kind::pressed: {
      s.moving = upright(base + (2.f * k_radius + 0.5f * k_tolerance * (u(rng) + 1.f)) * side);
      s.motion = 0.04f * glm::normalize(dir - 0.3f * side);
      break;
    }
    case Kind::general: {
      s.still.segment.b = base + 1.2f * glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.f, 1e-3f, 0.f));
      const glm::vec3 a = base + 2.f * glm::vec3(u(rng), u(rng), u(rng));
      s.moving = {{a, a + 1.2f * glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.f, 1e-3f, 0.f))},
                  k_radius};
      s.motion = (base + 0.8f * glm::vec3(u(rng), u(rng), u(rng)) - a) * (1.f + 0.5f * u(rng));
      break;
    }
    }
    out.push_back(s);
  }
  return out;
}

void capsule_pair_toi(benchmark::State& state, Kind kind) {
  const std::vector<Sweep> stream = make_stream(kind);
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    const Sweep& s = stream[i++ % k_stream];
    const CapsulePairHit r = time_of_impact(s.moving, s.motion, s.still, k_tolerance);
    hits += r.hit ? 1 : 0;
    benchmark::DoNotOptimize(r);
  }
  state.counters["hit_fraction"] = double(hits) / double(state.iterations());
}

void capsule_pair_closest(benchmark::State& state) {
  const std::vector<Sweep> stream = make_stream(Kind::general);
  std::size_t i = 0;
  for (auto _ : state) {
    const Sweep& s = stream[i++ % k_stream];
    benchmark::DoNotOptimize(closest_points(s.moving.segment, s.still.segment));
  }
}

} // namespace

BENCHMARK_CAPTURE(capsule_pair_toi, head_on, Kind::head_on);
BENCHMARK_CAPTURE(capsule_pair_toi, grazing, Kind::grazing);
BENCHMARK_CAPTURE(capsule_pair_toi, pressed, Kind::pressed);
BENCHMARK_CAPTURE(capsule_pair_toi, general, Kind::general);
BENCHMARK(capsule_pair_closest);
BENCHMARK_MAIN();
