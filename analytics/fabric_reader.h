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
#include "analytics/port_ref.h"
#include "analytics/roce_inventory.h"
#include "models/store.h"

namespace rdmagw::analytics {

// The raw counters a derived signal is made of. Host netdevs, switch ports
// and ESXi vmnics share the per-priority ones (a vmnic's name stands as its
// interface).
enum class Input {
  kEcnMarked,        // rdma hw np-ecn-marked-roce-packets (device, port)
  kCnpSent,          // rdma hw np-cnp-sent
  kCnpHandled,       // rdma hw rp-cnp-handled
  kCnpIgnored,       // rdma hw rp-cnp-ignored
  kInPause,          // PFC frames received on a priority (interface, priority)
  kOutPause,         // PFC frames sent on a priority
  kInPauseDuration,  // microseconds paused by received PFC on a priority
  kOutPauseDuration, // microseconds this port held its peer paused on a priority
  kInDiscards,       // packets of a priority discarded on receive (host NIC)
  kQueueEcn,         // switch egress queue ECN marks (interface, queue)
  kQueueDrops,       // switch egress queue drops
  kStormWarnings,    // NIC pause storm warning events (interface or vmnic, no second label)
  kStormErrors,      // NIC pause storm error events
  kInPfcTotal,       // PFC frames received, all priorities (a switch port; NX-OS RxPPP)
  kOutPfcTotal,      // PFC frames sent, all priorities (NX-OS TxPPP)
  kWatchdogShutdowns, // PFC watchdog queue shutdowns (interface, qos-group)
  kWatchdogRestores,  // PFC watchdog queue restorations (interface, qos-group)
};

std::string counterKey(std::string_view target, Input input, std::string_view label1,
                       std::string_view label2);

// One LLDP neighbour a target reports on one of its ports (lldp_links.h).
struct LldpNeighbor {
  PortRef local;
  std::string system_name, port_id, port_id_type, port_description;
  TimestampNs seen = 0;  // the newest collection time of its leaves
};

// The DCB configuration leaves of the ports and switches, bitmaps with bit N
// = priority N (a switch port's PFC is FabricInventory::enabled_priorities).
// Compared by analytics/dcb_consistency.h. A host's own PFC is kept apart:
// the lossless priorities the other signals judge stay the switch's (or the
// config's), so a host that turned PFC off still has its drops alarmed.
struct DcbInventory {
  std::map<PortRef, uint64_t> host_pfc;             // Linux netdev `dcb pfc` priorities
  std::map<PortRef, uint64_t> mtu;
  std::map<PortRef, uint64_t> np_enabled;           // host NIC DCQCN notification point knobs
  std::map<PortRef, uint64_t> rp_enabled;           // and reaction point knobs
  std::map<PortRef, uint64_t> vmnic_pfc;            // ESXi vmnic (esxcli nic dcb) PFC priorities
  std::map<std::string, uint64_t> no_drop_cos;      // switch -> its network-qos classes' pause pfc-cos
  std::map<PortRef, std::string> host_trust;        // Linux netdev trust mode (`dcb app`): dscp | pcp
  std::map<std::string, std::string> switch_trust;  // switch -> dscp (a type-qos class matches dscp) | pcp
};

struct FabricInventory {
  std::map<std::string, std::string> target_kind;            // only targets with health
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
  std::map<std::pair<PortRef, std::string>, LldpNeighbor> lldp;  // (local port, neighbour id)
  DcbInventory dcb;
  RoceInventory roce;
};

// Visits every collected target once (the derived leaves are never input).
// `peers`, when given, is a read-only overlay: its targets are read as if
// they were the store's, except those the store itself holds (the store's
// own copy wins while a target moves between members).
FabricInventory readFabric(const Store& store, CounterWindow& window, const Store* peers = nullptr);

// The schema rows readFabric takes its input from (models/path.h form,
// without keys): what a copy of another store must hold for this reader to
// judge that store's ports as it judges its own.
const std::vector<std::string>& inputRowPaths();

// The priority a queue serves: the trailing number of its name ("3", "q3",
// "c-out-8q-q3"), assuming CoS p maps to qos-group p as NX-OS's RoCE
// templates do; -1 when the name ends in no number (c-out-8q-q-default).
// Where a switch's qos-groups are collected, mapQueuesByQosGroup
// (roce_inventory.h) maps its queues from its configuration instead.
int queuePriority(std::string_view queue_name);

}  // namespace rdmagw::analytics
