#pragma once
// Configuration of the Linux RDMA host collector (one per host it reads).

#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::rdma {

struct RdmaConfig {
  std::string sysfs_root = "/sys";            // directory that holds class/infiniband (like node_exporter --path.sysfs)
  std::vector<std::string> include_devices;   // fnmatch globs; empty = all
  std::vector<std::string> exclude_devices;
  enum class EthtoolMode { kIoctl, kText, kNone };
  EthtoolMode ethtool = EthtoolMode::kIoctl;
  std::string ethtool_dir;                    // kText: <ethtool_dir>/<netdev>.txt holds `ethtool -S <netdev>` output
  Status validate() const;                    // e.g. kText without ethtool_dir; bad glob
};

}  // namespace rdmagw::southbound::rdma
