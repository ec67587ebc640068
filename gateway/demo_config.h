#pragma once
// The configuration `rdmagw demo` runs: one rdma-host target per simulated
// host the simulator wrote under its directory.

#include <chrono>
#include <string>

#include "gateway/config.h"

namespace rdmagw::gateway {

// Finds every <sim_dir>/<host>/sys/class/infiniband and makes a target of it,
// reading ethtool text from <sim_dir>/<host>/ethtool.
Result<GatewayConfig> demoConfig(const std::string& sim_dir, const std::string& listen,
                                 std::chrono::milliseconds interval);

}  // namespace rdmagw::gateway
