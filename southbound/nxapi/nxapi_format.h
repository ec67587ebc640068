#pragma once
// `rdmagw parse --format nxapi-envelope FILE`: a saved NX-API response (either
// dialect) read output by output exactly as the Nexus collector would.

#include <string_view>
#include <vector>

#include "models/status.h"
#include "models/update.h"
#include "southbound/ssh/cli_command.h"

namespace rdmagw::southbound::nxapi {

inline constexpr std::string_view kEnvelopeFormat = "nxapi-envelope";
inline constexpr std::string_view kEnvelopeFormatHelp =
    "A saved NX-API response (ins_api cli_show/cli_show_ascii or JSON-RPC cli/cli_ascii): each output "
    "parsed by the Nexus collector's parser for its command (echoed input, else the body's keys).";

// Finds each output's command among `commands` (the Nexus profile's, passed
// in by the registry: the profile's folder builds on this one, not the other
// way round) and parses it with that command's parser. An output no command
// reads, or one the switch answered with an error, is an error line
// "output N (<input or first key>): ..."; non-ok only when nothing parsed.
// A leading `# ...` comment line (a fixture's source) is skipped.
Status parseCollectorEnvelope(std::string_view text, const std::vector<ssh::CliCommand>& commands, TimestampNs ts,
                              PollBatch& out);

}  // namespace rdmagw::southbound::nxapi
