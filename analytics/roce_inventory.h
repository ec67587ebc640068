#pragma once
// The RoCE configuration of hosts and switches, as the collectors write it
// (the RoCE configuration rows of models/schema.yaml): what the RoCE checks
// (roce_checks.h) follow a RoCE packet and a CNP through. A leaf not
// collected is absent here too: never a default.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analytics/port_ref.h"
#include "models/store.h"

namespace rdmagw::analytics {

// One switch qos-group: its network-qos class (pause, MTU), the egress
// queue serving it, and its ingress no-drop thresholds.
struct QosGroupConfig {
  std::optional<uint64_t> pause_cos;  // bitmap; 0 = lossy
  std::optional<uint64_t> mtu;
  std::optional<std::string> egress_queue;
  std::optional<uint64_t> priority_level;  // strict priority level; absent: not strict
  std::optional<uint64_t> bandwidth_percent;
  std::optional<uint64_t> ecn;
  std::optional<uint64_t> wred_min, wred_max;
  std::optional<uint64_t> pause_buffer, pause_threshold, resume_threshold;
};

// A host NIC port's DCB/ECN configuration beyond DcbInventory's (trust,
// PFC, NP/RP knobs and MTU stay there).
struct HostRoceConfig {
  std::optional<uint64_t> cnp_dscp;
  std::optional<uint64_t> cnp_priority;              // cnp_802p_prio
  std::map<int, int> dscp_priority;                  // dscp -> priority (rules only)
  std::map<int, int> priority_tc;                    // priority -> traffic class
  std::map<int, uint64_t> receive_buffer;            // priority -> bytes
  std::map<int, std::string> tc_tsa;                 // traffic class -> strict|ets|...
  std::map<int, uint64_t> tc_bandwidth;              // traffic class -> percent
};

struct SwitchRoceConfig {
  std::map<int, int> dscp_group;              // dscp -> qos-group; unlisted: class-default (0)
  std::map<int, QosGroupConfig> groups;       // by qos-group id
  std::optional<std::string> watchdog;        // global PFC watchdog interval: on|off|<value>
};

// One qos-group queue the PFC watchdog of a switch port watches, as it
// runs (its counters are in the counter window: Input::kWatchdogShutdowns,
// kWatchdogRestores, keyed by interface and qos-group).
struct WatchdogQueue {
  std::optional<std::string> state;   // "Ok", "Shutdown", ... as printed
  std::optional<uint64_t> pfc_cos;
};

struct RoceInventory {
  std::map<PortRef, HostRoceConfig> hosts;
  std::map<RdmaPortRef, uint64_t> roce_tos;   // RDMA CM default_roce_tos
  std::map<std::string, SwitchRoceConfig> switches;
  std::map<PortRef, std::string> pfc_mode;          // switch port PFC admin mode: on|off|auto
  std::map<PortRef, std::string> port_watchdog;     // switch port watchdog interval
  std::map<PortRef, uint64_t> watchdog_enabled;     // switch port watchdog running: 1, disabled: 0
  std::map<PortRef, std::map<int, WatchdogQueue>> watchdog_queues;  // by qos-group
};

// Every CoS a switch's network-qos classes pause (the union of its
// qos-groups' pause-cos); none while that is not collected.
std::optional<uint64_t> switchPausedCos(const RoceInventory& roce, const std::string& target);

// A switch's egress queues by the priority they serve, from its
// configuration: a queue counter named "...N" is qos-group N's queue (NX-OS
// numbers queues by qos-group), which serves the CoS its class pauses. So
// with RoCE on qos-group 5 pausing CoS 3, priority 3's queue is "...5".
// Queues of groups that pause nothing keep serving the priority of their
// number, where no paused group claims it. `queues` is readFabric's
// priority -> queue name map of `target`'s ports, rewritten in place;
// untouched while the switch's pause-cos is not collected.
void mapQueuesByQosGroup(const RoceInventory& roce, const std::string& target,
                         std::map<PortRef, std::map<int, std::string>>& queues);

// Called by readFabric for every leaf: takes the RoCE configuration leaves
// into `roce`; whether it took it.
bool readRoceLeaf(const std::string& target, const SeriesView& s, RoceInventory& roce);
// The schema rows readRoceLeaf takes.
std::vector<std::string_view> roceRowPaths();

}  // namespace rdmagw::analytics
