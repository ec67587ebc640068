#pragma once
// What the gateway asks a Cisco Nexus over SSH each poll. `| json` first
// (exact keys, no column guessing); the text form when the release or the
// command lacks JSON. The CLI source remembers which form answered.

#include <vector>

#include "southbound/ssh/cli_command.h"

namespace rdmagw::southbound::ssh {

std::vector<CliCommand> nexusCommands();

}  // namespace rdmagw::southbound::ssh
