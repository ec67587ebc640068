#pragma once
// Configuration of the Linux RDMA host collector (one per host it reads).

#include <chrono>
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
  // LLDP neighbours from lldpd (`lldpctl -f json0`), locally or in the remote
  // dump. kAuto: when sysfs_root is /sys (the host itself, not a copy of a
  // tree) and lldpctl is installed; a host without it has no LLDP, no error.
  enum class LldpMode { kAuto, kOn, kOff };
  LldpMode lldp = LldpMode::kAuto;
  bool lldpWanted() const { return lldp == LldpMode::kOn || (lldp == LldpMode::kAuto && sysfs_root == "/sys"); }
  // Each netdev's DCB configuration (MTU, DCQCN enable knobs, `dcb` PFC and
  // trust) is configuration, not a counter: read on the first poll, for a
  // netdev first seen, and then at most this often (0: every poll). It was a
  // fifth of a host's files read every poll; a knob turned off shows in the
  // DCB verdict within this time.
  std::chrono::milliseconds config_interval{60000};
  Status validate() const;                    // e.g. kText without ethtool_dir; bad glob
  bool operator==(const RdmaConfig&) const = default;  // a config reload keeps equal targets
};

}  // namespace rdmagw::southbound::rdma
