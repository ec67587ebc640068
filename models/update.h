#pragma once
// What collectors write into the store: one leaf value at one time.

#include <cstdint>
#include <string>
#include <vector>

#include "models/value.h"

namespace rdmagw {

// How the device's raw counter behaves, so the store can turn it into a
// monotonic 64-bit model counter (see counter_tracker.h).
struct CounterSource {
  uint8_t bits = 64;       // width of the raw register: 64, 32, 16, 8, 4...
  bool saturates = false;  // true: sticks at all-ones (IB PMA error counters)
                           // false: wraps to zero at 2^bits
  static CounterSource monotonic64() { return {}; }
  static CounterSource wrapping(uint8_t bits) { return {bits, false}; }
  static CounterSource saturating(uint8_t bits) { return {bits, true}; }
  uint64_t maxValue() const { return bits >= 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1; }
};

struct Update {
  std::string path;  // canonical Path string form (Path::toString())
  Value value;
  TimestampNs timestamp_ns = 0;
  CounterSource source;  // used only when the schema says the leaf is a counter
};

// A collector's output for one poll: the updates it could read and a line
// for every part it could not (per file or per device), so one bad file
// never loses the rest (node_exporter #966).
//
// A collector that reads a table whole (a device's DSCP map, its traffic
// classes) names its subtree in `replaced`: a row the device no longer has
// is then deleted from the store rather than left at its last value, since
// a poll has no other way to say that something is gone. A key value "*"
// names that subtree under every row of a list (every port's watchdog).
struct PollBatch {
  std::vector<Update> updates;
  std::vector<std::string> errors;
  std::vector<std::string> replaced;  // Path strings of subtrees read whole

  void add(std::string path, Value v, TimestampNs ts, CounterSource src = {}) {
    updates.push_back(Update{std::move(path), std::move(v), ts, src});
  }
  void error(std::string msg) { errors.push_back(std::move(msg)); }
  void replaceSubtree(std::string path) { replaced.push_back(std::move(path)); }
};

}  // namespace rdmagw
