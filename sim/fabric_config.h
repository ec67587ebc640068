#pragma once
// Shape of the simulated RoCEv2 fabric. Everything the model does follows
// from these fields, so two runs with equal configs write identical trees.

#include <cstdint>

#include "models/status.h"

namespace rdmagw::sim {

struct FabricConfig {
  uint64_t seed = 1;
  int hosts = 4;
  int devices_per_host = 2;
  int roce_priority = 3;     // the lossless priority PFC and the RoCE counters use
  double link_gbps = 100;    // per port; read once at construction, counters stay integer

  // Collects every problem, path-prefixed, rather than stopping at the first.
  Status validate() const;
};

}  // namespace rdmagw::sim
