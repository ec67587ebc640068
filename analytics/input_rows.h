#pragma once
// The counters of one target the analytics read, by schema row: which row is
// which input, how a counter is keyed in the CounterWindow, and the small
// label readings (a priority, a queue's priority) every reader of the rows
// shares. The bottom of the analytics: it knows rows, not the fabric.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The input a schema row (models/path.h form, without keys) is, if any.
std::optional<Input> inputOfRow(std::string_view row);
// Every row inputOfRow knows.
std::vector<std::string_view> inputRows();

// A priority label, "0".."7"; nullopt for anything else.
std::optional<int> priorityOf(std::string_view text);

// The priority a queue serves: the trailing number of its name ("3", "q3",
// "c-out-8q-q3"), assuming CoS p maps to qos-group p as NX-OS's RoCE
// templates do; -1 when the name ends in no number (c-out-8q-q-default).
// Where a switch's qos-groups are collected, mapQueuesByQosGroup
// (roce_inventory.h) maps its queues from its configuration instead.
int queuePriority(std::string_view queue_name);

}  // namespace rdmagw::analytics
