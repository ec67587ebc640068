#pragma once
// Per-target collection health, written by whoever polls or subscribes to
// the target and read by every northbound (rdmagw_target_up and friends).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/value.h"

namespace rdmagw {

struct TargetHealth {
  std::string kind;       // rdma-host, nexus, esxi
  std::string transport;  // sysfs, ssh, gnmi
  bool up = false;
  TimestampNs last_attempt_ns = 0;
  TimestampNs last_success_ns = 0;
  int64_t poll_duration_ns = 0;
  uint64_t polls = 0;
  uint64_t poll_errors = 0;   // collections that failed as a whole
  uint64_t read_errors = 0;   // parts that failed while the rest was read
  std::string last_error;     // never holds a secret: collectors scrub their errors
  // Extra labels from the config (rack, site...), added to every series of the target.
  std::vector<std::pair<std::string, std::string>> labels;
};

// What the store adds to the health it was given.
struct TargetStatus {
  std::string name;
  TargetHealth health;
  uint64_t series = 0;
  uint64_t counter_resets = 0;
  uint64_t rejected_updates = 0;
};

}  // namespace rdmagw
