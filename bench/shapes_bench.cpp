// Support-mapping cost of the basic shapes over a stream of distinct directions.
#include <glide/gjk/shapes.hpp>

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

namespace {
std::vector<glm::vec3> random_directions(std::size_t n) {
  std::mt19937 rng(12345);
  std::normal_distribution<float> g;
  std::vector<glm::vec3> dirs(n);
  for (auto& d : dirs) d = {g(rng), g(rng), g(rng)};
  return dirs;
}

template <class Shape>
void support_stream(benchmark::State& state, const Shape& shape) {
  const std::vector<glm::vec3> dirs = random_directions(4096);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(shape.support(dirs[i]));
    i = (i + 1) & 4095;
  }
}
} // namespace

BENCHMARK_CAPTURE(support_stream, box, glide::gjk::Box{{1, 2, 3}});
BENCHMARK_CAPTURE(support_stream, capsule, glide::gjk::Capsule{{{0, 0, 0}, {0, 1, 0}}, 0.3f});
BENCHMARK_CAPTURE(support_stream, transformed_box,
                  glide::gjk::Transformed{
                      glide::gjk::Box{{1, 2, 3}},
                      glide::gjk::Transform{glm::normalize(glm::quat(0.9f, 0.1f, 0.3f, 0.3f)), {1, 2, 3}}});
BENCHMARK_MAIN();
