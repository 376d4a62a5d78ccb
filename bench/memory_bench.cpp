// The machine's load-to-use latency by working-set size: a dependent chase through one 64-byte
// line per step, in random order, over a buffer in huge pages as the BVH's large storage is.
// It tells which cache level the world's 100k-piece data lives in on the machine at hand, so
// the sweep benchmarks' growth with level size can be read against it.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <numeric>
#include <random>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace {

constexpr std::size_t k_line = 64;
constexpr std::size_t k_huge_page = std::size_t{2} << 20;

// A buffer of whole 2 MB pages, 2 MB aligned and advised to use transparent huge pages before
// first use: what the BVH's node and leaf storage gets from 2 MB up (world/src/bvh.cpp).
class HugePageBuffer {
public:
  explicit HugePageBuffer(std::size_t bytes)
      : size_((bytes + k_huge_page - 1) / k_huge_page * k_huge_page),
        data_(static_cast<unsigned char*>(std::aligned_alloc(k_huge_page, size_))) {
    if (!data_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(data_, size_, MADV_HUGEPAGE); // advice only: without huge pages the chase still runs
#endif
  }
  ~HugePageBuffer() { std::free(data_); }
  HugePageBuffer(const HugePageBuffer&) = delete;
  HugePageBuffer& operator=(const HugePageBuffer&) = delete;
  unsigned char* data() const { return data_; }

private:
  std::size_t size_;
  unsigned char* data_;
};

void pointer_chase(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) << 20;
  const std::size_t lines = bytes / k_line;
  const HugePageBuffer buffer(bytes);
  unsigned char* const storage = buffer.data();
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
}

} // namespace

BENCHMARK(pointer_chase)->ArgName("MB")->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(32)->Arg(64);
BENCHMARK_MAIN();
