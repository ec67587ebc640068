#pragma once
// NX-OS `show queuing pfc-queue [interface X] detail`: per port whether the
// PFC watchdog is enabled, and per qos-group its state (Shutdown / Ok ...),
// PFC and PFC-COS, and its event and packet counters:
//
//   Ethernet1/23 Interface PFC watchdog: [Enabled]
//   Disable-action                     : No
//   PFC watch-dog interface-multiplier : 0
//   | QOS GROUP 3 [Shutdown] PFC [YES] PFC-COS [3]
//   |                       Shutdown|                   1|
//   |             Total pkts drained|                   3|
//
// UNVERIFIED: the layout is the synthetic one of a third-party parser's test
// (tests/fixtures/roce-config/, SYNTHETIC); no capture from a real switch
// was found. So the reader is loose: the header and group lines are found
// by their words, any "| name | number |" row under a group is a counter
// kept by its printed name, and everything else is skipped.

#include <string_view>

#include "models/roce_config.h"
#include "models/status.h"

namespace rdmagw::southbound::nxos {

// Fills qos.watchdog (by long interface name; a block before any interface
// header goes to the interface named in the prompt line, else ""). kCorrupt
// when neither a header nor a QOS GROUP line is there; kUnavailable for a
// device error banner; kInvalidArgument naming every bad value.
Status parseNxosPfcWatchdog(std::string_view text, rdmagw::roce::SwitchQos& qos);

}  // namespace rdmagw::southbound::nxos
