#include <glide/controller/job_threads.hpp>
#include <glide/error.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

namespace glide {

namespace {

// A spinning thread's wait between two looks: a few rounds of the CPU's spin-wait hint (which
// leaves the core to a sibling thread and saves power), then a yield, so that a pool of more
// threads than cores does not spin away the time its other threads need to finish.
void pause() {
#if defined(__x86_64__) || defined(__i386__)
  for (int i = 0; i < 8; ++i) __builtin_ia32_pause();
#endif
  std::this_thread::yield();
}

// Spins while `waiting()` holds, for at most `microseconds`; the caller then sleeps on its
// condition if it must.
template <class Waiting>
void spin_while(int microseconds, Waiting waiting) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds);
  while (waiting() && std::chrono::steady_clock::now() < until) pause();
}

} // namespace

JobThreads::JobThreads(unsigned threads, int spin_microseconds) : spin_microseconds_(spin_microseconds) {
  if (spin_microseconds < 0)
    throw Error("JobThreads: spin_microseconds = " + std::to_string(spin_microseconds) + " must be >= 0 (µs)");
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  shares_ = std::make_unique<Share[]>(threads);
  workers_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
}

JobThreads::~JobThreads() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    published_.store(~std::size_t{0}, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

// Takes chunks until none is left, each by one atomic add: from the thread's own share, then
// from the others' in turn. The fields of the call are written only under the lock while no
// worker runs chunks (busy_ == 0), and a worker runs them only counted in busy_, having seen
// the call's generation under the lock.
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
  std::size_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!stop_ && generation_ == seen) {
      // A game calls again within microseconds (a crowd's update makes three calls a frame):
      // a short spin catches that without the sleep and wake-up.
      lock.unlock();
      spin_while(spin_microseconds_, [&] { return published_.load(std::memory_order_acquire) == seen; });
      lock.lock();
    }
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    ++busy_;
    lock.unlock();
    run_chunks(self);
    lock.lock();
    if (--busy_ == 0) done_.notify_all();
  }
}

void JobThreads::parallel_for(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body) {
  if (count == 0) return;
  if (workers_.empty()) {
    body(0, count);
    return;
  }
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; }); // a late worker of the last call
    body_ = &body;
    failed_.store(false, std::memory_order_relaxed);
    // Many chunks per thread, so a slow chunk (or a thread the system put aside) does not
    // leave the others idle at the end; taking one costs an atomic add.
    const unsigned n = threads();
    chunk_ = std::max<std::size_t>(1, count / (k_chunks_per_thread * n));
    // Equal shares, the first count % n one longer; share t ends where share t + 1 starts.
    const auto start = [&](unsigned t) { return count / n * t + std::min<std::size_t>(t, count % n); };
    for (unsigned t = 0; t < n; ++t) {
      shares_[t].next.store(start(t), std::memory_order_relaxed);
      shares_[t].end = start(t + 1);
    }
    error_ = nullptr;
    ++generation_;
    published_.store(generation_, std::memory_order_release);
  }
  wake_.notify_all();
  run_chunks(0);
  // The workers finish their last chunks within microseconds: a spin catches that where
  // sleeping until one wakes this thread took tens of them on a virtual machine.
  spin_while(k_default_spin_microseconds, [&] { return busy_.load(std::memory_order_acquire) != 0; });
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  body_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

} // namespace glide
