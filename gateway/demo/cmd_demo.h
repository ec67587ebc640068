#pragma once
// rdmagw-demo's one command: a simulated congested RoCE fabric and the
// gateway on it, until SIGINT or SIGTERM. Its own program, so the daemon the
// package installs carries no simulator.

#include "gateway/cli/commands.h"

namespace rdmagw::gateway {

// The arguments after the program's name; returns the exit code.
int demoMain(const Args& args);

}  // namespace rdmagw::gateway
