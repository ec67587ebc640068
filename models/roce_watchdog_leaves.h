#pragma once
// Writes a switch's PFC watchdog as it runs (SwitchQos::watchdog, from NX-OS
// `show queuing pfc-queue detail`) as store leaves, per port:
//   /interfaces/interface[name]/ethernet/pfc/watchdog/state/enabled      0|1
//   .../pfc/watchdog/qos-groups/qos-group[id]/state/
//        state (as printed), pfc-cos, and the counters shutdown-events,
//        restored-events, drained-packets, dropped-packets
// Only what the output says is written: a counter row it lacks is an
// absent leaf, never a zero. Each port listed is read whole (its watchdog
// subtree is replaced: rows it no longer gives are deleted); the collector
// reads the device-wide command, so an undamaged read also replaces every
// port's (replaceEveryPortsWatchdog).

#include <vector>

#include "models/roce_config.h"
#include "models/update.h"

namespace rdmagw::roce {

void appendPfcWatchdogLeaves(const SwitchQos& qos, TimestampNs ts, PollBatch& out);

// Declares every port's watchdog subtree read whole, for an output read
// without damage: a port it no longer lists loses its watchdog leaves.
void replaceEveryPortsWatchdog(PollBatch& out);

// The printed stats row name ("Shutdown", "Total pkts drained") of each
// counter leaf, in leaf order; rows not listed are not modelled.
struct WatchdogCounterRow {
  const char* printed;
  const char* leaf;
};
const std::vector<WatchdogCounterRow>& watchdogCounterRows();

}  // namespace rdmagw::roce
