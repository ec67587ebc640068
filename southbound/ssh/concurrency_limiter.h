#pragma once
// A counting semaphore with a run-time limit, shared by every SSH target of
// the process: many targets poll concurrently, but no more than `limit`
// connects or commands are in flight at once (a jump host or a TACACS server
// behind the switches would otherwise see a thundering herd).
// std::counting_semaphore fixes its maximum at compile time, hence this.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace rdmagw::southbound::ssh {

class ConcurrencyLimiter {
 public:
  explicit ConcurrencyLimiter(size_t limit) : limit_(limit == 0 ? 1 : limit) {}

  // The process-wide limiter every SshConnection uses unless given another.
  static ConcurrencyLimiter& process();
  static constexpr size_t kDefaultLimit = 16;

  // Waits until a slot is free or `deadline` passes (then returns false).
  bool acquire(std::chrono::steady_clock::time_point deadline);
  void release();
  void setLimit(size_t limit);

  size_t limit() const;
  size_t inFlight() const;
  size_t peak() const;  // highest inFlight() seen: tests check the cap held

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  size_t limit_;         // guarded by mu_
  size_t in_flight_ = 0; // guarded by mu_
  size_t peak_ = 0;      // guarded by mu_
};

// Holds one slot for its lifetime.
class LimiterSlot {
 public:
  LimiterSlot(ConcurrencyLimiter& limiter, std::chrono::steady_clock::time_point deadline)
      : limiter_(limiter), held_(limiter.acquire(deadline)) {}
  ~LimiterSlot() {
    if (held_) limiter_.release();
  }
  LimiterSlot(const LimiterSlot&) = delete;
  LimiterSlot& operator=(const LimiterSlot&) = delete;
  bool held() const { return held_; }

 private:
  ConcurrencyLimiter& limiter_;
  bool held_;
};

}  // namespace rdmagw::southbound::ssh
