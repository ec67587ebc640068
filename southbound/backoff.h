#pragma once
// Jittered exponential backoff between reconnect attempts (gnmic #82, #383:
// a fleet of switches rebooting together must not be hammered in lockstep).
// Delay n is initial * 2^n capped at max, times a uniform factor in
// [1 - jitter, 1 + jitter]. The random source is injectable for tests.

#include <chrono>
#include <functional>

namespace rdmagw::southbound {

class Backoff {
 public:
  // Returns a uniform value in [0, 1).
  using Random = std::function<double()>;

  Backoff(std::chrono::milliseconds initial = std::chrono::seconds(1),
          std::chrono::milliseconds max = std::chrono::minutes(5), double jitter = 0.2,
          Random random = nullptr);

  // The delay before the next attempt; each call doubles the base.
  std::chrono::milliseconds next();
  void reset() { attempts_ = 0; }
  int attempts() const { return attempts_; }

 private:
  std::chrono::milliseconds initial_;
  std::chrono::milliseconds max_;
  double jitter_;
  Random random_;
  int attempts_ = 0;
};

}  // namespace rdmagw::southbound
