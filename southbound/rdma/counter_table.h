#pragma once
// Device knowledge about RDMA port counters: which model leaf each sysfs file
// feeds, by what factor, and how the raw register behaves (width, saturating
// or wrapping). Kept as data here, not in models/: the model only knows
// monotonic 64-bit counters.

#include <cstdint>
#include <string>
#include <string_view>

#include "models/update.h"

namespace rdmagw::southbound::rdma {

struct CounterSpec {
  std::string_view sysfs_name;  // "port_xmit_data"
  std::string_view leaf;        // "port-xmit-octets"
  uint64_t multiplier;          // 4 for the PMA data counters (4-octet words)
  CounterSource source;
};

// counters/ (IB PMA). nullptr for a name the table does not know.
const CounterSpec* findPmaCounter(std::string_view sysfs_name);
// hw_counters/ (mlx5 and friends). nullptr for a name the table does not know.
const CounterSpec* findHwCounter(std::string_view sysfs_name);

// Leaf name for a counter the table does not know: lower case, '_' -> '-'.
std::string hyphenate(std::string_view sysfs_name);

}  // namespace rdmagw::southbound::rdma
