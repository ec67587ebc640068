#pragma once
// Reads the top-level `analytics` block into analytics::AnalyticsConfig:
//
//   analytics:
//     period: 10s                # how often the derived leaves are recomputed
//     window: 1m                 # how far back every derived rate looks (>= 2 periods)
//     no_drop_priorities: [3]    # lossless priorities where a switch does not say
//     links:                     # the cabling; each end names a configured target
//       - a: {target: leaf1, interface: Ethernet1/1}
//         b: {target: gpu-node-17, rdma_port: mlx5_0/1}   # or interface: <netdev>
//       - a: {target: leaf1, interface: Ethernet1/2}
//         b: {target: esx01, nic: vmnic4}
//     lldp_names:                # LLDP system name -> target, where they differ
//       gpu17.lab.example.com: gpu-node-17
//
// Cross references are checked here, against the targets already read.

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>

#include "analytics/analytics_config.h"
#include "gateway/config/yaml_reader.h"

namespace rdmagw::gateway {

// target_kinds: name -> kind of every configured target.
void readAnalytics(YamlReader& r, const YAML::Node& n, const std::map<std::string, std::string>& target_kinds,
                   analytics::AnalyticsConfig* out);

// One paragraph for `rdmagw check-config`.
std::string explainAnalytics(const analytics::AnalyticsConfig& c);

}  // namespace rdmagw::gateway
