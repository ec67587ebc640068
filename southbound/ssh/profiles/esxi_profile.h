#pragma once
// What the gateway asks an ESXi host over SSH each poll: one round trip.
// The command lists the vmnics and, for each, prints its esxcli and vsish
// stats behind a section marker; parseEsxiBundle splits the sections and
// hands each to its parser.

#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "models/update.h"
#include "southbound/ssh/cli_command.h"

namespace rdmagw::southbound::ssh {

// The marker that starts a section: "@@rdmagw <kind> <vmnic>".
inline constexpr std::string_view kEsxiSectionMarker = "@@rdmagw ";

std::string esxiBundleCommand();
Status parseEsxiBundle(std::string_view text, TimestampNs ts, PollBatch& out);
std::vector<CliCommand> esxiCommands();

}  // namespace rdmagw::southbound::ssh
