#pragma once
// A fixed set of threads that runs one round of n tasks at a time, as the
// gateway's scheduler polls its targets with a bounded pool.

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace rdmagw::bench {

// Runs fn(0..n-1) on a fixed set of threads, one round at a time; the
// threads stay between rounds so a round's CPU is the polls', not thread
// creation's.
class WorkerPool {
 public:
  explicit WorkerPool(int threads) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mu_);
      quit_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  void run(size_t n, const std::function<void(size_t)>& fn) {
    std::unique_lock lock(mu_);
    fn_ = &fn;
    n_ = n;
    next_ = 0;
    done_ = 0;
    cv_.notify_all();
    done_cv_.wait(lock, [this] { return done_ == n_; });
    fn_ = nullptr;
  }

 private:
  void loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return quit_ || next_ < n_; });
      if (quit_) return;
      const size_t i = next_++;
      lock.unlock();
      (*fn_)(i);
      lock.lock();
      if (++done_ == n_) done_cv_.notify_one();
    }
  }
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(size_t)>* fn_ = nullptr;
  size_t n_ = 0, next_ = 0, done_ = 0;
  bool quit_ = false;
};

}  // namespace rdmagw::bench
