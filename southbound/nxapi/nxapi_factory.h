#pragma once
// Builds an NX-API poll source from its config (validated first).

#include <vector>

#include "models/status.h"
#include "southbound/nxapi/nxapi_config.h"
#include "southbound/poll_source.h"
#include "southbound/ssh/cli_command.h"

namespace rdmagw::southbound::nxapi {

// `commands` are the SSH profile's (southbound/ssh/profiles): NX-API asks
// each in its JSON form, the text form where the switch has no JSON.
// A config with `insecure: true` is logged at WARN once per switch for the
// process's life, however often its sources are built (fallback, supplement,
// reloads).
Result<southbound::PollSourcePtr> createNxapiSource(const NxapiConfig& config, std::vector<ssh::CliCommand> commands);

}  // namespace rdmagw::southbound::nxapi
