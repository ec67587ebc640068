#pragma once
// What the analytics stage is told: how often to run, how far back each
// derived rate looks, which priorities are lossless, and how the ports are
// cabled. A plain struct; gateway/config/analytics_config_reader.cc fills it from
// YAML and reports errors with their file:line.

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "models/status.h"
#include "models/target_role.h"

namespace rdmagw::analytics {

// One end of a cable, named the way the store names the port.
struct LinkEnd {
  enum class Kind { kInterface, kRdmaPort, kNic };
  std::string target;  // a target of the config
  Kind kind = Kind::kInterface;
  // kInterface: interface name (Ethernet1/1, a host netdev); kNic: vmnic
  // name; kRdmaPort: "<device>/<port>" (mlx5_0/1), whose netdev the store
  // knows (rdma .../state/netdev), so PFC counters are found through it.
  std::string name;

  std::string device() const;  // kRdmaPort: "mlx5_0"
  std::string port() const;    // kRdmaPort: "1"
  std::string toString() const;  // target:name, for logs and the pause-tree roots
};

struct LinkConfig {
  LinkEnd a;
  LinkEnd b;
};

struct AnalyticsConfig {
  std::chrono::milliseconds period{10000};  // how often derived leaves are recomputed
  std::chrono::milliseconds window{60000};  // how far back every derived rate looks
  // Priorities that are lossless (PFC on) where the device does not say so:
  // a switch port's enabled-priorities bitmap overrides this for its port.
  std::vector<int> no_drop_priorities{3};
  // Static cabling: the fallback where LLDP is not collected, and the
  // override for its ports where LLDP is wrong (lldp_links.h).
  std::vector<LinkConfig> links;
  // LLDP system name -> target, for systems whose advertised name is not
  // their target name (nor that name with a domain).
  std::map<std::string, std::string> lldp_names;
  // A pause storm without the NIC's own storm counters: a port that held its
  // peer paused on a priority for at least this share of the window, run
  // after run, for at least this long. A congested port pauses in bursts;
  // one that pauses nearly all the time, for long, is stuck.
  int pause_storm_percent = 90;
  std::chrono::milliseconds pause_storm_for{30000};
  // The RoCE check (roce_checks.h) runs with the other signals.
  bool roce_checks = true;
  // The role of each target kind, as the gateway registered its collectors:
  // the signals that treat a switch port unlike a host's go by this.
  TargetRoles roles;

  // Checks values that need no knowledge of the targets (those cross
  // references are the reader's: it knows the target list).
  Status validate() const;
};

// "mlx5_0/1" -> true with device and port split; false when malformed.
bool splitRdmaPort(const std::string& text, std::string* device, std::string* port);

}  // namespace rdmagw::analytics
