#pragma once
// What a CLI source runs on a device each poll, and how its output is read.
// Parsers are pure functions (the ParserFormat shape): text in, updates out.

#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::ssh {

using CliParseFn = Status (*)(std::string_view text, TimestampNs ts, PollBatch& out);

struct CliAlternative {
  std::string command;
  CliParseFn parse = nullptr;
};

struct CliCommand {
  // A constructor rather than aggregate init, so `{"show x", parseX}` does
  // not trip -Wmissing-field-initializers at every call site.
  CliCommand() = default;
  CliCommand(std::string command_, CliParseFn parse_, bool optional_ = false,
             std::vector<CliAlternative> alternatives_ = {})
      : command(std::move(command_)), parse(parse_), optional(optional_),
        alternatives(std::move(alternatives_)) {}

  std::string command;
  CliParseFn parse = nullptr;
  // A device that lacks the command (an older release, another driver) is
  // normal: its failure is logged at debug, not counted as a read error.
  bool optional = false;
  // Tried in order when the command (or the previous alternative) answers
  // with an error banner, exits non-zero without output, or does not parse:
  // e.g. `show interface priority-flow-control | json`, then the text form.
  // The first that parses wins and is tried first on later polls.
  std::vector<CliAlternative> alternatives;
  // Configuration changes rarely: such a command runs on the first poll and
  // then on every `every`-th one (a poll where the device was unreachable
  // does not count as its run).
  unsigned every = 1;
};

// How errors and logs name a command: whole when short, else its start and
// length (a remote host's dump is one shell script of a few kilobytes,
// which would otherwise fill every error line and log record).
inline std::string commandLabel(std::string_view command) {
  constexpr size_t kShown = 60;
  if (command.size() <= kShown + 20) return std::string(command);
  return std::string(command.substr(0, kShown)) + "... (a " + std::to_string(command.size()) + "-byte command)";
}

}  // namespace rdmagw::southbound::ssh
