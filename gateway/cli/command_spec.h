#pragma once
// What a subcommand accepts, so every one of them answers `--help`/`-h`
// with its usage (stdout, exit 0, nothing else done) and a wrong option
// with its usage (stderr, exit 2), the same way.

#include <string>
#include <vector>

#include "gateway/cli/commands.h"

namespace rdmagw::gateway {

struct CommandSpec {
  const char* usage;                    // the whole usage text, ending in '\n'
  std::vector<std::string> value_flags; // take a value: "--config FILE" or "--config=FILE"
  std::vector<std::string> bool_flags;  // stand alone: "--list-formats"
  size_t max_positionals = 0;           // bare arguments allowed (a FILE)
};

// Returns -1 when the command should run, else the exit code to return
// (0 after printing help, 2 after a usage error).
int checkArgs(const Args& args, const CommandSpec& spec, const char* command);

}  // namespace rdmagw::gateway
