#include <glide/controller/job_threads.hpp>

#include <algorithm>
#include <utility>

namespace glide {

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

// Takes chunks until none is left; the lock is held only to take one.
void JobThreads::run_chunks() {
  std::unique_lock lock(mutex_);
  while (next_ < count_ && !error_) {
    const std::size_t begin = next_;
    const std::size_t end = std::min(count_, begin + chunk_);
    next_ = end;
    lock.unlock();
    try {
      (*body_)(begin, end);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      continue;
    }
    lock.lock();
  }
}

void JobThreads::work() {
  std::size_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!stop_ && generation_ == seen) {
      // A game calls again within microseconds (a crowd's update makes two calls a frame):
      // a short spin catches that without the sleep and wake-up.
      lock.unlock();
      for (int spin = 0; spin < k_spins && published_.load(std::memory_order_acquire) == seen; ++spin)
        std::this_thread::yield();
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
    std::lock_guard lock(mutex_);
    body_ = &body;
    count_ = count;
    next_ = 0;
    // Many chunks per thread, so a slow chunk (or a thread the system put aside) does not
    // leave the others idle at the end; taking one costs a lock, far less than a chunk's work.
    chunk_ = std::max<std::size_t>(1, count / (k_chunks_per_thread * threads()));
    error_ = nullptr;
    ++generation_;
    published_.store(generation_, std::memory_order_release);
  }
  wake_.notify_all();
  run_chunks();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  body_ = nullptr;
  count_ = 0;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

} // namespace glide
