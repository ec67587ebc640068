#pragma once
// The `rdmagw` subcommands. Each takes the arguments after its name and
// returns the process exit code.

#include <string>
#include <vector>

namespace rdmagw::gateway {

using Args = std::vector<std::string>;

int runCommand(const Args& args);          // rdmagw run --config FILE
int demoCommand(const Args& args);         // rdmagw demo: where the demo program is
int checkConfigCommand(const Args& args);  // rdmagw check-config FILE
int parseCommand(const Args& args);        // rdmagw parse --format F FILE
int fabricCommand(const Args& args);       // rdmagw fabric [--address HOST:PORT]
int statusCommand(const Args& args);       // rdmagw status [--socket PATH] [--json]
int checkCommand(const Args& args);        // rdmagw check roce [--address HOST:PORT] [--json]
int checkRoceCommand(const Args& args);    // the arguments after `check roce`

// Blocks SIGINT/SIGTERM in every thread started afterwards, then lets the
// main thread wait for one: clean Ctrl-C without async-signal hazards.
void blockTerminationSignals();
int waitForTerminationSignal();

// "--name value" / "--name=value" lookup; returns false when absent.
bool flagValue(const Args& args, const std::string& name, std::string* out);
bool hasFlag(const Args& args, const std::string& name);

}  // namespace rdmagw::gateway
