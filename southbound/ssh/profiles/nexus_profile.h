#pragma once
// What the gateway asks a Cisco Nexus over SSH each poll. `| json` first
// (exact keys, no column guessing); the text form when the release or the
// command lacks JSON. The CLI source remembers which form answered.

#include <vector>

#include "southbound/ssh/cli_command.h"

namespace rdmagw::southbound::ssh {

std::vector<CliCommand> nexusCommands();

// What the CLI adds while gNMI carries the switch: the leaves NX-OS serves
// only through its CLI (PFC admin/oper mode and bitmap, RxPPP/TxPPP totals,
// the QoS configuration of `show running-config ipqos`).
// None of them is written by the gNMI mapping, so the two never write the
// same counter (which could look like a reset).
std::vector<CliCommand> nexusGnmiSupplementCommands();

}  // namespace rdmagw::southbound::ssh
