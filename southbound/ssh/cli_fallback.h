#pragma once
// Runs one CliCommand with its alternatives over a CommandRunner.

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>

#include "models/status.h"
#include "models/update.h"
#include "southbound/ssh/cli_command.h"
#include "southbound/ssh/command_runner.h"

namespace rdmagw::southbound::ssh {

// True when the first lines of a device's answer are a CLI error banner
// (`% Invalid command`, `% Invalid parameter`, `Syntax error`, IOS's
// `Invalid input detected`, esxcli's `Error: Unknown command`): the CLI
// printed it instead of the output, often with exit status 0.
bool isErrorBanner(std::string_view text);

// Tries variant *preferred first (0 = cmd itself, i = alternatives[i-1]),
// then the others in order; the first whose output parses is merged into
// `out` and remembered in *preferred. A variant that fails leaves nothing in
// `out`. Returns kUnavailable as soon as the runner does (the device is
// gone); otherwise a non-ok Status naming each variant's failure.
Status fallbackParse(CommandRunner& runner, const CliCommand& cmd, size_t* preferred,
                     PollBatch& out);

// Several commands may give the same leaf (NX-OS: `show interface
// priority-flow-control` and `show queuing interface` both count a port's
// PFC frames). Read moments apart, a later command's reading can be the
// older one (or count slightly differently), and writing both would make
// the counter step back: a false reset. So within one poll the first
// command that gives a leaf owns it; later ones only fill in leaves no
// earlier command gave (e.g. when the first one failed).
// Keeps in batch.updates[from..] only the leaves not in `given`, and adds them to it.
void dropLeavesGivenEarlier(PollBatch& batch, size_t from, std::unordered_set<std::string>& given);

}  // namespace rdmagw::southbound::ssh
