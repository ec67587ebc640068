#pragma once
// Samples of the counters the analytics read, kept for one window, so a
// derived rate is (newest - oldest) / (their collection times apart). Times
// are the store's collection timestamps, never the analytics' own clock, so
// a slow poll does not look like a slow fabric.

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

#include "models/value.h"

namespace rdmagw::analytics {

struct Increase {
  double count = 0;    // how much the counter grew within the window
  double seconds = 0;  // between the two samples it was measured from
  double rate() const { return seconds > 0 ? count / seconds : 0; }
};

class CounterWindow {
 public:
  explicit CounterWindow(std::chrono::nanoseconds window) : window_ns_(window.count()) {}

  // Records the counter's value at its collection time; a time already seen
  // for the key (the counter was not polled again) adds nothing.
  void observe(const std::string& key, TimestampNs ts, uint64_t value);

  // The increase over the window ending at `now`. The oldest sample kept is
  // the last one at or before the window's start, so the increase covers the
  // whole window. None when the key has fewer than two samples or its newest
  // sample is older than the window (the device stopped answering: no
  // verdict rather than an idle one).
  std::optional<Increase> increase(const std::string& key, TimestampNs now) const;

  // Forgets samples no window ending at `now` or later needs.
  void prune(TimestampNs now);

  size_t keys() const { return series_.size(); }

 private:
  struct Sample {
    TimestampNs ts;
    uint64_t value;
  };
  int64_t window_ns_;
  std::unordered_map<std::string, std::deque<Sample>> series_;
};

}  // namespace rdmagw::analytics
