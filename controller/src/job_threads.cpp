#include <glide/controller/job_threads.hpp>

#include <algorithm>
#include <chrono>
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

JobThreads::JobThreads(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
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

// Takes chunks until none is left, each by one atomic add: taken under the lock, a chunk cost
// more than a small one's work when the threads took turns at it. The fields of the call are
// written only under the lock while no worker runs chunks (busy_ == 0), and a worker runs them
// only counted in busy_, having seen the call's generation under the lock.
void JobThreads::run_chunks() {
  for (;;) {
    const std::size_t begin = next_.fetch_add(chunk_, std::memory_order_relaxed);
    if (begin >= count_ || failed_.load(std::memory_order_relaxed)) return;
    try {
      (*body_)(begin, std::min(count_, begin + chunk_));
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
    }
  }
}

void JobThreads::work() {
  std::size_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!stop_ && generation_ == seen) {
      // A game calls again within microseconds (a crowd's update makes three calls a frame):
      // a short spin catches that without the sleep and wake-up.
      lock.unlock();
      spin_while(k_spin_microseconds, [&] { return published_.load(std::memory_order_acquire) == seen; });
      lock.lock();
    }
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    ++busy_;
    lock.unlock();
    run_chunks();
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
    count_ = count;
    next_.store(0, std::memory_order_relaxed);
    failed_.store(false, std::memory_order_relaxed);
    // Many chunks per thread, so a slow chunk (or a thread the system put aside) does not
    // leave the others idle at the end; taking one costs an atomic add.
    chunk_ = std::max<std::size_t>(1, count / (k_chunks_per_thread * threads()));
    error_ = nullptr;
    ++generation_;
    published_.store(generation_, std::memory_order_release);
  }
  wake_.notify_all();
  run_chunks();
  // The workers finish their last chunks within microseconds: a spin catches that where
  // sleeping until one wakes this thread took tens of them on a virtual machine.
  spin_while(k_spin_microseconds, [&] { return busy_.load(std::memory_order_acquire) != 0; });
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  body_ = nullptr;
  count_ = 0;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

} // namespace glide
