#include "models/counter_tracker.h"

namespace rdmagw {

CounterTracker::Event CounterTracker::observe(Fields f, uint64_t raw, CounterSource source,
                                              TimestampNs ts) {
  const uint64_t max = source.maxValue();
  if (raw > max) raw = max;  // a wider reading than declared: clamp, never invent
  if (!f.seen) {
    f.seen = true;
    f.last_raw = raw;
    f.saturated = source.saturates && raw == max && source.bits < 64;
    return f.saturated ? Event::kSaturated : Event::kFirst;
  }
  Event event = Event::kNone;
  if (raw < f.last_raw) {
    const bool upper_half = source.bits < 64 && f.last_raw > (max >> 1);
    if (!source.saturates && upper_half) {
      f.offset += max + 1;  // wrapped past 2^bits
      event = Event::kWrap;
    } else {
      f.offset += f.last_raw;  // reset: keep what was counted so far
      f.discontinuity_ns = ts;
      f.saturated = false;
      event = Event::kReset;
    }
  }
  f.last_raw = raw;
  if (source.saturates && source.bits < 64 && raw == max && !f.saturated) {
    f.saturated = true;
    event = Event::kSaturated;
  }
  return event;
}

CounterTracker::Event CounterTracker::observe(uint64_t raw, CounterSource source, TimestampNs ts) {
  Event event = observe(Fields{last_raw_, offset_, discontinuity_ns_, seen_, saturated_}, raw, source, ts);
  if (event == Event::kReset) ++resets_;
  return event;
}

}  // namespace rdmagw
