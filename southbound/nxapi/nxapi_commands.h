#pragma once
// The Nexus collector's commands (ssh::CliCommand, written for SSH) as
// NX-API calls: which command text goes into the request, in which output
// format, and which parser reads the body. The live NX-API poll source and
// `rdmagw parse --format nxapi-envelope` share this mapping, so a command
// added to the Nexus profile reaches both transports alike.

#include <string>
#include <vector>

#include "models/status.h"
#include "models/update.h"
#include "southbound/nxapi/nxapi_envelope.h"
#include "southbound/ssh/cli_command.h"

namespace rdmagw::southbound::nxapi {

struct NxapiVariant {
  std::string command;  // as sent to NX-API: without "| json"
  OutputFormat format;
  ssh::CliParseFn parse;
};

// A CliCommand's NX-API forms in order: "X | json" -> {"X", kJson}, a text
// command "X" -> {"X", kAscii}; the command itself first, then its
// alternatives. A command that is already plain text yields only kAscii.
std::vector<NxapiVariant> nxapiVariants(const ssh::CliCommand& cmd);

// Parses one envelope output as the collector would for `variant` (an output
// that is not ok adds nothing and returns an error Status quoting code and
// msg). A JSON body reaches the variant's parser as the compact text
// parseEnvelope made of it, the same grammar the parser reads over SSH.
Status parseOutput(const CommandOutput& out, const NxapiVariant& variant, TimestampNs ts, PollBatch& batch);

// Why an output is not ok, in the switch's words: `NX-API code 400 "Input
// CLI command error" (% Invalid command)`.
std::string describeFailure(const CommandOutput& out);

}  // namespace rdmagw::southbound::nxapi
