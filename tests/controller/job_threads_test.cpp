// JobThreads: every index of a call runs exactly once, whatever the count, the thread count and
// how soon the next call comes; a body's exception reaches the caller and leaves the pool usable.
#include <glide/controller/job_threads.hpp>
#include <glide/error.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// Runs one call over `count` and checks that each index ran once, nothing beyond it ran, and no
// range still runs when the call returns.
void check_call(glide::JobThreads& pool, std::size_t count, std::vector<std::atomic<int>>& runs) {
  for (std::size_t i = 0; i < runs.size(); ++i) runs[i].store(0);
  std::atomic<int> running{0};
  pool.parallel_for(count, [&](std::size_t begin, std::size_t end) {
    running.fetch_add(1);
    REQUIRE(begin < end);
    REQUIRE(end <= count);
    for (std::size_t i = begin; i < end; ++i) runs[i].fetch_add(1);
    running.fetch_sub(1);
  });
  REQUIRE(running.load() == 0);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) wrong += runs[i].load() != (i < count ? 1 : 0) ? 1 : 0;
  REQUIRE(wrong == 0);
}

} // namespace

TEST_CASE("JobThreads runs every index once, back to back and after its workers slept") {
  const std::size_t counts[] = {0, 1, 2, 3, 31, 32, 33, 1000, 10007};
  std::vector<std::atomic<int>> runs(10007 + 64);
  for (const unsigned threads : {1u, 2u, 8u}) {
    CAPTURE(threads);
    glide::JobThreads pool(threads);
    CHECK(pool.threads() == threads);
    // Back to back: a worker may still be finishing the last call's chunks when the next starts.
    for (int round = 0; round < 300; ++round)
      for (const std::size_t count : counts) check_call(pool, count, runs);
    // After the workers gave up spinning and slept.
    for (int round = 0; round < 3; ++round) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      check_call(pool, 1000, runs);
    }
  }
}

TEST_CASE("a body's exception reaches the caller once every thread is done, and the pool goes on") {
  for (const unsigned threads : {1u, 2u, 8u}) {
    CAPTURE(threads);
    glide::JobThreads pool(threads);
    std::atomic<int> running{0}, after_return{0};
    std::atomic<bool> returned{false};
    CHECK_THROWS_AS(pool.parallel_for(4096,
                                      [&](std::size_t begin, std::size_t) {
                                        running.fetch_add(1);
                                        if (returned.load()) after_return.fetch_add(1);
                                        if (begin == 0) throw std::runtime_error("chunk 0");
                                        std::this_thread::sleep_for(std::chrono::microseconds(20));
                                        running.fetch_sub(1);
                                      }),
                    std::runtime_error);
    returned.store(true);
    // Every chunk begun before the throw was seen has ended (chunk 0 left its count up).
    CHECK(running.load() == 1);
    CHECK(after_return.load() == 0);
    std::vector<std::atomic<int>> runs(5000);
    check_call(pool, 5000, runs);
  }
}

TEST_CASE("a pool whose workers spin between calls for long, or not at all, runs every index once") {
  std::vector<std::atomic<int>> runs(10007 + 64);
  for (const int spin : {0, 20000}) {
    CAPTURE(spin);
    glide::JobThreads pool(2, spin);
    for (int round = 0; round < 50; ++round)
      for (const std::size_t count : {std::size_t{1}, std::size_t{33}, std::size_t{10007}})
        check_call(pool, count, runs);
    std::this_thread::sleep_for(std::chrono::milliseconds(2)); // asleep (spin 0) or still spinning
    check_call(pool, 1000, runs);
  } // the destructor stops workers that spin
}

TEST_CASE("a negative spin is refused with its value") {
  try {
    glide::JobThreads pool(2, -1);
    FAIL("constructed");
  } catch (const glide::Error& e) {
    CHECK(std::string(e.what()).find("spin_microseconds = -1") != std::string::npos);
  }
}
