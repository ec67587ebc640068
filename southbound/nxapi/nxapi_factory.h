#pragma once
// Builds an NX-API poll source from its config (validated first).

#include <memory>
#include <vector>

#include "models/status.h"
#include "southbound/nxapi/nxapi_config.h"
#include "southbound/nxapi/nxapi_http.h"
#include "southbound/poll_source.h"
#include "southbound/ssh/cli_command.h"

namespace rdmagw::southbound::nxapi {

// `commands` are the SSH profile's (southbound/ssh/profiles): NX-API asks
// each in its JSON form, the text form where the switch has no JSON.
// A config with `insecure: true` is logged at WARN once per switch for the
// process's life, however often its sources are built (fallback, supplement,
// reloads).
// `http`: the switch's client when the target has another NX-API source
// (see NxapiHttp); null: one of its own, exported under no target.
Result<southbound::PollSourcePtr> createNxapiSource(const NxapiConfig& config, std::vector<ssh::CliCommand> commands,
                                                    std::shared_ptr<NxapiHttp> http = nullptr);

}  // namespace rdmagw::southbound::nxapi
