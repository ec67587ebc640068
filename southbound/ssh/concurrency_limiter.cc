#include "southbound/ssh/concurrency_limiter.h"

#include <algorithm>

namespace rdmagw::southbound::ssh {

ConcurrencyLimiter& ConcurrencyLimiter::process() {
  static ConcurrencyLimiter limiter(kDefaultLimit);
  return limiter;
}

bool ConcurrencyLimiter::acquire(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mu_);
  if (!cv_.wait_until(lock, deadline, [this] { return in_flight_ < limit_; })) return false;
  ++in_flight_;
  peak_ = std::max(peak_, in_flight_);
  return true;
}

void ConcurrencyLimiter::release() {
  {
    std::lock_guard lock(mu_);
    --in_flight_;
  }
  cv_.notify_one();
}

void ConcurrencyLimiter::setLimit(size_t limit) {
  {
    std::lock_guard lock(mu_);
    limit_ = std::max<size_t>(1, limit);
  }
  cv_.notify_all();
}

size_t ConcurrencyLimiter::limit() const {
  std::lock_guard lock(mu_);
  return limit_;
}

size_t ConcurrencyLimiter::inFlight() const {
  std::lock_guard lock(mu_);
  return in_flight_;
}

size_t ConcurrencyLimiter::peak() const {
  std::lock_guard lock(mu_);
  return peak_;
}

}  // namespace rdmagw::southbound::ssh
