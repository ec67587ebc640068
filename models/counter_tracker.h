#pragma once
// Turns a device's raw counter readings into a monotonic 64-bit model value.
//
//   64-bit source : a decrease is a reset (reboot, driver reload).
//   wrapping N-bit: a decrease from the upper half of the range is a wrap
//                   (+2^N); from the lower half it is a reset. A 32-bit hw
//                   queue counter cannot travel 2^31 between polls at the
//                   rates those counters see, so the halves split cleanly.
//   saturating    : all-ones means "stuck": the value is held and flagged;
//                   a later decrease is a reset (someone cleared it).
//
// On a reset the last raw value is folded into the offset, so the exported
// value never goes down, and the discontinuity time is recorded (SNMP's
// ifCounterDiscontinuityTime, gNMI consumers).

#include <cstdint>

#include "models/update.h"

namespace rdmagw {

class CounterTracker {
 public:
  enum class Event { kNone, kFirst, kWrap, kReset, kSaturated };

  // The state one counter needs, as references: the store keeps these
  // fields packed in its 48-byte series record instead of a whole tracker.
  struct Fields {
    uint64_t& last_raw;
    uint64_t& offset;
    TimestampNs& discontinuity_ns;
    bool& seen;
    bool& saturated;
  };
  // The one implementation of the rules above.
  static Event observe(Fields f, uint64_t raw, CounterSource source, TimestampNs ts);

  // Feeds one raw reading; returns what happened.
  Event observe(uint64_t raw, CounterSource source, TimestampNs ts);

  uint64_t value() const { return offset_ + last_raw_; }
  bool saturated() const { return saturated_; }
  TimestampNs discontinuityNs() const { return discontinuity_ns_; }
  uint32_t resets() const { return resets_; }

 private:
  uint64_t last_raw_ = 0;
  uint64_t offset_ = 0;
  TimestampNs discontinuity_ns_ = 0;
  uint32_t resets_ = 0;
  bool seen_ = false;
  bool saturated_ = false;
};

}  // namespace rdmagw
