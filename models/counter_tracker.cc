#include "models/counter_tracker.h"

namespace rdmagw {

CounterTracker::Event CounterTracker::observe(uint64_t raw, CounterSource source,
                                              TimestampNs ts) {
  const uint64_t max = source.maxValue();
  if (raw > max) raw = max;  // a wider reading than declared: clamp, never invent
  if (!seen_) {
    seen_ = true;
    last_raw_ = raw;
    saturated_ = source.saturates && raw == max && source.bits < 64;
    return saturated_ ? Event::kSaturated : Event::kFirst;
  }
  Event event = Event::kNone;
  if (raw < last_raw_) {
    const bool upper_half = source.bits < 64 && last_raw_ > (max >> 1);
    if (!source.saturates && upper_half) {
      offset_ += max + 1;  // wrapped past 2^bits
      event = Event::kWrap;
    } else {
      offset_ += last_raw_;  // reset: keep what was counted so far
      discontinuity_ns_ = ts;
      ++resets_;
      saturated_ = false;
      event = Event::kReset;
    }
  }
  last_raw_ = raw;
  if (source.saturates && source.bits < 64 && raw == max && !saturated_) {
    saturated_ = true;
    event = Event::kSaturated;
  }
  return event;
}

}  // namespace rdmagw
