// The machine's load-to-use latency by working-set size: a dependent chase through one 64-byte
// line per step, in random order, over a buffer from the same huge-page storage the BVH uses.
// It tells which cache level the world's 100k-piece data lives in on the machine at hand, so
// the sweep benchmarks' growth with level size can be read against it.

#include "bvh.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr std::size_t k_line = 64;

void pointer_chase(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) << 20;
  const std::size_t lines = bytes / k_line;
  auto* storage = static_cast<unsigned char*>(glide::detail::allocate_query_storage(bytes));
  // One cycle through every line, in random order: each step's address is the last load's value.
  std::vector<std::size_t> order(lines);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  for (std::size_t i = 0; i < lines; ++i) {
    const std::size_t next = order[(i + 1) % lines] * k_line;
    std::memcpy(storage + order[i] * k_line, &next, sizeof next);
  }
  std::size_t at = order[0] * k_line;
  for (std::size_t i = 0; i < lines; ++i) std::memcpy(&at, storage + at, sizeof at); // warm up
  for (auto _ : state) {
    for (int step = 0; step < 1024; ++step) std::memcpy(&at, storage + at, sizeof at);
    benchmark::DoNotOptimize(at);
  }
  state.counters["ns_per_line"] = benchmark::Counter(static_cast<double>(state.iterations()) * 1024.0,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  glide::detail::free_query_storage(storage, bytes);
}

} // namespace

BENCHMARK(pointer_chase)->ArgName("MB")->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(32)->Arg(64);
BENCHMARK_MAIN();
