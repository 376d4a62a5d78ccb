#include <glide/controller/job_threads.hpp>
#include <glide/error.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

namespace glide {

namespace {

// A few rounds of the CPU's spin-wait hint, which leaves the core to a sibling thread and
// saves power, between two looks at what a spinning thread waits for.
void pause() {
#if defined(__x86_64__) || defined(__i386__)
  for (int i = 0; i < 8; ++i) __builtin_ia32_pause();
#endif
}

} // namespace

JobThreads::JobThreads(unsigned threads, int spin_microseconds) : spin_microseconds_(spin_microseconds) {
  if (spin_microseconds < 0)
    throw Error("JobThreads: spin_microseconds = " + std::to_string(spin_microseconds) + " must be >= 0 (µs)");
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (threads == 0) threads = cores;
  threads_ = threads;
  // A yield is a system call, which kept a spinning worker from seeing the next call for up to
  // a microsecond; with a core for every thread, nothing else needs the core it spins on.
  yield_while_spinning_ = threads > cores;
  shares_ = std::make_unique<Share[]>(threads);
  workers_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
}

JobThreads::~JobThreads() {
  {
    std::lock_guard lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

template <class Waiting>
void JobThreads::spin_while(int microseconds, Waiting waiting) const {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds);
  while (waiting() && std::chrono::steady_clock::now() < until) {
    pause();
    if (yield_while_spinning_) std::this_thread::yield();
  }
}

// Takes chunks until none is left, each by one atomic add: from the thread's own share, then
// from the others' in turn. A worker runs them only joined to the open call (gate_), whose
// fields the caller wrote before opening it and leaves alone until every joined worker left.
void JobThreads::run_chunks(unsigned self) {
  const unsigned n = threads();
  for (unsigned k = 0; k < n; ++k) {
    Share& share = shares_[(self + k) % n];
    for (;;) {
      const std::size_t begin = share.next.fetch_add(chunk_, std::memory_order_relaxed);
      if (failed_.load(std::memory_order_relaxed)) return;
      if (begin >= share.end) break;
      try {
        (*body_)(begin, std::min(share.end, begin + chunk_));
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
        failed_.store(true, std::memory_order_relaxed);
      }
    }
  }
}

void JobThreads::work(unsigned self) {
  std::uint32_t seen = 0; // the generation of the last call joined
  const auto fresh = [&](std::uint64_t gate) {
    const auto generation = static_cast<std::uint32_t>(gate >> k_generation_shift);
    return generation != 0 && generation != seen;
  };
  for (;;) {
    std::uint64_t gate = gate_.load(std::memory_order_acquire);
    if (!fresh(gate)) {
      // A game calls again within microseconds (a crowd's update makes three calls a frame):
      // a short spin catches that without the sleep and wake-up.
      spin_while(spin_microseconds_, [&] {
        gate = gate_.load(std::memory_order_acquire);
        return !fresh(gate) && !stop_.load(std::memory_order_relaxed);
      });
      if (!fresh(gate) && !stop_.load(std::memory_order_relaxed)) {
        // Counted before the last look at the gate, which the caller opens before it counts the
        // sleepers (both sequentially consistent): a call opened meanwhile is seen or woken to.
        std::unique_lock lock(mutex_);
        sleepers_.fetch_add(1);
        wake_.wait(lock, [&] {
          gate = gate_.load();
          return fresh(gate) || stop_.load();
        });
        sleepers_.fetch_sub(1);
      }
      if (stop_.load()) return;
      continue; // looked at again: the call may have closed
    }
    // Joins the call only while it is open; a failure (closed, or another worker joined first)
    // looks again.
    if (!gate_.compare_exchange_weak(gate, gate + 1, std::memory_order_acq_rel, std::memory_order_relaxed)) continue;
    seen = static_cast<std::uint32_t>(gate >> k_generation_shift);
    run_chunks(self);
    gate_.fetch_sub(1, std::memory_order_release);
  }
}

void JobThreads::parallel_for(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body) {
  if (count == 0) return;
  if (workers_.empty()) {
    body(0, count);
    return;
  }
  // No worker is joined: the last call closed and waited for them.
  body_ = &body;
  failed_.store(false, std::memory_order_relaxed);
  // Many chunks per thread, so a slow chunk (or a thread the system put aside) does not leave
  // the others idle at the end; taking one costs an atomic add.
  const unsigned n = threads();
  chunk_ = std::max<std::size_t>(1, count / (k_chunks_per_thread * n));
  // Equal shares, the first count % n one longer; share t ends where share t + 1 starts.
  const auto start = [&](unsigned t) { return count / n * t + std::min<std::size_t>(t, count % n); };
  for (unsigned t = 0; t < n; ++t) {
    shares_[t].next.store(start(t), std::memory_order_relaxed);
    shares_[t].end = start(t + 1);
  }
  if (++generation_ == 0) generation_ = 1; // 0 means closed
  gate_.store(std::uint64_t{generation_} << k_generation_shift);
  if (sleepers_.load() != 0) {
    { std::lock_guard lock(mutex_); } // a worker between its count and its wait gets there first
    wake_.notify_all();
  }
  run_chunks(0);
  // Closed: no worker joins from now on. Those that joined finish their last chunks within
  // microseconds; a thread the system put aside takes longer, and is waited for with yields.
  gate_.fetch_and(k_joined_mask, std::memory_order_acq_rel);
  const auto joined = [&] { return (gate_.load(std::memory_order_acquire) & k_joined_mask) != 0; };
  spin_while(k_default_spin_microseconds, joined);
  while (joined()) std::this_thread::yield();
  body_ = nullptr;
  if (failed_.load(std::memory_order_relaxed)) {
    std::lock_guard lock(mutex_);
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }
}

} // namespace glide
