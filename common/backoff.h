#pragma once
// Jittered exponential backoff between reconnect attempts (gnmic #82, #383:
// a fleet of switches rebooting together must not be hammered in lockstep).
//
// "Decorrelated jitter": each delay is drawn uniformly from
// [initial, 3 x the previous delay], capped at max (the first from
// [initial, 3 x initial]). Chosen over "full jitter" (uniform in
// [0, initial x 2^n]) for one property: a delay is never shorter than
// `initial`, so however the dice fall a device sees at most one attempt per
// `initial` from us, while targets that failed in the same instant still
// draw independent schedules that spread out and grow (x1.5-x3 a step on
// average) to the cap. The random source is injectable for tests.

#include <chrono>
#include <functional>

namespace rdmagw::common {

class Backoff {
 public:
  // Returns a uniform value in [0, 1).
  using Random = std::function<double()>;

  Backoff(std::chrono::milliseconds initial = std::chrono::seconds(1),
          std::chrono::milliseconds max = std::chrono::minutes(5), Random random = nullptr);

  // The delay before the next attempt, in [initial, max].
  std::chrono::milliseconds next();
  void reset() {
    attempts_ = 0;
    previous_ = initial_;
  }
  int attempts() const { return attempts_; }

 private:
  std::chrono::milliseconds initial_;
  std::chrono::milliseconds max_;
  Random random_;
  std::chrono::milliseconds previous_;
  int attempts_ = 0;
};

}  // namespace rdmagw::common
