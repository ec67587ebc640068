#pragma once
// Reads the raw leaves the analytics need out of the store: every counter
// goes into the CounterWindow (keyed by counterKey), and what the counters
// are about (which ports, priorities, queues, netdevs exist) into a
// FabricInventory for this run. Only reads; the engine writes.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analytics/counter_window.h"
#include "analytics/dcb_rows.h"
#include "analytics/gpu_rows.h"
#include "analytics/input_rows.h"
#include "analytics/lldp_rows.h"
#include "analytics/port_ref.h"
#include "analytics/roce_inventory.h"
#include "models/store.h"
#include "models/target_role.h"

namespace rdmagw::analytics {

struct FabricInventory {
  std::map<std::string, std::string> target_kind;            // only targets with health
  std::map<std::string, TargetRole> target_role;             // by their kind, as AnalyticsConfig::roles says
  std::set<std::string> up;                                  // targets whose last collection worked
  // Targets read from the engine's own store: the only ones it writes
  // verdicts into. The others came from the peer store (fleet members'
  // targets, read so that a link or a pause tree crossing members is judged
  // whole).
  std::set<std::string> local;
  std::set<RdmaPortRef> rdma_ports;                          // with DCQCN counters
  std::map<RdmaPortRef, std::string> netdev;                 // RDMA port -> its netdev
  std::map<PortRef, std::set<int>> priorities;               // ports with per-priority counters
  std::map<PortRef, std::map<int, std::string>> queues;      // switch port: priority -> queue name
  std::map<PortRef, uint64_t> enabled_priorities;            // switch port PFC bitmap
  std::set<PortRef> storm_counted;                           // NICs that count pause storms
  // Switch ports counting PFC frames only as totals over all priorities:
  // NX-OS shows its internal ii ports in `show interface priority-flow-control` alone.
  std::set<PortRef> pfc_totals;
  // Every port a target has leaves for (interfaces, netdevs, vmnics): what
  // an LLDP neighbour's port ID may name.
  std::set<PortRef> ports;
  LldpNeighbors lldp;
  DcbInventory dcb;
  RoceInventory roce;
  GpuInventory gpus;
};

// Visits every collected target once (the derived leaves are never input).
// `peers`, when given, is a read-only overlay: its targets are read as if
// they were the store's, except those the store itself holds (the store's
// own copy wins while a target moves between members).
// `roles` says which target kinds are switches, hosts and hypervisors.
FabricInventory readFabric(const Store& store, CounterWindow& window, const TargetRoles& roles,
                           const Store* peers = nullptr);

// Whether `target` is a switch (false for an unknown target).
bool isSwitch(const FabricInventory& inv, const std::string& target);

// The schema rows readFabric takes its input from (models/path.h form,
// without keys): what a copy of another store must hold for this reader to
// judge that store's ports as it judges its own.
const std::vector<std::string>& inputRowPaths();

}  // namespace rdmagw::analytics
