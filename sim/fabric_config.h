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
  // The CNPs' priority (strict on the leaves); -1: 6, or 7 when RoCE is on 6.
  // A recorded N93180FX2 fabric runs roce_priority 5, cnp_priority 6.
  int cnp_priority = -1;
  double link_gbps = 100;    // per port; read once at construction, counters stay integer
  int switches = 1;          // Nexus leaves; device d of every host is cabled to leaf d % switches
  int esxi_hosts = 2;        // esx01.., each with vmnic0 and vmnic1 (nmlx5_core, RoCE)
  // The last N RDMA hosts show their DCB through NVIDIA's `mlnx_qos -i`
  // (MLNX_OFED) and have no iproute2 `dcb`; the same RoCE plan either way.
  int mlnx_qos_hosts = 0;
  int internal_ports = 4;    // ii1/1/1..: fabric links between the two ASICs of a leaf
  // 0: rail-optimised cabling, device d of every host on leaf d % switches.
  // N > 0: the same rails in pods of N hosts, each pod's rail on its own leaf
  // (leaf (pod * devices_per_host + d) % switches), so a large fabric spreads
  // over every leaf at about N host ports each, as a real pod does.
  int hosts_per_leaf = 0;
  // No rotating incast hot spots and no slow or stuck hosts: the background
  // flows alone never congest, so only a scenario (sim/scenario.h) does. Tests
  // and `rdmagw-demo --scenario` use it to see one fault and nothing else.
  bool calm = false;

  // Collects every problem, path-prefixed, rather than stopping at the first.
  Status validate() const;
};

}  // namespace rdmagw::sim
