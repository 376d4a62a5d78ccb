#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace glide {

/// Runs body(begin, end) over ranges that together cover [0, count) exactly once, possibly on
/// many threads at once, and returns when every range is done: the job hook a game gives
/// CharacterSet::update to run it on its own job system (a parallel_for).
using ParallelFor =
    std::function<void(std::size_t count, const std::function<void(std::size_t begin, std::size_t end)>& body)>;

/// A parallel_for on a fixed set of std::threads, for games without a job system: the calling
/// thread works too, with `threads - 1` workers that sleep between calls. Each thread takes
/// chunks from its own share of a call's range first (the same share every call of the same
/// count, so a pass over a crowd finds in its cache what the last pass left there), then from
/// the others' shares.
class JobThreads {
public:
  /// How long a worker spins for the next call before it sleeps, by default (µs).
  static constexpr int k_default_spin_microseconds = 200;
  /// `threads` in all, the caller included; 0 means std::thread::hardware_concurrency().
  /// `spin_microseconds` (>= 0): how long a worker spins for the next call before it sleeps.
  /// The default catches the calls of one update. A game that updates once a frame on a machine
  /// where a sleeping worker wakes too late to help (the virtual machine of docs/performance.md)
  /// can keep the workers spinning from one frame to the next, at the cost of their cores: say
  /// 20,000 at 60 Hz. Throws glide::Error when negative.
  explicit JobThreads(unsigned threads = 0, int spin_microseconds = k_default_spin_microseconds);
  ~JobThreads();
  JobThreads(const JobThreads&) = delete;
  JobThreads& operator=(const JobThreads&) = delete;

  /// Splits [0, count) into chunks the threads take in turn. Not reentrant. The first
  /// exception a body throws is rethrown here once every thread is done.
  void parallel_for(std::size_t count, const std::function<void(std::size_t begin, std::size_t end)>& body);
  /// This pool as a ParallelFor; the pool must outlive it.
  ParallelFor hook() {
    return [this](std::size_t count, const std::function<void(std::size_t, std::size_t)>& body) {
      parallel_for(count, body);
    };
  }
  unsigned threads() const { return threads_; }

private:
  void work(unsigned self);
  void run_chunks(unsigned self);
  /// Spins while `waiting()` holds, for at most `microseconds`, yielding the core between looks
  /// only when the pool has more threads than cores.
  template <class Waiting>
  void spin_while(int microseconds, Waiting waiting) const;

  /// One thread's share of a call's range, on a cache line of its own: when every thread took
  /// its chunks from one counter, each chunk moved that counter's line between cores, which
  /// on a virtual machine cost about a fifth of a microsecond (a third of a call of 1,000
  /// small items on 2 threads).
  struct alignas(64) Share {
    std::atomic<std::size_t> next{0}; ///< the start of the next chunk to take
    std::size_t end = 0;              ///< the end of the share
  };

  static constexpr std::size_t k_chunks_per_thread = 16; ///< ranges a call is split into, per thread (count)
  static constexpr int k_generation_shift = 32;          ///< where a call's generation lies in gate_ (bits)
  static constexpr std::uint64_t k_joined_mask = 0xffffffffu;

  /// The call the workers may join, in one word: its generation in the high half (0 while none
  /// is open) and the workers that joined it and have not left in the low half. A worker joins
  /// by a compare-and-swap that sees the call still open, and the caller closes it by one atomic
  /// and, so no worker joins a call the caller has left, and none is still in a call when the
  /// next one starts: a call hands over without a lock.
  alignas(64) std::atomic<std::uint64_t> gate_{0};
  std::uint32_t generation_ = 0; ///< the last call's (the caller's alone)
  unsigned threads_ = 1;         ///< the caller and the workers (count)
  const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
  std::size_t chunk_ = 1;
  std::unique_ptr<Share[]> shares_; ///< by thread, the caller's first
  std::atomic<bool> failed_{false}; ///< a body threw: the chunks not yet taken are left
  std::atomic<bool> stop_{false};
  std::atomic<unsigned> sleepers_{0}; ///< workers asleep on wake_, or about to be
  /// How long a worker spins for the next call before it sleeps (µs): a crowd's update makes
  /// three calls with short serial work between them, and waking a sleeping thread took tens
  /// of microseconds on a virtual machine, more than a small crowd's whole pass.
  int spin_microseconds_ = k_default_spin_microseconds;
  /// More threads than cores: a spinning thread yields its core between looks, else the
  /// threads it waits for may not run.
  bool yield_while_spinning_ = false;
  std::mutex mutex_; ///< for the sleep and error_
  std::condition_variable wake_;
  std::exception_ptr error_;
  std::vector<std::thread> workers_; ///< last: they start once everything above is set up
};

} // namespace glide
