#pragma once
// Writes a Fabric as each host would show it: a Linux sysfs-like tree under
// <dir>/<host>/sys/class/infiniband/ and `ethtool -S` text under
// <dir>/<host>/ethtool/<netdev>.txt, in the real kernel layout so the RDMA
// collector reads it exactly as it reads a live host.
//
// Every file is replaced atomically (<name>.tmp, then rename), so a reader
// polling while the simulator writes never sees half a file.

#include <string>

#include "models/status.h"
#include "sim/fabric.h"

namespace rdmagw::sim {

Status writeTree(const Fabric& fabric, const std::string& dir);

// What `ethtool -S <netdev>` prints on mlx5 for the device's counters.
std::string ethtoolText(const Device& device, int roce_priority);

}  // namespace rdmagw::sim
